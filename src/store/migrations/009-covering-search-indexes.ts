import { type Kysely, sql } from 'kysely';
import { VALUE_PREFIX_CHARS } from './007-value-prefix-indexes.ts';

/**
 * GetProjectsByData reads the ids of the projects each filter matches. The search indexes held the compared value
 * but not the project id, so every matching entry cost a lookup of its table row: at 1,000,000 projects a filter
 * matching 150,000 values read 150,000 scattered rows (over a second). With the project id in the index the ids
 * are read from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const prefix = sql`substr(value, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`;
  for (const table of ['project_values', 'project_value_items']) {
    await db.schema.dropIndex(`${table}_field_value_prefix`).execute();
    await db.schema.createIndex(`${table}_field_value_prefix`).on(table).expression(sql`field_id, ${prefix}, project_id`).execute();
    await db.schema.dropIndex(`${table}_field_number`).execute();
    await db.schema.createIndex(`${table}_field_number`).on(table).columns(['field_id', 'num_value', 'project_id']).execute();
  }
  await db.schema.dropIndex('status_history_status').execute();
  await db.schema.createIndex('status_history_status').on('status_history').columns(['status_id', 'changed_at', 'project_id']).execute();
}
