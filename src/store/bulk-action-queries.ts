import type { Kysely, Selectable } from 'kysely';
import type { Project } from '../model/model.ts';
import { bindDb } from './bind-db.ts';
import { toProject } from './project-queries.ts';
import type { BulkActionProjectTable, BulkActionTable, Database } from './tables.ts';

type Db = Kysely<Database>;

/** What happened to one project of a bulk action: not yet tried, changed, already so (nothing to do), or refused. */
export type BulkOutcome = 'pending' | 'done' | 'unchanged' | 'refused';

/** A bulk action as stored: who ran what (kind and parameters as JSON) on how many projects, under which key. */
export interface BulkActionRecord {
  id: string; programId: string; actorId: string; key: string; fingerprint: string; kind: string; params: Record<string, unknown>;
  scope: 'selected' | 'filter'; projectCount: number; state: 'running' | 'finished'; createdAt: number; finishedAt: number | null;
}

/** One project of a bulk action, in the order the action took them, with its outcome. */
export interface BulkProjectResult {
  position: number; projectId: string; outcome: BulkOutcome; code: string | null; message: string | null;
  /** The audit detail of the change made (before and after), for `done`. */
  detail: Record<string, unknown> | null;
  at: number | null;
}

function toAction(r: Selectable<BulkActionTable>): BulkActionRecord {
  return {
    id: r.id, programId: r.program_id, actorId: r.actor_id, key: r.idempotency_key, fingerprint: r.fingerprint, kind: r.kind,
    params: JSON.parse(r.params) as Record<string, unknown>, scope: r.scope as BulkActionRecord['scope'], projectCount: Number(r.project_count),
    state: r.state as BulkActionRecord['state'], createdAt: Number(r.created_at), finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

function toResult(r: Selectable<BulkActionProjectTable>): BulkProjectResult {
  return {
    position: Number(r.position), projectId: r.project_id, outcome: r.outcome as BulkOutcome, code: r.code, message: r.message,
    detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>), at: r.at === null ? null : Number(r.at),
  };
}

// SQLite allows 32766 bound parameters per statement; a project row binds four.
const ROWS_PER_INSERT = 5000;

/**
 * Inserts a bulk action and its projects (all pending), in one transaction with its audit row. False, and nothing
 * written, when the user already holds the key (a retry or a race: the caller reads the action that holds it).
 */
export async function insertBulkAction(db: Db, a: Omit<BulkActionRecord, 'state' | 'finishedAt'>, projectIds: string[]): Promise<boolean> {
  const r = await db.insertInto('bulk_actions').values({
    id: a.id, program_id: a.programId, actor_id: a.actorId, idempotency_key: a.key, fingerprint: a.fingerprint, kind: a.kind,
    params: JSON.stringify(a.params), scope: a.scope, project_count: a.projectCount, state: 'running', created_at: a.createdAt, finished_at: null,
  }).onConflict((oc) => oc.columns(['actor_id', 'idempotency_key']).doNothing()).executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  const rows = projectIds.map((projectId, position) => ({
    bulk_action_id: a.id, position, project_id: projectId, outcome: 'pending', code: null, message: null, detail: null, at: null,
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await db.insertInto('bulk_action_projects').values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
  return true;
}

/** A user's bulk action by the key its form carried, or null. */
export async function findBulkActionByKey(db: Db, actorId: string, key: string): Promise<BulkActionRecord | null> {
  const r = await db.selectFrom('bulk_actions').selectAll().where('actor_id', '=', actorId).where('idempotency_key', '=', key).executeTakeFirst();
  return r ? toAction(r) : null;
}

/** A bulk action by id, or null. */
export async function findBulkAction(db: Db, id: string): Promise<BulkActionRecord | null> {
  const r = await db.selectFrom('bulk_actions').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toAction(r) : null;
}

/** The projects of a bulk action with their outcomes, in the action's order. */
export async function listBulkResults(db: Db, id: string): Promise<BulkProjectResult[]> {
  const rows = await db.selectFrom('bulk_action_projects').selectAll().where('bulk_action_id', '=', id).orderBy('position').execute();
  return rows.map(toResult);
}

/** The projects of a bulk action that are projects of `programId`, as they are now (for their numbers on the result page). */
export async function projectsOfBulkAction(db: Db, id: string, programId: string): Promise<Project[]> {
  const rows = await db.selectFrom('projects').innerJoin('bulk_action_projects as b', 'b.project_id', 'projects.id').selectAll('projects')
    .where('b.bulk_action_id', '=', id).where('projects.program_id', '=', programId).execute();
  return rows.map(toProject);
}

/**
 * Sets the outcome of a project still pending in the action; false when it has one already. `done` is written by the
 * change step in the change's own transaction, so a project is recorded as changed exactly when its change commits.
 */
export async function setBulkOutcome(
  db: Db, id: string, projectId: string, o: { outcome: Exclude<BulkOutcome, 'pending'>; code?: string | null; message?: string | null; detail?: Record<string, unknown> | null; at: number },
): Promise<boolean> {
  const r = await db.updateTable('bulk_action_projects').set({
    outcome: o.outcome, code: o.code ?? null, message: o.message ?? null, detail: o.detail ? JSON.stringify(o.detail) : null, at: o.at,
  }).where('bulk_action_id', '=', id).where('project_id', '=', projectId).where('outcome', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks a bulk action finished (every project has an outcome). */
export async function finishBulkAction(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('bulk_actions').set({ state: 'finished', finished_at: at }).where('id', '=', id).execute();
}

const READS = { findBulkActionByKey, findBulkAction, listBulkResults, projectsOfBulkAction };

/** Reads bulk actions and their per-project results. */
export function bulkActionReader(db: Db) {
  return bindDb(db, READS);
}

/** Bulk actions over a transaction: recorded, their projects' outcomes set, and finished. */
export function bulkActionRepository(db: Db) {
  return bindDb(db, { ...READS, insertBulkAction, setBulkOutcome, finishBulkAction });
}

/** The bulk actions' reads. */
export type BulkActionReader = ReturnType<typeof bulkActionReader>;

/** The bulk actions' reads and writes. */
export type BulkActionRepository = ReturnType<typeof bulkActionRepository>;
