import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import { ErrorResponse } from '../../src/wire/documents/error-response.ts';
import { documentJsonSchema } from '../../src/wire/wire-json-schema.ts';
import type { DocumentValue, WireDocument } from '../../src/wire/wire-type.ts';
import { readXmlDocument, wireFromXml } from '../../src/wire/wire-xml-reader.ts';
import { readBack } from '../xml/xml-test-helpers.ts';
import type { HttpHarness } from './http-harness.ts';

/** Headers of a request that asks for a JSON answer. */
export const JSON_ANSWER = { accept: 'application/json' } as const;
/** Headers of a request with a JSON body that asks for a JSON answer. */
export const JSON_BODY = { 'content-type': 'application/json', accept: 'application/json' } as const;

// An Ajv of its own, so that the check does not share the service's compiled validators.
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = new Map<WireDocument, ValidateFunction>();

/** Asserts a JSON answer of type `doc` with `status` that its JSON Schema accepts, and returns its value. */
export function assertJsonAnswer<D extends WireDocument>(res: LightMyRequestResponse, doc: D, status = 200): DocumentValue<D> {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/, res.body);
  let validate = validators.get(doc);
  if (!validate) validators.set(doc, (validate = ajv.compile(documentJsonSchema(doc))));
  const value: unknown = JSON.parse(res.body);
  assert.ok(validate(value), `${doc.name} JSON Schema: ${ajv.errorsText(validate.errors)}\n${res.body}`);
  return value as DocumentValue<D>;
}

/** Asserts a JSON ErrorResponse with the given status and code; returns its message. */
export function assertJsonError(res: LightMyRequestResponse, status: number, code: string): string {
  const error = assertJsonAnswer(res, ErrorResponse, status);
  assert.equal(error.Code, code, res.body);
  return error.Message;
}

/** The value of an XML answer of type `doc`, as the XML reader gives it after checking the XSD (to compare with JSON). */
export function xmlAnswerValue<D extends WireDocument>(h: HttpHarness, res: LightMyRequestResponse, doc: D): DocumentValue<D> {
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^application\/xml/);
  return readXmlDocument(doc, res.body, h.config.xmlNamespace, h.schemas);
}

/** Asserts that a JSON answer carries the same value as the XML answer to the same request (which its XSD accepts). */
export function assertSameAnswer<D extends WireDocument>(h: HttpHarness, xml: LightMyRequestResponse, json: LightMyRequestResponse, doc: D): DocumentValue<D> {
  assert.equal(xml.statusCode, json.statusCode, `${xml.body}\n${json.body}`);
  assert.deepEqual(h.schemas.validate(doc.name, xml.body), [], xml.body);
  const value = assertJsonAnswer(json, doc, json.statusCode);
  assert.deepEqual(value, wireFromXml(doc, readBack(xml.body)));
  return value;
}
