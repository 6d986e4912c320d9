import type { Kysely } from 'kysely';
import type { AuditEntry } from '../model/model.ts';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** Appends an audit row. */
export async function audit(db: Db, e: AuditEntry, at: number, id: string): Promise<void> {
  await db.insertInto('audit_log').values({
    id, at, actor_id: e.actorId, action: e.action, agency_id: e.agencyId ?? null, program_id: e.programId ?? null,
    project_id: e.projectId ?? null, detail: JSON.stringify(e.detail ?? {}), request_id: e.requestId ?? null,
  }).execute();
}

/** Audit rows, newest first. */
export async function listAudit(db: Db, f: { projectId?: string; action?: string; limit?: number }): Promise<(AuditEntry & { at: number; id: string })[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (f.projectId !== undefined) query = query.where('project_id', '=', f.projectId);
  if (f.action !== undefined) query = query.where('action', '=', f.action);
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit ?? 100).execute();
  return rows.map((r) => ({
    id: r.id, at: r.at, action: r.action, actorId: r.actor_id, agencyId: r.agency_id, programId: r.program_id,
    projectId: r.project_id, requestId: r.request_id, detail: JSON.parse(r.detail) as Record<string, unknown>,
  }));
}

/** An audit row as the console's trail shows it: the row, and the e-mail address of its actor (null when none or gone). */
export interface AuditRow extends AuditEntry { id: string; at: number; actorEmail: string | null }

/**
 * Which audit rows a trail shows: of one agency, or only of some of its programs (a program admin's), narrowed by
 * actor, project, action (the action itself or its family: `webhook` finds `webhook.create`…) and time (`from`
 * inclusive, `to` exclusive, epoch ms).
 */
export interface AuditFilter {
  agencyId: string; programIds: readonly string[] | null;
  actorId?: string; projectIds?: readonly string[]; action?: string; from?: number; to?: number;
}

/** A place in the trail's order (newest first): after the row with time `at` and id `id`. */
export interface AuditKey { at: number; id: string }

/**
 * Up to `limit` audit rows of the filter, newest first (by time, then id), after `after` when given. A keyset page:
 * rows inserted meanwhile never shift or repeat those of the next page (migration 049 indexes each way in).
 */
export async function pageAudit(db: Db, f: AuditFilter, after: AuditKey | null, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_id').selectAll('a').select('u.email as actor_email');
  query = f.programIds === null ? query.where('a.agency_id', '=', f.agencyId) : query.where('a.program_id', 'in', f.programIds.length > 0 ? [...f.programIds] : ['']);
  if (f.actorId !== undefined) query = query.where('a.actor_id', '=', f.actorId);
  if (f.projectIds !== undefined) query = query.where('a.project_id', 'in', f.projectIds.length > 0 ? [...f.projectIds] : ['']);
  if (f.action !== undefined) {
    // The family `x` is every action from `x.` up to `x/` ('/' follows '.'): a range, so no LIKE pattern to escape.
    const action = f.action;
    query = query.where((eb) => eb.or([eb('a.action', '=', action), eb.and([eb('a.action', '>=', `${action}.`), eb('a.action', '<', `${action}/`)])]));
  }
  if (f.from !== undefined) query = query.where('a.at', '>=', f.from);
  if (f.to !== undefined) query = query.where('a.at', '<', f.to);
  if (after !== null) query = query.where((eb) => eb.or([eb('a.at', '<', after.at), eb.and([eb('a.at', '=', after.at), eb('a.id', '<', after.id)])]));
  const rows = await query.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id, at: Number(r.at), action: r.action, actorId: r.actor_id, actorEmail: r.actor_email, agencyId: r.agency_id, programId: r.program_id,
    projectId: r.project_id, requestId: r.request_id, detail: JSON.parse(r.detail) as Record<string, unknown>,
  }));
}

/** Reads the audit log (operators and tests). */
export type AuditReader = ReturnType<typeof auditReader>;

/** Writes and reads the audit log; rows are only written inside a change's transaction. */
export type AuditRepository = ReturnType<typeof auditRepository>;

/** The audit log's reads over a database. */
export function auditReader(db: Db) {
  return bindDb(db, { list: listAudit, page: pageAudit });
}

/** The audit log over a transaction. */
export function auditRepository(db: Db) {
  return bindDb(db, { list: listAudit, page: pageAudit, write: audit });
}
