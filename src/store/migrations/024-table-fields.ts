import { type Kysely, sql } from 'kysely';
import { VALUE_PREFIX_CHARS } from './007-value-prefix-indexes.ts';

/**
 * Table fields (docs/programs.md, "Table fields"). A table field's definition (columns, row limits) is one JSON text
 * beside the field's other limits, since it is read and written only as a whole with the program. Its value is stored
 * like any other, as one text (the rows as JSON) in project_values and project_drafts, so drafts, submissions and
 * exports move it unchanged; for GetProjectsByData on a column, every filled cell of a submitted table also gets a
 * row here, with the same search columns and indexes as project_value_items (plus the column).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_fields').addColumn('table_spec', 'text').execute();
  await db.schema.createTable('project_table_cells')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('field_id', 'text', (c) => c.notNull().references('data_fields.id'))
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('column_key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('folded', 'text', (c) => c.notNull())
    .addColumn('num_value', 'double precision')
    .addPrimaryKeyConstraint('project_table_cells_pk', ['project_id', 'field_id', 'row_index', 'column_key'])
    .execute();
  await db.schema.createIndex('project_table_cells_value_prefix').on('project_table_cells')
    .expression(sql`field_id, column_key, substr(value, 1, ${sql.lit(VALUE_PREFIX_CHARS)}), project_id`).execute();
  await db.schema.createIndex('project_table_cells_number').on('project_table_cells')
    .columns(['field_id', 'column_key', 'num_value', 'project_id']).execute();
}
