import type { Kysely } from 'kysely';
import { deleteProjectRows } from './my-projects-queries.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A mail of a test program's project as its console page lists it: to whom, what, and its text (nothing was sent). */
export interface TestOutboxMail { id: string; kind: string; to: string; subject: string; text: string; status: string; createdAt: number; projectId: string }

/** The ids of up to `limit` projects of a program, oldest first: one bounded step of a reset. */
export async function projectIdsOfProgram(db: Db, programId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('id').where('program_id', '=', programId).orderBy('created_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/**
 * Deletes a project with everything kept of it (deleteProjectRows) and, since it belongs to a test copy that is being
 * reset, also its mail, events, webhook deliveries, document requests, dashboard facts and bulk-action rows. Returns
 * its files' blob keys, for the caller to release once the transaction commits.
 */
export async function deleteTestProjectRows(db: Db, projectId: string): Promise<string[]> {
  for (const table of ['mail_messages', 'webhook_deliveries', 'events', 'document_requests', 'dashboard_facts', 'bulk_action_projects'] as const) {
    await db.deleteFrom(table).where('project_id', '=', projectId).execute();
  }
  return deleteProjectRows(db, projectId);
}

/**
 * The last step of a reset, once a program has no project left: its dashboard counts, bulk actions and automation
 * bookkeeping go, and its numbering starts at 1 again. False (and nothing changed) when a project was created meanwhile.
 */
export async function finishProgramReset(db: Db, programId: string): Promise<boolean> {
  const left = await db.selectFrom('projects').select('id').where('program_id', '=', programId).limit(1).executeTakeFirst();
  if (left) return false;
  for (const table of ['dashboard_counts', 'dashboard_group_counts', 'bulk_actions', 'automation_turns', 'automation_schedule_runs', 'automation_schedule_marks'] as const) {
    await db.deleteFrom(table).where('program_id', '=', programId).execute();
  }
  await db.updateTable('programs').set({ next_number: 1 }).where('id', '=', programId).execute();
  return true;
}

/** The newest `limit` mails about the projects of a program, newest first. */
export async function listProgramMail(db: Db, programId: string, limit: number): Promise<TestOutboxMail[]> {
  const rows = await db.selectFrom('mail_messages').innerJoin('projects', 'projects.id', 'mail_messages.project_id')
    .select(['mail_messages.id', 'mail_messages.kind', 'mail_messages.to_address', 'mail_messages.subject', 'mail_messages.text_body',
      'mail_messages.status', 'mail_messages.created_at', 'mail_messages.project_id'])
    .where('projects.program_id', '=', programId).orderBy('mail_messages.created_at', 'desc').orderBy('mail_messages.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id, kind: r.kind, to: r.to_address, subject: r.subject, text: r.text_body, status: r.status, createdAt: Number(r.created_at), projectId: r.project_id!,
  }));
}
