/**
 * What the services hand to the HTTP layer: plain data, timestamps as epoch milliseconds.
 * The XML encoders in src/xml turn each view into exactly one response document.
 */
import type { FieldRules } from '../model/model.ts';
import type { Readable } from 'node:stream';
import type { ByteRange } from '../store/blob-store.ts';

/** One cell of a table field's row as a request sends it: the column's customId and its text (null or "" when empty). */
export interface TableCellInput { column: string; value: string | null }

/** One row as a request sends it: its cells in any order. */
export type TableRowInput = TableCellInput[];

/** One filled cell as answers show it, rows and cells in order. */
export interface TableCellView { column: string; value: string }

/** Which project an answer describes, and at which of its versions (every change of a project adds one). */
export interface ProjectVersion { projectId: string; version: number }

/** An answer about one project together with the version it shows; the HTTP layer makes the answer's ETag from it. */
export type AtVersion<T> = T & { projectVersion: ProjectVersion };

/** A status as shown inside a project (CurrentStatus). */
export interface CurrentStatusView { statusId: string; customId: string | null; name: string; timestamp: number }

/** A status reference without a time (AvailableInStatuses, LeadsToStatus). */
export interface StatusRefView { statusId: string; customId: string | null; name: string }

/** One Program element of GetPrograms. */
export interface ProgramView {
  programId: string; programName: string;
  /** The live program's id when this one is a test copy of it (migration 053); null for a live program. */
  testOf: string | null;
}

/** One Project element of ProjectsResponse. */
export interface ProjectSummaryView {
  projectId: string; programId: string; projectNumber: string | null; status: string;
  statusTimestamp: number; lastChangeTimestamp: number; statusCustomId: string | null; statusPublicId: string;
}

/** ProjectsResponse: `extended` adds StatusCustomId and StatusPublicId (version 2). */
export interface ProjectsView { schemaVersion: number; extended: boolean; requestTimestamp: number; projects: ProjectSummaryView[] }

/** The project header shared by the single-project responses. */
export interface ProjectHeaderView {
  projectId: string; programId: string; projectNumber: string | null; url: string;
  lastChangeTimestamp: number; currentStatus: CurrentStatusView;
}

/** One form of a program as CreateNewProject lists it. */
export interface FormSummaryView {
  formId: string; customId: string | null; programId: string; name: string;
  availableInStatuses: StatusRefView[]; leadsToStatus: StatusRefView | null;
}

/** CreateNewProject's answer. */
export interface NewProjectView extends ProjectHeaderView { forms: FormSummaryView[] }

/** One data field of a form with its value (sensitive values already masked unless revealed). */
export interface DataFieldValueView {
  dataFieldId: string; customId: string | null; name: string; multiValue: boolean;
  value: string | null; values: string[] | null;
  /** A table field's rows (null when it has none; absent for other fields). */
  rows?: TableCellView[][] | null;
  /**
   * What the last lookup at save said of the field's value (a connection's `lookup:`): `verified`, `notFound` or
   * `unavailable` (not verified), the message shown beside the field, and when; absent when none was made or the value is empty.
   */
  lookup?: { state: string; message: string; checkedAt: number };
}

/** One attachment definition of a form with the active file's name, if any. */
export interface AttachmentSummaryView { attachmentId: string; customId: string | null; name: string; fileName: string | null }

/** GetProjectData and SetProjectData answers: one form's draft or submitted data. */
export interface FormDataView extends ProjectHeaderView {
  formId: string; draft: boolean; canSubmit: boolean; dataFields: DataFieldValueView[]; attachments: AttachmentSummaryView[];
}

/** SetProjectOwner's answer. */
export interface OwnerView { name: string; email: string }

/** SubmitProject's answer. */
export interface SubmitView extends ProjectHeaderView { projectNumber: string }

/** One value sent by SetProjectData: `value` for single-value fields, `values` for multi-value ones (null clears). */
export interface DataFieldInput {
  dataFieldId: string; value: string | null; values: string[] | null;
  /** The rows of a table field (null or absent: none sent; a table sent with no rows clears it). */
  rows?: TableRowInput[] | null;
}

/** A SetProjectData body: the project and form it names (null when left out), and one input per data field. */
export interface ProjectDataInput { projectId: string | null; formId: string | null; fields: DataFieldInput[] }

/** What the project landing page shows. */
export interface LandingView extends ProjectHeaderView {
  programName: string; ownerName: string;
  forms: { name: string; available: boolean }[];
  history: PageHistoryLine[];
}

