import type { Kysely } from 'kysely';

/** Multi-factor authentication: each user's TOTP secret and the last time step used, and MFA session tokens. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('user_mfa')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
    // The last TOTP time step accepted: a code is good once, so a step at or below it is refused.
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createTable('mfa_session_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
