// Generated from /openapi.json by scripts/client-types.ts (npm run client:types); do not edit by hand.
// A test fails when it no longer matches what the service describes.

/** Every path of the interface and the operations it answers to. */
export interface paths {
  "/services/v2/Programs": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetPrograms"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjects"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/ByNumber": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["GetProjectsByNumber"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/ProjectsByNumber": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["GetProjectsByNumberLegacy"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/NewProject": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["CreateNewProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Owner": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetProjectOwner"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Data": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectData"];
    put?: never;
    post: operations["SetProjectData"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectDraftData"];
    put?: never;
    post: operations["SetProjectDraftData"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Submit": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SubmitProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Submit": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SubmitProjectShortUrl"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Forms": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetForms"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Forms/{FormId}/Schema": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetFormSchema"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/CustomLists/{ListId}/Choices": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetCustomListChoices"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Statuses": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetStatusList"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/StatusHistory": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectStatusHistory"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Status": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetProjectStatus"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/StatusHistory/ReportAs": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetProjectStatusReportAs"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Assignee": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetAssignee"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Deadlines": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectDeadlines"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Deadlines/{DeadlineId}/Start": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["StartProjectDeadline"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Deadlines/{DeadlineId}/Satisfy": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SatisfyProjectDeadline"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Deadlines/{DeadlineId}/Cancel": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["CancelProjectDeadline"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Relations": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectRelations"];
    put?: never;
    post: operations["LinkProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Relations/{RelationId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post?: never;
    delete: operations["UnlinkProject"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Relations/{RelationId}/Create": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["CreateRelatedProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Documents": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectDocuments"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Documents/{DocumentId}/Generate": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["GenerateDocument"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Envelopes": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectEnvelopes"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Envelopes/{EnvelopeId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetEnvelope"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Envelopes/{EnvelopeId}/Void": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["VoidEnvelope"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Envelopes/{EnvelopeId}/Signers/{SignerId}/Resend": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["ResendEnvelope"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/AutomationRuns": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetProjectAutomationRuns"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Automations/{AutomationId}/Schedule": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetAutomationSchedule"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Automations/{AutomationId}/Schedule/Run": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["RunAutomationSchedule"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Data": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetAllProjectData"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Export": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetExportProject"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/ByData": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["GetProjectsByData"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Accounts/MfaSessionTokens": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["CreateMfaSessionToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Accounts/MfaSessionTokens/{TokenId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post?: never;
    delete: operations["DeleteMfaSessionToken"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Attachments/{AttachmentId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetActiveAttachment"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Attachments/{AttachmentId}/Versions/{Version}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetAttachmentAsAdmin"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Attachments/{AttachmentId}/Metadata": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetAttachmentMetadata"];
    put?: never;
    post: operations["SetAttachmentMetadata"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetInquiryThreads"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/Notes": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetNotesInInquiryThread"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryNotes": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetInquiryNote"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/Status": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetInquiryThreadStatus"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/ExternalId": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetInquiryThreadExternalId"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Events": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetWebhookSubscriptions"];
    put?: never;
    post: operations["CreateWebhookSubscription"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks/{SubscriptionId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetWebhookSubscription"];
    put?: never;
    post: operations["SetWebhookSubscription"];
    delete: operations["DeleteWebhookSubscription"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks/{SubscriptionId}/RotateSecret": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["RotateWebhookSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries/Redeliver": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["RedeliverFailedWebhookDeliveries"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries/{DeliveryId}/Redeliver": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["RedeliverWebhookDelivery"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Attachments/{AttachmentId}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["SetProjectAttachment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/oauth/token": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["OAuthToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/services/v2/oauth/revoke": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations["OAuthRevoke"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/.well-known/oauth-authorization-server": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["GetOAuthMetadata"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

/** The request and answer documents, by name. */
export interface components {
  schemas: {
    /** GetAllProjectData: the latest submitted value of every data field ever saved on the project, across forms. */
    AllProjectDataResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber?: string;
        Url: string;
        LastChangeTimestamp: string;
        CurrentStatus: {
          StatusId: string;
          CustomId?: string;
          Name: string;
          Timestamp: string;
        };
        DataFields: {
          DataField: ({
            DataFieldId: string;
            CustomId?: string;
            Name: string;
            FormId: string;
            Value?: string;
            ChangeTimestamp: string;
            ChangedBy: string;
            Values?: {
              Value: (string)[];
            };
            /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
            Rows?: {
              Row: ({
                Cell: ({
                  Column: string;
                  Value?: string;
                })[];
              })[];
            };
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            FileName?: string;
          })[];
        };
      };
    };
    /** SetProjectAttachment, GetAttachmentMetadata and SetAttachmentMetadata: one version of a project's file for an attachment definition (the commercial system's AttachmentMetadataResponse, extended). */
    AttachmentMetadataResponse: {
      /** AttachmentId and AttachmentName are the definition's; Version counts the uploads of the definition in the project from 1 (the highest is the active file); UploadedBy and ReviewedBy are e-mail addresses; ReviewedBy and ReviewedTimestamp name the admin who last set the metadata. */
      AttachmentMetadata: {
        AttachmentId: string;
        AttachmentName: string;
        FileName: string;
        FileSize: number;
        ContentType: string;
        /** The SHA-256 of the file's bytes, 64 lower-case hex digits (also the download's ETag). */
        Sha256: string;
        Version: number;
        UploadedBy: string;
        UploadedTimestamp: string;
        ApprovalStatus: "Pending" | "Approved" | "Rejected";
        Note?: string;
        ReviewedBy?: string;
        ReviewedTimestamp?: string;
      };
    };
    /** (apas) GetAutomationSchedule: the projects a daily schedule selects now, in creation order. */
    AutomationScheduleResponse: {
      Schedule: {
        /** The schedule's customId. */
        AutomationId: string;
        Name: string;
        /** The local day it counts for: a project is acted on once a day. */
        Day: string;
        /** Its local time of day (HH:MM). */
        At: string;
        Project: ({
          ProjectId: string;
          /** Absent for a project never submitted. */
          ProjectNumber?: string;
          /** The customId (else name) of its status. */
          Status: string;
          /** True when the schedule acted on it today already: a run passes it by. */
          DoneToday: boolean;
        })[];
      };
    };
    /** (apas) RunAutomationSchedule: the projects a run of a daily schedule now acted on. */
    AutomationScheduleRunResponse: {
      Schedule: {
        /** The schedule's customId. */
        AutomationId: string;
        Name: string;
        /** The local day it counts for: a project is acted on once a day. */
        Day: string;
        Acted: ({
          ProjectId: string;
          /** Absent for a project never submitted. */
          ProjectNumber?: string;
          /** The customId (else name) of its status. */
          Status: string;
        })[];
        Failed: ({
          ProjectId: string;
        })[];
      };
    };
    /** CreateMfaSessionToken's optional body: the token's lifetime in minutes (1 to 720, default 60). */
    CreateMfaSessionTokenRequest: {
      ExpiresAfterMinutes?: number;
    };
    /** A new MFA session token. Token is shown this once; send it in X-Mfa-Session-Token. */
    CreateMfaSessionTokenResponse: {
      MfaSessionToken: {
        TokenId: string;
        Token: string;
        ExpiresTimestamp: string;
      };
    };
    /** CreateWebhookSubscription request: the https URL deliveries are posted to, and the kinds of event to send (none or no EventTypes: every kind). */
    CreateWebhookSubscriptionRequest: {
      Url: string;
      /** The kinds of event sent to the subscription; none listed means every kind. */
      EventTypes?: {
        EventType?: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
      };
    };
    /** CreateWebhookSubscription: the new subscription and its signing secret, which no other answer shows. Verify deliveries with it as the Standard Webhooks specification says. */
    CreateWebhookSubscriptionResponse: {
      /** The signing secret (whsec_…); shown in this answer only. */
      Secret: string;
      WebhookSubscription: {
        SubscriptionId: string;
        ProgramId: string;
        /** Where deliveries are posted. */
        Url: string;
        Enabled: boolean;
        /** Why it was disabled: by whom, or the run of failures that disabled it. */
        DisabledReason?: string;
        DisabledTimestamp?: string;
        /** Failed attempts since the last one answered with 2xx. */
        ConsecutiveFailures: number;
        /** During a secret rotation's grace period: until when deliveries are signed with the replaced secret too. */
        PreviousSecretExpiresTimestamp?: string;
        CreatedTimestamp: string;
        /** The e-mail address of the admin who made it. */
        CreatedBy?: string;
        UpdatedTimestamp: string;
        /** The kinds of event sent to the subscription; none listed means every kind. */
        EventTypes: {
          EventType: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
        };
      };
    };
    /** GetCustomListChoices: one custom list with its choices in order. */
    CustomListChoicesResponse: {
      CustomList: {
        CustomListId: string;
        CustomId?: string;
        Name: string;
        Choice: ({
          Value: string;
          Label: string;
        })[];
      };
    };
    /** GenerateDocument: the request, queued; the document is rendered after the change commits (GetProjectDocuments shows how it went). */
    DocumentRequestResponse: {
      /** A request to generate one of the program's documents for the project; the file it generates is a version of AttachmentId. */
      DocumentRequest: {
        RequestId: string;
        /** The customId of the program's document. */
        DocumentId: string;
        /** queued until the service has rendered it (after the change that asked, retried with backoff), then generated, or failed after its last attempt. */
        State: "queued" | "generated" | "failed";
        RequestedAt: string;
        /** When it was generated or given up; absent while queued. */
        FinishedAt?: string;
        Attempts: number;
        /** Staff only: why the last attempt failed. */
        Error?: string;
        /** The attachment definition the generated files are versions of (GetActiveAttachment, GetAttachmentMetadata). */
        AttachmentId: string;
        /** The version this request generated; absent until it has. */
        AttachmentVersion?: number;
      };
    };
    /** GetEnvelope, VoidEnvelope, ResendEnvelope: the envelope with its signers and audit trail (after the change). */
    EnvelopeResponse: {
      ProjectId: string;
      /** An e-signature envelope: a generated document of the project and who must sign it. */
      Envelope: {
        EnvelopeId: string;
        /** The customId of the document template. */
        DocumentId: string;
        Title: string;
        /** sent until every signer signed and the signed PDF is stored (completed), or a signer declined, or staff voided it. */
        State: "sent" | "completed" | "declined" | "voided";
        /** Signers sign one after another in order, or all at once. */
        Order: "sequential" | "parallel";
        /** The attachment definition the document and the signed PDF are versions of. */
        AttachmentId: string;
        /** The version of the document that is signed. */
        AttachmentVersion: number;
        /** completed: the version that holds the signed PDF. */
        SignedVersion?: number;
        CreatedAt: string;
        /** When the last signer signed (the signed PDF is made after it). */
        AllSignedAt?: string;
        /** When it was completed, declined or voided. */
        FinishedAt?: string;
        /** ResendEnvelope with mail off only: the new link, for staff to pass on; never stored. */
        SigningLink?: string;
        Signer: ({
          /** The customId of the template's signer. */
          SignerId: string;
          /** The project's owner, the person an e-mail field names, or a holder of a program role. */
          Kind: "owner" | "emailField" | "role";
          /** The template's name for the signer (e.g. Property owner). */
          Label: string;
          /** The person's name; for a role, the role's name until a holder signs. */
          Name: string;
          /** The address the signer is mailed at (absent for a role until a holder signs). */
          Email?: string;
          /** kind role: the program role whose holders may sign. */
          Role?: string;
          /** waiting for the signers before (in order); notified (mailed); viewed; consented to sign electronically; signed or declined. */
          State: "waiting" | "notified" | "viewed" | "consented" | "signed" | "declined";
          /** When the signer was last mailed. */
          NotifiedAt?: string;
          ConsentedAt?: string;
          SignedAt?: string;
          /** The name the signer typed as their signature. */
          TypedName?: string;
          DeclineReason?: string;
        })[];
        Step: ({
          At: string;
          /** What one step of the audit trail did. */
          Action: "created" | "notified" | "viewed" | "consented" | "signed" | "declined" | "voided" | "resent" | "reminded" | "completed";
          /** The customId of the signer the step is about. */
          SignerId?: string;
          /** The e-mail address of the signed-in user who acted; absent for a signer who came by link, or the service. */
          User?: string;
          /** Staff only: the address the step came from. */
          IpAddress?: string;
          /** Staff only: the browser it came from. */
          UserAgent?: string;
          /** declined, voided: the reason given. */
          Reason?: string;
          /** created, completed: the attachment version of the document, or of the signed PDF. */
          Version?: number;
          /** completed: the SHA-256 of the signed PDF. */
          Sha256?: string;
        })[];
      };
    };
    /** Every error answer: a stable code, the HTTP status, a message and, for data problems, one FieldError per field. */
    ErrorResponse: {
      /** The closed list of error codes (ERROR_STATUS in src/domain/api-error.ts); each maps to one HTTP status. */
      Code: "AUTHENTICATION_REQUIRED" | "INVALID_CREDENTIALS" | "MFA_REQUIRED" | "MFA_INVALID" | "FORBIDDEN" | "SENSITIVE_DATA_NOT_ALLOWED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "REQUEST_TIMEOUT" | "CONFLICT" | "FORM_NOT_AVAILABLE" | "TRANSITION_NOT_ALLOWED" | "THREAD_CLOSED" | "IDEMPOTENCY_KEY_IN_USE" | "EVENTS_CURSOR_UNKNOWN" | "EVENTS_EXPIRED" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RANGE_NOT_SATISFIABLE" | "HEADERS_TOO_LARGE" | "MALFORMED_XML" | "MALFORMED_JSON" | "WRONG_NAMESPACE" | "INVALID_REQUEST" | "INVALID_PARAMETER" | "TOO_MANY_NUMBERS" | "VALIDATION_FAILED" | "FORM_INCOMPLETE" | "UNKNOWN_USER" | "IDEMPOTENCY_KEY_REUSED" | "WEBHOOK_TARGET_NOT_ALLOWED" | "RATE_LIMITED" | "SIGN_IN_LOCKED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
      Status: number;
      Message: string;
      RequestId?: string;
      FieldError: ({
        DataFieldId: string;
        CustomId?: string;
        Name?: string;
        Code: string;
        Message: string;
        /** For a cell of a table field: its row, from 1. */
        Row?: number;
        /** For a cell of a table field: its column's CustomId. */
        Column?: string;
      })[];
    };
    /** GetEvents: the events after the cursor that the caller may read, in sequence order. Keep NextCursor and ask again with after=NextCursor. */
    EventsResponse: {
      /** The `after` of the next request: the last Sequence of this page, or the `after` sent when the page is empty. */
      NextCursor: number;
      /** True when the page is full, so more events may follow at once. */
      HasMore: boolean;
      Event: ({
        /** The event's place in the installation's sequence; the feed's cursor. */
        Sequence: number;
        /** The event's id: the same in the feed, in webhook deliveries (webhook-id) and after redelivery. */
        EventId: string;
        /** The kind of change an event reports. */
        Type: "project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed";
        /** When the change committed (its LastChangeTimestamp). */
        Timestamp: string;
        ProgramId: string;
        ProjectId: string;
        /** The e-mail address of the user who made the change. */
        Actor?: string;
        FormId?: string;
        AttachmentId?: string;
        AttachmentVersion?: number;
        FromStatusId?: string;
        ToStatusId?: string;
        ProjectNumber?: string;
        /** (apas) project.status_changed: the customId of the reason the move gave, from the status's list; never its message. */
        ReasonId?: string;
        /** Owner or assignee before the change (e-mail address); absent when there was none. */
        FromUser?: string;
        /** Owner or assignee after the change (e-mail address); absent when there is none. */
        ToUser?: string;
        ThreadId?: string;
        NoteId?: string;
        VisibleToApplicant?: boolean;
        /** True when staff wrote the note, false when the applicant did. */
        ByStaff?: boolean;
        FromApprovalStatus?: string;
        ToApprovalStatus?: string;
        FromThreadStatus?: string;
        ToThreadStatus?: string;
        /** The customId of the program's automation that made the change; absent for a person's own change. */
        Automation?: string;
        /** automation.custom: the name the automation gave the event. */
        EventName?: string;
        /** deadline.* events: the customId of the program's deadline. */
        DeadlineId?: string;
        /** deadline.* events: when the deadline passes (the end of the local day it is due by). */
        DueAt?: string;
        /** envelope.* events: the e-signature envelope (GetEnvelope reads it with its audit trail). */
        EnvelopeId?: string;
        /** document.generated and envelope.* events: the customId of the program's document (document.generated: its file is AttachmentId's version AttachmentVersion). */
        DocumentId?: string;
        /** envelope.signed: the customId of the template's signer who signed. */
        SignerId?: string;
        /** (apas) project.related and project.unrelated: the relation; GetProjectRelations shows the other project to whoever may read it. */
        RelationId?: string;
        /** (apas) project.related and project.unrelated: child, successor or link. */
        RelationKind?: string;
        /** (apas) project.related and project.unrelated: from (the other project was made from or linked by this one) or to. */
        RelationSide?: string;
        /** connection.applied and connection.failed: the customId of the program's connection a callConnection action called. */
        ConnectionId?: string;
      })[];
    };
    /** GetFormSchema, version 1 (SchemaVersion 1.0): the data fields and attachment definitions of one form. Version 2 (FormSchemaResponseV2.xsd) adds the Group of each field and the choices of fields with a custom list. */
    FormSchemaResponse: {
      SchemaVersion: "1.0";
      Form: {
        FormId: string;
        CustomId?: string;
        ProgramId: string;
        Name: string;
        DataFields: {
          DataField: ({
            DataFieldId: string;
            CustomId?: string;
            Name: string;
            Type: "text" | "number" | "integer" | "boolean" | "date" | "choice" | "table";
            Required: boolean;
            MultiValue: boolean;
            Sensitive: boolean;
            MaxLength?: number;
            MinValue?: string;
            MaxValue?: string;
            CustomListId?: string;
            CustomListCustomId?: string;
            /** Table fields: the fewest rows a submission may have, when set. */
            MinRows?: number;
            /** Table fields: the most rows the table may have, when set. */
            MaxRows?: number;
            Columns?: {
              Column: ({
                CustomId: string;
                Name: string;
                Type: "text" | "number" | "integer" | "boolean" | "date" | "choice";
                Required: boolean;
                MaxLength?: number;
                MinValue?: string;
                MaxValue?: string;
                CustomListId?: string;
                CustomListCustomId?: string;
              })[];
            };
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            Required: boolean;
            MaxSizeBytes: number;
            /** The media types a file may have, for example application/pdf. */
            AllowedTypes: {
              Type: (string)[];
            };
          })[];
        };
      };
    };
    /** GetFormSchema, version 2 (SchemaVersion 2.0): version 1 (FormSchemaResponse.xsd) plus the Group of each data field and, for fields with a custom list, its choices inline. */
    FormSchemaResponseV2: {
      SchemaVersion: "2.0";
      Form: {
        FormId: string;
        CustomId?: string;
        ProgramId: string;
        Name: string;
        DataFields: {
          DataField: ({
            DataFieldId: string;
            CustomId?: string;
            Name: string;
            Type: "text" | "number" | "integer" | "boolean" | "date" | "choice" | "table";
            Required: boolean;
            MultiValue: boolean;
            Sensitive: boolean;
            MaxLength?: number;
            MinValue?: string;
            MaxValue?: string;
            CustomListId?: string;
            CustomListCustomId?: string;
            /** Table fields: the fewest rows a submission may have, when set. */
            MinRows?: number;
            /** Table fields: the most rows the table may have, when set. */
            MaxRows?: number;
            Group?: string;
            Choices?: {
              Choice: ({
                Value: string;
                Label: string;
              })[];
            };
            Columns?: {
              Column: ({
                CustomId: string;
                Name: string;
                Type: "text" | "number" | "integer" | "boolean" | "date" | "choice";
                Required: boolean;
                MaxLength?: number;
                MinValue?: string;
                MaxValue?: string;
                CustomListId?: string;
                CustomListCustomId?: string;
                Choices?: {
                  Choice: ({
                    Value: string;
                    Label: string;
                  })[];
                };
              })[];
            };
            /** A calculated field's CEL formula. */
            Formula?: string;
            /** The CEL rules of the field on this form (docs/programs.md): present only when the form sets some. */
            Rules?: {
              /** The field is shown, checked and submitted only while this rule is true. */
              VisibleIf?: string;
              /** The field is required (when shown) while this rule is true. */
              RequiredIf?: string;
              /** The field cannot be changed while this rule is true. */
              ReadOnlyIf?: string;
              Validation: ({
                /** What a person is told when the rule is not met. */
                Message: string;
                /** A CEL rule the values must meet. */
                Rule: string;
              })[];
            };
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            Required: boolean;
            MaxSizeBytes: number;
            /** The media types a file may have, for example application/pdf. */
            AllowedTypes: {
              Type: (string)[];
            };
          })[];
        };
      };
    };
    /** GetForms: the forms of a program, each with the statuses it is available in and the status it leads to. */
    FormsResponse: {
      ProgramId: string;
      Form: ({
        FormId: string;
        CustomId?: string;
        ProgramId: string;
        Name: string;
        AvailableInStatuses: {
          Status: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
          })[];
        };
        LeadsToStatus?: {
          StatusId: string;
          CustomId?: string;
          Name: string;
        };
      })[];
    };
    /** GetNotesInInquiryThread (the thread with every note, oldest first) and SetInquiryNote (the thread with the new note). Text is exactly the text that was sent. */
    InquiryNotesResponse: {
      ProjectId: string;
      InquiryThread: {
        ThreadId: string;
        Subject: string;
        Status: "Open" | "AwaitingResponse" | "Resolved" | "Closed";
        ExternalId?: string;
        CreatedTimestamp: string;
        UpdatedTimestamp: string;
        NoteCount: number;
        Note: ({
          NoteId: string;
          Author: string;
          AuthorEmail: string;
          Timestamp: string;
          VisibleToApplicant: boolean;
          Text: string;
        })[];
      };
    };
    /** SetInquiryThreadStatus and SetInquiryThreadExternalId: the thread as it is after the change. */
    InquiryThreadResponse: {
      ProjectId: string;
      InquiryThread: {
        ThreadId: string;
        Subject: string;
        Status: "Open" | "AwaitingResponse" | "Resolved" | "Closed";
        ExternalId?: string;
        CreatedTimestamp: string;
        UpdatedTimestamp: string;
        NoteCount: number;
      };
    };
    /** GetInquiryThreads: the inquiry threads of a project in creation order, each with its note count. */
    InquiryThreadsResponse: {
      ProjectId: string;
      InquiryThread: ({
        ThreadId: string;
        Subject: string;
        Status: "Open" | "AwaitingResponse" | "Resolved" | "Closed";
        ExternalId?: string;
        CreatedTimestamp: string;
        UpdatedTimestamp: string;
        NoteCount: number;
      })[];
    };
    /** LinkProject request: the project to relate to this one, and what it is to this one. */
    LinkProjectRequest: {
      /** The other project's program (id or customId) in the agency. */
      ProgramId: string;
      /** The other project (id or number). */
      ProjectId: string;
      /** What the other project is to this one: child, successor, or link (the default). */
      Kind?: "child" | "successor" | "link";
    };
    /** CreateNewProject: the new project, its current status and the forms of its program. */
    NewProjectResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber?: string;
        Url: string;
        LastChangeTimestamp: string;
        CurrentStatus: {
          StatusId: string;
          CustomId?: string;
          Name: string;
          Timestamp: string;
        };
        Forms: {
          Form: ({
            FormId: string;
            CustomId?: string;
            ProgramId: string;
            Name: string;
            AvailableInStatuses: {
              Status: ({
                StatusId: string;
                CustomId?: string;
                Name: string;
              })[];
            };
            LeadsToStatus?: {
              StatusId: string;
              CustomId?: string;
              Name: string;
            };
          })[];
        };
      };
    };
    /** GetPrograms: one Program element per program of the agency. */
    ProgramsResponse: {
      RequestTimestamp?: string;
      Program: ({
        ProgramId: string;
        ProgramName: string;
        /** apas: present only on a test copy of a program, the id of the live program it copies; its answers carry Apas-Test-Program: true. */
        TestOf?: string;
      })[];
    };
    /** (apas) GetProjectAutomationRuns: what the program's automations did on the project, in the order they ran (staff). */
    ProjectAutomationRunsResponse: {
      Project: {
        ProjectId: string;
        AutomationRun: ({
          /** The automation's customId. */
          AutomationId: string;
          Name: string;
          /** When the change it ran in was made. */
          Timestamp: string;
          /** What triggered it, as the review page shows it (e.g. "form.submitted Application", "schedule"). */
          Trigger: string;
          /** Its link in a chain of automations: 1 for the change's own triggers. */
          Depth: number;
          /** ran: every action ran; partly ran: an action was skipped, and the ones after it; skipped: the condition or the chain's depth stopped it. */
          Outcome: "ran" | "partly ran" | "skipped";
          /** Why the run was skipped: "the condition is not met", the chain's depth. */
          Reason?: string;
          Action: ({
            /** The action (moveStatus, sendMail, …). */
            Do: string;
            /** ran, or skipped (Reason says why). */
            Outcome: "ran" | "skipped";
            Reason?: string;
          })[];
        })[];
      };
    };
    /** GetProjectsByData request: filters on the current status, on when statuses were set and on data-field values, all combined with AND. Rules XSD 1.0 cannot express are checked by the service: Content is required for every Field operator except empty and notempty (and ignored for those); at most 20 FilterByStatusDate and 100 Field elements. */
    ProjectByDataRequest: {
      /** Include: projects in one of the statuses; Exclude: projects in none of them. */
      FilterByCurrentStatuses?: {
        /** Include or Exclude, in any letter case. */
        Operation: string;
        Status: ({
          /** The id or custom id of a status or data field. */
          Id: string;
        })[];
      };
      FilterByStatusDate?: ({
        /** The id or custom id of a status or data field. */
        Id: string;
        DateTime: string;
        Operator: "lt" | "le" | "gt" | "ge" | "eq";
      })[];
      DataFields?: {
        Field?: ({
          /** The id or custom id of a status or data field. */
          Id: string;
          Content?: string;
          Operator?: "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "contains" | "empty" | "notempty";
        })[];
      };
    };
    /** GetProjectsByNumber request: zero or more project numbers to look up. */
    ProjectByNumberRequest: {
      Project?: ({
        /** xs:token so that a number made only of spaces counts as empty. */
        ProjectNumber: string;
      })[];
    };
    /** GetProjectData: the draft or submitted data of one form of a project. */
    ProjectDataGetResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber?: string;
        Url: string;
        LastChangeTimestamp: string;
        FormId: string;
        CanSubmit: boolean;
        DataView: "Draft" | "Submitted";
        CurrentStatus: {
          StatusId: string;
          CustomId?: string;
          Name: string;
          Timestamp: string;
        };
        DataFields: {
          DataField: ({
            DataFieldId: string;
            CustomId?: string;
            Name: string;
            Value?: string;
            Values?: {
              Value: (string)[];
            };
            /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
            Rows?: {
              Row: ({
                Cell: ({
                  Column: string;
                  Value?: string;
                })[];
              })[];
            };
            /** (apas) What the last lookup at save said of the field's value (a connection's lookup:, docs/programs.md "Connections"); absent when none was made or the value is empty. */
            Lookup?: {
              /** verified: the agency's system knows the value; notFound: it does not; unavailable: it could not be asked, so the value is kept unverified. */
              State: "verified" | "notFound" | "unavailable";
              /** What the person is told beside the field. */
              Message: string;
              CheckedAt: string;
            };
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            FileName?: string;
          })[];
        };
      };
    };
    /** SetProjectData request. A DataField with neither Value nor Values clears the field; Values (even empty) sets a multi-value field; Rows replaces the whole value of a table field (Rows without a Row clears it). The legacy form repeats one DataFieldId with Instance="0", "1", ... and one Value each. Rules XSD 1.0 cannot express (Value and Values together, repeated fields) are checked by the service. */
    ProjectDataRequest: {
      Project: {
        ProjectId?: string;
        FormId?: string;
        DataFields?: {
          DataField?: ({
            DataFieldId: string;
            Name?: string;
            Value?: string;
            Instance?: number;
            Values?: {
              Value?: (string)[];
            };
            /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
            Rows?: {
              Row?: ({
                Cell?: ({
                  Column: string;
                  Value?: string;
                })[];
              })[];
            };
          })[];
        };
      };
    };
    /** SetProjectData: the data of the form after the change (same body as ProjectDataGetResponse). */
    ProjectDataSetResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber?: string;
        Url: string;
        LastChangeTimestamp: string;
        FormId: string;
        CanSubmit: boolean;
        DataView: "Draft" | "Submitted";
        CurrentStatus: {
          StatusId: string;
          CustomId?: string;
          Name: string;
          Timestamp: string;
        };
        DataFields: {
          DataField: ({
            DataFieldId: string;
            CustomId?: string;
            Name: string;
            Value?: string;
            Values?: {
              Value: (string)[];
            };
            /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
            Rows?: {
              Row: ({
                Cell: ({
                  Column: string;
                  Value?: string;
                })[];
              })[];
            };
            /** (apas) What the last lookup at save said of the field's value (a connection's lookup:, docs/programs.md "Connections"); absent when none was made or the value is empty. */
            Lookup?: {
              /** verified: the agency's system knows the value; notFound: it does not; unavailable: it could not be asked, so the value is kept unverified. */
              State: "verified" | "notFound" | "unavailable";
              /** What the person is told beside the field. */
              Message: string;
              CheckedAt: string;
            };
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            FileName?: string;
          })[];
        };
      };
    };
    /** StartProjectDeadline, SatisfyProjectDeadline, CancelProjectDeadline: the deadline after the change. */
    ProjectDeadlineResponse: {
      /** A deadline of the project: due by DueDate (a local day of the program's calendar), passing at DueAt, the start of the next local day. */
      Deadline: {
        /** The customId of the program's deadline. */
        DeadlineId: string;
        Name: string;
        /** running until satisfied or cancelled (by staff) or passed (at DueAt, by the service). */
        State: "running" | "satisfied" | "cancelled" | "passed";
        StartedAt: string;
        /** The last day allowed: shown "by <DueDate>". */
        DueDate: string;
        /** When the deadline passes: the end of DueDate in the program's time zone. */
        DueAt: string;
        /** When it was satisfied, cancelled or passed; absent while running. */
        EndedAt?: string;
        /** True when it passed, or is running past DueAt. */
        Overdue: boolean;
        ShownToApplicant: boolean;
      };
    };
    /** GetProjectDeadlines: the project's deadlines in the order they are due (applicants see those shown to them only). */
    ProjectDeadlinesResponse: {
      Project: {
        ProjectId: string;
        Deadline: ({
          /** The customId of the program's deadline. */
          DeadlineId: string;
          Name: string;
          /** running until satisfied or cancelled (by staff) or passed (at DueAt, by the service). */
          State: "running" | "satisfied" | "cancelled" | "passed";
          StartedAt: string;
          /** The last day allowed: shown "by <DueDate>". */
          DueDate: string;
          /** When the deadline passes: the end of DueDate in the program's time zone. */
          DueAt: string;
          /** When it was satisfied, cancelled or passed; absent while running. */
          EndedAt?: string;
          /** True when it passed, or is running past DueAt. */
          Overdue: boolean;
          ShownToApplicant: boolean;
        })[];
      };
    };
    /** GetProjectDocuments: the program's documents on the project (applicants: those shown to them), each with its newest request. */
    ProjectDocumentsResponse: {
      Project: {
        ProjectId: string;
        /** True when the caller holds the privilege generateDocuments. */
        CanGenerate: boolean;
        Document: ({
          DocumentId: string;
          Name: string;
          AttachmentId: string;
          /** The newest request; absent when none was made. */
          DocumentRequest?: {
            RequestId: string;
            /** The customId of the program's document. */
            DocumentId: string;
            /** queued until the service has rendered it (after the change that asked, retried with backoff), then generated, or failed after its last attempt. */
            State: "queued" | "generated" | "failed";
            RequestedAt: string;
            /** When it was generated or given up; absent while queued. */
            FinishedAt?: string;
            Attempts: number;
            /** Staff only: why the last attempt failed. */
            Error?: string;
            /** The attachment definition the generated files are versions of (GetActiveAttachment, GetAttachmentMetadata). */
            AttachmentId: string;
            /** The version this request generated; absent until it has. */
            AttachmentVersion?: number;
          };
        })[];
      };
    };
    /** GetProjectEnvelopes: the project's envelopes with their signers (no audit trail: GetEnvelope reads it), oldest first. */
    ProjectEnvelopesResponse: {
      ProjectId: string;
      Envelope: ({
        EnvelopeId: string;
        /** The customId of the document template. */
        DocumentId: string;
        Title: string;
        /** sent until every signer signed and the signed PDF is stored (completed), or a signer declined, or staff voided it. */
        State: "sent" | "completed" | "declined" | "voided";
        /** Signers sign one after another in order, or all at once. */
        Order: "sequential" | "parallel";
        /** The attachment definition the document and the signed PDF are versions of. */
        AttachmentId: string;
        /** The version of the document that is signed. */
        AttachmentVersion: number;
        /** completed: the version that holds the signed PDF. */
        SignedVersion?: number;
        CreatedAt: string;
        /** When the last signer signed (the signed PDF is made after it). */
        AllSignedAt?: string;
        /** When it was completed, declined or voided. */
        FinishedAt?: string;
        /** ResendEnvelope with mail off only: the new link, for staff to pass on; never stored. */
        SigningLink?: string;
        Signer: ({
          /** The customId of the template's signer. */
          SignerId: string;
          /** The project's owner, the person an e-mail field names, or a holder of a program role. */
          Kind: "owner" | "emailField" | "role";
          /** The template's name for the signer (e.g. Property owner). */
          Label: string;
          /** The person's name; for a role, the role's name until a holder signs. */
          Name: string;
          /** The address the signer is mailed at (absent for a role until a holder signs). */
          Email?: string;
          /** kind role: the program role whose holders may sign. */
          Role?: string;
          /** waiting for the signers before (in order); notified (mailed); viewed; consented to sign electronically; signed or declined. */
          State: "waiting" | "notified" | "viewed" | "consented" | "signed" | "declined";
          /** When the signer was last mailed. */
          NotifiedAt?: string;
          ConsentedAt?: string;
          SignedAt?: string;
          /** The name the signer typed as their signature. */
          TypedName?: string;
          DeclineReason?: string;
        })[];
        Step: ({
          At: string;
          /** What one step of the audit trail did. */
          Action: "created" | "notified" | "viewed" | "consented" | "signed" | "declined" | "voided" | "resent" | "reminded" | "completed";
          /** The customId of the signer the step is about. */
          SignerId?: string;
          /** The e-mail address of the signed-in user who acted; absent for a signer who came by link, or the service. */
          User?: string;
          /** Staff only: the address the step came from. */
          IpAddress?: string;
          /** Staff only: the browser it came from. */
          UserAgent?: string;
          /** declined, voided: the reason given. */
          Reason?: string;
          /** created, completed: the attachment version of the document, or of the signed PDF. */
          Version?: number;
          /** completed: the SHA-256 of the signed PDF. */
          Sha256?: string;
        })[];
      })[];
    };
    /** GetExportProject, version 1 (SchemaVersion 1.0): the whole project for archiving or migration, its data grouped by form and data-field group, its status history and its attachments. Version 2 (ProjectExportDataGetResponseV2.xsd) adds ChangedBy to the history entries. */
    ProjectExportDataGetResponse: {
      SchemaVersion: "1.0";
      Project: {
        ProjectId: string;
        ProgramId: string;
        Number?: string;
        Owner: string;
        Status: string;
        /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
        CreatedUTC: string;
        CreatedBy: string;
        /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
        LastChangedUTC: string;
        LastChangedBy: string;
        Data: {
          Form: ({
            FormId: string;
            CustomId?: string;
            Name: string;
            Group: ({
              Name?: string;
              Field: ({
                DataFieldId: string;
                CustomId?: string;
                Name: string;
                /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
                ChangeTime?: string;
                ChangedBy?: string;
                CurrentValue: (string)[];
                /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
                Rows?: {
                  Row: ({
                    Cell: ({
                      Column: string;
                      Value?: string;
                    })[];
                  })[];
                };
              })[];
            })[];
          })[];
        };
        StatusHistory: {
          Status: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
            Timestamp: string;
            ReportAs: "normal" | "suppress";
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            FileName?: string;
            FormId?: string;
            FileSize?: number;
            ContentType?: string;
            Sha256?: string;
            Version?: number;
            UploadedBy?: string;
            /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
            UploadedUTC?: string;
            ApprovalStatus?: string;
            Note?: string;
          })[];
        };
      };
    };
    /** GetExportProject, version 2 (SchemaVersion 2.0): version 1 (ProjectExportDataGetResponse.xsd) plus ChangedBy, the e-mail address of the user who set the status, on every status-history entry. */
    ProjectExportDataGetResponseV2: {
      SchemaVersion: "2.0";
      Project: {
        ProjectId: string;
        ProgramId: string;
        Number?: string;
        Owner: string;
        Status: string;
        /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
        CreatedUTC: string;
        CreatedBy: string;
        /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
        LastChangedUTC: string;
        LastChangedBy: string;
        Data: {
          Form: ({
            FormId: string;
            CustomId?: string;
            Name: string;
            Group: ({
              Name?: string;
              Field: ({
                DataFieldId: string;
                CustomId?: string;
                Name: string;
                /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
                ChangeTime?: string;
                ChangedBy?: string;
                CurrentValue: (string)[];
                /** The rows of a table field in order, each a Cell per filled column (Column is the column's CustomId). In a request, Rows replaces the whole table; Rows without a Row clears it. */
                Rows?: {
                  Row: ({
                    Cell: ({
                      Column: string;
                      Value?: string;
                    })[];
                  })[];
                };
              })[];
            })[];
          })[];
        };
        StatusHistory: {
          Status: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
            Timestamp: string;
            ReportAs: "normal" | "suppress";
            ChangedBy: string;
          })[];
        };
        Attachments: {
          Attachment: ({
            AttachmentId: string;
            CustomId?: string;
            Name: string;
            FileName?: string;
            FormId?: string;
            FileSize?: number;
            ContentType?: string;
            Sha256?: string;
            Version?: number;
            UploadedBy?: string;
            /** A UTC time as the export writes it: yyyy-MM-ddTHH-mm-ss, for example 2015-04-16T23-59-45. */
            UploadedUTC?: string;
            ApprovalStatus?: string;
            Note?: string;
          })[];
        };
      };
    };
    /** GetProjectRelations: the project's related projects that the caller may read, oldest relation first. */
    ProjectRelationsResponse: {
      Project: {
        ProjectId: string;
        Relation: ({
          RelationId: string;
          /** What the project a relation was made to is to the one it was made from. */
          Kind: "child" | "successor" | "link";
          /** What the related project is to the project read: its child or parent, its successor or predecessor, or a link. */
          Relationship: "child" | "parent" | "successor" | "predecessor" | "link";
          /** The customId of the program relation (relations:) it was made by; absent for one made otherwise. */
          RelationName?: string;
          /** The related project's program (its customId). */
          ProgramId: string;
          ProjectId: string;
          /** Absent while the related project is unsubmitted. */
          ProjectNumber?: string;
          /** The related project's current status. */
          Status: string;
          CreatedAt: string;
          /** Who made the relation (e-mail address); for the program's staff only. */
          CreatedBy?: string;
        })[];
      };
    };
    /** GetProjectStatusHistory: every status the project has had, newest first. */
    ProjectStatusHistoryResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber?: string;
        StatusHistory: {
          Status: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
            ChangedBy: string;
            Timestamp: string;
            /** normal: the entry counts in reports; suppress: it is left out of them. */
            ReportAs: "normal" | "suppress";
            /** (apas) The customId of the reason the move gave, from the status's list. */
            ReasonId?: string;
            /** (apas) The reason's name as the status lists it now (its customId once the list no longer has it). */
            Reason?: string;
            /** (apas) The message the move gave, as written. */
            Message?: string;
          })[];
        };
      };
    };
    /** SubmitProject: the project with its current status (interface specification part 2). */
    ProjectSubmitResponse: {
      Project: {
        ProjectId: string;
        ProgramId: string;
        ProjectNumber: string;
        Url: string;
        LastChangeTimestamp: string;
        CurrentStatus: {
          StatusId: string;
          CustomId?: string;
          Name: string;
          Timestamp: string;
        };
      };
    };
    /** GetProjects and GetProjectsByNumber, base variant (SchemaVersion 1): six attributes per project. */
    ProjectsResponse: {
      SchemaVersion?: number;
      RequestTimestamp?: string;
      Projects: {
        Project: ({
          ProjectId: string;
          ProgramId: string;
          ProjectNumber?: string;
          Status: string;
          StatusTimestamp: string;
          LastChangeTimestamp: string;
        })[];
      };
    };
    /** GetProjects and GetProjectsByNumber, extended variant: the base attributes plus StatusCustomId and StatusPublicId. */
    ProjectsResponseExtended: {
      SchemaVersion?: number;
      RequestTimestamp?: string;
      Projects: {
        Project: ({
          ProjectId: string;
          ProgramId: string;
          ProjectNumber?: string;
          Status: string;
          StatusTimestamp: string;
          LastChangeTimestamp: string;
          /** The interface specification declares StatusCustomId required in the extended variant, yet says it is omitted for some projects (statuses without a custom identifier) and that readers must tolerate its absence. This schema describes what the service actually sends, so the attribute is optional. */
          StatusCustomId?: string;
          StatusPublicId: string;
        })[];
      };
    };
    /** RedeliverFailedWebhookDeliveries request: every failed delivery made since this time that was not sent again yet is queued again (at most 1000 per request). */
    RedeliverWebhookDeliveriesRequest: {
      /** Failed deliveries made at or after this time are sent again. */
      Since: string;
    };
    /** CreateRelatedProject: the project made from this one by the program relation, and the relation; the ETag is this project's. */
    RelatedProjectResponse: {
      Relation: {
        RelationId: string;
        /** What the project a relation was made to is to the one it was made from. */
        Kind: "child" | "successor" | "link";
        /** The new project's program (its id). */
        ProgramId: string;
        /** The new project. */
        ProjectId: string;
      };
    };
    /** RotateWebhookSecret request: how long deliveries are signed with the old secret too (GraceHours, default 24, at most 168; 0 ends it at once). */
    RotateWebhookSecretRequest: {
      /** Hours the replaced secret goes on signing deliveries, 0 to 168 (default 24). */
      GraceHours?: number;
    };
    /** RotateWebhookSecret: the new signing secret, which no other answer shows, and the subscription with the end of the grace period. */
    RotateWebhookSecretResponse: {
      /** The new signing secret (whsec_…); shown in this answer only. */
      Secret: string;
      WebhookSubscription: {
        SubscriptionId: string;
        ProgramId: string;
        /** Where deliveries are posted. */
        Url: string;
        Enabled: boolean;
        /** Why it was disabled: by whom, or the run of failures that disabled it. */
        DisabledReason?: string;
        DisabledTimestamp?: string;
        /** Failed attempts since the last one answered with 2xx. */
        ConsecutiveFailures: number;
        /** During a secret rotation's grace period: until when deliveries are signed with the replaced secret too. */
        PreviousSecretExpiresTimestamp?: string;
        CreatedTimestamp: string;
        /** The e-mail address of the admin who made it. */
        CreatedBy?: string;
        UpdatedTimestamp: string;
        /** The kinds of event sent to the subscription; none listed means every kind. */
        EventTypes: {
          EventType: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
        };
      };
    };
    /** SetAssignee request: the e-mail address of the user who becomes the assignee; absent or empty to clear the assignment. */
    SetAssigneeRequest: {
      AssigneeEmail?: string;
    };
    /** SetAssignee: the user now assigned to the project; no Assignee element when the assignment was cleared. */
    SetAssigneeResponse: {
      Assignee?: {
        Name: string;
        Email: string;
      };
    };
    /** SetAttachmentMetadata request (the commercial system's root name): how to review the active file, and optionally its new note (an empty Note clears it; no Note keeps it). */
    SetAttachmentMetadata: {
      /** Approve (ApprovalStatus Approved), Reject (Rejected), Unmark (Pending) or Save (unchanged), in any letter case. */
      AttachmentStatus: string;
      Note?: string;
    };
    /** SetInquiryNote request: a note for the thread ThreadId, or, without ThreadId, for a new thread called Subject. Text is stored exactly as sent (whitespace and line breaks included); VisibleToApplicant defaults to false. */
    SetInquiryNoteRequest: {
      ThreadId?: string;
      Subject?: string;
      VisibleToApplicant?: boolean | "true" | "false";
      Text: string;
    };
    /** SetInquiryThreadExternalId request: the id of the thread in an outside system (unique within the program); absent or empty to unlink. */
    SetInquiryThreadExternalIdRequest: {
      ExternalId?: string;
    };
    /** SetInquiryThreadStatus request: the status the thread moves to. */
    SetInquiryThreadStatusRequest: {
      Status: "Open" | "AwaitingResponse" | "Resolved" | "Closed";
    };
    /** SetProjectOwner request: the e-mail address of the user who becomes the owner. */
    SetProjectOwnerRequest: {
      OwnerEmail: string;
    };
    /** SetProjectOwner: the new owner of the project. */
    SetProjectOwnerResponse: {
      Owner: {
        Name: string;
        Email: string;
      };
    };
    /** SetProjectStatusReportAs request: the status-history entry, by its status and the time it was set (UTC when Timestamp has no offset; without milliseconds it matches the entry set within that second), and how reports show it. */
    SetProjectStatusHistoryReportAs: {
      StatusId: string;
      Timestamp: string;
      /** normal or suppress, in any letter case. */
      ReportAs: string;
    };
    /** SetProjectStatus request: the status the project moves to, by its id or custom id; (apas) ReasonId and Message optional. */
    SetProjectStatusRequest: {
      StatusId: string;
      /** (apas) The customId of a reason from the target status's list (GetStatusList); required where the status requires one. */
      ReasonId?: string;
      /** (apas) A message to go with the move: kept in the history, mailed to the applicant. */
      Message?: string;
    };
    /** SetWebhookSubscription request: a new Url, Enabled true or false, and new EventTypes (replacing the old; an empty EventTypes means every kind). What is left out stays. */
    SetWebhookSubscriptionRequest: {
      Url?: string;
      Enabled?: boolean | "true" | "false";
      /** The kinds of event sent to the subscription; none listed means every kind. */
      EventTypes?: {
        EventType?: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
      };
    };
    /** SetProjectStatusReportAs: the status-history entry after the change. */
    StatusHistoryReportAsResponse: {
      /** ChangedBy is the e-mail address of the user who set the status; Timestamp when it was set. (apas) ReasonId, Reason and Message: what the move gave, when it gave them. */
      Status: {
        StatusId: string;
        CustomId?: string;
        Name: string;
        ChangedBy: string;
        Timestamp: string;
        /** normal: the entry counts in reports; suppress: it is left out of them. */
        ReportAs: "normal" | "suppress";
        /** (apas) The customId of the reason the move gave, from the status's list. */
        ReasonId?: string;
        /** (apas) The reason's name as the status lists it now (its customId once the list no longer has it). */
        Reason?: string;
        /** (apas) The message the move gave, as written. */
        Message?: string;
      };
    };
    /** GetStatusList: the workflow statuses of a program, each with the statuses it may move to. */
    StatusListResponse: {
      ProgramId: string;
      Status: ({
        StatusId: string;
        CustomId?: string;
        PublicId: string;
        Name: string;
        Initial: boolean;
        NextStatuses: {
          Status: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
          })[];
        };
        /** (apas) Present when the status lists reasons. */
        Reasons?: {
          Required: boolean;
          Reason: ({
            ReasonId: string;
            Name: string;
          })[];
          RequiredFrom: ({
            StatusId: string;
            CustomId?: string;
            Name: string;
          })[];
        };
      })[];
    };
    /** SetProjectStatus: the project's new current status and the address of the project. */
    StatusSetResponse: {
      Status: {
        StatusId: string;
        CustomId?: string;
        Name: string;
        Timestamp: string;
      };
      Url: {
        Value: string;
      };
    };
    /** GetWebhookDeliveries: the subscription's latest deliveries, newest first; RedeliverFailedWebhookDeliveries: the deliveries it queued. */
    WebhookDeliveriesResponse: {
      SubscriptionId: string;
      WebhookDelivery: ({
        DeliveryId: string;
        /** The event's id, sent as webhook-id (the same on every attempt and redelivery). */
        EventId: string;
        /** The event's Sequence in the change feed; absent for a test delivery. */
        Sequence?: number;
        /** What a delivery carries: a kind of event, or webhook.test for a test delivery sent from the console. */
        EventType: "project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed" | "webhook.test";
        /** The event's project; absent for a test delivery. */
        ProjectId?: string;
        Status: "pending" | "delivered" | "failed";
        Attempts: number;
        CreatedTimestamp: string;
        /** When it is tried next (pending deliveries only). */
        NextAttemptTimestamp?: string;
        LastAttemptTimestamp?: string;
        /** The HTTP status of the last answer; absent when there was none (see LastError). */
        LastStatusCode?: number;
        /** Why the last attempt failed. */
        LastError?: string;
        DeliveredTimestamp?: string;
        /** The delivery this one sends again. */
        RedeliveryOf?: string;
      })[];
    };
    /** RedeliverWebhookDelivery: the new delivery that sends the event again, due now. */
    WebhookDeliveryResponse: {
      WebhookDelivery: {
        DeliveryId: string;
        /** The event's id, sent as webhook-id (the same on every attempt and redelivery). */
        EventId: string;
        /** The event's Sequence in the change feed; absent for a test delivery. */
        Sequence?: number;
        /** What a delivery carries: a kind of event, or webhook.test for a test delivery sent from the console. */
        EventType: "project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed" | "webhook.test";
        /** The event's project; absent for a test delivery. */
        ProjectId?: string;
        Status: "pending" | "delivered" | "failed";
        Attempts: number;
        CreatedTimestamp: string;
        /** When it is tried next (pending deliveries only). */
        NextAttemptTimestamp?: string;
        LastAttemptTimestamp?: string;
        /** The HTTP status of the last answer; absent when there was none (see LastError). */
        LastStatusCode?: number;
        /** Why the last attempt failed. */
        LastError?: string;
        DeliveredTimestamp?: string;
        /** The delivery this one sends again. */
        RedeliveryOf?: string;
      };
    };
    /** GetWebhookSubscription and SetWebhookSubscription: the subscription (without its secret). */
    WebhookSubscriptionResponse: {
      WebhookSubscription: {
        SubscriptionId: string;
        ProgramId: string;
        /** Where deliveries are posted. */
        Url: string;
        Enabled: boolean;
        /** Why it was disabled: by whom, or the run of failures that disabled it. */
        DisabledReason?: string;
        DisabledTimestamp?: string;
        /** Failed attempts since the last one answered with 2xx. */
        ConsecutiveFailures: number;
        /** During a secret rotation's grace period: until when deliveries are signed with the replaced secret too. */
        PreviousSecretExpiresTimestamp?: string;
        CreatedTimestamp: string;
        /** The e-mail address of the admin who made it. */
        CreatedBy?: string;
        UpdatedTimestamp: string;
        /** The kinds of event sent to the subscription; none listed means every kind. */
        EventTypes: {
          EventType: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
        };
      };
    };
    /** GetWebhookSubscriptions: the program's webhook subscriptions, oldest first (without their secrets). */
    WebhookSubscriptionsResponse: {
      ProgramId: string;
      WebhookSubscription: ({
        SubscriptionId: string;
        ProgramId: string;
        /** Where deliveries are posted. */
        Url: string;
        Enabled: boolean;
        /** Why it was disabled: by whom, or the run of failures that disabled it. */
        DisabledReason?: string;
        DisabledTimestamp?: string;
        /** Failed attempts since the last one answered with 2xx. */
        ConsecutiveFailures: number;
        /** During a secret rotation's grace period: until when deliveries are signed with the replaced secret too. */
        PreviousSecretExpiresTimestamp?: string;
        CreatedTimestamp: string;
        /** The e-mail address of the admin who made it. */
        CreatedBy?: string;
        UpdatedTimestamp: string;
        /** The kinds of event sent to the subscription; none listed means every kind. */
        EventTypes: {
          EventType: ("project.created" | "project.draft_saved" | "project.data_saved" | "project.submitted" | "project.status_changed" | "project.owner_changed" | "project.assignee_changed" | "attachment.uploaded" | "attachment.reviewed" | "inquiry.note_added" | "inquiry.thread_status_changed" | "automation.custom" | "deadline.started" | "deadline.satisfied" | "deadline.cancelled" | "deadline.passed" | "document.generated" | "envelope.signed" | "envelope.completed" | "envelope.declined" | "envelope.voided" | "project.related" | "project.unrelated" | "connection.applied" | "connection.failed")[];
        };
      })[];
    };
    /** RFC 6749 §5.2: invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope, or the API's own code in lower case. */
    OAuthError: {
      error: string;
      error_description?: string;
    };
  };
}

