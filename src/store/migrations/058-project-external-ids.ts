import type { Kysely } from 'kysely';

/**
 * Data import (issue 34, §5): `project_external_ids`, the id a project has in the agency's own records (a spreadsheet's
 * application number), unique per program, so that an import run again finds the project it made and updates it
 * instead of making another. Written in the project's creation by the import. New table: nothing to backfill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('project_external_ids')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_external_ids_pk', ['program_id', 'external_id'])
    .execute();
}
