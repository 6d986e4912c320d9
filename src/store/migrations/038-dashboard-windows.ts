import type { Kysely } from 'kysely';
import { backfillSummaries } from '../dashboard-queries.ts';
import type { Database } from '../tables.ts';

/**
 * The dashboards' moves (`m`) and ended deadlines (`d`) put their week or month first, and running deadlines get a
 * kind of their own (`r`), so a dashboard reads only its window of them (dashboard-queries.ts). Both summary tables
 * are counted again from every project, as migration 036 first did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as unknown as Kysely<Database>;
  await k.deleteFrom('dashboard_counts').execute();
  await k.deleteFrom('dashboard_facts').execute();
  await backfillSummaries(k);
}
