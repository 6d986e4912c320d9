import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { WireJsonReader } from '../wire/wire-json-reader.ts';
import type { DocumentValue, WireDocument } from '../wire/wire-type.ts';
import { readXmlDocument } from '../wire/wire-xml-reader.ts';
import type { SchemaRegistry } from '../xml/schema-registry.ts';
import { isJsonBody } from './answer-format.ts';
import type { UnsupportedBody } from './fastify-types.ts';

/**
 * Reads a request body as document type `doc`: JSON when its Content-Type says so (checked against the JSON Schema),
 * XML otherwise (checked against the XSD). Both give the same value; anything else is refused with a clear error.
 */
export function readRequestBody<D extends WireDocument>(
  request: FastifyRequest, doc: D, ns: string, schemas: SchemaRegistry, json: WireJsonReader,
): DocumentValue<D> {
  const body = request.body as Buffer | UnsupportedBody | undefined | null;
  if (body && !Buffer.isBuffer(body)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE',
      `Send the ${doc.name} document as application/xml or application/json; got Content-Type "${body.unsupportedContentType}".`);
  }
  if (!body || body.length === 0) throw new ApiError('INVALID_REQUEST', `The request body is empty; expected a ${doc.name} document.`);
  return isJsonBody(request) ? json.read(doc, body) : readXmlDocument(doc, body, ns, schemas);
}
