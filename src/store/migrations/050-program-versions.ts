import type { Kysely } from 'kysely';

/**
 * Program versions (issue 33, the console's Programs area): `program_versions` records each import that changed a
 * program — its number (1, 2, … per program), who published it (a user, or the operator at the CLI), when, the
 * file's SHA-256 and text (so an old version can be downloaded) and the changes it made; `program_uploads` keeps a
 * file uploaded in the console between its review and its publication, so that what is published is what was reviewed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('program_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('published_by', 'text')
    .addColumn('publisher', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  // One number per version of a program: a second publication racing for the same number fails instead of doubling it.
  await db.schema.createIndex('program_versions_number').on('program_versions').columns(['program_id', 'version']).unique().execute();
  await db.schema.createTable('program_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('program_uploads_time').on('program_uploads').columns(['uploaded_at']).execute();
}
