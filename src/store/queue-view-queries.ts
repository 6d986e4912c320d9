import { type Kysely, type RawBuilder, sql } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A saved view of a program's work queue: a name, the queue's query string, and whether the program's staff share it. */
export interface QueueView { id: string; programId: string; ownerId: string; name: string; shared: boolean; query: string; createdAt: number; updatedAt: number }

/**
 * The needs-attention bits kept on projects (migration 035): the applicant answered, a file awaits review, a deadline
 * passed while the project is in a status with a move onward (overdue), and a running deadline is due within the
 * near window (near: set by the change step that starts it, or by the near-deadline task once time brings it near),
 * and a connection's call failed after its retries (migration 054: set by its failure, cleared when a call of the
 * project's connections is applied).
 */
export const ATTENTION = { reply: 1, files: 2, overdue: 4, near: 8, connection: 16 } as const;

const ALL_BITS = 31;

/** Every combination of the kept bits that shares a bit with `mask` (an IN list the attention index can read). */
export function withBit(mask: number): number[] {
  return Array.from({ length: ALL_BITS }, (_, i) => i + 1).filter((v) => (v & mask) !== 0);
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

/** What the deadline bits are counted with: the statuses with a move onward (overdue) and the end of the near window. */
export interface DeadlineMarks { openStatusIds: string[]; nearBy: number }

/**
 * What a project change means for the queue's kept columns: the applicant's activity time (null: not theirs), the
 * reply bit (true: set, false: clear, null: keep), whether to recount the files awaiting review, and (for a change of
 * status or deadline) what the deadline bits are recounted with: the program's statuses with a move onward (overdue)
 * and the end of the near window (a running deadline due by then is near).
 */
export interface AttentionChange {
  applicantAt: number | null; reply: boolean | null; recountFiles: boolean; recountDeadlines: DeadlineMarks | null;
  /** A connection's call failed (true) or was applied (false); absent or null: unchanged. */
  connection?: boolean | null;
}

/** Writes an AttentionChange in one statement, in the change's transaction. */
export async function keepQueueAttention(db: Db, projectId: string, c: AttentionChange): Promise<void> {
  const connection = c.connection ?? null;
  if (c.applicantAt === null && c.reply === null && !c.recountFiles && c.recountDeadlines === null && connection === null) return;
  const recounted = (c.reply === null ? 0 : ATTENTION.reply) | (c.recountFiles ? ATTENTION.files : 0) | (c.recountDeadlines === null ? 0 : ATTENTION.overdue | ATTENTION.near)
    | (connection === null ? 0 : ATTENTION.connection);
  const keep = ALL_BITS & ~recounted;
  const bits = (c.reply === true ? ATTENTION.reply : 0) | (connection === true ? ATTENTION.connection : 0);
  // A file awaits review while the active (newest) version of one of the project's attachments is pending and the
  // project is out of its initial status: an unsubmitted draft's uploads are the applicant's until submitted.
  const files = c.recountFiles
    ? sql<number>`(case when exists (select 1 from attachments a where a.project_id = ${projectId} and a.approval_status = 'Pending'
        and not exists (select 1 from attachments b where b.project_id = a.project_id and b.definition_id = a.definition_id and b.version > a.version))
        and not exists (select 1 from statuses s where s.id = projects.status_id and s.is_initial = 1)
        then ${sql.lit(ATTENTION.files)} else 0 end)`
    : sql<number>`0`;
  const overdue = overdueBit(sql`${projectId}`, c.recountDeadlines?.openStatusIds ?? []);
  const near = c.recountDeadlines
    ? sql<number>`(case when ${nearDeadline(sql`${projectId}`, c.recountDeadlines.nearBy)} then ${sql.lit(ATTENTION.near)} else 0 end)`
    : sql<number>`0`;
  await db.updateTable('projects').set((eb) => ({
    attention: sql<number>`((${eb.ref('attention')} & ${sql.lit(keep)}) | ${sql.lit(bits)} | ${files} | ${overdue} | ${near})`,
    ...(c.applicantAt === null ? {} : { last_applicant_activity_at: c.applicantAt }),
  })).where('id', '=', projectId).execute();
}

// Overdue: a passed deadline while the project's (new) status has a move onward.
function overdueBit(id: RawBuilder<unknown>, openStatusIds: string[]): RawBuilder<number> {
  return openStatusIds.length === 0 ? sql<number>`0`
    : sql<number>`(case when projects.status_id in (${sql.join(openStatusIds)}) and exists (select 1 from project_deadlines d where d.project_id = ${id} and d.state = 'passed')
        then ${sql.lit(ATTENTION.overdue)} else 0 end)`;
}

// Whether the project `id` has a running deadline due by `nearBy` (the deadlines' project index finds its few rows).
function nearDeadline(id: RawBuilder<unknown>, nearBy: number): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from project_deadlines nd where nd.project_id = ${id} and nd.state = 'running' and nd.due_at <= ${nearBy})`;
}

/**
 * The projects of a program whose deadline bits disagree with their deadlines: for `near`, a running deadline due by
 * `nearBy` and no near bit (time brought the deadline into the window), or the bit and no such deadline; for `overdue`,
 * a passed deadline while in an open status and no overdue bit, or the bit without (an import changed which statuses
 * move on). Index reads compared here (the deadlines' (state, due_at), projects_queue_attention), so no plan joins the
 * program's projects.
 */
export async function deadlineMarksToChange(db: Db, programId: string, marks: DeadlineMarks, which: { near: boolean; overdue: boolean }): Promise<string[]> {
  const differ = new Set<string>();
  const compare = (should: string[], marked: string[]) => {
    const a = new Set(should);
    const b = new Set(marked);
    for (const id of a) if (!b.has(id)) differ.add(id);
    for (const id of b) if (!a.has(id)) differ.add(id);
  };
  const marked = (bit: number) => db.selectFrom('projects').select('id').where('program_id', '=', programId).where('attention', 'in', withBit(bit)).execute();
  if (which.near) {
    const [near, bits] = await Promise.all([
      db.selectFrom('project_deadlines').select('project_id').where('state', '=', 'running').where('due_at', '<=', marks.nearBy).where('program_id', '=', programId).execute(),
      marked(ATTENTION.near),
    ]);
    compare(near.map((r) => r.project_id), bits.map((r) => r.id));
  }
  if (which.overdue) {
    const [passed, bits] = await Promise.all([
      marks.openStatusIds.length === 0 ? Promise.resolve([]) : db.selectFrom('project_deadlines as d').innerJoin('projects as p', 'p.id', 'd.project_id').select('d.project_id')
        .where('d.state', '=', 'passed').where('d.program_id', '=', programId).where('p.status_id', 'in', marks.openStatusIds).execute(),
      marked(ATTENTION.overdue),
    ]);
    compare(passed.map((r) => r.project_id), bits.map((r) => r.id));
  }
  return [...differ];
}

/**
 * Recounts the deadline bits (overdue and near) of the given projects, in the caller's transaction, after locking them
 * as a change step does (PostgreSQL; SQLite's one writer serializes anyway): the recount then reads deadlines
 * committed by any change that held a lock first, and a change after it recounts again. Returns how many rows it wrote.
 */
export async function recountDeadlineMarks(db: Db, dialect: Dialect, projectIds: string[], marks: DeadlineMarks): Promise<number> {
  if (projectIds.length === 0) return 0;
  if (dialect === 'postgres') await db.selectFrom('projects').select('id').where('id', 'in', projectIds).orderBy('id').forUpdate().execute();
  const r = await db.updateTable('projects').set((eb) => ({
    attention: sql<number>`((${eb.ref('attention')} & ${sql.lit(ALL_BITS & ~(ATTENTION.near | ATTENTION.overdue))}) | ${overdueBit(sql.ref('projects.id'), marks.openStatusIds)}
      | (case when ${nearDeadline(sql.ref('projects.id'), marks.nearBy)} then ${sql.lit(ATTENTION.near)} else 0 end))`,
  })).where('id', 'in', projectIds).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The ids of every program (the deadline marks are brought up to date program by program, each with its own calendar). */
export async function programIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('programs').select('id').orderBy('id').execute()).map((r) => r.id);
}

const READS = { listQueueViews, getQueueView, programIds, deadlineMarksToChange };

/** Saved views' reads, and their writes (single statements: a view is no project change); the deadline marks' recount. */
export function queueViewRepository(db: Db, dialect: Dialect) {
  return {
    ...bindDb(db, { ...READS, insertQueueView, updateQueueView, deleteQueueView, keepQueueAttention }),
    recountDeadlineMarks: (projectIds: string[], marks: DeadlineMarks) => recountDeadlineMarks(db, dialect, projectIds, marks),
  };
}

/** Saved views and the queue's kept columns. */
export type QueueViewRepository = ReturnType<typeof queueViewRepository>;
