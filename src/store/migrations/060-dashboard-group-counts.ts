import type { Kysely } from 'kysely';
import { backfillSummaries, refreshSummaries } from '../dashboard-queries.ts';
import type { Database } from '../tables.ts';

/**
 * Dashboards for grants limited to access groups (issue 34, §4): `dashboard_group_counts`, the summary counts of
 * dashboard_counts again for each set of access groups its projects are in (only projects in some group count), and
 * `dashboard_facts.groups`, the set a project's facts were counted under. A database whose counts are empty (a new
 * one, or one from before 044, which clears them) is counted from every project; otherwise the projects in some group
 * are refreshed, which adds their share under their set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('dashboard_group_counts')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('k1', 'text', (c) => c.notNull())
    .addColumn('k2', 'text', (c) => c.notNull())
    .addColumn('k3', 'text', (c) => c.notNull())
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_group_counts_key', ['program_id', 'kind', 'k1', 'k2', 'k3', 'groups'])
    .execute();
  await db.schema.alterTable('dashboard_facts').addColumn('groups', 'text').execute();
  const k = db as unknown as Kysely<Database>;
  if (!(await k.selectFrom('dashboard_facts').select('project_id').limit(1).executeTakeFirst())) {
    await backfillSummaries(k);
    return;
  }
  let after = '';
  for (;;) {
    const ids = (await k.selectFrom('projects').select('id').where('access_groups', 'is not', null).where('id', '>', after)
      .orderBy('id').limit(1000).execute()).map((r) => r.id);
    if (ids.length === 0) return;
    await refreshSummaries(k, ids);
    after = ids.at(-1)!;
  }
}
