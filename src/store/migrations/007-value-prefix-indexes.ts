import { type Kysely, sql } from 'kysely';

/** How many leading characters of a submitted value its search index holds. */
export const VALUE_PREFIX_CHARS = 100;

/**
 * Values may be up to 10,000 characters, but a PostgreSQL b-tree entry holds at most about 2,700 bytes: an index
 * on the whole value refused long values that do not compress (the insert failed). The (field, value) indexes
 * become (field, first 100 characters of the value); equality searches compare that prefix first, so they are
 * still driven by the index, and then the whole value.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['project_values', 'project_value_items']) {
    await db.schema.dropIndex(`${table}_field_value`).execute();
    await db.schema.createIndex(`${table}_field_value_prefix`).on(table)
      .expression(sql`field_id, substr(value, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`).execute();
  }
}