/** Every operation, by operationId. */
export interface operations {
  GetPrograms: {
    parameters: {
      query?: {
        /** The agency's id or custom id (required). */
        Agency?: string;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProgramsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjects: {
    parameters: {
      query?: {
        /** Projects per page, 1–1000 (default 1000). */
        limit?: number;
        /** Projects to skip (default 0); not together with after. */
        offset?: number;
        /** A cursor from the previous page's Link header: the page starts just after that project. */
        after?: string;
        /** Only projects whose last change is strictly later than this time: yyyy-MM-dd or an ISO 8601 date-time. */
        changed_since?: string;
        /** The answer variant: 1 (default) is ProjectsResponse, 2 the extended variant with StatusCustomId and StatusPublicId. */
        version?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectsResponse"] | components["schemas"]["ProjectsResponseExtended"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectsByNumber: {
    parameters: {
      query?: {
        /** The answer variant: 1 (default) is ProjectsResponse, 2 the extended variant with StatusCustomId and StatusPublicId. */
        version?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectByNumberRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectsResponse"] | components["schemas"]["ProjectsResponseExtended"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectsByNumberLegacy: {
    parameters: {
      query?: {
        /** The answer variant: 1 (default) is ProjectsResponse, 2 the extended variant with StatusCustomId and StatusPublicId. */
        version?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectByNumberRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectsResponse"] | components["schemas"]["ProjectsResponseExtended"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  CreateNewProject: {
    parameters: {
      query?: {
        /** Start the project for this organization of the caller's: its members share it, its defaults prefill the forms. */
        OrganizationId?: string;
      };
      header?: {
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["NewProjectResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectOwner: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetProjectOwnerRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["SetProjectOwnerResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectData: {
    parameters: {
      query?: {
        /** Show sensitive values instead of masking them (privilege revealSensitive, with a second factor). */
        reveal_sensitive_data?: boolean;
      };
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataGetResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectData: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectDataRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataSetResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectDraftData: {
    parameters: {
      query?: {
        /** Show sensitive values instead of masking them (privilege revealSensitive, with a second factor). */
        reveal_sensitive_data?: boolean;
      };
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataGetResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectDraftData: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectDataRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataSetResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SubmitProject: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectSubmitResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SubmitProjectShortUrl: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectSubmitResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetForms: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["FormsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetFormSchema: {
    parameters: {
      query?: {
        /** Answer version: 1 (default) or 2, which adds each field's Group and the choices of fields with a custom list. */
        version?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        FormId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["FormSchemaResponse"] | components["schemas"]["FormSchemaResponseV2"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetCustomListChoices: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ListId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["CustomListChoicesResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetStatusList: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["StatusListResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectStatusHistory: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectStatusHistoryResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectStatus: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetProjectStatusRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["StatusSetResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectStatusReportAs: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetProjectStatusHistoryReportAs"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["StatusHistoryReportAsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetAssignee: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetAssigneeRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["SetAssigneeResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectDeadlines: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDeadlinesResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  StartProjectDeadline: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        DeadlineId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDeadlineResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SatisfyProjectDeadline: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        DeadlineId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDeadlineResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  CancelProjectDeadline: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        DeadlineId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDeadlineResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectRelations: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectRelationsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  LinkProject: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["LinkProjectRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["RelatedProjectResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  UnlinkProject: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        RelationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["RelatedProjectResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  CreateRelatedProject: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        RelationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["RelatedProjectResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectDocuments: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDocumentsResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GenerateDocument: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        DocumentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["DocumentRequestResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectEnvelopes: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectEnvelopesResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetEnvelope: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        EnvelopeId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["EnvelopeResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  VoidEnvelope: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        EnvelopeId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["EnvelopeResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  ResendEnvelope: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        EnvelopeId: string;
        SignerId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["EnvelopeResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectAutomationRuns: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectAutomationRunsResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetAutomationSchedule: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        AutomationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AutomationScheduleResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  RunAutomationSchedule: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        AutomationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AutomationScheduleRunResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetAllProjectData: {
    parameters: {
      query?: {
        /** Show sensitive values instead of masking them (privilege revealSensitive, with a second factor). */
        reveal_sensitive_data?: boolean;
      };
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AllProjectDataResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetExportProject: {
    parameters: {
      query?: {
        /** The answer's version: 1 (default, ProjectExportDataGetResponse) or 2 (ProjectExportDataGetResponseV2); 2.0, v1 and v2 are accepted too. */
        version?: string;
      };
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectExportDataGetResponse"] | components["schemas"]["ProjectExportDataGetResponseV2"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetProjectsByData: {
    parameters: {
      query?: {
        /** Projects per page, 1–1000 (default 1000). */
        limit?: number;
        /** Projects to skip (default 0). */
        offset?: number;
        /** The answer variant: 1 (default) is ProjectsResponse, 2 the extended variant with StatusCustomId and StatusPublicId. */
        version?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProjectByDataRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectsResponse"] | components["schemas"]["ProjectsResponseExtended"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  CreateMfaSessionToken: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateMfaSessionTokenRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["CreateMfaSessionTokenResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  DeleteMfaSessionToken: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        TokenId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      204: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetActiveAttachment: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** The file's ETag: refused 412 when the active file is another one. */
        "If-Match"?: string;
        /** One range bytes=a-b, bytes=a- or bytes=-n: answered 206 with those bytes (several ranges: the whole file). */
        Range?: string;
        /** The file's ETag: the Range applies only while it names the file, else the whole file is answered. */
        "If-Range"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        AttachmentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "*/*": string;
        };
      };
      206: {
        headers: { [name: string]: unknown };
        content: {
          "*/*": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetAttachmentAsAdmin: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** The file's ETag: refused 412 when the active file is another one. */
        "If-Match"?: string;
        /** One range bytes=a-b, bytes=a- or bytes=-n: answered 206 with those bytes (several ranges: the whole file). */
        Range?: string;
        /** The file's ETag: the Range applies only while it names the file, else the whole file is answered. */
        "If-Range"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        AttachmentId: string;
        Version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "*/*": string;
        };
      };
      206: {
        headers: { [name: string]: unknown };
        content: {
          "*/*": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetAttachmentMetadata: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        AttachmentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AttachmentMetadataResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetAttachmentMetadata: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        AttachmentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetAttachmentMetadata"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AttachmentMetadataResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetInquiryThreads: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        /** The project's id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id. */
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["InquiryThreadsResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetNotesInInquiryThread: {
    parameters: {
      query?: never;
      header?: {
        /** ETags of this answer: answered 304 while one is current. */
        "If-None-Match"?: string;
        /** An ETag of this project: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        ThreadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["InquiryNotesResponse"];
          "application/xml": string;
        };
      };
      304: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetInquiryNote: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetInquiryNoteRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["InquiryNotesResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetInquiryThreadStatus: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        ThreadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetInquiryThreadStatusRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["InquiryThreadResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetInquiryThreadExternalId: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        ThreadId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetInquiryThreadExternalIdRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["InquiryThreadResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetEvents: {
    parameters: {
      query?: {
        /** Only events with a larger Sequence: the NextCursor of the previous page (default 0, the start). */
        after?: number;
        /** Events per page, 1–1000 (default 100). */
        limit?: number;
        /** Only events of this program (its id or custom id). */
        program?: string;
        /** Only events of these types, comma-separated: project.created, project.draft_saved, project.data_saved, project.submitted, project.status_changed, project.owner_changed, project.assignee_changed, attachment.uploaded, attachment.reviewed, inquiry.note_added, inquiry.thread_status_changed, automation.custom, deadline.started, deadline.satisfied, deadline.cancelled, deadline.passed, document.generated, envelope.signed, envelope.completed, envelope.declined, envelope.voided, project.related, project.unrelated, connection.applied, connection.failed. */
        type?: string;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["EventsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetWebhookSubscriptions: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookSubscriptionsResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  CreateWebhookSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateWebhookSubscriptionRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["CreateWebhookSubscriptionResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetWebhookSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookSubscriptionResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetWebhookSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["SetWebhookSubscriptionRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookSubscriptionResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  DeleteWebhookSubscription: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      204: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  GetWebhookDeliveries: {
    parameters: {
      query?: {
        /** Deliveries in the answer, 1–1000 (default 100). */
        limit?: number;
      };
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookDeliveriesResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  RotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RotateWebhookSecretRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["RotateWebhookSecretResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  RedeliverFailedWebhookDeliveries: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RedeliverWebhookDeliveriesRequest"];
        "application/xml": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookDeliveriesResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  RedeliverWebhookDelivery: {
    parameters: {
      query?: never;
      header?: {
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        SubscriptionId: string;
        DeliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["WebhookDeliveryResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  SetProjectAttachment: {
    parameters: {
      query?: never;
      header?: {
        /** The ETag the change is based on: refused 412 when the project changed since. */
        "If-Match"?: string;
        /** Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change. */
        "Idempotency-Key"?: string;
        /** The client's id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer. */
        "X-Request-Id"?: string;
      };
      path: {
        ProgramId: string;
        ProjectId: string;
        FormId: string;
        AttachmentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "*/*": string;
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["AttachmentMetadataResponse"];
          "application/xml": string;
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
          "application/xml": string;
        };
      };
    };
  };
  OAuthToken: {
    parameters: {
      query?: never;
      header?: {
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/x-www-form-urlencoded": {
          grant_type: "client_credentials";
          scope?: string;
          client_id?: string;
          client_secret?: string;
        };
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": {
            access_token: string;
            token_type: "Bearer";
            expires_in: number;
          };
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["OAuthError"];
        };
      };
    };
  };
  OAuthRevoke: {
    parameters: {
      query?: never;
      header?: {
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/x-www-form-urlencoded": {
          token: string;
          token_type_hint?: string;
          client_id?: string;
          client_secret?: string;
        };
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content?: never;
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["OAuthError"];
        };
      };
    };
  };
  GetOAuthMetadata: {
    parameters: {
      query?: never;
      header?: {
        "X-Request-Id"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": Record<string, never>;
        };
      };
    };
  };
}
