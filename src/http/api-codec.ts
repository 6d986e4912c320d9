import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../domain/api-error.ts';
import { ErrorResponse, errorValue } from '../wire/documents/error-response.ts';
import { WIRE_DOCUMENTS } from '../wire/documents.ts';
import { WireJsonReader } from '../wire/wire-json-reader.ts';
import { documentJsonSchema } from '../wire/wire-json-schema.ts';
import type { DocumentValue, WireDocument } from '../wire/wire-type.ts';
import type { WrittenAnswer } from '../wire/written-answer.ts';
import { writeXmlDocument, xmlDocumentChunks } from '../wire/wire-xml-writer.ts';
import { createSchemaRegistry } from '../xml/schema-registry.ts';
import { type AnswerFormat, answerFormat, JSON_TYPE, varyAccept } from './answer-format.ts';
import { readRequestBody } from './read-request-body.ts';
import { sendXml } from './xml-reply.ts';

/** JSON text of a document value: optional members that are null are left out, as they are in XML. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === null ? undefined : v));
}

/** The codec bound to the configured namespace: what the routes read and write, in XML or JSON. */
export interface ApiCodec {
  readonly ns: string;
  /** Reads the request body as document type `doc`, in XML or JSON by its Content-Type; throws ApiError when refused. */
  read<D extends WireDocument>(request: FastifyRequest, doc: D): DocumentValue<D>;
  /** Sends `value` as document type `doc`, in the representation the request's Accept prefers (with Vary: Accept). */
  send<D extends WireDocument>(request: FastifyRequest, reply: FastifyReply, doc: D, value: DocumentValue<D>, status?: number): FastifyReply;
  /** Sends an answer written by hand for a hot read (WrittenAnswer), in the representation the request's Accept prefers, as send does. */
  sendWritten(request: FastifyRequest, reply: FastifyReply, answer: WrittenAnswer, status?: number): FastifyReply;
  /** The ErrorResponse body of `error` in `format`. */
  errorBody(error: ApiError, requestId: string, format: AnswerFormat): string;
  /** The JSON Schema (2020-12) text of every described document, by name. */
  jsonSchemaNames(): string[];
  /** The JSON Schema text of document `name`, as served at /schemas/{name}.schema.json. */
  jsonSchemaSource(name: string): string;
  /** The XML ErrorResponse of `error` (for answers written before there is a request, such as unreadable HTTP). */
  error(error: ApiError, requestId: string): string;
  /** The names of the XSDs, served at /schemas/{name}.xsd. */
  schemaNames(): string[];
  /** The XSD text of `name`, in the configured namespace. */
  schemaSource(name: string): string;
}

/** Binds the described documents (src/wire), their XSDs and JSON Schemas to one namespace. */
export async function createApiCodec(ns: string): Promise<ApiCodec> {
  const schemas = createSchemaRegistry(ns);
  const json = new WireJsonReader();
  const jsonSchemas = new Map(WIRE_DOCUMENTS.map((d) => [d.name, `${JSON.stringify(documentJsonSchema(d), null, 2)}\n`]));
  const errorBody = (error: ApiError, requestId: string, format: AnswerFormat) => {
    const value = errorValue(error, requestId);
    return format === 'json' ? toJson(value) : writeXmlDocument(ErrorResponse, value, ns);
  };
  return {
    ns,
    read: (request, doc) => readRequestBody(request, doc, ns, schemas, json),
    send: (request, reply, doc, value, status = 200) => {
      varyAccept(reply);
      if (answerFormat(request) === 'json') return reply.code(status).type(JSON_TYPE).send(toJson(value));
      return sendXml(reply, xmlDocumentChunks(doc, value, ns), status);
    },
    sendWritten: (request, reply, answer, status = 200) => {
      varyAccept(reply);
      if (answerFormat(request) === 'json') return reply.code(status).type(JSON_TYPE).send(answer.json());
      return sendXml(reply, answer.xml(ns), status);
    },
    errorBody,
    jsonSchemaNames: () => [...jsonSchemas.keys()].sort(),
    jsonSchemaSource: (name) => {
      const text = jsonSchemas.get(name);
      if (text === undefined) throw new Error(`unknown JSON Schema ${JSON.stringify(name)}`);
      return text;
    },
    error: (error, requestId) => errorBody(error, requestId, 'xml'),
    schemaNames: () => schemas.list(),
    schemaSource: (name) => schemas.source(name),
  };
}
