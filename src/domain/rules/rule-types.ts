import type { FieldType } from '../../model/model.ts';

/** The type of a value in a rule, as the checker knows it; `dyn` is unknown until the rule runs. */
export type RuleType =
  | { kind: 'int' | 'double' | 'string' | 'bool' | 'date' | 'duration' | 'null' | 'dyn' }
  | { kind: 'list'; of: RuleType }
  | { kind: 'map'; of: RuleType }
  | { kind: 'record'; name: string; members: ReadonlyMap<string, RuleType> };

/** The scalar types, one object each so that they compare by reference. */
export const T = {
  int: { kind: 'int' }, double: { kind: 'double' }, string: { kind: 'string' }, bool: { kind: 'bool' },
  date: { kind: 'date' }, duration: { kind: 'duration' }, null: { kind: 'null' }, dyn: { kind: 'dyn' },
} as const satisfies Record<string, RuleType>;

/** A list of values of one type. */
export function listOf(of: RuleType): RuleType {
  return { kind: 'list', of };
}

/** How messages name a type: `int`, `list(double)`, `Inverters row`. */
export function typeName(t: RuleType): string {
  switch (t.kind) {
    case 'list': return `list(${typeName(t.of)})`;
    case 'map': return `map(string, ${typeName(t.of)})`;
    case 'record': return t.name;
    default: return t.kind;
  }
}

/** True when a value of type `a` may stand where `b` is expected (`dyn` fits anything, either way). */
export function fits(a: RuleType, b: RuleType): boolean {
  if (a.kind === 'dyn' || b.kind === 'dyn') return true;
  if (a.kind === 'list' && b.kind === 'list') return fits(a.of, b.of);
  if (a.kind === 'map' && b.kind === 'map') return fits(a.of, b.of);
  if (a.kind === 'record' && b.kind === 'record') return a.name === b.name;
  if (a.kind === 'record' && b.kind === 'map') return [...a.members.values()].every((m) => fits(m, b.of));
  return a.kind === b.kind;
}

/** The type of one value of a field type: numbers are doubles, integers ints, dates dates, the rest strings or bools. */
export function scalarOf(type: Exclude<FieldType, 'table'>): RuleType {
  switch (type) {
    case 'number': return T.double;
    case 'integer': return T.int;
    case 'boolean': return T.bool;
    case 'date': return T.date;
    case 'text':
    case 'choice': return T.string;
  }
}

/** What a rule needs to know of a table's columns: their customIds and types, and the limits its cost is estimated by. */
export interface RuleColumns {
  columns: { customId: string; type: Exclude<FieldType, 'table'>; maxLength?: number | null }[];
  maxRows?: number | null;
}

/**
 * The type a rule sees for a field: its scalar type, or a list of them for a multi-value field; a table is a list of
 * rows, each a record of its columns (`Inverters.all(r, r.Quantity >= 1)`).
 */
export function fieldType(field: { type: FieldType; multiValue: boolean; customId?: string | null; table?: RuleColumns | null }): RuleType {
  if (field.type === 'table') {
    const members = new Map((field.table?.columns ?? []).map((c) => [c.customId, scalarOf(c.type)]));
    return listOf({ kind: 'record', name: `a row of ${field.customId ?? 'the table'}`, members });
  }
  const scalar = scalarOf(field.type);
  return field.multiValue ? listOf(scalar) : scalar;
}

/** True for a name a rule can use as a variable: CEL identifiers (a field's customId must be one to be used). */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name);
}

// CEL's reserved words (the language definition), and the names apas declares itself.
const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while', 'project', 'role',
]);
