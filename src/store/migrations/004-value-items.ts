import { type Kysely, sql } from 'kysely';

/**
 * Search by submitted values: every value of a multi-value field gets a row of its own (so `eq` and `contains`
 * look at one value at a time), and every value keeps a lower-cased copy folded in the service, so that
 * case-insensitive search answers the same on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project_values').addColumn('folded', 'text').execute();
  await db.schema.createTable('project_value_items')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('field_id', 'text', (c) => c.notNull().references('data_fields.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('folded', 'text', (c) => c.notNull())
    .addColumn('num_value', 'double precision')
    .addPrimaryKeyConstraint('project_value_items_pk', ['project_id', 'field_id', 'position'])
    .execute();
  await db.schema.createIndex('project_value_items_field_value').on('project_value_items').columns(['field_id', 'value']).execute();
  await db.schema.createIndex('project_value_items_field_number').on('project_value_items').columns(['field_id', 'num_value']).execute();
  // Values written before this migration get their folded copies and items the same way the service writes them.
  const singles = await sql<{ project_id: string; field_id: string; value: string }>`select project_id, field_id, value from project_values where value is not null`.execute(db);
  for (const r of singles.rows) {
    await sql`update project_values set folded = ${r.value.toLowerCase()} where project_id = ${r.project_id} and field_id = ${r.field_id}`.execute(db);
  }
  const lists = await sql<{ project_id: string; field_id: string; values_json: string }>`select project_id, field_id, values_json from project_values where values_json is not null`.execute(db);
  for (const r of lists.rows) {
    for (const [position, value] of (JSON.parse(r.values_json) as string[]).entries()) {
      const n = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) && Number.isFinite(Number(value)) ? Number(value) : null;
      await sql`insert into project_value_items (project_id, field_id, position, value, folded, num_value)
        values (${r.project_id}, ${r.field_id}, ${position}, ${value}, ${value.toLowerCase()}, ${n})`.execute(db);
    }
  }
}
