import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { ErrorResponse } from '../../src/wire/documents/error-response.ts';
import { documentJsonSchema } from '../../src/wire/wire-json-schema.ts';
import type { DocumentValue, WireDocument } from '../../src/wire/wire-type.ts';
import { readXmlDocument } from '../../src/wire/wire-xml-reader.ts';
import { type HttpHarness, NS } from '../support/http-harness.ts';

/** The header of a request that asks for a JSON answer. */
export const JSON_ANSWER = { accept: 'application/json' };
/** Headers of a request that sends a JSON body and asks for a JSON answer. */
export const JSON_HEADERS = { 'content-type': 'application/json', ...JSON_ANSWER };

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv, ['date-time']);
const validators = new Map<WireDocument, ValidateFunction>();

/** Asserts a JSON answer with `status` that the JSON Schema of `doc` accepts, and returns its value. */
export function assertJsonAnswer<D extends WireDocument>(res: LightMyRequestResponse, doc: D, status = 200): DocumentValue<D> {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  let validate = validators.get(doc);
  if (!validate) validators.set(doc, (validate = ajv.compile(documentJsonSchema(doc))));
  const value: unknown = JSON.parse(res.body);
  assert.ok(validate(value), `${doc.name} JSON Schema: ${ajv.errorsText(validate.errors)}\n${res.body}`);
  return value as DocumentValue<D>;
}

/** Asserts a JSON ErrorResponse with `status` and `code`, and returns its message. */
export function assertJsonError(res: LightMyRequestResponse, status: number, code: string): string {
  const error = assertJsonAnswer(res, ErrorResponse, status);
  assert.equal(error.Code, code, res.body);
  return error.Message;
}

/** The value of an XML answer of type `doc` in the JSON mapping (read back through its XSD), to compare with a JSON answer. */
export function xmlAnswerValue<D extends WireDocument>(h: HttpHarness, res: LightMyRequestResponse, doc: D): DocumentValue<D> {
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^application\/xml/);
  return readXmlDocument(doc, res.body, NS, h.schemas);
}
