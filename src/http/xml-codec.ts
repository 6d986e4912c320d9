import type { ApiError } from '../domain/api-error.ts';
import type {
  AllProjectDataView, AssigneeView, CustomListView, ExportView, FormDataView, FormSchemaView, FormsView, HistoryEntryView,
  NewProjectView, OwnerView, ProgramView, ProjectByDataQuery, ProjectsView, ReportAsInput, StatusHistoryView, StatusListView, StatusSetView, SubmitView, ProjectDataInput,
} from '../domain/views.ts';
import type { SessionTokenView } from '../domain/mfa-service.ts';
import { decodeCreateMfaSessionTokenRequest } from '../xml/decode-create-mfa-session-token-request.ts';
import { decodeProjectByDataRequest } from '../xml/decode-project-by-data-request.ts';
import { encodeCreateMfaSessionTokenResponse } from '../xml/encode-create-mfa-session-token-response.ts';
import type { InquiryStatus } from '../model/inquiry.ts';
import type { InquiryNoteInput, InquiryNotesView, InquiryThreadSetView, InquiryThreadsView } from '../domain/views.ts';
import { decodeSetInquiryNoteRequest } from '../xml/decode-set-inquiry-note-request.ts';
import { decodeSetInquiryThreadExternalIdRequest } from '../xml/decode-set-inquiry-thread-external-id-request.ts';
import { decodeSetInquiryThreadStatusRequest } from '../xml/decode-set-inquiry-thread-status-request.ts';
import { encodeInquiryNotesResponse } from '../xml/encode-inquiry-notes-response.ts';
import { encodeInquiryThreadResponse } from '../xml/encode-inquiry-thread-response.ts';
import { encodeInquiryThreadsResponse } from '../xml/encode-inquiry-threads-response.ts';
import { decodeSetAssigneeRequest, type SetAssigneeInput } from '../xml/decode-set-assignee-request.ts';
import { decodeSetProjectStatusHistoryReportAs } from '../xml/decode-set-project-status-history-report-as.ts';
import { decodeSetProjectStatusRequest, type SetProjectStatusInput } from '../xml/decode-set-project-status-request.ts';
import { encodeAllProjectDataResponse } from '../xml/encode-all-project-data-response.ts';
import type { AttachmentMetadataView, AttachmentReviewInput } from '../domain/views.ts';
import { decodeSetAttachmentMetadata } from '../xml/decode-set-attachment-metadata.ts';
import { encodeAttachmentMetadataResponse } from '../xml/encode-attachment-metadata-response.ts';
import { encodeCustomListChoicesResponse } from '../xml/encode-custom-list-choices-response.ts';
import { encodeFormSchemaResponse } from '../xml/encode-form-schema-response.ts';
import { encodeFormsResponse } from '../xml/encode-forms-response.ts';
import { encodeProjectExportDataGetResponse } from '../xml/encode-project-export-data-get-response.ts';
import { encodeProjectStatusHistoryResponse } from '../xml/encode-project-status-history-response.ts';
import { encodeSetAssigneeResponse } from '../xml/encode-set-assignee-response.ts';
import { encodeStatusHistoryReportAsResponse } from '../xml/encode-status-history-report-as-response.ts';
import { encodeStatusListResponse } from '../xml/encode-status-list-response.ts';
import { encodeStatusSetResponse } from '../xml/encode-status-set-response.ts';
import { decodeProjectByNumberRequest } from '../xml/decode-project-by-number-request.ts';
import { decodeProjectDataRequest } from '../xml/decode-project-data-request.ts';
import { decodeSetProjectOwnerRequest, type SetProjectOwnerInput } from '../xml/decode-set-project-owner-request.ts';
import { encodeErrorResponse } from '../xml/encode-error-response.ts';
import { encodeNewProjectResponse } from '../xml/encode-new-project-response.ts';
import { encodeProgramsResponse } from '../xml/encode-programs-response.ts';
import { encodeProjectDataResponse } from '../xml/encode-project-data-response.ts';
import { encodeProjectSubmitResponse } from '../xml/encode-project-submit-response.ts';
import { projectsResponseChunks } from '../xml/encode-projects-response.ts';
import { encodeSetProjectOwnerResponse } from '../xml/encode-set-project-owner-response.ts';
import { createSchemaRegistry } from '../xml/schema-registry.ts';

