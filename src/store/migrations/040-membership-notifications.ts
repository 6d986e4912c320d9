import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only: a committed write to `organization_members` notifies `apas_changes` with the topic `credentials`,
 * as migration 012 does for the other tables of that topic, so that every instance's cached organization ids of a
 * caller (read by every authenticated request) are dropped when a member is added or removed anywhere. SQLite needs
 * nothing: its signal is PRAGMA data_version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create trigger organization_members_notify_write after insert or update or delete or truncate on organization_members
    for each statement execute function apas_notify_change('credentials')`.execute(db);
}
