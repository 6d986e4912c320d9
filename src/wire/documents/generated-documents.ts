import type { DocumentRequestView, ProjectDocumentsView } from '../../domain/documents/generation-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { boolean, complex, type DocumentValue, dateTime, enumeration, many, maybe, nonNegativeInteger, one, optional, positiveInteger, required, responseDocument, string } from '../wire-type.ts';

const DocumentRequestState = enumeration('DocumentRequestState', ['queued', 'generated', 'failed'],
  'queued until the service has rendered it (after the change that asked, retried with backoff), then generated, or failed after its last attempt.');

const DocumentRequest = complex({
  name: 'DocumentRequest',
  doc: 'A request to generate one of the program\'s documents for the project; the file it generates is a version of AttachmentId.',
  attributes: {
    RequestId: required(string),
    DocumentId: required(string, { doc: 'The customId of the program\'s document.' }),
    State: required(DocumentRequestState),
    RequestedAt: required(dateTime),
    FinishedAt: optional(dateTime, { doc: 'When it was generated or given up; absent while queued.' }),
    Attempts: required(nonNegativeInteger),
    Error: optional(string, { doc: 'Staff only: why the last attempt failed.' }),
    AttachmentId: required(string, { doc: 'The attachment definition the generated files are versions of (GetActiveAttachment, GetAttachmentMetadata).' }),
    AttachmentVersion: optional(positiveInteger, { doc: 'The version this request generated; absent until it has.' }),
  },
});

/** GenerateDocument: the request, queued. */
export const DocumentRequestResponse = responseDocument('DocumentRequestResponse', complex({
  children: { DocumentRequest: one(DocumentRequest) },
}), 'GenerateDocument: the request, queued; the document is rendered after the change commits (GetProjectDocuments shows how it went).');

/** GetProjectDocuments: the program's documents on the project with their newest request. */
export const ProjectDocumentsResponse = responseDocument('ProjectDocumentsResponse', complex({
  children: {
    Project: one(complex({
      attributes: {
        ProjectId: required(string),
        CanGenerate: required(boolean, { doc: 'True when the caller holds the privilege generateDocuments.' }),
      },
      children: {
        Document: many(complex({
          attributes: { DocumentId: required(string), Name: required(string), AttachmentId: required(string) },
          children: { DocumentRequest: maybe(DocumentRequest, 'The newest request; absent when none was made.') },
        })),
      },
    })),
  },
}), 'GetProjectDocuments: the program\'s documents on the project (applicants: those shown to them), each with its newest request.');

function requestValue(r: DocumentRequestView) {
  return {
    RequestId: r.requestId, DocumentId: r.documentId, State: r.state, RequestedAt: isoTimestamp(r.requestedAt),
    FinishedAt: r.finishedAt === null ? undefined : isoTimestamp(r.finishedAt), Attempts: r.attempts, Error: r.error ?? undefined,
    AttachmentId: r.attachmentId, AttachmentVersion: r.attachmentVersion ?? undefined,
  };
}

/** GenerateDocument's answer. */
export function documentRequestValue(view: DocumentRequestView): DocumentValue<typeof DocumentRequestResponse> {
  return { DocumentRequest: requestValue(view) };
}

/** GetProjectDocuments' answer. */
export function projectDocumentsValue(view: ProjectDocumentsView): DocumentValue<typeof ProjectDocumentsResponse> {
  return {
    Project: {
      ProjectId: view.projectId, CanGenerate: view.canGenerate,
      Document: view.documents.map((d) => ({
        DocumentId: d.documentId, Name: d.name, AttachmentId: d.attachmentId, DocumentRequest: d.latest === null ? undefined : requestValue(d.latest),
      })),
    },
  };
}
