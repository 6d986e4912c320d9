import { ErrorResponse } from '../wire/documents/error-response.ts';
import { documentJsonSchema, type JsonSchema } from '../wire/wire-json-schema.ts';
import type { WireDocument } from '../wire/wire-type.ts';
import type { OperationSpec, RegisteredOperation } from './operation-table.ts';

/** What the description says of the service itself. */
export interface OpenApiInfo {
  version: string;
  serverUrl: string;
  /** Where the OAuth 2.0 token and revocation endpoints live (under the server's address). */
  oauthBase: string;
}

const JSON_MEDIA = 'application/json';
const XML_MEDIA = 'application/xml';
const FORM_MEDIA = 'application/x-www-form-urlencoded';

function ref(doc: WireDocument): JsonSchema {
  return { $ref: `#/components/schemas/${doc.name}` };
}

function headerRef(name: string): JsonSchema {
  return { $ref: `#/components/headers/${name}` };
}

/** Every answer's request id and, after authentication, its key's throughput (rate-limiter.ts). */
const COMMON_HEADERS = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** The answer headers this description names, declared once under components.headers. */
const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': { description: 'The id of the request: the client\'s own X-Request-Id when it sent a safe one, else a new one.', schema: { type: 'string', minLength: 1, maxLength: 128 } },
  'RateLimit-Limit': { description: 'Requests the API key may make per window.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'Retry-After': { description: 'Seconds to wait before trying again (429 RATE_LIMITED, 503 SERVICE_UNAVAILABLE, 409 IDEMPOTENCY_KEY_IN_USE).', schema: { type: 'string', pattern: '^[0-9]+$' } },
  Vary: { description: 'Accept: the answer is XML or JSON by the request\'s Accept.', schema: { type: 'string' } },
  ETag: { description: 'The project\'s version in this representation (JSON tags end in .json), for If-Match and If-None-Match.', schema: { type: 'string', pattern: '^"[^"]+"$' } },
  FileETag: { description: 'The file\'s SHA-256 in double quotes.', schema: { type: 'string', pattern: '^"[0-9a-f]{64}"$' } },
  Link: { description: 'RFC 8288: the next page, rel="next", while there is one.', schema: { type: 'string' } },
  'Apas-Test-Program': { description: 'true when the program of the path is a test copy of a program (docs/administration.md, Test programs); absent otherwise.', schema: { type: 'string', enum: ['true'] } },
  'Idempotent-Replayed': { description: 'true when the answer is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
  'Cache-Control': { description: 'How caches may keep the answer.', schema: { type: 'string' } },
  Pragma: { description: 'no-cache, for HTTP/1.0 caches.', schema: { type: 'string' } },
  'Content-Disposition': { description: 'attachment, with the file\'s name.', schema: { type: 'string' } },
  'Content-Length': { description: 'The file\'s size in bytes (of the part, in a 206).', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'Accept-Ranges': { description: 'bytes: a Range of bytes of the file is answered 206.', schema: { type: 'string', enum: ['bytes'] } },
  'Content-Range': { description: 'bytes first-last/size of a 206; bytes */size of a 416 RANGE_NOT_SATISFIABLE.', schema: { type: 'string', pattern: '^bytes ([0-9]+-[0-9]+|\\*)/[0-9]+$' } },
  'WWW-Authenticate': { description: 'The authentication scheme to use (401).', schema: { type: 'string' } },
  Allow: { description: 'The methods the path answers to (405).', schema: { type: 'string' } },
};

function headersOf(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((n) => [n === 'FileETag' ? 'ETag' : n, headerRef(n)]));
}

function documentsOf(spec: OperationSpec): WireDocument[] {
  const answers = spec.response === undefined ? [] : Array.isArray(spec.response) ? spec.response : [spec.response as WireDocument];
  return [...(spec.request ? [spec.request] : []), ...answers];
}

// What the ProjectId of the reads that accept a number says (docs/interface.md, "Reading a project by its number").
const PROJECT_REF = 'The project\'s id, or its project number (such as SOLAR-00042): numbers are unique in a program. A number of a project you cannot read answers 404 like an unknown id.';

/** True for a write that changes one existing project (its path names it): it honours If-Match. */
function addressesProject(op: RegisteredOperation): boolean {
  return op.url.includes(':ProjectId');
}

function parameters(op: RegisteredOperation): JsonSchema[] {
  const path = [...op.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
    ...(m[1] === 'ProjectId' && op.spec.projectNumber ? { description: PROJECT_REF } : {}),
  }));
  const query = (op.spec.query ?? []).map((q) => ({
    name: q.name, in: 'query', required: false, description: q.description, schema: { type: q.type, ...(q.format ? { format: q.format } : {}) },
  }));
  const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this answer: answered 304 while one is current.', schema: { type: 'string' } };
  const ifMatch = (what: string) => ({ name: 'If-Match', in: 'header', required: false, description: what, schema: { type: 'string' } });
  const file = op.spec.rawResponse !== undefined && op.method === 'GET';
  const ranges = [
    { name: 'Range', in: 'header', required: false, description: 'One range bytes=a-b, bytes=a- or bytes=-n: answered 206 with those bytes (several ranges: the whole file).', schema: { type: 'string' } },
    { name: 'If-Range', in: 'header', required: false, description: 'The file\'s ETag: the Range applies only while it names the file, else the whole file is answered.', schema: { type: 'string' } },
  ];
  const conditional = file
    ? [ifNoneMatch, ifMatch('The file\'s ETag: refused 412 when the active file is another one.'), ...ranges]
    : !op.spec.etag ? [] : op.method === 'GET'
      ? [ifNoneMatch, ifMatch('An ETag of this project: refused 412 when the project changed since.')]
      : addressesProject(op) ? [ifMatch('The ETag the change is based on: refused 412 when the project changed since.')] : [];
  const idempotency = op.idempotent ? [{
    name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
    description: 'Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change.',
  }] : [];
  const requestId = { name: 'X-Request-Id', in: 'header', required: false, description: 'The client\'s id of the request (1–128 of A-Z a-z 0-9 -_.:+=/@~), echoed in the answer.', schema: { type: 'string' } };
  return [...path, ...query, ...conditional, ...idempotency, requestId];
}

