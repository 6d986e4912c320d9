import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../domain/api-error.ts';
import type { SessionTokenView } from '../domain/mfa-service.ts';
import type {
  AllProjectDataView, AssigneeView, AttachmentMetadataView, AttachmentReviewInput, CustomListView, ExportView, FormDataView, FormSchemaView, FormsView, HistoryEntryView,InquiryNoteInput, InquiryNotesView, InquiryThreadSetView, InquiryThreadsView, 
  ProjectDataInput, ReportAsInput, StatusHistoryView, StatusListView, StatusSetView 
} from '../domain/views.ts';
import type { InquiryStatus } from '../model/inquiry.ts';
import { ErrorResponse, errorValue } from '../wire/documents/error-response.ts';
import { WIRE_DOCUMENTS } from '../wire/documents.ts';
import { WireJsonReader } from '../wire/wire-json-reader.ts';
import { documentJsonSchema } from '../wire/wire-json-schema.ts';
import type { DocumentValue, WireDocument } from '../wire/wire-type.ts';
import { compileXmlWriter, type WireXmlWriter } from '../wire/wire-xml-writer.ts';
import { decodeCreateMfaSessionTokenRequest } from '../xml/decode-create-mfa-session-token-request.ts';
import { decodeSetAssigneeRequest, type SetAssigneeInput } from '../xml/decode-set-assignee-request.ts';
import { decodeSetAttachmentMetadata } from '../xml/decode-set-attachment-metadata.ts';
import { decodeSetInquiryNoteRequest } from '../xml/decode-set-inquiry-note-request.ts';
import { decodeSetInquiryThreadExternalIdRequest } from '../xml/decode-set-inquiry-thread-external-id-request.ts';
import { decodeSetInquiryThreadStatusRequest } from '../xml/decode-set-inquiry-thread-status-request.ts';
import { decodeSetProjectStatusHistoryReportAs } from '../xml/decode-set-project-status-history-report-as.ts';
import { decodeSetProjectStatusRequest, type SetProjectStatusInput } from '../xml/decode-set-project-status-request.ts';
import { encodeAllProjectDataResponse } from '../xml/encode-all-project-data-response.ts';
import { encodeAttachmentMetadataResponse } from '../xml/encode-attachment-metadata-response.ts';
import { encodeCreateMfaSessionTokenResponse } from '../xml/encode-create-mfa-session-token-response.ts';
import { encodeCustomListChoicesResponse } from '../xml/encode-custom-list-choices-response.ts';
import { encodeFormSchemaResponse } from '../xml/encode-form-schema-response.ts';
import { encodeFormsResponse } from '../xml/encode-forms-response.ts';
import { encodeInquiryNotesResponse } from '../xml/encode-inquiry-notes-response.ts';
import { encodeInquiryThreadResponse } from '../xml/encode-inquiry-thread-response.ts';
import { encodeInquiryThreadsResponse } from '../xml/encode-inquiry-threads-response.ts';
import { encodeProjectExportDataGetResponse } from '../xml/encode-project-export-data-get-response.ts';
import { encodeProjectStatusHistoryResponse } from '../xml/encode-project-status-history-response.ts';
import { encodeSetAssigneeResponse } from '../xml/encode-set-assignee-response.ts';
import { encodeStatusHistoryReportAsResponse } from '../xml/encode-status-history-report-as-response.ts';
import { encodeStatusListResponse } from '../xml/encode-status-list-response.ts';
import { encodeStatusSetResponse } from '../xml/encode-status-set-response.ts';
import { createSchemaRegistry } from '../xml/schema-registry.ts';
import { type AnswerFormat, answerFormat, JSON_TYPE } from './answer-format.ts';
import { readRequestBody } from './read-request-body.ts';
import { sendXml } from './xml-reply.ts';

/** JSON text of a document value: optional members that are null are left out, as they are in XML. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === null ? undefined : v));
}

/** The codec bound to the configured namespace: what the routes read and write, in XML or JSON. */
export interface ApiCodec {
  readonly ns: string;
  /** Reads the request body as document type `doc`, in XML or JSON by its Content-Type; throws ApiError when refused. */
  read<D extends WireDocument>(request: FastifyRequest, doc: D): DocumentValue<D>;
  /** Sends `value` as document type `doc`, in the representation the request's Accept prefers. */
  send<D extends WireDocument>(request: FastifyRequest, reply: FastifyReply, doc: D, value: DocumentValue<D>, status?: number): FastifyReply;
  /** The ErrorResponse body of `error` in `format`. */
  errorBody(error: ApiError, requestId: string, format: AnswerFormat): string;
  /** The JSON Schema (2020-12) text of every described document, by name. */
  jsonSchemaNames(): string[];
  jsonSchemaSource(name: string): string;
  error(error: ApiError, requestId: string): string;
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

/** Binds the described documents (src/wire), the remaining encoders and decoders of src/xml and the XSDs to one namespace. */
export async function createApiCodec(ns: string): Promise<ApiCodec> {
  const schemas = createSchemaRegistry(ns);
  const json = new WireJsonReader();
  const writers = new Map<WireDocument, WireXmlWriter<WireDocument>>();
  const writerOf = (doc: WireDocument) => {
    let w = writers.get(doc);
    if (!w) writers.set(doc, (w = compileXmlWriter(doc)));
    return w;
  };
  const jsonSchemas = new Map(WIRE_DOCUMENTS.map((d) => [d.name, `${JSON.stringify(documentJsonSchema(d), null, 2)}\n`]));
  const errorWriter = compileXmlWriter(ErrorResponse);
  const errorBody = (error: ApiError, requestId: string, format: AnswerFormat) => {
    const value = errorValue(error, requestId);
    return format === 'json' ? toJson(value) : errorWriter.write(value, ns);
  };
  return {
    ns,
    read: (request, doc) => readRequestBody(request, doc, ns, schemas, json),
    send: (request, reply, doc, value, status = 200) => {
      if (answerFormat(request) === 'json') return reply.code(status).type(JSON_TYPE).send(toJson(value));
      return sendXml(reply, writerOf(doc).chunks(value, ns), status);
    },
    errorBody,
    jsonSchemaNames: () => [...jsonSchemas.keys()].sort(),
    jsonSchemaSource: (name) => {
      const text = jsonSchemas.get(name);
      if (text === undefined) throw new Error(`unknown JSON Schema ${JSON.stringify(name)}`);
      return text;
    },
    error: (error, requestId) => errorBody(error, requestId, 'xml'),
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
