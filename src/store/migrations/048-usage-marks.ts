import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * When accounts and credentials were last used, for the console's People and Credentials pages: `users.last_sign_in_at`
 * (a completed sign-in on the web pages), `api_keys.last_used_at` and `oauth_clients.last_used_at` (written at most once
 * a minute per key or client). Null until the first use.
 *
 * On PostgreSQL the three tables' change notifications (migrations 012 and 013) leave such an update out, as 012 does
 * for a program's next number: a usage mark changes nothing cached, and notifying it would empty every instance's
 * credentials caches once a minute per active key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  await db.schema.alterTable('oauth_clients').addColumn('last_used_at', 'bigint').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, mark] of [['users', 'last_sign_in_at'], ['api_keys', 'last_used_at'], ['oauth_clients', 'last_used_at']] as const) {
    const name = sql.id(table);
    const notify = sql`execute function apas_notify_change(${sql.lit('credentials')})`;
    await sql`drop trigger if exists ${sql.id(`${table}_notify_write`)} on ${name}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_notify_write`)} after insert or delete or truncate on ${name} for each statement ${notify}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_notify_update`)} after update on ${name} for each row
      when ((to_jsonb(old) - ${sql.lit(mark)}) is distinct from (to_jsonb(new) - ${sql.lit(mark)})) ${notify}`.execute(db);
  }
}
