import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Generated documents (issue 32, §2): `document_requests`, one row per request to generate a program's document for a
 * project (queued in the change that asked, generated or failed after it by the background task); on `attachments`,
 * the request a generated version came from (unique: exactly one version per request, however often the work runs)
 * and the template's version. A generated version is uploaded by the service itself, whose user id ('system') has no
 * account, so `attachments.uploaded_by` no longer references `users` (SQLite cannot drop a constraint, so the table is
 * rebuilt there). `mail_messages.attachments`: the generated documents a mail carries (JSON), resolved when it is sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('document_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('automation', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('finished_at', 'bigint')
    .addColumn('attachment_version', 'integer')
    .execute();
  await db.schema.createIndex('document_requests_due').on('document_requests').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('document_requests_project').on('document_requests').columns(['project_id', 'document_id', 'requested_at']).execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table attachments drop constraint if exists attachments_uploaded_by_fkey`.execute(db);
    await db.schema.alterTable('attachments').addColumn('document_request_id', 'text').execute();
    await db.schema.alterTable('attachments').addColumn('template_version', 'text').execute();
  } else {
    await rebuildSqliteAttachments(db);
  }
  await db.schema.createIndex('attachments_document_request').on('attachments').column('document_request_id').unique().execute();
  await db.schema.alterTable('mail_messages').addColumn('attachments', 'text').execute();
}

/** SQLite: attachments as 005 made them, without the reference of uploaded_by, plus the two new columns. */
async function rebuildSqliteAttachments(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('attachments_046')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('definition_id', 'text', (c) => c.notNull().references('attachment_definitions.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('approval_status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('reviewed_by', 'text', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'bigint')
    .addColumn('document_request_id', 'text')
    .addColumn('template_version', 'text')
    .addUniqueConstraint('attachments_project_definition_version_046', ['project_id', 'definition_id', 'version'])
    .execute();
  await sql`insert into attachments_046 (id, project_id, definition_id, version, blob_key, file_name, content_type, size_bytes, sha256,
    uploaded_by, uploaded_at, approval_status, note, reviewed_by, reviewed_at)
    select id, project_id, definition_id, version, blob_key, file_name, content_type, size_bytes, sha256,
    uploaded_by, uploaded_at, approval_status, note, reviewed_by, reviewed_at from attachments`.execute(db);
  await db.schema.dropTable('attachments').execute();
  await db.schema.alterTable('attachments_046').renameTo('attachments').execute();
}
