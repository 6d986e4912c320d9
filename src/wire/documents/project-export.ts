import type { ExportFieldView, ExportView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import {
  complex, type DocumentValue, dateTime, long, many, maybe, one, optional, positiveInteger, required, responseDocument, restrict, string,
} from '../wire-type.ts';
import { TableRows, tableRowsValue } from './table-rows.ts';

/** Formats epoch milliseconds the way the export writes UTC times: `2015-04-16T23-59-45` (milliseconds dropped). */
export function exportTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/:/g, '-');
}

const ExportTime = restrict(string, {
  name: 'ExportTime', pattern: '\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}',
  doc: 'A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45.',
});

const Field = complex({
  name: 'Field',
  doc: 'One CurrentValue per value (none when empty), or for a table field its Rows (absent when it has none); ChangeTime '
    + 'and ChangedBy are absent for a field never saved.',
  attributes: {
    DataFieldId: required(string), CustomId: optional(string), Name: required(string), ChangeTime: optional(ExportTime), ChangedBy: optional(string),
  },
  children: { CurrentValue: many(string), Rows: maybe(TableRows) },
});

const Group = complex({
  name: 'Group',
  doc: 'The fields of one data-field group; Name is absent for the fields without a group.',
  attributes: { Name: optional(string) },
  children: { Field: many(Field) },
});

const Form = complex({
  name: 'Form',
  attributes: { FormId: required(string), CustomId: optional(string), Name: required(string) },
  children: { Group: many(Group) },
});

const ReportAs = restrict(string, { name: 'ReportAs', enumeration: ['normal', 'suppress'] });

const HISTORY_ATTRIBUTES = {
  StatusId: required(string), CustomId: optional(string), Name: required(string), Timestamp: required(dateTime), ReportAs: required(ReportAs),
} as const;

const Attachment = complex({
  name: 'Attachment',
  doc: 'The active file of an attachment definition that has one: the definition, the form it belongs to, and the file\'s '
    + 'metadata as GetAttachmentMetadata shows it (UploadedBy an e-mail address, UploadedUTC in the export\'s time format).',
  attributes: {
    AttachmentId: required(string), CustomId: optional(string), Name: required(string), FileName: optional(string), FormId: optional(string),
    FileSize: optional(long), ContentType: optional(string), Sha256: optional(string), Version: optional(positiveInteger),
    UploadedBy: optional(string), UploadedUTC: optional(ExportTime), ApprovalStatus: optional(string), Note: optional(string),
  },
});

/** The export's body around its history entries, which are all that versions 1 and 2 differ in (besides SchemaVersion). */
function exportBody<H extends typeof HISTORY_ATTRIBUTES, V extends string>(history: H, schemaVersion: V) {
  const Project = complex({
    name: 'Project',
    attributes: {
      ProjectId: required(string), ProgramId: required(string), Number: optional(string), Owner: required(string), Status: required(string),
      CreatedUTC: required(ExportTime), CreatedBy: required(string), LastChangedUTC: required(ExportTime), LastChangedBy: required(string),
    },
    children: {
      Data: one(complex({ children: { Form: many(Form) } })),
      StatusHistory: one(complex({ children: { Status: many(complex({ name: 'HistoryEntry', attributes: history })) } })),
      Attachments: one(complex({ children: { Attachment: many(Attachment) } })),
    },
  });
  return complex({ attributes: { SchemaVersion: required(string, { fixed: schemaVersion }) }, children: { Project: one(Project) } });
}

/** GetExportProject, version 1 (SchemaVersion 1.0). */
export const ProjectExportDataGetResponse = responseDocument('ProjectExportDataGetResponse', exportBody(HISTORY_ATTRIBUTES, '1.0'),
  'GetExportProject, version 1 (SchemaVersion 1.0): the whole project for archiving or migration, its data grouped by form and '
  + 'data-field group, its status history and its attachments. Version 2 (ProjectExportDataGetResponseV2.xsd) adds ChangedBy to '
  + 'the history entries.');

/** GetExportProject, version 2 (SchemaVersion 2.0): the same root element, with ChangedBy on every history entry. */
export const ProjectExportDataGetResponseV2 = responseDocument('ProjectExportDataGetResponseV2',
  exportBody({ ...HISTORY_ATTRIBUTES, ChangedBy: required(string) }, '2.0'),
  'GetExportProject, version 2 (SchemaVersion 2.0): version 1 (ProjectExportDataGetResponse.xsd) plus ChangedBy, the e-mail '
  + 'address of the user who set the status, on every status-history entry.', 'ProjectExportDataGetResponse');

function fieldValue(f: ExportFieldView) {
  return {
    DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name,
    ChangeTime: f.changedAt === null ? null : exportTime(f.changedAt), ChangedBy: f.changedBy, CurrentValue: f.values,
    Rows: tableRowsValue(f.rows),
  };
}

/** The export's Project with `history`, the entries as each version writes them (in document order, as JSON shows them). */
function projectValue<H>(view: ExportView, history: H[]) {
  return {
    ProjectId: view.projectId, ProgramId: view.programId, Number: view.number, Owner: view.owner, Status: view.status,
    CreatedUTC: exportTime(view.createdAt), CreatedBy: view.createdBy, LastChangedUTC: exportTime(view.lastChangedAt), LastChangedBy: view.lastChangedBy,
    Data: {
      Form: view.forms.map((form) => ({
        FormId: form.formId, CustomId: form.customId, Name: form.name,
        Group: form.groups.map((group) => ({ Name: group.name, Field: group.fields.map(fieldValue) })),
      })),
    },
    StatusHistory: { Status: history },
    Attachments: {
      Attachment: view.attachments.map((a) => ({
        AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName, FormId: a.formId, FileSize: a.fileSize,
        ContentType: a.contentType, Sha256: a.sha256, Version: a.version, UploadedBy: a.uploadedBy,
        UploadedUTC: a.uploadedAt === undefined ? null : exportTime(a.uploadedAt), ApprovalStatus: a.approvalStatus, Note: a.note,
      })),
    },
  };
}

const historyValue = (e: ExportView['history'][number]) => ({
  StatusId: e.statusId, CustomId: e.customId, Name: e.name, Timestamp: isoTimestamp(e.timestamp), ReportAs: e.reportAs,
});

/** The value of GetExportProject's version-1 answer (history entries without ChangedBy). */
export function exportValue(view: ExportView): DocumentValue<typeof ProjectExportDataGetResponse> {
  return { SchemaVersion: '1.0', Project: projectValue(view, view.history.map(historyValue)) };
}

/** The value of GetExportProject's version-2 answer (history entries with ChangedBy). */
export function exportValueV2(view: ExportView): DocumentValue<typeof ProjectExportDataGetResponseV2> {
  return { SchemaVersion: '2.0', Project: projectValue(view, view.history.map((e) => ({ ...historyValue(e), ChangedBy: e.changedBy }))) };
}
