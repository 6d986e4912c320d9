import { isoTimestamp } from '../model/clock.ts';
import type { ExportFieldView, ExportView } from '../domain/views.ts';
import { formatSchemaVersion } from './encode-projects-response.ts';
import { XmlWriter } from './xml-writer.ts';

/** Formats epoch milliseconds the way the export writes UTC times: `2015-04-16T23-59-45` (milliseconds dropped). */
export function exportTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/:/g, '-');
}

/**
 * Encodes the GetExportProject answer for `view.version` 1 (ProjectExportDataGetResponse.xsd) or 2
 * (ProjectExportDataGetResponseV2.xsd, which adds ChangedBy to history entries). Throws Error for any other version.
 */
export function encodeProjectExportDataGetResponse(view: ExportView, ns: string): string {
  if (view.version !== 1 && view.version !== 2) throw new Error(`ProjectExportDataGetResponse has no version ${view.version}`);
  const w = new XmlWriter(ns).start('ProjectExportDataGetResponse', { SchemaVersion: formatSchemaVersion(view.version) });
  w.start('Project', {
    ProjectId: view.projectId, ProgramId: view.programId, Number: view.number, Owner: view.owner, Status: view.status,
    CreatedUTC: exportTime(view.createdAt), CreatedBy: view.createdBy, LastChangedUTC: exportTime(view.lastChangedAt), LastChangedBy: view.lastChangedBy,
  }).start('Data');
  for (const form of view.forms) {
    w.start('Form', { FormId: form.formId, CustomId: form.customId, Name: form.name });
    for (const group of form.groups) {
      w.start('Group', { Name: group.name });
      for (const field of group.fields) writeField(w, field);
      w.end();
    }
    w.end();
  }
  w.end().start('StatusHistory');
  for (const e of view.history) {
    w.empty('Status', {
      StatusId: e.statusId, CustomId: e.customId, Name: e.name, Timestamp: isoTimestamp(e.timestamp), ReportAs: e.reportAs,
      ChangedBy: view.version === 2 ? e.changedBy : null,
    });
  }
  w.end().start('Attachments');
  for (const a of view.attachments) {
    w.empty('Attachment', {
      AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName, FormId: a.formId,
      FileSize: a.fileSize === undefined ? null : String(a.fileSize), ContentType: a.contentType, Sha256: a.sha256,
      Version: a.version === undefined ? null : String(a.version), UploadedBy: a.uploadedBy,
      UploadedUTC: a.uploadedAt === undefined ? null : exportTime(a.uploadedAt), ApprovalStatus: a.approvalStatus, Note: a.note,
    });
  }
  return w.end().end().end().finish();
}

function writeField(w: XmlWriter, f: ExportFieldView): void {
  w.start('Field', {
    DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name,
    ChangeTime: f.changedAt === null ? null : exportTime(f.changedAt), ChangedBy: f.changedBy,
  });
  for (const value of f.values) w.element('CurrentValue', undefined, value);
  w.end();
}
