import type { StoreError } from '../store/store-error.ts';
import { boundText } from './bounded-text.ts';

/** The most characters of an answered error message (and of each field problem's): messages quote input of any size. */
export const MAX_MESSAGE_CHARS = 400;

/** The closed list of error codes the service answers with; each maps to exactly one HTTP status. */
export const ERROR_STATUS = {
  AUTHENTICATION_REQUIRED: 401,
  INVALID_CREDENTIALS: 401,
  MFA_REQUIRED: 401,
  MFA_INVALID: 401,
  FORBIDDEN: 403,
  SENSITIVE_DATA_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  FORM_NOT_AVAILABLE: 409,
  TRANSITION_NOT_ALLOWED: 409,
  THREAD_CLOSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  EVENTS_CURSOR_UNKNOWN: 409,
  EVENTS_EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  HEADERS_TOO_LARGE: 431,
  MALFORMED_XML: 400,
  MALFORMED_JSON: 400,
  WRONG_NAMESPACE: 400,
  INVALID_REQUEST: 400,
  INVALID_PARAMETER: 400,
  TOO_MANY_NUMBERS: 400,
  VALIDATION_FAILED: 422,
  FORM_INCOMPLETE: 422,
  UNKNOWN_USER: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  WEBHOOK_TARGET_NOT_ALLOWED: 422,
  RATE_LIMITED: 429,
  SIGN_IN_LOCKED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** One of the service's error codes. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A field-level problem reported inside an error (for example a required data field left empty). */
export interface FieldProblem {
  /** The generated id of the data field (or the id as sent when it matched nothing). */
  dataFieldId: string;
  customId?: string | null;
  name?: string;
  /**
   * A stable reason: REQUIRED, INVALID_TYPE, NOT_IN_LIST, TOO_LONG, OUT_OF_RANGE, NOT_MULTI_VALUE,
   * MULTI_VALUE_EXPECTED, TOO_MANY_VALUES, DUPLICATE_FIELD, UNKNOWN_FIELD, and ATTACHMENT_REQUIRED (then dataFieldId
   * is the id of a required attachment definition that has no file); for table fields also ROWS_EXPECTED, NOT_A_TABLE,
   * TOO_MANY_ROWS, TOO_FEW_ROWS, UNKNOWN_COLUMN and DUPLICATE_COLUMN; RULE_TOO_COSTLY for a rule of the field that
   * costs more than a rule may on the request's values.
   */
  code: string;
  message: string;
  /** For a problem of one cell of a table field: its row, from 1. */
  row?: number;
  /** For a problem of one cell of a table field: its column's customId. */
  column?: string;
}

/** The one error class of the service: a stable code, a message for people, optional field details. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { fields?: FieldProblem[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.fields = options.fields ?? [];
    this.headers = options.headers ?? {};
  }

  /** The HTTP status this error is answered with. */
  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /**
   * This error with its message and field messages cut to MAX_MESSAGE_CHARS, as every answer and its log line carry
   * it (the command line shows whole messages, such as every problem of a program file).
   */
  bounded(): ApiError {
    const long = (text: string) => text.length > MAX_MESSAGE_CHARS;
    if (!long(this.message) && !this.fields.some((f) => long(f.message))) return this;
    const fields = this.fields.map((f) => (long(f.message) ? { ...f, message: boundText(f.message, MAX_MESSAGE_CHARS) } : f));
    return new ApiError(this.code, boundText(this.message, MAX_MESSAGE_CHARS), { fields, headers: this.headers });
  }
}

/** The answer to a failure of the store: an upload over its limit, or a change rolled back for taking too long. */
export function fromStoreError(error: StoreError): ApiError {
  if (error.code === 'BLOB_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', error.message);
  // The operator's to fix (a key missing from the configuration), never the client's: the details go to the log only.
  if (error.code === 'SECRET_UNREADABLE') return new ApiError('INTERNAL_ERROR', 'The service cannot read a stored secret; its operator has been told.');
  // Files are the operator's (a restore without them, a bucket emptied by hand): the client can do nothing about it.
  if (error.code === 'BLOB_MISSING') return new ApiError('INTERNAL_ERROR', 'The stored file is missing from the file store; its operator has been told.');
  // The one case where "nothing was changed" cannot be promised: read the state back before sending the change again.
  if (error.code === 'COMMIT_UNCONFIRMED') {
    return new ApiError('SERVICE_UNAVAILABLE', `${error.message}; it may or may not have been saved, read it back before sending it again.`, { headers: { 'Retry-After': '1' } });
  }
  return new ApiError('SERVICE_UNAVAILABLE', `${error.message}; nothing was changed, try again.`, { headers: { 'Retry-After': '1' } });
}
