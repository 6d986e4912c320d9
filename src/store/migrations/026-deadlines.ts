import type { Kysely } from 'kysely';

/**
 * Calendar and deadlines: `programs.calendar` (the program file's `calendar:` as JSON, null for the default) and
 * `programs.deadlines` (its `deadlines:` as JSON, null for none); `project_deadlines`, one row per project and
 * deadline (restarting one rewrites its row; the audit log keeps every start and end), with the local date it is
 * due by and the instant it passes. The poller finds running deadlines that are due through (state, due_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('calendar', 'text').execute();
  await db.schema.alterTable('programs').addColumn('deadlines', 'text').execute();
  await db.schema.createTable('project_deadlines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('deadline_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('started_by', 'text')
    .addColumn('ended_by', 'text')
    .addUniqueConstraint('project_deadlines_one', ['project_id', 'deadline_id'])
    .execute();
  await db.schema.createIndex('project_deadlines_due').on('project_deadlines').columns(['state', 'due_at']).execute();
}