/** The XML codec bound to the configured namespace: what the routes read and write. */
export interface XmlCodec {
  readonly ns: string;
  programs(views: ProgramView[], requestTimestamp: number): string;
  /** ProjectsResponse as chunks, so that a page of 1000 projects is streamed. */
  projects(view: ProjectsView): Iterable<string>;
  newProject(view: NewProjectView): string;
  formData(view: FormDataView, root: 'ProjectDataGetResponse' | 'ProjectDataSetResponse'): string;
  owner(view: OwnerView): string;
  submit(view: SubmitView): string;
  error(error: ApiError, requestId: string): string;
  readProjectNumbers(body: Buffer): string[];
  readOwner(body: Buffer): SetProjectOwnerInput;
  readProjectData(body: Buffer): ProjectDataInput;
  forms(view: FormsView): string;
  formSchema(view: FormSchemaView): string;
  customList(view: CustomListView): string;
  statusList(view: StatusListView): string;
  allProjectData(view: AllProjectDataView): string;
  statusHistory(view: StatusHistoryView): string;
  statusSet(view: StatusSetView): string;
  reportAs(view: HistoryEntryView): string;
  exportProject(view: ExportView): string;
  assignee(view: AssigneeView): string;
  attachmentMetadata(view: AttachmentMetadataView): string;
  readAttachmentMetadata(body: Buffer): AttachmentReviewInput;
  readProjectByData(body: Buffer): ProjectByDataQuery;
  readSetStatus(body: Buffer): SetProjectStatusInput;
  readReportAs(body: Buffer): ReportAsInput;
  readAssignee(body: Buffer): SetAssigneeInput;
  mfaSessionToken(view: SessionTokenView): string;
  readCreateMfaSessionToken(body: Buffer): { minutes: number | null };
  inquiryThreads(view: InquiryThreadsView): string;
  inquiryThread(view: InquiryThreadSetView): string;
  inquiryNotes(view: InquiryNotesView): string;
  readInquiryNote(body: Buffer): InquiryNoteInput;
  readInquiryThreadStatus(body: Buffer): { status: InquiryStatus };
  readInquiryThreadExternalId(body: Buffer): { externalId: string | null };
  schemaNames(): string[];
  schemaSource(name: string): string;
}

/** Binds the encoders, decoders and XSDs of src/xml to one namespace. */
export async function createXmlCodec(ns: string): Promise<XmlCodec> {
  const schemas = createSchemaRegistry(ns);
  return {
    ns,
    programs: (views, at) => encodeProgramsResponse(views, at, ns),
    projects: (view) => projectsResponseChunks(view, ns),
    newProject: (view) => encodeNewProjectResponse(view, ns),
    formData: (view, root) => encodeProjectDataResponse(root, view, ns),
    owner: (view) => encodeSetProjectOwnerResponse(view, ns),
    submit: (view) => encodeProjectSubmitResponse(view, ns),
    error: (error, requestId) => encodeErrorResponse(error, ns, requestId),
    readProjectNumbers: (body) => decodeProjectByNumberRequest(body, ns, schemas),
    readOwner: (body) => decodeSetProjectOwnerRequest(body, ns, schemas),
    readProjectData: (body) => decodeProjectDataRequest(body, ns, schemas),
    forms: (view) => encodeFormsResponse(view, ns),
    formSchema: (view) => encodeFormSchemaResponse(view, ns),
    customList: (view) => encodeCustomListChoicesResponse(view, ns),
    statusList: (view) => encodeStatusListResponse(view, ns),
    allProjectData: (view) => encodeAllProjectDataResponse(view, ns),
    statusHistory: (view) => encodeProjectStatusHistoryResponse(view, ns),
    statusSet: (view) => encodeStatusSetResponse(view, ns),
    reportAs: (view) => encodeStatusHistoryReportAsResponse(view, ns),
    exportProject: (view) => encodeProjectExportDataGetResponse(view, ns),
    assignee: (view) => encodeSetAssigneeResponse(view, ns),
    attachmentMetadata: (view) => encodeAttachmentMetadataResponse(view, ns),
    readAttachmentMetadata: (body) => decodeSetAttachmentMetadata(body, ns, schemas),
    readProjectByData: (body) => decodeProjectByDataRequest(body, ns, schemas),
    readSetStatus: (body) => decodeSetProjectStatusRequest(body, ns, schemas),
    readReportAs: (body) => decodeSetProjectStatusHistoryReportAs(body, ns, schemas),
    readAssignee: (body) => decodeSetAssigneeRequest(body, ns, schemas),
    mfaSessionToken: (view) => encodeCreateMfaSessionTokenResponse(view, ns),
    readCreateMfaSessionToken: (body) => decodeCreateMfaSessionTokenRequest(body, ns, schemas),
    inquiryThreads: (view) => encodeInquiryThreadsResponse(view, ns),
    inquiryThread: (view) => encodeInquiryThreadResponse(view, ns),
    inquiryNotes: (view) => encodeInquiryNotesResponse(view, ns),
    readInquiryNote: (body) => decodeSetInquiryNoteRequest(body, ns, schemas),
    readInquiryThreadStatus: (body) => decodeSetInquiryThreadStatusRequest(body, ns, schemas),
    readInquiryThreadExternalId: (body) => decodeSetInquiryThreadExternalIdRequest(body, ns, schemas),
    schemaNames: () => schemas.list(),
    schemaSource: (name) => schemas.source(name),
  };
}
