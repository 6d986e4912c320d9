import type { Kysely } from 'kysely';

/**
 * Document templates (issue 32): `programs.documents`, the program file's `documents:` as JSON (null for none), and
 * `attachment_definitions.document`, the customId of the template whose generated files a definition holds (null
 * for one people upload to; uploads to the others are refused).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('documents', 'text').execute();
  await db.schema.alterTable('attachment_definitions').addColumn('document', 'text').execute();
}
