/** The type of a value in a connection's response, as its program declares it (a small JSON-Schema-like shape). */
export type ResponseShape =
  | { type: 'string' | 'number' | 'integer' | 'boolean' }
  | { type: 'array'; items: ResponseShape }
  | { type: 'object'; properties: Record<string, ResponseShape>; required: string[] };

/**
 * A connection as a program stores it (the program file's `connections:`, src/domain/connections): how a request to
 * the agency's own system is built from a project's values and how the answer is mapped back into fields. Where it
 * goes and how it signs in are not part of the program: they are set per installation and program (live or test copy).
 */
export interface ConnectionDefinition {
  customId: string; name: string;
  method: 'GET' | 'POST';
  /** A CEL expression over the project's values giving a map: the JSON body (POST) or the query parameters (GET); null for none. */
  request: string | null;
  /** The answer's declared shape: an object type. */
  response: Extract<ResponseShape, { type: 'object' }>;
  /** Field ids and the CEL expression (over `response` and the fields) each is set to. */
  set: { fieldId: string; value: string }[];
  timeoutMs: number;
  /** Attempts after the first, with backoff, before the call fails. */
  retries: number;
  /** The field whose value the connection looks up when a save writes it (`lookup: { field }`); absent for none. */
  lookupFieldId?: string;
}

/** How a connection signs in to the agency's system: a secret header, OAuth 2.0 client credentials, or a client certificate. */
export type ConnectionAuth =
  | { kind: 'none' }
  | { kind: 'header'; name: string; value: string }
  | { kind: 'oauth'; tokenUrl: string; clientId: string; clientSecret: string; scope: string | null }
  | { kind: 'clientCert'; pem: string };

/** Where one program's connection goes and how it signs in (its secrets opened); set by operators with `apas connection set`. */
export interface ConnectionSettings {
  programId: string; connectionId: string; url: string; auth: ConnectionAuth; updatedAt: number;
}

/** The state of one call a callConnection action asked for. */
export type ConnectionCallState = 'queued' | 'applied' | 'failed';

/** One call a callConnection action asked for, made after the change that asked committed (migration 054). */
export interface ConnectionCall {
  id: string; programId: string; projectId: string; connectionId: string; automation: string;
  /** The Idempotency-Key sent with every attempt: the same for all attempts of this call, unique to its triggering change. */
  idempotencyKey: string;
  state: ConnectionCallState; attempts: number; nextAttemptAt: number; leaseUntil: number | null;
  /** The answer's JSON once a 2xx answer was read (kept so a restart applies it without asking again); null before. */
  response: string | null;
  lastError: string | null; createdAt: number; updatedAt: number;
}
