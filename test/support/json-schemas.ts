import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { WIRE_DOCUMENTS } from '../../src/wire/documents.ts';
import { documentJsonSchema } from '../../src/wire/wire-json-schema.ts';

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv, ['date-time']);
const validators = new Map<string, ValidateFunction>();

/** The compiled JSON Schema of document type `name` (as served at /schemas/{name}.schema.json). */
export function jsonValidator(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    const doc = WIRE_DOCUMENTS.find((d) => d.name === name);
    assert.ok(doc, `no described document ${name}`);
    validators.set(name, (validate = ajv.compile(documentJsonSchema(doc))));
  }
  return validate;
}

/** Asserts the answer is JSON that the JSON Schema of `name` accepts, and returns it parsed. */
export function assertValidJson(res: LightMyRequestResponse, name: string): Record<string, unknown> {
  assert.match(String(res.headers['content-type']), /^application\/json/, res.body);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  const validate = jsonValidator(name);
  assert.ok(validate(body), `${name} failed its JSON Schema: ${ajv.errorsText(validate.errors)}\n${res.body}`);
  return body;
}

/** Asserts a JSON ErrorResponse with the given status and code. */
export function assertJsonError(res: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(res.statusCode, status, res.body);
  const body = assertValidJson(res, 'ErrorResponse');
  assert.equal(body.Code, code, res.body);
  return body;
}
