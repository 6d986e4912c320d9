import type { Kysely } from 'kysely';

/**
 * Self-service for applicants and integrators (issue 33, §3): `agency_policies`, one row per agency that set its
 * policy (no row: everything off), saying whether users may create their own API keys and OAuth clients and subscribe
 * webhooks themselves; on `webhook_subscriptions`, `owner_id`: the user a self-service subscription belongs to (null
 * for the agency's own subscriptions), whose read access decides which events it is sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('agency_policies')
    .addColumn('agency_id', 'text', (c) => c.primaryKey())
    .addColumn('own_credentials', 'integer', (c) => c.notNull())
    .addColumn('own_webhooks', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  await db.schema.alterTable('webhook_subscriptions').addColumn('owner_id', 'text').execute();
  await db.schema.createIndex('webhook_subscriptions_owner').on('webhook_subscriptions').columns(['owner_id', 'created_at']).execute();
}
