import type { Kysely } from 'kysely';

/**
 * My projects (issue 22, items 5 and 8): `data_fields.summary` marks the program file's summary fields (columns of
 * My projects, searched there), `statuses.withdrawal` the status an applicant withdraws a submitted project to, both
 * 0 for existing rows (nothing to backfill). The index lists one owner's projects of a program by last change,
 * newest first, a page at a time by keyset (owner, program, updated_at, id), however many projects the owner has.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_fields').addColumn('summary', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('statuses').addColumn('withdrawal', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('projects_owner_updated').on('projects').columns(['owner_id', 'program_id', 'updated_at', 'id']).execute();
}