/** One line of a project's status history on the web pages: the status, when, by whom, and the reason and message the move gave. */
export interface PageHistoryLine { status: string; at: number; by: string; reason: string | null; message: string | null }

/** GetForms: the forms of a program. */
export interface FormsView { programId: string; forms: FormSummaryView[] }

/** A custom list with its choices (GetCustomListChoices; inline in GetFormSchema version 2). */
export interface CustomListView {
  listId: string; customId: string | null; name: string; choices: { value: string; label: string }[];
  /** True for a long list (rows loaded from CSV): `choices` is then empty, and GetCustomListChoices gives its rows. */
  long?: boolean;
}

/** One data field of a form as GetFormSchema describes it. */
export interface FieldSchemaView {
  dataFieldId: string; customId: string | null; name: string; type: string; required: boolean; multiValue: boolean;
  sensitive: boolean; maxLength: number | null; min: number | null; max: number | null; group: string | null;
  list: CustomListView | null;
  /** A calculated field's CEL formula (its value is the service's; writes are refused); null for others. */
  formula: string | null;
  /** The field's CEL rules on this form (docs/programs.md), so that integrators can show the same logic; null for none. */
  rules: FieldRules | null;
  /** A table field's columns and row limits (absent for other fields). */
  table?: TableSchemaView | null;
}

/** One column of a table field as GetFormSchema describes it. */
export interface ColumnSchemaView {
  customId: string; name: string; type: string; required: boolean; maxLength: number | null; min: number | null; max: number | null;
  list: CustomListView | null;
}

/** A table field's columns and row limits as GetFormSchema describes them. */
export interface TableSchemaView { columns: ColumnSchemaView[]; minRows: number | null; maxRows: number | null }

/** One attachment definition of a form as GetFormSchema describes it. */
export interface AttachmentSchemaView {
  attachmentId: string; customId: string | null; name: string; required: boolean; maxSizeBytes: number; allowedTypes: string[];
}

/** GetFormSchema: version 1, or 2 with data-field groups and the choices of choice fields inline. */
export interface FormSchemaView {
  version: number;
  form: { formId: string; customId: string | null; programId: string; name: string };
  dataFields: FieldSchemaView[];
  attachments: AttachmentSchemaView[];
}

/** One status of GetStatusList with the statuses allowed next. */
export interface StatusListEntryView {
  statusId: string; customId: string | null; publicId: string; name: string; initial: boolean; next: StatusRefView[];
  /** The reasons a move into the status may give; whether every move must (`required`), or moves from `requiredFrom`; null: none. */
  reasons?: { reasons: { customId: string; name: string }[]; required: boolean; requiredFrom: StatusRefView[] } | null;
}

/** GetStatusList. */
export interface StatusListView { programId: string; statuses: StatusListEntryView[] }

/** One status-history entry as the history, the export and SetProjectStatusReportAs show it. */
export interface HistoryEntryView {
  statusId: string; customId: string | null; name: string; timestamp: number;
  /** E-mail address of the user who set the status. */
  changedBy: string;
  reportAs: string;
  /** The reason the move gave (its customId, and its name as the status lists it now) and its message; null for none. */
  reasonId?: string | null; reason?: string | null; message?: string | null;
}

/** GetProjectStatusHistory: newest first. */
export interface StatusHistoryView { projectId: string; programId: string; projectNumber: string | null; entries: HistoryEntryView[] }

/** SetProjectStatus's answer. */
export interface StatusSetView { status: CurrentStatusView; url: string }

/** One saved value of GetAllProjectData. */
export interface SavedValueView {
  dataFieldId: string; customId: string | null; name: string; formId: string; multiValue: boolean;
  value: string | null; values: string[] | null; changedAt: number; changedBy: string;
  /** A table field's rows (absent for other fields). */
  rows?: TableCellView[][] | null;
}

/** GetAllProjectData: the latest submitted value of every field ever saved, across forms. */
export interface AllProjectDataView extends ProjectHeaderView { dataFields: SavedValueView[]; attachments: AttachmentSummaryView[] }

/** One field of the export with its current value(s) and who changed it when (null when never saved). */
export interface ExportFieldView {
  dataFieldId: string; customId: string | null; name: string; values: string[]; changedAt: number | null; changedBy: string | null;
  /** A table field's rows (absent for other fields; `values` is then empty). */
  rows?: TableCellView[][] | null;
}

