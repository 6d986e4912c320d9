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

function ref(doc: WireDocument): JsonSchema {
  return { $ref: `#/components/schemas/${doc.name}` };
}

function documentsOf(spec: OperationSpec): WireDocument[] {
  const answers = spec.response === undefined ? [] : Array.isArray(spec.response) ? spec.response : [spec.response as WireDocument];
  return [...(spec.request ? [spec.request] : []), ...answers];
}

function parameters(op: RegisteredOperation): JsonSchema[] {
  const path = [...op.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = (op.spec.query ?? []).map((q) => ({
    name: q.name, in: 'query', required: false, description: q.description, schema: { type: q.type, ...(q.format ? { format: q.format } : {}) },
  }));
  const conditional = !op.spec.etag ? [] : op.method === 'GET'
    ? [{ name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of this project: answered 304 while it is current.', schema: { type: 'string' } }]
    : [{ name: 'If-Match', in: 'header', required: false, description: 'The ETag the change is based on: refused 412 when the project changed since.', schema: { type: 'string' } }];
  const idempotency = op.idempotent ? [{
    name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
    description: 'Makes a retry safe: the same key with the same request within 24 hours gets the first answer again without a second change.',
  }] : [];
  return [...path, ...query, ...conditional, ...idempotency];
}

function requestBody(spec: OperationSpec): JsonSchema | undefined {
  if (spec.request) return { required: true, content: { [JSON_MEDIA]: { schema: ref(spec.request) } } };
  if (spec.rawRequest) return { required: true, description: spec.rawRequest, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  return undefined;
}

function responses(spec: OperationSpec, method: string): JsonSchema {
  const headers = spec.etag ? { ETag: { description: 'The project\'s version, for If-Match and If-None-Match.', schema: { type: 'string' } } } : undefined;
  const answers = spec.response === undefined ? [] : Array.isArray(spec.response) ? spec.response : [spec.response as WireDocument];
  const success: JsonSchema = { description: spec.summary, ...(headers ? { headers } : {}) };
  if (answers.length === 1) success.content = { [JSON_MEDIA]: { schema: ref(answers[0]!) } };
  else if (answers.length > 1) success.content = { [JSON_MEDIA]: { schema: { oneOf: answers.map(ref) } } };
  else if (spec.rawResponse) success.content = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };
  return {
    [String(spec.status ?? 200)]: success,
    ...(spec.etag && method === 'GET' ? { 304: { description: 'The project has not changed since the ETag sent in If-None-Match.' } } : {}),
    default: { description: 'An error: the code, its HTTP status and a message.', content: { [JSON_MEDIA]: { schema: ref(ErrorResponse) } } },
  };
}

/**
 * The OpenAPI 3.1 description of the JSON representation, made from the registered operations and the JSON
 * Schemas of their documents (nothing in it is written by hand a second time).
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
      responses: responses(op.spec, op.method),
    };
    for (const doc of documentsOf(op.spec)) addSchema(doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'apas: Application and Process Automation Service',
      version: info.version,
      description: 'The JSON representation of the apas interface. Every operation also speaks XML (the default); send '
        + '`Accept: application/json` for JSON answers and `Content-Type: application/json` for JSON bodies.',
    },
    servers: [{ url: info.serverUrl }],
    // Basic credentials or a bearer token from the token endpoint, each with the API key.
    security: [{ basic: [], apiKey: [] }, { oauth2: [], apiKey: [] }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The user\'s e-mail address and password.' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-ApiKey', description: 'The API key, sent with every request.' },
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
