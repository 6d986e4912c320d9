import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { childrenOf } from './rule-limits.ts';
import type { RuleType } from './rule-types.ts';

// How a rule's cost is counted, the way Kubernetes bounds CEL: each node of the expression costs a unit once, each
// round of a comprehension (all, exists, exists_one, map, filter) the nodes of its body, and each function or
// operator call a unit plus the size of what it is given. The estimate at import counts the same with every value
// at its declared maximum, so a rule that passes the estimate never meets the limit while it runs (rule-meter.ts).

/** Characters of a string that cost one unit when a call is given it (scanning text is cheap next to a step). */
export const CHARS_PER_UNIT = 100;

/**
 * Characters that cost a unit where `size` steps through each in JavaScript to count code points (measured: about
 * 17 ns a character, against a unit's 0.1 µs).
 */
export const SIZE_CHARS_PER_UNIT = 5;

/**
 * Units per character of the text `matches` searches and of its pattern: the RE2 matcher (re2js, in JavaScript)
 * takes up to 0.3 µs a character, and the pattern is compiled at each call.
 */
export const MATCH_UNITS_PER_CHAR = 3;

/**
 * Items of a list that cost one unit when a call is given it: lists are joined by copying (rule-meter.ts), so the
 * list map builds over 1,000 rows costs half a million item copies, a few milliseconds.
 */
export const ITEMS_PER_UNIT = 10;

/** The most characters of a value of a field: the longest value a field takes (field-rules.ts). */
export const MAX_TEXT_CHARS = 10_000;

/** The most items of a list a rule reads: values of a multi-value field, rows of a table (field-rules.ts, table-values.ts). */
export const MAX_LIST_ITEMS = 1_000;

/** The most characters of a choice's value (schemas/program.schema.json). */
export const MAX_CHOICE_CHARS = 200;

/** What the estimate knows of a value: its kind and its largest size (characters, items, or members). */
export interface Shape {
  kind: 'text' | 'list' | 'record' | 'scalar' | 'dyn';
  len: number;
  /** A list's (or map's) items. */
  elem?: Shape;
  /** A record's members (a table row, `project`). */
  members?: ReadonlyMap<string, Shape>;
}

const SCALAR: Shape = { kind: 'scalar', len: 1 };
const EMPTY: Shape = { kind: 'scalar', len: 0 };
/** A value of unknown type: as large as any value may be. */
const ANY: Shape = { kind: 'dyn', len: MAX_TEXT_CHARS };

/** The largest value of a type, when nothing more is declared. */
export function shapeOfType(t: RuleType | undefined): Shape {
  if (t === undefined) return ANY;
  switch (t.kind) {
    case 'string': return { kind: 'text', len: MAX_TEXT_CHARS };
    case 'list':
    case 'map': return { kind: 'list', len: MAX_LIST_ITEMS, elem: shapeOfType(t.of) };
    case 'record': return { kind: 'record', len: t.members.size, members: new Map([...t.members].map(([k, m]) => [k, shapeOfType(m)])) };
    case 'dyn': return ANY;
    default: return SCALAR;
  }
}

/** The units a value's size adds to a call that is given it. */
export function sizeUnits(kind: Shape['kind'], len: number): number {
  if (kind === 'text') return Math.ceil(len / CHARS_PER_UNIT);
  if (kind === 'list' || kind === 'record') return Math.ceil(len / ITEMS_PER_UNIT);
  if (kind === 'dyn') return Math.max(Math.ceil(len / CHARS_PER_UNIT), Math.ceil(len / ITEMS_PER_UNIT));
  return 0;
}

/** What one call of a function or operator costs, given its operands (the target first for a method). */
export function callUnits(name: string, operands: { kind: Shape['kind']; len: number }[]): number {
  const text = (o: { kind: Shape['kind']; len: number }) => (o.kind === 'text' || o.kind === 'dyn' ? o.len : 0);
  if (name === 'size') return 1 + operands.reduce((n, o) => n + Math.ceil(text(o) / SIZE_CHARS_PER_UNIT), 0);
  if (name === 'matches') return 1 + operands.reduce((n, o) => n + text(o) * MATCH_UNITS_PER_CHAR, 0);
  // x in list compares x with each item.
  if (name === '@in' && operands.length === 2) return 1 + Math.ceil(operands[1]!.len * (1 + sizeUnits(operands[0]!.kind, operands[0]!.len)) / ITEMS_PER_UNIT);
  return 1 + operands.reduce((n, o) => n + sizeUnits(o.kind, o.len), 0);
}

