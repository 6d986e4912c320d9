import type { Kysely } from 'kysely';

/**
 * Webhooks. `webhook_subscriptions` has one row per target of a program (its secret is kept to sign deliveries and
 * shown only once, at creation); `webhook_deliveries` one row per event and subscription, written by the fan-out in
 * the transaction that moves its outbox cursor, with the body it sends and its retry state. A delivery being sent
 * is leased (`lease_owner`, `lease_until`), so with several instances one sends it at a time, and a crashed
 * instance's lease runs out and is taken over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('webhook_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // A JSON array of event types; empty means every type.
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'bigint')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_subscriptions_program').on('webhook_subscriptions').columns(['program_id', 'created_at']).execute();
  await db.schema.createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('first_attempt_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .addColumn('redelivery_of', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .execute();
  // The delivery log of a subscription, newest first; and the worker's search for due deliveries.
  await db.schema.createIndex('webhook_deliveries_subscription').on('webhook_deliveries').columns(['subscription_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  // "Is an earlier delivery of this subscription and project still pending?": the in-order rule.
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['subscription_id', 'project_id', 'status', 'event_seq']).execute();
}
