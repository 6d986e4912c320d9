import { type CelEnv, celEnv, type CelFunc, type CelList, type CelValue, isCelList, isCelMap } from '@bufbuild/cel';
import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { callUnits, isMeteredCall, ITEMS_PER_UNIT, nodeCount, roundUnits, type Shape } from './rule-cost.ts';
import { childrenOf } from './rule-limits.ts';

/** Thrown out of an evaluation that has spent its cost limit; the evaluator unwinds at once. */
export class RuleCostExceeded extends Error {
  constructor(readonly limit: number) {
    super(`the rule cost more than ${limit} units`);
    this.name = 'RuleCostExceeded';
  }
}

/** What one evaluation has spent, against its limit. */
export interface Meter { spent: number; limit: number }

// The function a comprehension's condition is wrapped in: the parser never makes a name starting with @ from a rule's
// text, so a rule cannot call it. Its second argument is what a round costs.
const ROUND = '@apas_round';

/**
 * Rewrites a parsed expression so that each round of every comprehension charges the meter (its condition is
 * wrapped in a call that counts and passes the condition's value through). Returns the units one evaluation costs
 * before its calls and rounds: its nodes. @bufbuild/cel has no cost hooks, so the meter sits in the calls it makes.
 */
export function instrument(parsed: ParsedExpr): number {
  if (!parsed.expr) return 0;
  const upfront = nodeCount(parsed.expr);
  let nextId = maxId(parsed.expr) + 1n;
  const stack = [parsed.expr];
  while (stack.length > 0) {
    const e = stack.pop()!;
    stack.push(...childrenOf(e));
    if (e.exprKind.case !== 'comprehensionExpr') continue;
    const c = e.exprKind.value;
    const units = roundUnits(c);
    const constant = { id: nextId++, exprKind: { case: 'constExpr', value: { constantKind: { case: 'int64Value', value: BigInt(units) } } } };
    c.loopCondition = { id: nextId++, exprKind: { case: 'callExpr', value: { function: ROUND, args: [c.loopCondition, constant] } } } as unknown as Expr;
  }
  return upfront;
}

function maxId(root: Expr): bigint {
  let max = 0n;
  const stack = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.id > max) max = e.id;
    stack.push(...childrenOf(e));
  }
  return max;
}

/** The kind and size of a value as the evaluator holds it, for what a call given it costs. */
function operandOf(v: unknown): { kind: Shape['kind']; len: number } {
  if (typeof v === 'string') return { kind: 'text', len: v.length };
  if (isCelList(v) || isCelMap(v)) return { kind: 'list', len: v.size };
  return { kind: 'scalar', len: 1 };
}

type Callable = { call(id: number, target: unknown, args: unknown[]): unknown };
type Resolver = { find(name: string): Callable | undefined };

/**
 * An environment with the given functions whose every function and operator call, and every comprehension round,
 * charges `meter` first; past its limit the charge throws RuleCostExceeded, which nothing in the evaluator catches
 * until the top of the evaluation. Made once per compiled rule: the planner keeps the resolver it is given.
 */
export function meteredEnv(funcs: CelFunc[], meter: Meter): CelEnv {
  const base = celEnv({ funcs });
  const charge = (units: number) => {
    meter.spent += units;
    if (meter.spent > meter.limit) throw new RuleCostExceeded(meter.limit);
  };
  const round: Callable = {
    call: (_id, _target, args) => {
      charge(Number(args[1]));
      return args[0];
    },
  };
  const inner = base.funcs as unknown as Resolver;
  const wrapped = new Map<string, Callable | undefined>();
  const resolver: Resolver = {
    find(name) {
      if (name === ROUND) return round;
      if (!wrapped.has(name)) {
        const fn = inner.find(name);
        wrapped.set(name, fn && isMeteredCall(name)
          ? { call: (id, target, args) => {
            // The library joins lists by nesting them, so the list map and filter build a round at a time is a
            // thousand lists deep, and reading it costs a step per level for every item: join them flat instead.
            if (name === '_+_' && isCelList(args[0]) && isCelList(args[1])) {
              const { list, copied } = joined(args[0], args[1]);
              charge(1 + Math.ceil(copied / ITEMS_PER_UNIT));
              return list;
            }
            charge(callUnits(name, target === undefined ? args.map(operandOf) : [operandOf(target), ...args.map(operandOf)]));
            return fn.call(id, target, args);
          } }
          : fn);
      }
      return wrapped.get(name);
    },
  };
  // plan() reads the namespace, the registry and the functions of the environment it is given, nothing else.
  return { namespace: base.namespace, registry: base.registry, funcs: resolver, variables: base.variables } as unknown as CelEnv;
}

// The mark @bufbuild/cel knows its lists by (a registered symbol, so a list made here is one of its lists).
const LIST_MARK = Symbol.for('@bufbuild/cel/list');

/**
 * A list that is the first `size` items of an array it may share with longer lists: appending to the list that ends
 * where the array ends grows the array in place (the lists before it still see only their own items), so map and
 * filter build their result in linear time, and it reads like any other list.
 */
class GrowList {
  readonly [LIST_MARK] = {};
  constructor(readonly items: CelValue[], readonly size: number) {}

  get(index: number): CelValue | undefined {
    return index >= 0 && index < this.size ? this.items[index] : undefined;
  }

  *values(): IterableIterator<CelValue> {
    for (let i = 0; i < this.size; i++) yield this.items[i]!;
  }

  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }
}

/** Two lists joined, and how many items that copied: none of the first when it could grow in place. */
function joined(a: CelList, b: CelList): { list: CelList; copied: number } {
  let items: CelValue[];
  let copied = b.size;
  if (a instanceof GrowList && a.items.length === a.size) items = a.items;
  else {
    items = [];
    for (let i = 0; i < a.size; i++) items.push(a.get(i)!);
    copied += a.size;
  }
  for (let i = 0; i < b.size; i++) items.push(b.get(i)!);
  return { list: new GrowList(items, items.length) as unknown as CelList, copied };
}
