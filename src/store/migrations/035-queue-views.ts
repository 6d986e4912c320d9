import { type Kysely, sql } from 'kysely';

/**
 * Work-queue columns, saved views and "needs attention" (issue 22 items 1-2). `queue_views` holds a staff member's
 * named choice of columns, filters and order (the queue's query string), personal or shared with the program's staff.
 * On `projects` the change step keeps `last_applicant_activity_at` (the last change an applicant role made) and
 * `attention`, a bit set: 1 = the applicant wrote a note after staff's last note to them, 2 = a file awaits review,
 * 4 = a deadline passed while the project is in a status with a move onward.
 * Both are backfilled from existing rows (the applicant as the project's owner), so a kept database works after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('queue_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('queue_views_program_owner').on('queue_views').columns(['program_id', 'owner_id']).execute();
  await db.schema.alterTable('projects').addColumn('last_applicant_activity_at', 'bigint').execute();
  await db.schema.alterTable('projects').addColumn('attention', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The newest audited change the owner made (audit_log_project holds project_id, at).
  await sql`update projects set last_applicant_activity_at = (select max(a.at) from audit_log a where a.project_id = projects.id and a.actor_id = projects.owner_id)`.execute(db);
  // Bit 1: the project's newest note is the owner's.
  await sql`update projects set attention = attention | 1 where exists (
    select 1 from inquiry_threads t join inquiry_notes n on n.thread_id = t.id where t.project_id = projects.id and n.author_id = projects.owner_id
      and not exists (select 1 from inquiry_threads t2 join inquiry_notes n2 on n2.thread_id = t2.id
        where t2.project_id = projects.id and n2.author_id <> projects.owner_id and n2.created_at >= n.created_at))`.execute(db);
  // Bit 2: the active (newest) version of one of its files is pending review.
  await sql`update projects set attention = attention | 2 where exists (
    select 1 from attachments a where a.project_id = projects.id and a.approval_status = 'Pending'
      and not exists (select 1 from attachments b where b.project_id = a.project_id and b.definition_id = a.definition_id and b.version > a.version))`.execute(db);
  // Bit 4: a deadline passed while the project is in a status with a move onward (overdue).
  await sql`update projects set attention = attention | 4 where exists (select 1 from project_deadlines d where d.project_id = projects.id and d.state = 'passed')
    and exists (select 1 from status_transitions t where t.from_status_id = projects.status_id)`.execute(db);
  // Counts and the filter read the flagged projects of a program from here; most projects have 0.
  await db.schema.createIndex('projects_queue_attention').on('projects').columns(['program_id', 'attention', 'updated_at', 'id']).execute();
}
