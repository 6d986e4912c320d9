import type { Kysely } from 'kysely';

/**
 * The daily `schedule` trigger of automations. `automation_schedule_runs` holds one row per program, automation and
 * local day: the instance holding its lease walks the program's projects in creation order and keeps its place in
 * the row, so a run that dies is continued by the next round (of any instance). `automation_schedule_marks` holds,
 * per automation and project, the last day the automation ran on it; the mark is written in the project's own change,
 * so a project is acted on at most once a day however often a run is repeated.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('automation_schedule_runs')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('automation', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('after_created', 'bigint')
    .addColumn('after_id', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('done_at', 'bigint')
    .addPrimaryKeyConstraint('automation_schedule_runs_pkey', ['program_id', 'automation', 'day'])
    .execute();
  await db.schema.createTable('automation_schedule_marks')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('automation', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_schedule_marks_pkey', ['program_id', 'automation', 'project_id'])
    .execute();
}
