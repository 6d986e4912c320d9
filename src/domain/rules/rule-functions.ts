import { celFunc, celMethod, CelScalar, type CelFunc, isCelList, listType, objectType } from '@bufbuild/cel';
import { timestampDate, timestampFromMs, TimestampSchema, type Timestamp } from '@bufbuild/protobuf/wkt';
import { T, typeName, type RuleType } from './rule-types.ts';

/** How the checker types a call of a function: its result, or what is wrong with the operands. */
export interface RuleFunction {
  /** `types` are the operands' types, the target's first for a method call (`x.size()`). */
  check(types: RuleType[], method: boolean): RuleType | string;
}

const DAY_MS = 86_400_000;
const TIMESTAMP = objectType(TimestampSchema);

function arity(types: RuleType[], n: number, usage: string): string | null {
  return types.length === n ? null : `takes ${usage}`;
}

function one(types: RuleType[], allowed: string[], usage: string, result: RuleType): RuleType | string {
  const wrong = arity(types, 1, usage);
  if (wrong) return wrong;
  const t = types[0]!;
  return t.kind === 'dyn' || allowed.includes(t.kind) ? result : `takes ${usage}, not a ${typeName(t)}`;
}

function stringTest(types: RuleType[], method: boolean): RuleType | string {
  if (!method || types.length !== 2) return 'is called on a string with one string: Name.contains("x")';
  return types.every((t) => t.kind === 'string' || t.kind === 'dyn') ? T.bool : `works on strings, not ${types.map(typeName).join(' and ')}`;
}

function sumOf(types: RuleType[]): RuleType | string {
  const wrong = arity(types, 1, 'one list of numbers: Inverters.map(r, r.Quantity).sum()');
  if (wrong) return wrong;
  const t = types[0]!;
  if (t.kind === 'dyn') return T.dyn;
  if (t.kind === 'list' && (t.of.kind === 'int' || t.of.kind === 'double' || t.of.kind === 'dyn')) return t.of;
  return `adds up a list of ints or doubles, not a ${typeName(t)}`;
}

/**
 * The functions a rule may call, with how each is typed: CEL's standard ones that docs/programs.md lists, and the
 * few apas adds (`sum`, `round`, `date`, `daysBetween`; their code is RULE_FUNCTION_CODE). Anything else is refused.
 */
export const RULE_FUNCTIONS: ReadonlyMap<string, RuleFunction> = new Map<string, RuleFunction>([
  ['size', { check: (types) => one(types, ['string', 'list', 'map', 'record'], 'a string, list or map', T.int) }],
  ['contains', { check: stringTest }],
  ['startsWith', { check: stringTest }],
  ['endsWith', { check: stringTest }],
  ['matches', { check: stringTest }],
  ['int', { check: (types) => one(types, ['int', 'double', 'string'], 'a double, int or string', T.int) }],
  ['double', { check: (types) => one(types, ['int', 'double', 'string'], 'an int, double or string', T.double) }],
  ['string', { check: (types) => one(types, ['int', 'double', 'string', 'bool', 'date'], 'a number, string, bool or date', T.string) }],
  ['sum', { check: sumOf }],
  ['round', {
    check: (types) => arity(types, 2, 'a double and a number of decimals: round(x, 2)')
      ?? ((types[0]!.kind === 'double' || types[0]!.kind === 'dyn') && (types[1]!.kind === 'int' || types[1]!.kind === 'dyn')
        ? T.double : `takes a double and an int, not ${types.map(typeName).join(' and ')}`),
  }],
  ['date', { check: (types, method) => (method ? 'is a function: date("2026-12-01")' : one(types, ['string'], 'a date as a "yyyy-MM-dd" string', T.date)) }],
  ['daysBetween', {
    check: (types) => arity(types, 2, 'two dates: daysBetween(PlannedInstallDate, InstallationDate)')
      ?? (types.every((t) => t.kind === 'date' || t.kind === 'dyn') ? T.int : `takes two dates, not ${types.map(typeName).join(' and ')}`),
  }],
]);

/** A date as CEL holds it: a timestamp at midnight UTC of that day. */
export function dateValue(text: string): Timestamp {
  return timestampFromMs(Date.parse(`${text}T00:00:00Z`));
}

/** The yyyy-MM-dd day of a CEL timestamp, in UTC (the zone dates are held in). */
export function dateText(ts: Timestamp): string {
  return timestampDate(ts).toISOString().slice(0, 10);
}

function messageOf(v: unknown): Timestamp {
  return ((v as { message?: Timestamp }).message ?? v) as Timestamp;
}

function addUp(list: Iterable<unknown>): bigint | number {
  let ints = 0n;
  let doubles = 0;
  let anyDouble = false;
  for (const v of list) {
    if (typeof v === 'bigint') ints += v;
    else if (typeof v === 'number') {
      doubles += v;
      anyDouble = true;
    } else throw new Error(`sum: ${typeof v} is not a number`);
  }
  return anyDouble ? doubles + Number(ints) : ints;
}

function rounded(x: number, digits: bigint): number {
  const f = 10 ** Number(digits);
  return Math.round(x * f) / f;
}

/** The code of the functions apas adds to CEL, as the evaluator calls them. */
export const RULE_FUNCTION_CODE: CelFunc[] = [
  celFunc('sum', [listType(CelScalar.DYN)], CelScalar.DYN, (list) => addUp(isCelList(list) ? list : [])),
  celMethod('sum', listType(CelScalar.DYN), [], CelScalar.DYN, function sum() {
    return addUp(this);
  }),
  celFunc('round', [CelScalar.DOUBLE, CelScalar.INT], CelScalar.DOUBLE, rounded),
  celFunc('date', [CelScalar.STRING], TIMESTAMP, (text) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) throw new Error(`date: "${text}" is not a yyyy-MM-dd date`);
    return dateValue(text);
  }),
  celFunc('daysBetween', [TIMESTAMP, TIMESTAMP], CelScalar.INT, (a, b) => {
    const ms = timestampDate(messageOf(b)).getTime() - timestampDate(messageOf(a)).getTime();
    return BigInt(Math.round(ms / DAY_MS));
  }),
];