/** The nodes of a (sub)tree: what one evaluation of it costs before its calls and comprehensions. */
export function nodeCount(e: Expr | undefined): number {
  if (!e) return 0;
  let n = 0;
  const stack = [e];
  while (stack.length > 0) {
    n++;
    stack.push(...childrenOf(stack.pop()!));
  }
  return n;
}

/** What each round of a comprehension costs before the calls in it: the nodes of its condition and step. */
export function roundUnits(c: { loopCondition?: Expr; loopStep?: Expr }): number {
  return nodeCount(c.loopCondition) + nodeCount(c.loopStep);
}

/** Calls the evaluator runs itself, not through a function (they cost their nodes only). */
const BUILT_IN = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '@not_strictly_false', '!_']);

/** True for a call that the meter charges as a function call (rule-meter.ts), as the estimate does. */
export function isMeteredCall(name: string): boolean {
  return !BUILT_IN.has(name);
}

/**
 * The most a rule can cost, with each variable at the largest value its field allows (`shapes`, by variable name;
 * others as large as their type allows). Comprehensions multiply: all(a, L.exists_one(b, …)) over 1,000 rows costs a
 * million rounds.
 */
export function estimateCost(parsed: ParsedExpr, vars: ReadonlyMap<string, RuleType>, shapes: ReadonlyMap<string, Shape>): number {
  if (!parsed.expr) return 0;
  const estimator = new Estimator(vars, shapes);
  return nodeCount(parsed.expr) + estimator.estimate(parsed.expr).cost;
}

interface Estimate { cost: number; shape: Shape }

function join(a: Shape, b: Shape): Shape {
  if (a === EMPTY) return b;
  if (b === EMPTY) return a;
  const kind = a.kind === b.kind ? a.kind : 'dyn';
  const out: Shape = { kind, len: Math.max(a.len, b.len) };
  if (a.elem || b.elem) out.elem = join(a.elem ?? EMPTY, b.elem ?? EMPTY);
  if (a.members || b.members) {
    const members = new Map(a.members ?? []);
    for (const [k, m] of b.members ?? []) members.set(k, members.has(k) ? join(members.get(k)!, m) : m);
    out.members = members;
  }
  return out;
}

function joinAll(shapes: Shape[]): Shape {
  return shapes.reduce(join, EMPTY);
}

class Estimator {
  readonly #vars: ReadonlyMap<string, RuleType>;
  readonly #shapes: ReadonlyMap<string, Shape>;
  readonly #scopes: Map<string, Shape>[] = [];
  /** The result variables of the comprehensions being estimated whose result is a list. */
  readonly #growing = new Set<string>();

  constructor(vars: ReadonlyMap<string, RuleType>, shapes: ReadonlyMap<string, Shape>) {
    this.#vars = vars;
    this.#shapes = shapes;
  }

  estimate(e: Expr): Estimate {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': return { cost: 0, shape: k.value.constantKind.case === 'stringValue' ? { kind: 'text', len: k.value.constantKind.value.length } : SCALAR };
      case 'identExpr': return { cost: 0, shape: this.#ident(k.value.name) };
      case 'selectExpr': {
        const operand = this.estimate(k.value.operand!);
        return { cost: operand.cost, shape: k.value.testOnly ? SCALAR : memberOf(operand.shape, k.value.field) };
      }
      case 'listExpr': {
        const items = k.value.elements.map((el) => this.estimate(el));
        return { cost: sum(items), shape: { kind: 'list', len: items.length, elem: joinAll(items.map((i) => i.shape)) } };
      }
      case 'structExpr': {
        const parts = childrenOf(e).map((c) => this.estimate(c));
        const values = k.value.entries.map((en) => (en.value ? this.estimate(en.value).shape : EMPTY));
        return { cost: sum(parts), shape: { kind: 'list', len: k.value.entries.length, elem: joinAll(values) } };
      }
      case 'callExpr': return this.#call(k.value.function, childrenOf(e));
      case 'comprehensionExpr': return this.#comprehension(k.value);
      default: return { cost: 0, shape: ANY };
    }
  }

