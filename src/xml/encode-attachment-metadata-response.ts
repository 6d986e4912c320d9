import { isoTimestamp } from '../model/clock.ts';
import type { AttachmentMetadataView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes `<AttachmentMetadataResponse><AttachmentMetadata …/></…>`: one version of a project's file. */
export function encodeAttachmentMetadataResponse(view: AttachmentMetadataView, ns: string): string {
  return new XmlWriter(ns).start('AttachmentMetadataResponse').empty('AttachmentMetadata', {
    AttachmentId: view.attachmentId, AttachmentName: view.attachmentName, FileName: view.fileName, FileSize: String(view.fileSize),
    ContentType: view.contentType, Sha256: view.sha256, Version: String(view.version), UploadedBy: view.uploadedBy,
    UploadedTimestamp: isoTimestamp(view.uploadedTimestamp), ApprovalStatus: view.approvalStatus, Note: view.note,
    ReviewedBy: view.reviewedBy, ReviewedTimestamp: view.reviewedTimestamp === null ? null : isoTimestamp(view.reviewedTimestamp),
  }).end().finish();
}
