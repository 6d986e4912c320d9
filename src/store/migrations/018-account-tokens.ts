import type { Kysely } from 'kysely';

/**
 * Self-service accounts. `account_tokens` holds the links mailed to confirm an address or reset a password: only the
 * SHA-256 of a token is kept, each is used once (`used_at`, set in the transaction that acts on it) and expires.
 * `programs.self_sign_up` (0/1) is the program file's `selfService.signUp`: applicants may sign up for the program.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('program_id', 'text')
    // A confirmation link carries the password of its sign-up, set when the link is used.
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
  await db.schema.alterTable('programs').addColumn('self_sign_up', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
