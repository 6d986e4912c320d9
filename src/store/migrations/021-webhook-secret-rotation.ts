import type { Kysely } from 'kysely';

/**
 * Rotating a webhook subscription's secret. The new secret goes to `webhook_subscriptions.secret`; the one it
 * replaced is kept in `previous_secret` until `previous_secret_until`, and deliveries meanwhile carry a signature
 * with each (Standard Webhooks allows several), so a receiver can switch secrets without refusing any delivery.
 * Kept apart from `secret` so that what protects `secret` at rest applies to this column too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions').addColumn('previous_secret', 'text').execute();
  await db.schema.alterTable('webhook_subscriptions').addColumn('previous_secret_until', 'bigint').execute();
}
