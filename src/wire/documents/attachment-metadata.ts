import type { AttachmentMetadataView, AttachmentReviewInput } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import {
  complex, type DocumentValue, dateTime, long, one, optional, positiveInteger, requestDocument, required, responseDocument, restrict, string, token,
} from '../wire-type.ts';

const AttachmentMetadata = complex({
  name: 'AttachmentMetadata',
  doc: 'AttachmentId and AttachmentName are the definition\'s; Version counts the uploads of the definition in the project from 1 '
    + '(the highest is the active file); UploadedBy and ReviewedBy are e-mail addresses; ReviewedBy and ReviewedTimestamp name '
    + 'the admin who last set the metadata.',
  attributes: {
    AttachmentId: required(string),
    AttachmentName: required(string),
    FileName: required(string),
    FileSize: required(long),
    ContentType: required(string),
    Sha256: required(restrict(string, {
      name: 'Sha256', pattern: '[0-9a-f]{64}', doc: 'The SHA-256 of the file\'s bytes, 64 lower-case hex digits (also the download\'s ETag).',
    })),
    Version: required(positiveInteger),
    UploadedBy: required(string),
    UploadedTimestamp: required(dateTime),
    ApprovalStatus: required(restrict(string, { name: 'ApprovalStatus', enumeration: ['Pending', 'Approved', 'Rejected'] })),
    Note: optional(string),
    ReviewedBy: optional(string),
    ReviewedTimestamp: optional(dateTime),
  },
});

/** SetProjectAttachment, GetAttachmentMetadata and SetAttachmentMetadata: one version of a project's file. */
export const AttachmentMetadataResponse = responseDocument('AttachmentMetadataResponse', complex({
  children: { AttachmentMetadata: one(AttachmentMetadata) },
}), 'SetProjectAttachment, GetAttachmentMetadata and SetAttachmentMetadata: one version of a project\'s file for an attachment '
  + 'definition (the commercial system\'s AttachmentMetadataResponse, extended).');

const ACTIONS: AttachmentReviewInput['action'][] = ['Approve', 'Reject', 'Unmark', 'Save'];

/** SetAttachmentMetadata's request body (the commercial system's root name, without Request). */
export const SetAttachmentMetadata = requestDocument('SetAttachmentMetadata', complex({
  attributes: {
    AttachmentStatus: required(restrict(token, {
      name: 'AttachmentStatus',
      pattern: '[Aa][Pp][Pp][Rr][Oo][Vv][Ee]|[Rr][Ee][Jj][Ee][Cc][Tt]|[Uu][Nn][Mm][Aa][Rr][Kk]|[Ss][Aa][Vv][Ee]',
      doc: 'Approve (ApprovalStatus Approved), Reject (Rejected), Unmark (Pending) or Save (unchanged), in any letter case.',
    })),
    Note: optional(restrict(string, { name: 'Note', maxLength: 4000 })),
  },
}), 'SetAttachmentMetadata request (the commercial system\'s root name): how to review the active file, and optionally its new '
  + 'note (an empty Note clears it; no Note keeps it).');

/** The value of an AttachmentMetadataResponse. */
export function attachmentMetadataValue(view: AttachmentMetadataView): DocumentValue<typeof AttachmentMetadataResponse> {
  return {
    AttachmentMetadata: {
      AttachmentId: view.attachmentId, AttachmentName: view.attachmentName, FileName: view.fileName, FileSize: view.fileSize,
      ContentType: view.contentType, Sha256: view.sha256, Version: view.version, UploadedBy: view.uploadedBy,
      UploadedTimestamp: isoTimestamp(view.uploadedTimestamp), ApprovalStatus: view.approvalStatus, Note: view.note,
      ReviewedBy: view.reviewedBy, ReviewedTimestamp: view.reviewedTimestamp === null ? null : isoTimestamp(view.reviewedTimestamp),
    },
  };
}

/** What a SetAttachmentMetadata asks for: the action in its canonical spelling, and Note as sent (null when absent). */
export function attachmentReviewInput(value: DocumentValue<typeof SetAttachmentMetadata>): AttachmentReviewInput {
  const sent = value.AttachmentStatus.toLowerCase();
  // The schemas admit only the four actions, in any case.
  const action = ACTIONS.find((a) => a.toLowerCase() === sent) ?? 'Save';
  return { action, note: value.Note ?? null };
}
