import type { Kysely } from 'kysely';

/**
 * The staff work queue pages a program's projects by a keyset (the sort time, then the id), optionally within one
 * status or one assignee. Each index starts with the program, then the filter column, then the sort key and the id,
 * so every page, however deep, is one index range read of at most a page of entries on SQLite and PostgreSQL alike.
 * The submissions index finds the projects first submitted within a date range without reading every project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.createIndex('projects_queue_updated').on('projects').columns(['program_id', 'updated_at', 'id']).execute();
  await s.createIndex('projects_queue_status_updated').on('projects').columns(['program_id', 'status_id', 'updated_at', 'id']).execute();
  await s.createIndex('projects_queue_status_created').on('projects').columns(['program_id', 'status_id', 'created_at', 'id']).execute();
  await s.createIndex('projects_queue_assignee_updated').on('projects').columns(['program_id', 'assignee_id', 'updated_at', 'id']).execute();
  await s.createIndex('projects_queue_assignee_created').on('projects').columns(['program_id', 'assignee_id', 'created_at', 'id']).execute();
  // The older (program_id, updated_at) index is a prefix of projects_queue_updated and would only cost writes.
  await s.dropIndex('projects_program_updated').execute();
  await s.createIndex('form_submissions_submitted').on('form_submissions').columns(['submitted_at', 'project_id']).execute();
}
