import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * OAuth 2.0 client credentials: clients (a public id and the argon2id hash of a secret, each of one user) and the
 * access tokens issued to them (only a SHA-256 of each token's secret is kept). Both are credentials that the read
 * caches keep, so on PostgreSQL every committed write to them notifies the `credentials` topic like the tables of
 * migration 012, and a revocation reaches every instance's cache.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_clients_user').on('oauth_clients').column('user_id').execute();
  await db.schema.createTable('oauth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_tokens_client').on('oauth_tokens').columns(['client_id', 'expires_at']).execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // apas_notify_change() is migration 012's; the trigger names follow its pattern.
  for (const table of ['oauth_clients', 'oauth_tokens']) {
    await sql`create trigger ${sql.id(`${table}_notify_write`)} after insert or update or delete or truncate on ${sql.id(table)}
      for each statement execute function apas_notify_change(${sql.lit('credentials')})`.execute(db);
  }
}
