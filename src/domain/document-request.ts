import type { DocumentTemplate } from '../model/document.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { DocumentRequest } from '../store/document-request-queries.ts';
import type { StoreWriter } from '../store/store.ts';

/** The audit action of a request to generate a document (in the change that asks). */
export const REQUEST_ACTION = 'project.document.request';

/** The audit action of a generated document's new version (in the generation task's own change). */
export const GENERATED_ACTION = 'project.document.generate';

/**
 * Records a request to generate `template` for a project, queued, in the transaction of the change that asks for it
 * (GenerateDocument, or an automation's generateDocument). Nothing is rendered here: the generation task renders it
 * after the commit, holding no lock. Returns the request and the audit detail the change records.
 */
export async function requestDocument(
  tx: Pick<StoreWriter, 'documents'>, ids: IdGenerator,
  at: { programId: string; projectId: string; template: DocumentTemplate; requestedBy: string; now: number; automation: string | null },
): Promise<{ request: DocumentRequest; detail: Record<string, unknown> }> {
  const request: DocumentRequest = {
    id: ids.next(), programId: at.programId, projectId: at.projectId, documentId: at.template.customId, state: 'queued',
    requestedBy: at.requestedBy, requestedAt: at.now, automation: at.automation, attempts: 0, nextAttemptAt: at.now, leaseUntil: null,
    lastError: null, finishedAt: null, attachmentVersion: null,
  };
  await tx.documents.insertDocumentRequest(request);
  return { request, detail: { documentId: request.documentId, requestId: request.id } };
}
