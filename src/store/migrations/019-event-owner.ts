import { type Kysely, sql } from 'kysely';

/**
 * `events.owner_id`: the project's owner when the change was made (after it), written with the event in the change's
 * transaction, so the mails about a change go to whoever owned the project then, not to whoever owns it when the
 * mail round runs (after a handover, the new owner was told of the previous owner's changes). Events written
 * before this migration get the owner of now, the best that is known of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('owner_id', 'text').execute();
  await sql`update events set owner_id = (select p.owner_id from projects p where p.id = events.project_id)`.execute(db);
}