  #ident(name: string): Shape {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i]!.get(name);
      if (s) return s;
    }
    return this.#shapes.get(name) ?? shapeOfType(this.#vars.get(name));
  }

  #call(fn: string, operands: Expr[]): Estimate {
    const parts = operands.map((o) => this.estimate(o));
    const shapes = parts.map((p) => p.shape);
    if (fn === '_?_:_') return { cost: parts[0]!.cost + Math.max(parts[1]!.cost, parts[2]!.cost), shape: join(shapes[1]!, shapes[2]!) };
    // The result map and filter grow is only ever added to at its end, so it grows in place (rule-meter.ts).
    const first = operands[0]?.exprKind;
    const grows = fn === '_+_' && first?.case === 'identExpr' && this.#growing.has(first.value.name) && shapes[0]!.kind === 'list';
    const units = grows ? 1 + Math.ceil(shapes[1]!.len / ITEMS_PER_UNIT) : isMeteredCall(fn) ? callUnits(fn, shapes) : 0;
    const cost = sum(parts) + units;
    return { cost, shape: resultShape(fn, shapes) };
  }

  #comprehension(c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Estimate {
    const range = this.estimate(c.iterRange!);
    const init = this.estimate(c.accuInit!);
    const n = range.shape.len;
    const item = range.shape.kind === 'list' ? (range.shape.elem ?? EMPTY) : range.shape.kind === 'record' ? { kind: 'text' as const, len: MAX_CHOICE_CHARS } : ANY;
    // map and filter grow their result by an item a round (the step sees it half grown on average, the result whole);
    // all, exists and exists_one keep a bool or a count.
    const grows = init.shape.kind === 'list';
    const during: Shape = grows ? { kind: 'list', len: init.shape.len + (n - 1) / 2, elem: EMPTY } : init.shape;
    this.#scopes.push(new Map([[c.iterVar, item], [c.accuVar, during]]));
    if (grows) this.#growing.add(c.accuVar);
    const cond = this.estimate(c.loopCondition!);
    const step = this.estimate(c.loopStep!);
    this.#growing.delete(c.accuVar);
    this.#scopes.pop();
    const after: Shape = grows ? { kind: 'list', len: init.shape.len + n, elem: step.shape.elem ?? EMPTY } : join(init.shape, step.shape);
    this.#scopes.push(new Map([[c.accuVar, after]]));
    const result = this.estimate(c.result!);
    this.#scopes.pop();
    return { cost: range.cost + init.cost + n * (roundUnits(c) + cond.cost + step.cost) + result.cost, shape: result.shape };
  }
}

function sum(parts: Estimate[]): number {
  return parts.reduce((n, p) => n + p.cost, 0);
}

function memberOf(s: Shape, member: string): Shape {
  if (s.members) return s.members.get(member) ?? ANY;
  return s.elem ?? ANY;
}

/** The largest value a call gives. Only + and string() make something larger than a number or a bool. */
function resultShape(fn: string, shapes: Shape[]): Shape {
  switch (fn) {
    case '_+_': {
      const [a, b] = [shapes[0]!, shapes[1]!];
      if (a.kind === 'scalar' && b.kind === 'scalar') return SCALAR;
      const joined = join(a, b);
      return { ...joined, len: a.len + b.len };
    }
    case '_[_]': {
      const s = shapes[0]!;
      return s.members ? joinAll([...s.members.values()]) : (s.elem ?? ANY);
    }
    case '_?_:_': return join(shapes[1]!, shapes[2]!);
    case 'string': return shapes[0]!.kind === 'text' ? shapes[0]! : { kind: 'text', len: 40 };
    default: return SCALAR;
  }
}
