import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only: every committed write to a table of a change topic (see change-signal.ts) notifies the channel
 * `apas_changes` with the topic's name, so each instance's caches of credentials and program definitions learn of
 * other instances' changes (PostgresChangeSignal). Two writes are left out because they change nothing cached and
 * are frequent: taking the next project number (programs.next_number) and the API's request counts (only sign-in
 * counters, `signin:` buckets, notify). SQLite needs nothing: its signal is PRAGMA data_version.
 */
// A copy of change-signal.ts's TOPIC_TABLES as it was when this migration was written: a migration never changes.
const TOPIC_TABLES: Record<string, string[]> = {
  credentials: ['users', 'api_keys', 'program_grants', 'user_mfa', 'mfa_session_tokens', 'web_sessions', 'rate_limit_windows'],
  programs: [
    'agencies', 'programs', 'custom_lists', 'custom_list_choices', 'statuses', 'status_transitions', 'data_fields', 'forms', 'form_statuses',
    'form_fields', 'attachment_definitions',
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create or replace function apas_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('apas_changes', tg_argv[0]);
      return null;
    end $$`.execute(db);
  for (const [topic, tables] of Object.entries(TOPIC_TABLES)) {
    for (const table of tables) {
      const name = sql.id(table);
      const trigger = (suffix: string) => sql.id(`${table}_notify_${suffix}`);
      const notify = sql`execute function apas_notify_change(${sql.lit(topic)})`;
      if (table === 'rate_limit_windows') {
        await sql`create trigger ${trigger('insert')} after insert on ${name} for each row when (new.bucket like 'signin:%') ${notify}`.execute(db);
        await sql`create trigger ${trigger('update')} after update on ${name} for each row when (new.bucket like 'signin:%') ${notify}`.execute(db);
      } else if (table === 'programs') {
        await sql`create trigger ${trigger('write')} after insert or delete or truncate on ${name} for each statement ${notify}`.execute(db);
        await sql`create trigger ${trigger('update')} after update on ${name} for each row
          when ((to_jsonb(old) - 'next_number') is distinct from (to_jsonb(new) - 'next_number')) ${notify}`.execute(db);
      } else {
        await sql`create trigger ${trigger('write')} after insert or update or delete or truncate on ${name} for each statement ${notify}`.execute(db);
      }
    }
  }
}
