import type { Kysely } from 'kysely';

/**
 * Per-subscription backoff. `webhook_subscriptions.paused_until`: while it is in the future nothing is sent to the
 * subscription (its receiver failed several attempts in a row, or asked for a pause with `Retry-After`); it stays
 * set, as the mark of a backoff, until an attempt succeeds, which makes the subscription's pending deliveries due.
 * `last_success_at`: when an attempt last got a 2xx, so that an event the receiver keeps refusing while it takes
 * others stops holding back its project's later events (src/store/webhook-queries.ts, claimDue).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions').addColumn('paused_until', 'bigint').execute();
  await db.schema.alterTable('webhook_subscriptions').addColumn('last_success_at', 'bigint').execute();
}
