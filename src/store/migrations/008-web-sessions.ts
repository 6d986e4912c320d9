import type { Kysely } from 'kysely';

/**
 * Web sessions of users enrolled in MFA: after a sign-in on the web pages with a TOTP code, the browser holds a
 * cookie with a random secret that stands in for the code until it expires. Only the SHA-256 of the secret is
 * kept. A user may have several (one per browser), unlike MFA session tokens of the API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').columns(['user_id', 'expires_at']).execute();
}
