// Generated from /openapi.json by scripts/client-types.ts (npm run client:types); do not edit by hand.
// A test fails when it no longer matches what the service describes.

/** Every path of the interface and the operations it answers to. */
export interface paths {
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
}

/** The request and answer documents, by name. */
export interface components {
  schemas: {
    /** Every error answer: a stable code, the HTTP status, a message and, for data problems, one FieldError per field. */
    ErrorResponse: {
      /** The closed list of error codes (ERROR_STATUS in src/domain/api-error.ts); each maps to one HTTP status. */
      Code: "AUTHENTICATION_REQUIRED" | "INVALID_CREDENTIALS" | "MFA_REQUIRED" | "MFA_INVALID" | "FORBIDDEN" | "SENSITIVE_DATA_NOT_ALLOWED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "REQUEST_TIMEOUT" | "CONFLICT" | "FORM_NOT_AVAILABLE" | "TRANSITION_NOT_ALLOWED" | "THREAD_CLOSED" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "HEADERS_TOO_LARGE" | "MALFORMED_XML" | "MALFORMED_JSON" | "WRONG_NAMESPACE" | "INVALID_REQUEST" | "INVALID_PARAMETER" | "TOO_MANY_NUMBERS" | "VALIDATION_FAILED" | "FORM_INCOMPLETE" | "UNKNOWN_USER" | "RATE_LIMITED" | "SIGN_IN_LOCKED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
      Status: number;
      Message: string;
      RequestId?: string;
      FieldError: ({
        DataFieldId: string;
        CustomId?: string;
        Name?: string;
        Code: string;
        Message: string;
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
    /** SetProjectData request. A DataField with neither Value nor Values clears the field; Values (even empty) sets a multi-value field. The legacy form repeats one DataFieldId with Instance="0", "1", ... and one Value each. Rules XSD 1.0 cannot express (Value and Values together, repeated fields) are checked by the service. */
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
  };
}

/** Every operation, by operationId. */
export interface operations {
  GetProjectData: {
    parameters: {
      query?: {
        /** Show sensitive values instead of masking them (admins with the right only). */
        reveal_sensitive_data?: boolean;
      };
      header?: {
        /** An ETag of this project: answered 304 while it is current. */
        "If-None-Match"?: string;
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
          "application/json": components["schemas"]["ProjectDataGetResponse"];
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
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataSetResponse"];
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  GetProjectDraftData: {
    parameters: {
      query?: {
        /** Show sensitive values instead of masking them (admins with the right only). */
        reveal_sensitive_data?: boolean;
      };
      header?: {
        /** An ETag of this project: answered 304 while it is current. */
        "If-None-Match"?: string;
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
          "application/json": components["schemas"]["ProjectDataGetResponse"];
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
      };
    };
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ProjectDataSetResponse"];
        };
      };
      default: {
        headers: { [name: string]: unknown };
        content: {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
}
