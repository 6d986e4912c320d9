import type { AttributeSpec, ChildSpec, ComplexType, SimpleType, WireDocument } from './wire-type.ts';

/** A JSON Schema (2020-12) object. */
export type JsonSchema = Record<string, unknown>;

/** The dialect of every schema made here (OpenAPI 3.1's default dialect too). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const DATE_TIME = '^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$';
const DECIMAL = '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$';
const INTEGER_RANGE: Record<string, { minimum?: number; maximum?: number }> = {
  int: { minimum: -2147483648, maximum: 2147483647 },
  // Beyond 2^53 a JSON number is no longer exact; the XML reader refuses such values too.
  long: { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  nonNegativeInteger: { minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  positiveInteger: { minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
};

/** The JSON Schema of a simple type: the XSD facets carried over (an XSD pattern is anchored, as in XSD). */
export function simpleSchema(type: SimpleType): JsonSchema {
  const out: JsonSchema = {};
  if (type.base === 'boolean') out.type = 'boolean';
  else if (type.base in INTEGER_RANGE) Object.assign(out, { type: 'integer' }, INTEGER_RANGE[type.base]);
  else if (type.base === 'float') out.type = 'number';
  else {
    out.type = 'string';
    if (type.base === 'decimal') out.pattern = DECIMAL;
    // xs:dateTime's own lexical form (the time zone is optional, as in XML), not RFC 3339's date-time, which needs one.
    if (type.base === 'dateTime') out.pattern = DATE_TIME;
  }
  if (type.enumeration) out.enum = [...type.enumeration];
  if (type.pattern) out.pattern = `^(?:${type.pattern})$`;
  if (type.minLength !== undefined) out.minLength = type.minLength;
  if (type.maxLength !== undefined) out.maxLength = type.maxLength;
  if (type.doc) out.description = type.doc;
  return out;
}

// A request's boolean may also be the string "true" or "false": JSON clients that sent the XML text form before the
// attribute was typed xs:boolean keep working, and what a client reads (a JSON boolean) it can send back.
const REQUEST_BOOLEAN: JsonSchema = { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] };

function attributeSchema(spec: AttributeSpec, direction: WireDocument['direction']): JsonSchema {
  const out = direction === 'request' && spec.type.base === 'boolean' ? { ...REQUEST_BOOLEAN } : simpleSchema(spec.type);
  if (spec.fixed !== undefined) out.const = spec.fixed;
  if (spec.default !== undefined) out.default = spec.default;
  if (spec.doc) out.description = spec.doc;
  return out;
}

function childSchema(spec: ChildSpec, direction: WireDocument['direction']): JsonSchema {
  const item = spec.type.kind === 'simple' ? simpleSchema(spec.type) : complexSchema(spec.type, direction);
  if (spec.doc) item.description = spec.doc;
  if (spec.max <= 1) return item;
  const array: JsonSchema = { type: 'array', items: item };
  if (spec.min > 0) array.minItems = spec.min;
  if (Number.isFinite(spec.max)) array.maxItems = spec.max;
  return array;
}

/**
 * The JSON Schema of a complex type: attributes and children as properties, repeated children as arrays, nothing
 * else allowed. Every array of an answer is present (perhaps empty); a request may leave out an array that may be empty.
 */
export function complexSchema(type: ComplexType, direction: WireDocument['direction']): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(type.attributes)) {
    properties[name] = attributeSchema(spec, direction);
    if (spec.required) required.push(name);
  }
  for (const [name, spec] of Object.entries(type.children)) {
    properties[name] = childSchema(spec, direction);
    if (spec.min > 0 || (spec.max > 1 && direction === 'response')) required.push(name);
  }
  const out: JsonSchema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  out.additionalProperties = false;
  if (type.doc) out.description = type.doc;
  return out;
}

/** The standalone JSON Schema of document type `doc`, served as `/schemas/{name}.schema.json`. */
export function documentJsonSchema(doc: WireDocument): JsonSchema {
  const body = complexSchema(doc.type, doc.direction);
  return { $schema: JSON_SCHEMA_DIALECT, title: doc.name, ...body, description: doc.doc };
}
