import type { Kysely, Selectable } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database, DocumentRequestTable } from './tables.ts';

type Db = Kysely<Database>;

/** Where a document request stands: waiting to be rendered (again), generated, or given up after its last attempt. */
export type DocumentRequestState = 'queued' | 'generated' | 'failed';

/** A request to generate one of the program's documents for a project (migration 046). */
export interface DocumentRequest {
  id: string; programId: string; projectId: string; documentId: string; state: DocumentRequestState;
  requestedBy: string; requestedAt: number;
  /** The customId of the automation that asked; null when a person did. */
  automation: string | null;
  attempts: number; nextAttemptAt: number; leaseUntil: number | null; lastError: string | null;
  finishedAt: number | null;
  /** The attachment version it generated; null until it has. */
  attachmentVersion: number | null;
}

function toRequest(r: Selectable<DocumentRequestTable>): DocumentRequest {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: r.id, programId: r.program_id, projectId: r.project_id, documentId: r.document_id, state: r.state as DocumentRequestState,
    requestedBy: r.requested_by, requestedAt: Number(r.requested_at), automation: r.automation, attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at), leaseUntil: n(r.lease_until), lastError: r.last_error, finishedAt: n(r.finished_at),
    attachmentVersion: n(r.attachment_version),
  };
}

/** Records a new request, queued and due at once (in the change that asked for it). */
export async function insertDocumentRequest(db: Db, r: Pick<DocumentRequest, 'id' | 'programId' | 'projectId' | 'documentId' | 'requestedBy' | 'requestedAt' | 'automation'>): Promise<void> {
  await db.insertInto('document_requests').values({
    id: r.id, program_id: r.programId, project_id: r.projectId, document_id: r.documentId, state: 'queued', requested_by: r.requestedBy,
    requested_at: r.requestedAt, automation: r.automation, attempts: 0, next_attempt_at: r.requestedAt, lease_until: null, last_error: null,
    finished_at: null, attachment_version: null,
  }).execute();
}

/** One request by id. */
export async function getDocumentRequest(db: Db, id: string): Promise<DocumentRequest | null> {
  const row = await db.selectFrom('document_requests').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRequest(row) : null;
}

/** A project's requests, newest first (its documents' states for the API and the review page). */
export async function listProjectDocumentRequests(db: Db, projectId: string): Promise<DocumentRequest[]> {
  const rows = await db.selectFrom('document_requests').selectAll().where('project_id', '=', projectId)
    .orderBy('requested_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toRequest);
}

/**
 * Claims up to `limit` due requests until `now + leaseMs`: queued, due, and not held by a worker whose lease still
 * runs (a worker that died while rendering loses its claim when the lease ends). On PostgreSQL rows another instance is
 * claiming are skipped (SKIP LOCKED).
 */
export async function claimDueDocumentRequests(db: Db, dialect: Dialect, now: number, leaseMs: number, limit: number): Promise<DocumentRequest[]> {
  let query = db.selectFrom('document_requests').selectAll().where('state', '=', 'queued').where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .orderBy('next_attempt_at').orderBy('requested_at').orderBy('id').limit(limit);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  const rows = await query.execute();
  if (rows.length === 0) return [];
  await db.updateTable('document_requests').set({ lease_until: now + leaseMs }).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => ({ ...toRequest(r), leaseUntil: now + leaseMs }));
}

/** Records that a request generated its version (in that version's change). */
export async function markDocumentGenerated(db: Db, id: string, at: number, attempts: number, version: number): Promise<void> {
  await db.updateTable('document_requests').set({ state: 'generated', finished_at: at, attempts, lease_until: null, last_error: null, attachment_version: version })
    .where('id', '=', id).execute();
}

/** Records a failed attempt: queued again from `nextAttemptAt`, or failed for good (with `at`) when nextAttemptAt is null. */
export async function markDocumentAttemptFailed(db: Db, id: string, attempts: number, error: string, nextAttemptAt: number | null, at: number): Promise<void> {
  await db.updateTable('document_requests').set(nextAttemptAt === null
    ? { state: 'failed', attempts, last_error: error, lease_until: null, finished_at: at }
    : { attempts, last_error: error, lease_until: null, next_attempt_at: nextAttemptAt })
    .where('id', '=', id).where('state', '=', 'queued').execute();
}

const READS = { getDocumentRequest, listProjectDocumentRequests };

/** Document requests: reads. */
export type DocumentRequestReader = ReturnType<typeof documentRequestReader>;

/** Document requests: reads and writes (inside a transaction). */
export type DocumentRequestRepository = ReturnType<typeof documentRequestRepository>;

/** The document request reads over a database. */
export function documentRequestReader(db: Db) {
  return bindDb(db, READS);
}

/** The document request reads and writes over a transaction; claims take the dialect (SKIP LOCKED on PostgreSQL). */
export function documentRequestRepository(db: Db, dialect: Dialect) {
  return {
    ...bindDb(db, { ...READS, insertDocumentRequest, markDocumentGenerated, markDocumentAttemptFailed }),
    claimDueDocumentRequests: (now: number, leaseMs: number, limit: number) => claimDueDocumentRequests(db, dialect, now, leaseMs, limit),
  };
}
