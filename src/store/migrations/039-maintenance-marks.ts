import type { Kysely } from 'kysely';

/**
 * `maintenance_marks`: one row per one-time pass an instance's start has completed over the whole database (e.g.
 * every value of a sensitive field found sealed), so later starts skip a pass whose cost grows with the data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('maintenance_marks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('done_at', 'bigint', (c) => c.notNull())
    .execute();
}
