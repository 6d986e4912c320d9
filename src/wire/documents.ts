import { AllProjectDataResponse } from './documents/all-project-data.ts';
import { AttachmentMetadataResponse, SetAttachmentMetadata } from './documents/attachment-metadata.ts';
import { ErrorResponse } from './documents/error-response.ts';
import {
  InquiryNotesResponse, InquiryThreadResponse, InquiryThreadsResponse, SetInquiryNoteRequest, SetInquiryThreadExternalIdRequest, SetInquiryThreadStatusRequest,
} from './documents/inquiries.ts';
import { ProjectDataGetResponse, ProjectDataRequest, ProjectDataSetResponse } from './documents/project-data.ts';
import { ProjectExportDataGetResponse, ProjectExportDataGetResponseV2 } from './documents/project-export.ts';
import type { WireDocument } from './wire-type.ts';

/** Every request and answer type of the API, described once (their XSDs and JSON Schemas are made from these). */
export const WIRE_DOCUMENTS: readonly WireDocument[] = [
  ErrorResponse,
  ProjectDataGetResponse, ProjectDataSetResponse, ProjectDataRequest,
  AllProjectDataResponse, ProjectExportDataGetResponse, ProjectExportDataGetResponseV2,
  AttachmentMetadataResponse, SetAttachmentMetadata,
  InquiryThreadsResponse, InquiryThreadResponse, InquiryNotesResponse, SetInquiryNoteRequest, SetInquiryThreadStatusRequest, SetInquiryThreadExternalIdRequest,
];
