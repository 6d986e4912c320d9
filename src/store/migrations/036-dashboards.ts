import type { Kysely } from 'kysely';

/**
 * The dashboards' summary tables: `dashboard_counts`, one count per program, kind and keys (dashboard-queries.ts),
 * and `dashboard_facts`, what each project contributes to them. Both are filled from every existing project, its status
 * history and its deadlines (by migration 060), and kept in each change's transaction from then on, so they are never stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('dashboard_counts')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('k1', 'text', (c) => c.notNull())
    .addColumn('k2', 'text', (c) => c.notNull())
    .addColumn('k3', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_counts_key', ['program_id', 'kind', 'k1', 'k2', 'k3'])
    .execute();
  // No foreign key to projects: a project's removal is a change like any other, whose refresh takes its facts away.
  await db.schema.createTable('dashboard_facts')
    .addColumn('project_id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .execute();
  // Filled from every project by migration 060, whose count reads columns of later migrations (a database upgraded
  // from before this one runs it too).
}
