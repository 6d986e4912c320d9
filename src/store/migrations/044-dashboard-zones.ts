import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * `dashboard_zones`: the time zone a program's dashboard counts are kept in, its calendar's (`calendar.timeZone`,
 * UTC without one), so that days, weeks and months are the program's and not UTC's. Both summary tables are emptied
 * here and counted again from every project, each program's in its zone, by migration 060 (whose count reads columns
 * of later migrations).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('dashboard_zones')
    .addColumn('program_id', 'text', (c) => c.primaryKey())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .execute();
  const k = db as unknown as Kysely<Database>;
  await k.deleteFrom('dashboard_counts').execute();
  await k.deleteFrom('dashboard_facts').execute();
}
