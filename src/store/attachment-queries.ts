import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ApprovalStatus, AttachmentRecord } from '../model/model.ts';
import type { AttachmentTable, Database } from './tables.ts';
import { bindDb } from './bind-db.ts';
import { compileOnce } from './compile-once.ts';

type Db = Kysely<Database>;

/** What a review (SetAttachmentMetadata) changes on one version. */
export interface AttachmentReview { approvalStatus: ApprovalStatus; note: string | null; reviewedBy: string; reviewedAt: number }

function toAttachment(r: Selectable<AttachmentTable>): AttachmentRecord {
  return {
    id: r.id, projectId: r.project_id, definitionId: r.definition_id, version: Number(r.version), blobKey: r.blob_key,
    fileName: r.file_name, contentType: r.content_type, sizeBytes: Number(r.size_bytes), sha256: r.sha256,
    uploadedBy: r.uploaded_by, uploadedAt: Number(r.uploaded_at), approvalStatus: r.approval_status as ApprovalStatus,
    note: r.note, reviewedBy: r.reviewed_by, reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
    documentRequestId: r.document_request_id, templateVersion: r.template_version,
  };
}

/** One version of a project's file for a definition, or the active (highest) version when `version` is left out. */
export async function getAttachment(db: Db, projectId: string, definitionId: string, version?: number): Promise<AttachmentRecord | null> {
  let query = db.selectFrom('attachments').selectAll().where('project_id', '=', projectId).where('definition_id', '=', definitionId);
  query = version === undefined ? query.orderBy('version', 'desc').limit(1) : query.where('version', '=', version);
  const row = await query.executeTakeFirst();
  return row ? toAttachment(row) : null;
}

/** The active file of every definition of a project that has one. */
export async function listActiveAttachments(db: Db, projectId: string): Promise<AttachmentRecord[]> {
  // Every version in key order, the newest of each definition kept: one walk of the (project, definition, version)
  // key instead of a search for each file's newest version (GetProjectData reads this on every call).
  const rows = await attachmentRows(db, projectId);
  return rows.filter((r, i) => rows[i + 1]?.definition_id !== r.definition_id).map(toAttachment);
}

const attachmentRows = compileOnce((db, projectId: string) =>
  db.selectFrom('attachments').selectAll().where('project_id', '=', projectId).orderBy('definition_id').orderBy('version'));

/** How many projects one batch read names: far below the parameters a statement may bind on either database. */
const PROJECTS_PER_QUERY = 1000;

/** The active (newest) file of every attachment definition of several projects, read in batches of project ids. */
export async function activeAttachmentsOfProjects(db: Db, projectIds: string[]): Promise<AttachmentRecord[]> {
  const ids = [...new Set(projectIds)];
  const out: AttachmentRecord[] = [];
  for (let start = 0; start < ids.length; start += PROJECTS_PER_QUERY) {
    const rows = await db.selectFrom('attachments as a').selectAll('a').where('a.project_id', 'in', ids.slice(start, start + PROJECTS_PER_QUERY))
      .where('a.version', '=', (eb) => eb.selectFrom('attachments as b').select((b) => b.fn.max('b.version').as('v'))
        .whereRef('b.project_id', '=', 'a.project_id').whereRef('b.definition_id', '=', 'a.definition_id'))
      .orderBy('a.project_id').orderBy('a.definition_id').execute();
    out.push(...rows.map(toAttachment));
  }
  return out;
}

/** True when some attachment version points at the blob. */
export async function isBlobReferenced(db: Db, blobKey: string): Promise<boolean> {
  const row = await db.selectFrom('attachments').select('id').where('blob_key', '=', blobKey).executeTakeFirst();
  return row !== undefined;
}

/** The row of one stored version (also used by the bulk path). */
export function attachmentRow(a: AttachmentRecord): Insertable<AttachmentTable> {
  return {
    id: a.id, project_id: a.projectId, definition_id: a.definitionId, version: a.version, blob_key: a.blobKey,
    file_name: a.fileName, content_type: a.contentType, size_bytes: a.sizeBytes, sha256: a.sha256,
    uploaded_by: a.uploadedBy, uploaded_at: a.uploadedAt, approval_status: a.approvalStatus, note: a.note,
    reviewed_by: a.reviewedBy, reviewed_at: a.reviewedAt, document_request_id: a.documentRequestId ?? null, template_version: a.templateVersion ?? null,
  };
}

/** Stores a new version. */
export async function insertAttachment(db: Db, a: AttachmentRecord): Promise<void> {
  await db.insertInto('attachments').values(attachmentRow(a)).execute();
}

/** Records a review of one version: its approval status, note, and who reviewed it when. */
export async function updateAttachmentReview(db: Db, id: string, r: AttachmentReview): Promise<void> {
  await db.updateTable('attachments')
    .set({ approval_status: r.approvalStatus, note: r.note, reviewed_by: r.reviewedBy, reviewed_at: r.reviewedAt })
    .where('id', '=', id).execute();
}

/** The version a document request generated, if it did (at most one: the column is unique). */
export async function getAttachmentOfRequest(db: Db, requestId: string): Promise<AttachmentRecord | null> {
  const row = await db.selectFrom('attachments').selectAll().where('document_request_id', '=', requestId).executeTakeFirst();
  return row ? toAttachment(row) : null;
}

const READS = { getAttachment, listActiveAttachments, activeAttachmentsOfProjects, isBlobReferenced, getAttachmentOfRequest };
const WRITES = { insertAttachment, updateAttachmentReview };

/** The files of projects' attachment definitions, every version kept: reads. */
export type AttachmentReader = ReturnType<typeof attachmentReader>;

/** The files of projects' attachment definitions: reads and writes (inside a transaction). */
export type AttachmentRepository = ReturnType<typeof attachmentRepository>;

/** The attachment reads over a database. */
export function attachmentReader(db: Db) {
  return bindDb(db, READS);
}

/** The attachment reads and writes over a transaction. */
export function attachmentRepository(db: Db) {
  return bindDb(db, { ...READS, ...WRITES });
}
