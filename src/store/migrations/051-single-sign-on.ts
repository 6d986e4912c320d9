import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Staff single sign-on with OpenID Connect (issue 33, src/domain/sign-on): `agency_sign_on` (an agency's provider:
 * issuer, client id, the client secret sealed at rest, the claims to read, the groups → grants mapping as JSON, whether
 * staff may still use local passwords) and `sign_on_attempts` (sign-ins under way: the SHA-256 of their state, of the
 * browser's binding cookie, and the nonce and PKCE verifier, kept only until the provider answers or ten minutes pass).
 * `agency_sign_on` belongs to the `credentials` topic (who may sign in with a password is read by every staff
 * sign-in): on PostgreSQL a committed write notifies `apas_changes` as migration 012 does for the topic's other tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('agency_sign_on')
    .addColumn('agency_id', 'text', (c) => c.primaryKey().references('agencies.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('email_claim', 'text', (c) => c.notNull())
    .addColumn('groups_claim', 'text', (c) => c.notNull())
    .addColumn('group_grants', 'text', (c) => c.notNull())
    .addColumn('allow_passwords', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  await db.schema.createTable('sign_on_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // Each new attempt sweeps the expired ones.
  await db.schema.createIndex('sign_on_attempts_expiry').on('sign_on_attempts').column('expires_at').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create trigger agency_sign_on_notify_write after insert or update or delete or truncate on agency_sign_on
    for each statement execute function apas_notify_change('credentials')`.execute(db);
}