/** A document as JSON (its JSON Schema) or as XML (its XSD, at /schemas/{name}.xsd). */
function documentContent(schema: JsonSchema, xsdNames: string[]): JsonSchema {
  return {
    [JSON_MEDIA]: { schema },
    [XML_MEDIA]: { schema: { type: 'string', description: `The XML document, as ${xsdNames.map((n) => `/schemas/${n}.xsd`).join(' or ')} describes it.` } },
  };
}

function requestBody(spec: OperationSpec): JsonSchema | undefined {
  if (spec.request) return { required: spec.requestOptional !== true, content: documentContent(ref(spec.request), [spec.request.name]) };
  if (spec.rawRequest) return { required: true, description: spec.rawRequest, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  return undefined;
}

function responses(op: RegisteredOperation): JsonSchema {
  const { spec, method } = op;
  const answers = spec.response === undefined ? [] : Array.isArray(spec.response) ? spec.response : [spec.response as WireDocument];
  const file = spec.rawResponse !== undefined && method === 'GET';
  const negotiated = answers.length > 0;
  const successHeaders = [
    ...COMMON_HEADERS, ...(negotiated ? ['Vary'] : []), ...(spec.etag ? ['ETag'] : []), ...(file ? ['FileETag', 'Cache-Control', 'Content-Disposition', 'Content-Length', 'Accept-Ranges'] : []),
    ...(op.url.endsWith('/Projects') && method === 'GET' ? ['Link'] : []), ...(op.idempotent ? ['Idempotent-Replayed'] : []),
    ...(op.url.includes(':ProgramId') ? ['Apas-Test-Program'] : []),
  ];
  const success: JsonSchema = { description: spec.summary, headers: headersOf(successHeaders) };
  // anyOf, not oneOf: the variants a parameter chooses between may hold the same value (an empty page of projects).
  if (answers.length === 1) success.content = documentContent(ref(answers[0]!), [answers[0]!.name]);
  else if (answers.length > 1) success.content = documentContent({ anyOf: answers.map(ref) }, answers.map((a) => a.name));
  else if (spec.rawResponse) success.content = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };
  const notModified = (spec.etag && method === 'GET') || file;
  return {
    [String(spec.status ?? 200)]: success,
    ...(notModified ? {
      304: {
        description: file ? 'The file is still the one the ETag sent in If-None-Match names.' : 'The project has not changed since the ETag sent in If-None-Match.',
        headers: headersOf([...COMMON_HEADERS, ...(file ? ['FileETag', 'Cache-Control'] : ['ETag', 'Vary']), ...(op.url.includes(':ProgramId') ? ['Apas-Test-Program'] : [])]),
      },
    } : {}),
    ...(file ? {
      206: { description: 'The part of the file the Range asked for.', headers: headersOf([...successHeaders, 'Content-Range']), content: success.content },
    } : {}),
    default: {
      description: 'An error: the code, its HTTP status and a message.',
      headers: headersOf([...COMMON_HEADERS, 'Vary', 'Retry-After', 'WWW-Authenticate', 'Allow', ...(file ? ['Content-Range'] : [])]),
      content: documentContent(ref(ErrorResponse), ['ErrorResponse']),
    },
  };
}

const OAUTH_ERROR: JsonSchema = {
  type: 'object', required: ['error'], additionalProperties: false,
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  description: 'RFC 6749 §5.2: invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope, or the API\'s own code in lower case.',
};

