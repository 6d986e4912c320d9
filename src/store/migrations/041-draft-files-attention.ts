import { type Kysely, sql } from 'kysely';

/**
 * The needs-attention bit "file awaits review" (2, migration 035) no longer marks a project in its program's initial
 * status: an unsubmitted draft's uploads are the applicant's until it is submitted (the change step now recounts the
 * bit at every status move). Clears it where it was set that way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update projects set attention = attention - 2 where attention in (2, 3, 6, 7, 10, 11, 14, 15)
    and status_id in (select id from statuses where is_initial = 1)`.execute(db);
}