/** GetExportProject: the whole project for archiving or migration. Version 2 adds ChangedBy to history entries. */
export interface ExportView {
  version: number;
  projectId: string; programId: string; number: string | null; owner: string; status: string;
  createdAt: number; createdBy: string; lastChangedAt: number; lastChangedBy: string;
  forms: { formId: string; customId: string | null; name: string; groups: { name: string | null; fields: ExportFieldView[] }[] }[];
  history: HistoryEntryView[];
  attachments: ExportAttachmentView[];
}

/** One uploaded file of the export: the definition and, optionally, the active version's metadata. */
export interface ExportAttachmentView extends AttachmentSummaryView {
  formId?: string; fileSize?: number; contentType?: string; sha256?: string; version?: number;
  uploadedBy?: string; uploadedAt?: number; approvalStatus?: string; note?: string | null;
}

/** SetAssignee's answer: the assignee, or null when cleared. */
export interface AssigneeView { assignee: OwnerView | null }

/** GetProjectsByData filters, combined with AND. */
export interface ProjectByDataQuery {
  statuses: { operation: 'include' | 'exclude'; refs: string[] } | null;
  statusDates: { statusRef: string; at: number; operator: 'lt' | 'le' | 'gt' | 'ge' | 'eq' }[];
  fields: { fieldRef: string; operator: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'empty' | 'notempty'; content: string | null }[];
}

/** SetProjectStatusReportAs input: the entry (status and original time; precisionMs is the span the time's digits cover) and how to report it. */
export interface ReportAsInput { statusRef: string; timestamp: number; precisionMs: number; reportAs: 'normal' | 'suppress' }

/** One inquiry thread as the inquiry answers show it. */
export interface InquiryThreadView {
  threadId: string; subject: string; status: string; externalId: string | null; createdAt: number; updatedAt: number; noteCount: number;
}

/** One note of an inquiry thread: who wrote it (name and e-mail), when, whether the applicant sees it, and its text. */
export interface InquiryNoteView { noteId: string; author: string; authorEmail: string; timestamp: number; visibleToApplicant: boolean; text: string }

/** GetInquiryThreads: a project's threads in creation order. */
export interface InquiryThreadsView { projectId: string; threads: InquiryThreadView[] }

/** One thread of a project, as SetInquiryThreadStatus and SetInquiryThreadExternalId answer. */
export interface InquiryThreadSetView { projectId: string; thread: InquiryThreadView }

/** GetNotesInInquiryThread (every note, oldest first) and SetInquiryNote (just the new note). */
export interface InquiryNotesView { projectId: string; thread: InquiryThreadView; notes: InquiryNoteView[] }

/** SetInquiryNote input: a thread to add to, or none to open one with `subject`. */
export interface InquiryNoteInput { threadId: string | null; subject: string | null; visibleToApplicant: boolean; text: string }

/** The inquiry section of the landing page: the threads with notes the applicant may see, and only those notes. */
export interface LandingInquiriesView {
  /** Where the reply forms post to. */
  replyUrl: string;
  threads: { threadId: string; subject: string; status: string; canReply: boolean; notes: { author: string; timestamp: number; text: string }[] }[];
}

/** SetProjectAttachment, GetAttachmentMetadata and SetAttachmentMetadata: one version of a project's file. */
export interface AttachmentMetadataView {
  attachmentId: string; attachmentName: string; fileName: string; fileSize: number; contentType: string; sha256: string;
  version: number;
  /** E-mail address of the uploader. */
  uploadedBy: string;
  uploadedTimestamp: number; approvalStatus: string; note: string | null;
  /** E-mail address of the admin who last set the metadata, and when; null before any review. */
  reviewedBy: string | null; reviewedTimestamp: number | null;
}

/**
 * A file to send back (GetActiveAttachment, GetAttachmentAsAdmin); `open` streams its bytes, or `range` of them (inside
 * the file), so a 304 never reads them and a 206 reads only its part.
 */
export interface AttachmentFileView {
  fileName: string; contentType: string; size: number; sha256: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** SetAttachmentMetadata input: the review action and, when given, the new note (empty clears it). */
export interface AttachmentReviewInput { action: 'Approve' | 'Reject' | 'Unmark' | 'Save'; note: string | null }

/** SetProjectAttachment input: the upload's stream and what its headers say about it. */
export interface UploadInput {
  body: Readable;
  /** The Content-Type header as sent, or null. */
  contentType: string | null;
  /** The announced Content-Length, or null when the body is streamed without one. */
  contentLength: number | null;
  /** The file name the Content-Disposition header carries, before cleaning, or null. */
  fileName: string | null;
}
