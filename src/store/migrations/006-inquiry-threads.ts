import type { Kysely } from 'kysely';

/**
 * Inquiry threads of projects and their notes. An external id is unique within a program; a unique constraint
 * lets any number of threads have none (NULLs never collide on SQLite or PostgreSQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('inquiry_threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id'))
    .addUniqueConstraint('inquiry_threads_program_external_id', ['program_id', 'external_id'])
    .execute();
  await db.schema.createIndex('inquiry_threads_project_created').on('inquiry_threads').columns(['project_id', 'created_at']).execute();
  await db.schema.createTable('inquiry_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('thread_id', 'text', (c) => c.notNull().references('inquiry_threads.id'))
    // Position in the thread (1, 2, …): orders notes that share a millisecond; the unique pair refuses a race.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('visible_to_applicant', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('inquiry_notes_thread_seq', ['thread_id', 'seq'])
    .execute();
}
