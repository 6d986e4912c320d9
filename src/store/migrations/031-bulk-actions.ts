import type { Kysely } from 'kysely';

/**
 * Bulk actions of the work queue: `bulk_actions`, one row per action a staff member ran (who, which program, what,
 * on how many projects, and the form's idempotency key, unique per user, so a retry finds the action it repeats), and
 * `bulk_action_projects`, one row per project it was run on, in the order shown, with what happened to it (pending,
 * done, unchanged or refused, with the refusal's code and message). New tables: nothing to backfill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('bulk_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('project_count', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addUniqueConstraint('bulk_actions_key', ['actor_id', 'idempotency_key'])
    .execute();
  await db.schema.createTable('bulk_action_projects')
    .addColumn('bulk_action_id', 'text', (c) => c.notNull().references('bulk_actions.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('message', 'text')
    .addColumn('detail', 'text')
    .addColumn('at', 'bigint')
    .addPrimaryKeyConstraint('bulk_action_projects_pk', ['bulk_action_id', 'position'])
    .addUniqueConstraint('bulk_action_projects_one', ['bulk_action_id', 'project_id'])
    .execute();
}
