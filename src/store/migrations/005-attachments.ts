import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Uploaded files: every version of a project's file for an attachment definition (the highest is the active one),
 * and the chunks of the files kept in the database itself when several instances share no disk.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('definition_id', 'text', (c) => c.notNull().references('attachment_definitions.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    // Unique: the orphan sweep asks whether a stored blob belongs to any row.
    .addColumn('blob_key', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('approval_status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('reviewed_by', 'text', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'bigint')
    // Two uploads racing for the same next version: the loser's insert fails and it answers CONFLICT.
    .addUniqueConstraint('attachments_project_definition_version', ['project_id', 'definition_id', 'version'])
    .execute();
  // The one column type the engines spell differently: raw bytes.
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.createTable('blob_chunks')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['blob_key', 'seq'])
    .execute();
}
