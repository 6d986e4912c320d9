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

/** Reads the audit log (operators and tests). */
export type AuditReader = ReturnType<typeof auditReader>;

/** Writes and reads the audit log; rows are only written inside a change's transaction. */
export type AuditRepository = ReturnType<typeof auditRepository>;

/** The audit log's reads over a database. */
export function auditReader(db: Db) {
  return bindDb(db, { list: listAudit });
}

/** The audit log over a transaction. */
export function auditRepository(db: Db) {
  return bindDb(db, { list: listAudit, write: audit });
}