/** The OAuth 2.0 endpoints (form bodies, RFC 6749 answers) and the RFC 8414 metadata, which the route table does not describe. */
function oauthPaths(oauthBase: string): Record<string, Record<string, JsonSchema>> {
  const noStore = headersOf(['X-Request-Id', 'Cache-Control', 'Pragma', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
  const error = {
    description: 'An OAuth error (RFC 6749 §5.2).',
    headers: headersOf(['X-Request-Id', 'Cache-Control', 'Pragma', 'WWW-Authenticate', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    content: { [JSON_MEDIA]: { schema: { $ref: '#/components/schemas/OAuthError' } } },
  };
  const requestId = { name: 'X-Request-Id', in: 'header', required: false, schema: { type: 'string' } };
  const clientParams = { client_id: { type: 'string' }, client_secret: { type: 'string' } };
  const security = [{ oauthClient: [], apiKey: [] }, { apiKey: [] }];
  return {
    [`${oauthBase}/token`]: {
      post: {
        operationId: 'OAuthToken', tags: ['OAuth'], security, parameters: [requestId],
        summary: 'Token endpoint (RFC 6749 §4.4): an access token for the client credentials grant.',
        requestBody: {
          required: true,
          content: { [FORM_MEDIA]: { schema: { type: 'object', required: ['grant_type'], properties: { grant_type: { type: 'string', enum: ['client_credentials'] }, scope: { type: 'string' }, ...clientParams } } } },
        },
        responses: {
          200: {
            description: 'The access token.', headers: noStore,
            content: {
              [JSON_MEDIA]: {
                schema: {
                  type: 'object', required: ['access_token', 'token_type', 'expires_in'], additionalProperties: false,
                  properties: { access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer', minimum: 1 } },
                },
              },
            },
          },
          default: error,
        },
      },
    },
    [`${oauthBase}/revoke`]: {
      post: {
        operationId: 'OAuthRevoke', tags: ['OAuth'], security, parameters: [requestId],
        summary: 'Revocation endpoint (RFC 7009): revokes an access token of the client; 200 whatever the token was.',
        requestBody: {
          required: true,
          content: { [FORM_MEDIA]: { schema: { type: 'object', required: ['token'], properties: { token: { type: 'string' }, token_type_hint: { type: 'string' }, ...clientParams } } } },
        },
        responses: { 200: { description: 'Revoked (or not the client\'s, or unknown): an empty body.', headers: noStore }, default: error },
      },
    },
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'GetOAuthMetadata', tags: ['OAuth'], security: [], parameters: [requestId],
        summary: 'RFC 8414 authorization server metadata: the token and revocation endpoints and what they take.',
        responses: {
          200: {
            description: 'The metadata.', headers: headersOf(['X-Request-Id', 'Cache-Control']),
            content: { [JSON_MEDIA]: { schema: { type: 'object', required: ['issuer', 'token_endpoint', 'grant_types_supported', 'response_types_supported'] } } },
          },
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 description of the interface, made from the registered operations and the JSON Schemas of their
 * documents (nothing in it is written by hand a second time), with the OAuth endpoints, which take no documents.
 */
export function openApiDocument(operations: readonly RegisteredOperation[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const schemas: Record<string, JsonSchema> = {};
  const addSchema = (doc: WireDocument) => {
    const { $schema: _dialect, ...schema } = documentJsonSchema(doc);
    schemas[doc.name] = schema;
  };
  addSchema(ErrorResponse);
  for (const op of operations) {
    const path = op.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    const body = requestBody(op.spec);
    (paths[path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.spec.operationId,
      summary: op.spec.summary,
      tags: op.spec.tags,
      parameters: parameters(op),
      ...(body ? { requestBody: body } : {}),
      responses: responses(op),
    };
    for (const doc of documentsOf(op.spec)) addSchema(doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'apas: Application and Process Automation Service',
      version: info.version,
      description: 'The apas interface. Every operation speaks XML (the default, described by the XSDs under /schemas/) and JSON '
        + '(described here); send `Accept: application/json` for JSON answers and `Content-Type: application/json` for JSON bodies.',
    },
    servers: [{ url: info.serverUrl }],
    // Basic credentials or a bearer token from the token endpoint, each with the API key.
    security: [{ basic: [], apiKey: [] }, { oauth2: [], apiKey: [] }],
    paths: { ...paths, ...oauthPaths(info.oauthBase) },
    components: {
      schemas: { ...Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))), OAuthError: OAUTH_ERROR },
      headers: HEADERS,
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The user\'s e-mail address and password.' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-ApiKey', description: 'The API key, sent with every request.' },
        oauthClient: { type: 'http', scheme: 'basic', description: 'At the OAuth endpoints: the client id and secret (or the client_id and client_secret parameters).' },
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials: a client (apas client create) gets a bearer token at the token endpoint, '
            + 'sending its X-ApiKey there too; the token is then sent as Authorization: Bearer with the X-ApiKey.',
          flows: { clientCredentials: { tokenUrl: `${info.serverUrl}${info.oauthBase}/token`, scopes: {} } },
        },
      },
    },
  };
}
