import type { Kysely } from 'kysely';

/**
 * Related projects (issue 34, §3): `project_relations`, one row per relation from a project to another (a child, a
 * successor or a free link, within or across the agency's programs), with who made it and when, and the program
 * relation (`relations:` of the from-project's program) it was made by, if any; `programs.relations`, the program
 * file's relations as JSON. A pair of projects is related at most once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('relations', 'text').execute();
  await db.schema.createTable('project_relations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('from_program_id', 'text', (c) => c.notNull())
    .addColumn('from_project_id', 'text', (c) => c.notNull())
    .addColumn('to_program_id', 'text', (c) => c.notNull())
    .addColumn('to_project_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('relation', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_relations_pair').on('project_relations').columns(['from_project_id', 'to_project_id']).unique().execute();
  await db.schema.createIndex('project_relations_to').on('project_relations').column('to_project_id').execute();
}
