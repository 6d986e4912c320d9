import type { Kysely } from 'kysely';

/**
 * `status_history.automation`: the customId of the automation that made a move (null: a person), written in the name
 * of the person whose change triggered it. The dashboard's workload and throughput per person leaves such moves out,
 * where it counted them as that person's; moves made before this migration cannot be told apart and count as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('status_history').addColumn('automation', 'text').execute();
}
