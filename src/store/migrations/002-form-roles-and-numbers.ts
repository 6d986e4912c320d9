import type { Kysely } from 'kysely';

/**
 * Which program roles may use each form (null: every role), and the numeric value of each submitted value,
 * so that GetProjectsByData compares numbers as numbers through an index on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('forms').addColumn('roles', 'text').execute();
  await db.schema.alterTable('project_values').addColumn('num_value', 'double precision').execute();
  await db.schema.createIndex('project_values_field_number').on('project_values').columns(['field_id', 'num_value']).execute();
}
