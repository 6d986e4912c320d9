import { type ValueNode as AstNode, parse } from '@humanwhocodes/momoa';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ApiError } from '../domain/api-error.ts';
import { collapseWhitespace } from '../xml/xml-reader.ts';
import { documentJsonSchema } from './wire-json-schema.ts';
import type { ComplexType, DocumentValue, WireDocument } from './wire-type.ts';

/** Requests nested deeper than this many objects and arrays are refused before they are parsed. */
export const MAX_JSON_DEPTH = 32;

// Keys that would reach an object's prototype if a consumer ever merged the value into another object.
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// Characters XML 1.0 cannot carry (and PostgreSQL cannot store U+0000): refused in JSON as they are in XML, so both
// representations accept exactly the same values.
const NOT_XML_CHAR = /(?![\t\n\r\u007F-\u009F])[\p{Cc}\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

function invalid(message: string): ApiError {
  return new ApiError('INVALID_REQUEST', message);
}

/** The deepest nesting of objects and arrays, counted without parsing (strings skipped), stopping past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function jsonValue(node: AstNode, path: string): unknown {
  switch (node.type) {
    case 'Object': {
      const out: Record<string, unknown> = {};
      for (const member of node.members) {
        const key = member.name.type === 'String' ? member.name.value : String(member.name.name);
        if (PROTOTYPE_KEYS.has(key)) throw invalid(`${path || 'the body'} uses the key "${key}", which is not accepted`);
        if (Object.hasOwn(out, key)) throw invalid(`${path || 'the body'} has the key "${key}" more than once`);
        out[key] = jsonValue(member.value, `${path}/${key}`);
      }
      return out;
    }
    case 'Array':
      return node.elements.map((e: { value: AstNode }, i: number) => jsonValue(e.value, `${path}/${i}`));
    case 'String':
      if (NOT_XML_CHAR.test(node.value)) throw invalid(`${path} contains a character that is not allowed (a control character or an unpaired surrogate)`);
      return node.value;
    case 'Number':
    case 'Boolean':
      return node.value;
    case 'Null':
      return null;
    default:
      throw new ApiError('MALFORMED_JSON', 'the request body is not JSON');
  }
}

/** Parses a JSON body strictly: UTF-8, one object, no duplicate or prototype keys, bounded depth. */
export function parseJsonBody(body: string | Uint8Array, expected: string): Record<string, unknown> {
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ApiError('MALFORMED_JSON', 'request body is not valid UTF-8');
  }
  if (text.trim() === '') throw invalid(`request body is empty; expected a ${expected} object`);
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw invalid(`JSON nesting is deeper than ${MAX_JSON_DEPTH} levels`);
  let root: AstNode;
  try {
    root = parse(text, { mode: 'json', ranges: false, tokens: false }).body;
  } catch (error) {
    throw new ApiError('MALFORMED_JSON', `malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const value = jsonValue(root, '');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`expected a ${expected} object`);
  return value as Record<string, unknown>;
}

/**
 * Before validation: null optional values are left out, xs:token strings collapsed (as the XML reader does); after
 * it, arrays a request left out are filled in empty and booleans sent as "true"/"false" made booleans, so a request's
 * value has the same shape in both representations.
 */
function normalize(type: ComplexType, value: Record<string, unknown>, fill: boolean): void {
  for (const [name, spec] of Object.entries(type.attributes)) {
    if (value[name] === null && !spec.required) delete value[name];
    else if (spec.type.base === 'token' && typeof value[name] === 'string') value[name] = collapseWhitespace(value[name]);
    else if (fill && spec.type.base === 'boolean' && typeof value[name] === 'string') value[name] = value[name] === 'true';
  }
  for (const [name, spec] of Object.entries(type.children)) {
    const v = value[name];
    if (v === null && spec.max <= 1 && spec.min === 0) delete value[name];
    if (fill && v === undefined && spec.max > 1) value[name] = [];
    const items = spec.max > 1 ? (Array.isArray(v) ? v : []) : [v];
    items.forEach((item, i) => {
      if (spec.type.kind === 'complex' && item !== null && typeof item === 'object' && !Array.isArray(item)) normalize(spec.type, item as Record<string, unknown>, fill);
      else if (spec.type.kind === 'simple' && spec.type.base === 'token' && typeof item === 'string') {
        if (spec.max > 1) (v as unknown[])[i] = collapseWhitespace(item);
        else value[name] = collapseWhitespace(item);
      }
    });
  }
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).slice(0, 3).map((e) => {
    const where = e.instancePath === '' ? 'the object' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` ("${String(e.params.additionalProperty)}")`
      : e.keyword === 'enum' ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : '';
    return `${where} ${e.message ?? 'is not valid'}${extra}`;
  }).join('; ');
}

/** Reads JSON request bodies of the described types, checking each against its JSON Schema. */
export class WireJsonReader {
  readonly #ajv = new Ajv2020({ allErrors: false, strict: true });
  readonly #validators = new Map<WireDocument, ValidateFunction>();

  /** Parses, normalizes and validates `body` as document type `doc`; throws ApiError (400) when refused. */
  read<D extends WireDocument>(doc: D, body: string | Uint8Array): DocumentValue<D> {
    const value = parseJsonBody(body, doc.name);
    normalize(doc.type, value, false);
    const validate = this.validator(doc);
    if (!validate(value)) throw invalid(`request does not match the ${doc.name} JSON Schema: ${describeErrors(validate)}`);
    normalize(doc.type, value, true);
    return value as DocumentValue<D>;
  }

  private validator(doc: WireDocument): ValidateFunction {
    let validate = this.#validators.get(doc);
    if (!validate) this.#validators.set(doc, (validate = this.#ajv.compile(documentJsonSchema(doc))));
    return validate;
  }
}
