import type { Kysely, Selectable } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database, ProjectDeadlineTable } from './tables.ts';

type Db = Kysely<Database>;

/** Where a project's deadline stands: running until it is satisfied, cancelled, or passes its due time. */
export type DeadlineState = 'running' | 'satisfied' | 'cancelled' | 'passed';

/** A deadline of one project: which definition (its customId), when it started, the day it is due by and when it passes. */
export interface ProjectDeadline {
  id: string; projectId: string; programId: string; deadlineId: string; state: DeadlineState;
  startedAt: number; dueDate: string; dueAt: number; endedAt: number | null; startedBy: string | null; endedBy: string | null;
}

function toDeadline(r: Selectable<ProjectDeadlineTable>): ProjectDeadline {
  return {
    id: r.id, projectId: r.project_id, programId: r.program_id, deadlineId: r.deadline_id, state: r.state as DeadlineState,
    startedAt: Number(r.started_at), dueDate: r.due_date, dueAt: Number(r.due_at), endedAt: r.ended_at === null ? null : Number(r.ended_at),
    startedBy: r.started_by, endedBy: r.ended_by,
  };
}

/** A project's deadlines, each definition at most once, in the order they are due. */
export async function listProjectDeadlines(db: Db, projectId: string): Promise<ProjectDeadline[]> {
  const rows = await db.selectFrom('project_deadlines').selectAll().where('project_id', '=', projectId).orderBy('due_at').orderBy('deadline_id').execute();
  return rows.map(toDeadline);
}

/** The deadlines of several projects (a page of the work queue), by project. */
export async function listDeadlinesOfProjects(db: Db, projectIds: string[]): Promise<ProjectDeadline[]> {
  if (projectIds.length === 0) return [];
  const rows = await db.selectFrom('project_deadlines').selectAll().where('project_id', 'in', projectIds).orderBy('due_at').execute();
  return rows.map(toDeadline);
}

/**
 * Running deadlines whose due time has come (`due_at <= now`), the longest overdue first: what the poller fires.
 * Only a hint: each is re-checked in the transaction that fires it, with its project locked.
 */
export async function findDueDeadlines(db: Db, now: number, limit: number): Promise<ProjectDeadline[]> {
  const rows = await db.selectFrom('project_deadlines').selectAll().where('state', '=', 'running').where('due_at', '<=', now)
    .orderBy('due_at').orderBy('id').limit(limit).execute();
  return rows.map(toDeadline);
}

/** Starts a deadline of a project: a new row, or the project's row of that definition rewritten (a restart). */
export async function startProjectDeadline(db: Db, d: Omit<ProjectDeadline, 'state' | 'endedAt' | 'endedBy'>): Promise<void> {
  const values = {
    state: 'running', started_at: d.startedAt, due_date: d.dueDate, due_at: d.dueAt, ended_at: null, started_by: d.startedBy, ended_by: null,
  };
  await db.insertInto('project_deadlines').values({ id: d.id, project_id: d.projectId, program_id: d.programId, deadline_id: d.deadlineId, ...values })
    .onConflict((oc) => oc.columns(['project_id', 'deadline_id']).doUpdateSet(values)).execute();
}

/** Ends a running deadline (satisfied, cancelled or passed); false when it was not running. */
export async function endProjectDeadline(db: Db, id: string, state: Exclude<DeadlineState, 'running'>, at: number, by: string | null): Promise<boolean> {
  const r = await db.updateTable('project_deadlines').set({ state, ended_at: at, ended_by: by }).where('id', '=', id).where('state', '=', 'running').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

const READS = { listProjectDeadlines, listDeadlinesOfProjects, findDueDeadlines };

/** The deadline reads, outside a transaction. */
export function deadlineReader(db: Db) {
  return bindDb(db, READS);
}

/** Project deadlines over a transaction: start, end and read them. */
export function deadlineRepository(db: Db) {
  return bindDb(db, { ...READS, startProjectDeadline, endProjectDeadline });
}

/** The deadline reads. */
export type DeadlineReader = ReturnType<typeof deadlineReader>;
/** The deadline reads and writes. */
export type DeadlineRepository = ReturnType<typeof deadlineRepository>;
