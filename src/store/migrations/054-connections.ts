import type { Kysely } from 'kysely';

/**
 * Connections to the agency's own systems (issue 34 §1, src/domain/connections): `programs.connections`, the program
 * file's `connections:` as JSON; `connection_settings`, where each program's connection goes and how it signs in (set
 * by operators per program row, so a test copy has its own; `auth` JSON sealed at rest like webhook secrets);
 * `connection_hosts`, the agency's allowlist of hosts connections may reach; and `connection_calls`, one row per call a
 * callConnection action asked for, written in the triggering change and worked after it commits (claimed under a
 * lease, its answer kept once read, applied in a change of its own exactly once); `field_lookups`, what the last
 * lookup at save said of a project's field.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('connections', 'text').execute();
  await db.schema.createTable('connection_settings')
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addPrimaryKeyConstraint('connection_settings_pk', ['program_id', 'connection_id'])
    .execute();
  await db.schema.createTable('connection_hosts')
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connection_hosts_pk', ['agency_id', 'host'])
    .execute();
  await db.schema.createTable('connection_calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('automation', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('response', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The worker's claim reads queued calls by when they are due; a project's calls are listed on its page.
  await db.schema.createIndex('connection_calls_due').on('connection_calls').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('connection_calls_project').on('connection_calls').column('project_id').execute();
  // What the last lookup at save said of a project's field (verified, unknown, or unverified with why): shown beside it.
  await db.schema.createTable('field_lookups')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('field_lookups_pk', ['project_id', 'field_id'])
    .execute();
}
