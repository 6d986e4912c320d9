import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * The dashboards' moves (`m`) and ended deadlines (`d`) put their week or month first, and running deadlines get a
 * kind of their own (`r`), so a dashboard reads only its window of them (dashboard-queries.ts). Both summary tables
 * are emptied here and counted again from every project by migration 060 (whose count reads columns of later
 * migrations).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as unknown as Kysely<Database>;
  await k.deleteFrom('dashboard_counts').execute();
  await k.deleteFrom('dashboard_facts').execute();
}
