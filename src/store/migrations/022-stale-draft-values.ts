import { type Kysely, sql } from 'kysely';

/**
 * A draft holds only the pending changes of its form: a submission of a field settles (and deletes) every draft row of
 * that field (project-queries.ts, upsertValues). Drafts saved by earlier versions held a copy of every field of their
 * form and were kept after a later submission, so a stale copy could come back over a value another form submitted
 * since (issue "Trust", item 1). Deleted here: every draft row no newer than the submitted value of its field.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from project_drafts where exists (
    select 1 from project_values v
    where v.project_id = project_drafts.project_id and v.field_id = project_drafts.field_id and v.updated_at >= project_drafts.updated_at
  )`.execute(db);
}
