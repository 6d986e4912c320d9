import { AllProjectDataResponse } from './documents/all-project-data.ts';
import { AttachmentMetadataResponse, SetAttachmentMetadata } from './documents/attachment-metadata.ts';
import {
  CustomListChoicesResponse, FormSchemaResponse, FormSchemaResponseV2, FormsResponse, StatusListResponse,
} from './documents/catalog.ts';
import { ErrorResponse } from './documents/error-response.ts';
import { EventsResponse } from './documents/events.ts';
import { ProjectDeadlineResponse, ProjectDeadlinesResponse } from './documents/deadlines.ts';
import { LinkProjectRequest, ProjectRelationsResponse, RelatedProjectResponse } from './documents/relations.ts';
import { DocumentRequestResponse, ProjectDocumentsResponse } from './documents/generated-documents.ts';

import { EnvelopeResponse, ProjectEnvelopesResponse } from './documents/envelopes.ts';
import { AutomationScheduleResponse, AutomationScheduleRunResponse, ProjectAutomationRunsResponse } from './documents/automations.ts';
import {
  InquiryNotesResponse, InquiryThreadResponse, InquiryThreadsResponse, SetInquiryNoteRequest, SetInquiryThreadExternalIdRequest, SetInquiryThreadStatusRequest,
} from './documents/inquiries.ts';
import { CreateMfaSessionTokenRequest, CreateMfaSessionTokenResponse } from './documents/mfa-session-token.ts';
import { ProjectDataGetResponse, ProjectDataRequest, ProjectDataSetResponse } from './documents/project-data.ts';
import { ProjectExportDataGetResponse, ProjectExportDataGetResponseV2 } from './documents/project-export.ts';
import {
  NewProjectResponse, ProgramsResponse, ProjectByDataRequest, ProjectByNumberRequest, ProjectSubmitResponse, ProjectsResponse,
  ProjectsResponseExtended, SetProjectOwnerRequest, SetProjectOwnerResponse,
} from './documents/projects.ts';
import {
  ProjectStatusHistoryResponse, SetAssigneeRequest, SetAssigneeResponse, SetProjectStatusHistoryReportAs, SetProjectStatusRequest,
  StatusHistoryReportAsResponse, StatusSetResponse,
} from './documents/workflow.ts';
import {
  CreateWebhookSubscriptionRequest, CreateWebhookSubscriptionResponse, RedeliverWebhookDeliveriesRequest, RotateWebhookSecretRequest,
  RotateWebhookSecretResponse, SetWebhookSubscriptionRequest, WebhookDeliveriesResponse, WebhookDeliveryResponse, WebhookSubscriptionResponse,
  WebhookSubscriptionsResponse,
} from './documents/webhooks.ts';
import type { WireDocument } from './wire-type.ts';

/** Every request and answer type of the API, described once (their XSDs and JSON Schemas are made from these). */
export const WIRE_DOCUMENTS: readonly WireDocument[] = [
  ErrorResponse,
  ProjectDataGetResponse, ProjectDataSetResponse, ProjectDataRequest,
  FormsResponse, FormSchemaResponse, FormSchemaResponseV2, CustomListChoicesResponse, StatusListResponse,
  ProjectStatusHistoryResponse, SetProjectStatusRequest, StatusSetResponse, SetProjectStatusHistoryReportAs, StatusHistoryReportAsResponse,
  SetAssigneeRequest, SetAssigneeResponse,
  ProjectDeadlinesResponse, ProjectDeadlineResponse,
  ProjectRelationsResponse, RelatedProjectResponse, LinkProjectRequest,
  ProjectDocumentsResponse, DocumentRequestResponse,

  ProjectEnvelopesResponse, EnvelopeResponse,
  ProjectAutomationRunsResponse, AutomationScheduleResponse, AutomationScheduleRunResponse,
  CreateMfaSessionTokenRequest, CreateMfaSessionTokenResponse,
  AllProjectDataResponse, ProjectExportDataGetResponse, ProjectExportDataGetResponseV2,
  AttachmentMetadataResponse, SetAttachmentMetadata,
  InquiryThreadsResponse, InquiryThreadResponse, InquiryNotesResponse, SetInquiryNoteRequest, SetInquiryThreadStatusRequest, SetInquiryThreadExternalIdRequest,
  ProgramsResponse, ProjectsResponse, ProjectsResponseExtended, ProjectByNumberRequest, ProjectByDataRequest,
  NewProjectResponse, SetProjectOwnerRequest, SetProjectOwnerResponse, ProjectSubmitResponse,
  EventsResponse,
  CreateWebhookSubscriptionRequest, CreateWebhookSubscriptionResponse, SetWebhookSubscriptionRequest, WebhookSubscriptionResponse,
  WebhookSubscriptionsResponse, WebhookDeliveriesResponse, WebhookDeliveryResponse,
  RotateWebhookSecretRequest, RotateWebhookSecretResponse, RedeliverWebhookDeliveriesRequest,
];
