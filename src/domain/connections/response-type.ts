import type { CelInput } from '@bufbuild/cel';
import type { ResponseShape } from '../../model/connection.ts';
import { listOf, type RuleType, T } from '../rules/rule-types.ts';

/** The most characters of a shape's path in a message. */
const MAX_PATH_CHARS = 200;

/** The type `response` has in a connection's `set` expressions: a record of the declared properties, nested as declared. */
export function shapeType(shape: ResponseShape, name: string): RuleType {
  switch (shape.type) {
    case 'string': return T.string;
    case 'number': return T.double;
    case 'integer': return T.int;
    case 'boolean': return T.bool;
    case 'array': return listOf(shapeType(shape.items, `an item of ${name}`));
    case 'object': return { kind: 'record', name, members: new Map(Object.entries(shape.properties).map(([k, v]) => [k, shapeType(v, `${name}.${k}`)])) };
  }
}

/** Problems of a declared shape: required properties it does not declare, property names a rule cannot read. */
export function shapeProblems(shape: ResponseShape, path = 'response'): string[] {
  if (shape.type === 'array') return shapeProblems(shape.items, `${path}[]`);
  if (shape.type !== 'object') return [];
  const problems = shape.required.filter((r) => !(r in shape.properties)).map((r) => `${path}: required names "${r}", which properties does not declare`);
  for (const [k, v] of Object.entries(shape.properties)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) problems.push(`${path}: the property "${k}" cannot be read by a rule; name it with letters, digits and "_"`);
    problems.push(...shapeProblems(v, `${path}.${k}`));
  }
  return problems;
}

/** An answer read against its shape: the value a rule sees, or what is wrong with it. */
export type ReadAnswer = { value: CelInput } | { problem: string };

/**
 * Reads an answer's JSON against the declared shape, as a rule's value: declared properties only (others are
 * dropped), numbers as doubles, integers as ints; a missing required property, a null or a value of another type is
 * the answer's problem, so that a rule never reads a value of a type it was not checked for.
 */
export function readResponse(value: unknown, shape: ResponseShape, path = 'response'): ReadAnswer {
  const where = path.slice(0, MAX_PATH_CHARS);
  const bad = (what: string): ReadAnswer => ({ problem: `${where} is not ${what}` });
  switch (shape.type) {
    case 'string': return typeof value === 'string' ? { value } : bad('a string');
    case 'boolean': return typeof value === 'boolean' ? { value } : bad('true or false');
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? { value } : bad('a number');
    case 'integer': return typeof value === 'number' && Number.isSafeInteger(value) ? { value: BigInt(value) } : bad('an integer');
    case 'array': {
      if (!Array.isArray(value)) return bad('a list');
      const out: CelInput[] = [];
      for (const [i, item] of value.entries()) {
        const read = readResponse(item, shape.items, `${path}[${i}]`);
        if ('problem' in read) return read;
        out.push(read.value);
      }
      return { value: out };
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('an object');
      const record = value as Record<string, unknown>;
      const out = new Map<string, CelInput>();
      for (const [k, s] of Object.entries(shape.properties)) {
        const v = Object.hasOwn(record, k) ? record[k] : undefined;
        if (v === undefined || v === null) {
          if (shape.required.includes(k)) return { problem: `${where}.${k} is missing` };
          continue;
        }
        const read = readResponse(v, s, `${path}.${k}`);
        if ('problem' in read) return read;
        out.set(k, read.value);
      }
      return { value: out };
    }
  }
}
