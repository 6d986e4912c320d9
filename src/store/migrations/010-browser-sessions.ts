import type { Kysely } from 'kysely';

/**
 * Sessions of the web application's sign-in page. The browser holds a cookie with a random secret; only its SHA-256
 * is kept. A session ends when it is signed out, when it was not used for the idle time, or at its absolute end,
 * whichever comes first. A session whose user is enrolled in MFA is pending (`mfa_pending` = 1) until the code step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('browser_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('mfa_pending', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('browser_sessions_user').on('browser_sessions').columns(['user_id', 'expires_at']).execute();
}
