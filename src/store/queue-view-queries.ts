import { type Kysely, sql } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A saved view of a program's work queue: a name, the queue's query string, and whether the program's staff share it. */
export interface QueueView { id: string; programId: string; ownerId: string; name: string; shared: boolean; query: string; createdAt: number; updatedAt: number }

/**
 * The needs-attention bits kept on projects (migration 035): the applicant answered, a file awaits review, and a
 * deadline passed while the project is in a status with a move onward (overdue; a running deadline near its due
 * time is read from project_deadlines, as it becomes near with time, not with a change).
 */
export const ATTENTION = { reply: 1, files: 2, overdue: 4 } as const;

/** Every combination of the kept bits that shares a bit with `mask` (an IN list the attention index can read). */
export function withBit(mask: number): number[] {
  return [1, 2, 3, 4, 5, 6, 7].filter((v) => (v & mask) !== 0);
}

function toView(r: Database['queue_views']): QueueView {
  return {
    id: r.id, programId: r.program_id, ownerId: r.owner_id, name: r.name, shared: r.shared === 1, query: r.query,
    createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}

/** The views a user may open in a program: their own and the shared ones, by name. */
export async function listQueueViews(db: Db, programId: string, userId: string): Promise<QueueView[]> {
  const rows = await db.selectFrom('queue_views').selectAll().where('program_id', '=', programId)
    .where((eb) => eb.or([eb('owner_id', '=', userId), eb('shared', '=', 1)])).orderBy('name').orderBy('id').execute();
  return rows.map(toView);
}

/** One view by id, whoever owns it (the service decides who may see it). */
export async function getQueueView(db: Db, id: string): Promise<QueueView | undefined> {
  const row = await db.selectFrom('queue_views').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** Stores a new view. */
export async function insertQueueView(db: Db, v: QueueView): Promise<void> {
  await db.insertInto('queue_views').values({
    id: v.id, program_id: v.programId, owner_id: v.ownerId, name: v.name, shared: v.shared ? 1 : 0, query: v.query, created_at: v.createdAt, updated_at: v.updatedAt,
  }).execute();
}

/** Replaces a view's name, sharing and query. */
export async function updateQueueView(db: Db, id: string, v: Pick<QueueView, 'name' | 'shared' | 'query' | 'updatedAt'>): Promise<void> {
  await db.updateTable('queue_views').set({ name: v.name, shared: v.shared ? 1 : 0, query: v.query, updated_at: v.updatedAt }).where('id', '=', id).execute();
}

/** Removes a view. */
export async function deleteQueueView(db: Db, id: string): Promise<void> {
  await db.deleteFrom('queue_views').where('id', '=', id).execute();
}

/**
 * What a project change means for the queue's kept columns: the applicant's activity time (null: not theirs), the
 * reply bit (true: set, false: clear, null: keep), whether to recount the files awaiting review, and (for a change of
 * status or deadline) the program's statuses with a move onward, to recount the overdue bit with.
 */
export interface AttentionChange { applicantAt: number | null; reply: boolean | null; recountFiles: boolean; recountOverdue: { openStatusIds: string[] } | null }

/** Writes an AttentionChange in one statement, in the change's transaction. */
export async function keepQueueAttention(db: Db, projectId: string, c: AttentionChange): Promise<void> {
  if (c.applicantAt === null && c.reply === null && !c.recountFiles && c.recountOverdue === null) return;
  const keep = 7 & ~((c.reply === null ? 0 : ATTENTION.reply) | (c.recountFiles ? ATTENTION.files : 0) | (c.recountOverdue === null ? 0 : ATTENTION.overdue));
  const bits = c.reply === true ? ATTENTION.reply : 0;
  // A file awaits review while the active (newest) version of one of the project's attachments is pending.
  const files = c.recountFiles
    ? sql<number>`(case when exists (select 1 from attachments a where a.project_id = ${projectId} and a.approval_status = 'Pending'
        and not exists (select 1 from attachments b where b.project_id = a.project_id and b.definition_id = a.definition_id and b.version > a.version))
        then ${sql.lit(ATTENTION.files)} else 0 end)`
    : sql<number>`0`;
  // Overdue: a passed deadline while the project's (new) status has a move onward.
  const open = c.recountOverdue?.openStatusIds ?? [];
  const overdue = open.length > 0
    ? sql<number>`(case when projects.status_id in (${sql.join(open)}) and exists (select 1 from project_deadlines d where d.project_id = ${projectId} and d.state = 'passed')
        then ${sql.lit(ATTENTION.overdue)} else 0 end)`
    : sql<number>`0`;
  await db.updateTable('projects').set((eb) => ({
    attention: sql<number>`((${eb.ref('attention')} & ${sql.lit(keep)}) | ${sql.lit(bits)} | ${files} | ${overdue})`,
    ...(c.applicantAt === null ? {} : { last_applicant_activity_at: c.applicantAt }),
  })).where('id', '=', projectId).execute();
}

const READS = { listQueueViews, getQueueView };

/** Saved views' reads, and their writes (single statements: a view is no project change). */
export function queueViewRepository(db: Db) {
  return bindDb(db, { ...READS, insertQueueView, updateQueueView, deleteQueueView, keepQueueAttention });
}

/** Saved views and the queue's kept columns. */
export type QueueViewRepository = ReturnType<typeof queueViewRepository>;
