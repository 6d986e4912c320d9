import type { Kysely } from 'kysely';

/**
 * When accounts and credentials were last used, for the console's People and Credentials pages: `users.last_sign_in_at`
 * (a completed sign-in on the web pages), `api_keys.last_used_at` and `oauth_clients.last_used_at` (written at most once
 * a minute per key or client). Null until the first use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  await db.schema.alterTable('oauth_clients').addColumn('last_used_at', 'bigint').execute();
}
