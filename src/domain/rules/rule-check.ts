import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { fits, listOf, T, typeName, type RuleType } from './rule-types.ts';
import { RULE_FUNCTIONS } from './rule-functions.ts';

/** What is wrong with an expression, and where: a character offset into its text. */
export interface CheckProblem { offset: number; message: string }

/** The type an expression produces, the variables and `project` members it reads, and its problems (none when fine). */
export interface CheckResult { type: RuleType; names: Set<string>; projectMembers: Set<string>; problems: CheckProblem[] }

// The library's own checker (0.6) covers constants and names only, so apas checks the rest of the syntax tree itself:
// names, members, the functions docs/programs.md lists and the operators' operand types. A rule that passes may still
// fail when it runs (a division by zero); a rule that fails here would fail, or mean something else, every time.

/** Type-checks a parsed expression against the variables it may use. */
export function checkRule(parsed: ParsedExpr, vars: ReadonlyMap<string, RuleType>): CheckResult {
  const checker = new Checker(parsed, vars);
  const type = parsed.expr ? checker.type(parsed.expr) : T.dyn;
  return { type, names: checker.names, projectMembers: checker.projectMembers, problems: checker.problems };
}

const NUMERIC = new Set(['int', 'double']);
const ORDERED = new Set(['int', 'double', 'string', 'date', 'duration', 'bool']);

/** The more specific of two types that fit each other; null when they do not. */
function join(a: RuleType, b: RuleType): RuleType | null {
  if (a.kind === 'dyn') return b;
  if (b.kind === 'dyn') return a;
  if (a.kind === 'null') return b;
  if (b.kind === 'null') return a;
  if (a.kind === 'list' && b.kind === 'list') {
    const of = join(a.of, b.of);
    return of === null ? null : listOf(of);
  }
  return fits(a, b) ? a : null;
}

class Checker {
  readonly problems: CheckProblem[] = [];
  readonly names = new Set<string>();
  readonly projectMembers = new Set<string>();
  readonly #positions: Record<string, number>;
  readonly #vars: ReadonlyMap<string, RuleType>;
  readonly #scopes: Map<string, RuleType>[] = [];

  constructor(parsed: ParsedExpr, vars: ReadonlyMap<string, RuleType>) {
    this.#positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
    this.#vars = vars;
  }

  #problem(e: Expr, message: string): RuleType {
    this.problems.push({ offset: this.#positions[String(e.id)] ?? 0, message });
    return T.dyn;
  }

  type(e: Expr): RuleType {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': return this.#constant(e, k.value.constantKind.case);
      case 'identExpr': return this.#ident(e, k.value.name);
      case 'selectExpr': return this.#select(e, k.value.operand!, k.value.field, k.value.testOnly);
      case 'callExpr': return this.#call(e, k.value.function, k.value.target, k.value.args);
      case 'listExpr': return this.#list(k.value.elements);
      case 'structExpr': {
        if (k.value.messageName !== '') return this.#problem(e, `messages (${k.value.messageName}{…}) are not available in program rules`);
        let of: RuleType = T.dyn;
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') this.#expect(entry.keyKind.value, T.string, 'a map key');
          if (entry.value) of = join(of, this.type(entry.value)) ?? T.dyn;
        }
        return { kind: 'map', of };
      }
      case 'comprehensionExpr': return this.#comprehension(k.value);
      default: return this.#problem(e, 'this expression is not supported');
    }
  }

  #constant(e: Expr, kind: string | undefined): RuleType {
    switch (kind) {
      case 'boolValue': return T.bool;
      case 'int64Value':
      case 'uint64Value': return T.int;
      case 'doubleValue': return T.double;
      case 'stringValue': return T.string;
      case 'nullValue': return T.null;
      default: return this.#problem(e, 'bytes and other literals are not available in program rules');
    }
  }

  #ident(e: Expr, name: string): RuleType {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const t = this.#scopes[i]!.get(name);
      if (t) return t;
    }
    const t = this.#vars.get(name);
    if (t) {
      this.names.add(name);
      return t;
    }
    return this.#problem(e, `unknown name "${name}"${suggest(name, [...this.#vars.keys()])}`);
  }

  #select(e: Expr, operand: Expr, member: string, testOnly: boolean): RuleType {
    const t = this.type(operand);
    if (t.kind === 'record') {
      if (t.name === 'project') this.projectMembers.add(member);
      const m = t.members.get(member);
      if (!m) return this.#problem(e, `${t.name} has no member "${member}"${suggest(member, [...t.members.keys()])}`);
      return testOnly ? T.bool : m;
    }
    if (t.kind === 'map') return testOnly ? T.bool : t.of;
    if (t.kind === 'dyn') return testOnly ? T.bool : T.dyn;
    return this.#problem(e, `.${member} cannot be read from a ${typeName(t)}`);
  }

  #list(elements: Expr[]): RuleType {
    let of: RuleType = T.dyn;
    for (const el of elements) {
      const t = this.type(el);
      const joined = join(of, t);
      if (joined === null) {
        this.#problem(el, `a list holds values of one type; this ${typeName(t)} is among ${typeName(of)} values`);
        continue;
      }
      of = joined;
    }
    return listOf(of);
  }

  #comprehension(c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): RuleType {
    const range = this.type(c.iterRange!);
    let element: RuleType = T.dyn;
    if (range.kind === 'list') element = range.of;
    else if (range.kind === 'map' || range.kind === 'record') element = T.string;
    else if (range.kind !== 'dyn') this.#problem(c.iterRange!, `only a list or a map can be gone through, not a ${typeName(range)}`);
    const accuInit = this.type(c.accuInit!);
    this.#scopes.push(new Map([[c.iterVar, element], [c.accuVar, accuInit]]));
    this.type(c.loopCondition!);
    const step = this.type(c.loopStep!);
    this.#scopes.pop();
    this.#scopes.push(new Map([[c.accuVar, join(accuInit, step) ?? accuInit]]));
    const result = this.type(c.result!);
    this.#scopes.pop();
    return result;
  }

  #expect(e: Expr, want: RuleType, what: string): RuleType {
    const t = this.type(e);
    if (!fits(t, want)) this.#problem(e, `${what} must be a ${typeName(want)}, not a ${typeName(t)}`);
    return t;
  }

  #call(e: Expr, fn: string, target: Expr | undefined, args: Expr[]): RuleType {
    switch (fn) {
      case '_&&_':
      case '_||_':
        for (const a of args) this.#expect(a, T.bool, `each side of ${fn === '_&&_' ? '&&' : '||'}`);
        return T.bool;
      case '!_':
      case '@not_strictly_false':
        this.#expect(args[0]!, T.bool, 'the operand of !');
        return T.bool;
      case '-_': {
        const t = this.type(args[0]!);
        if (t.kind !== 'dyn' && !NUMERIC.has(t.kind) && t.kind !== 'duration') return this.#problem(e, `- cannot negate a ${typeName(t)}`);
        return t;
      }
      case '_?_:_': {
        this.#expect(args[0]!, T.bool, 'the condition before ?');
        const a = this.type(args[1]!);
        const b = this.type(args[2]!);
        return join(a, b) ?? this.#problem(e, `both results of ?: must have one type; got ${typeName(a)} and ${typeName(b)}`);
      }
      case '_[_]': return this.#index(e, args[0]!, args[1]!);
      case '@in': {
        const item = this.type(args[0]!);
        const within = this.type(args[1]!);
        if (within.kind === 'list' && join(item, within.of) === null) this.#problem(e, `a ${typeName(item)} is never in a ${typeName(within)}`);
        else if (within.kind !== 'list' && within.kind !== 'map' && within.kind !== 'record' && within.kind !== 'dyn') this.#problem(e, `"in" needs a list or a map on its right, not a ${typeName(within)}`);
        return T.bool;
      }
      case '_==_':
      case '_!=_': {
        const a = this.type(args[0]!);
        const b = this.type(args[1]!);
        const numeric = NUMERIC.has(a.kind) && NUMERIC.has(b.kind);
        if (!numeric && join(a, b) === null) this.#problem(e, `a ${typeName(a)} is never equal to a ${typeName(b)}`);
        return T.bool;
      }
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': return this.#compare(e, args[0]!, args[1]!);
      case '_+_':
      case '_-_':
      case '_*_':
      case '_/_':
      case '_%_': return this.#arithmetic(e, fn, args[0]!, args[1]!);
      default: return this.#function(e, fn, target, args);
    }
  }

  #index(e: Expr, on: Expr, key: Expr): RuleType {
    const t = this.type(on);
    const k = this.type(key);
    if (t.kind === 'list') {
      if (!fits(k, T.int)) this.#problem(key, `a list is indexed by an int, not a ${typeName(k)}`);
      return t.of;
    }
    if (t.kind === 'map' || t.kind === 'record') {
      if (!fits(k, T.string)) this.#problem(key, `a map is indexed by a string, not a ${typeName(k)}`);
      return t.kind === 'map' ? t.of : T.dyn;
    }
    return t.kind === 'dyn' ? T.dyn : this.#problem(e, `a ${typeName(t)} cannot be indexed with [ ]`);
  }

  #compare(e: Expr, left: Expr, right: Expr): RuleType {
    const a = this.type(left);
    const b = this.type(right);
    if (a.kind === 'dyn' || b.kind === 'dyn') return T.bool;
    const ok = NUMERIC.has(a.kind) ? NUMERIC.has(b.kind) : a.kind === b.kind && ORDERED.has(a.kind);
    if (!ok) this.#problem(e, `a ${typeName(a)} cannot be compared with a ${typeName(b)}`);
    return T.bool;
  }

  #arithmetic(e: Expr, fn: string, left: Expr, right: Expr): RuleType {
    const op = fn.slice(1, -1);
    const a = this.type(left);
    const b = this.type(right);
    if (a.kind === 'dyn' || b.kind === 'dyn') return a.kind === 'dyn' ? b : a;
    if (NUMERIC.has(a.kind) && NUMERIC.has(b.kind)) {
      if (a.kind === b.kind && (op !== '%' || a.kind === 'int')) return a;
      if (op === '%') return this.#problem(e, '% takes two ints');
      // CEL never converts between int and double by itself: 2 * 1.5 is an error when the rule runs.
      return this.#problem(e, `${op} cannot combine an int and a double; convert one side with double(…) or int(…), or write 2.0 for 2`);
    }
    const result = arithmeticOf(op, a, b);
    return result ?? this.#problem(e, `${op} cannot combine a ${typeName(a)} and a ${typeName(b)}`);
  }

  #function(e: Expr, fn: string, target: Expr | undefined, args: Expr[]): RuleType {
    const signature = RULE_FUNCTIONS.get(fn);
    if (!signature) return this.#problem(e, `unknown function "${fn}"${suggest(fn, [...RULE_FUNCTIONS.keys()])}`);
    const operands = target ? [target, ...args] : args;
    const types = operands.map((a) => this.type(a));
    const result = signature.check(types, target !== undefined);
    return typeof result === 'string' ? this.#problem(e, `${fn}: ${result}`) : result;
  }
}

function arithmeticOf(op: string, a: RuleType, b: RuleType): RuleType | null {
  if (op === '+') {
    if (a.kind === 'string' && b.kind === 'string') return T.string;
    if (a.kind === 'list' && b.kind === 'list') return join(a, b);
    if ((a.kind === 'date' && b.kind === 'duration') || (a.kind === 'duration' && b.kind === 'date')) return T.date;
    if (a.kind === 'duration' && b.kind === 'duration') return T.duration;
  }
  if (op === '-') {
    if (a.kind === 'date' && b.kind === 'date') return T.duration;
    if (a.kind === 'date' && b.kind === 'duration') return T.date;
    if (a.kind === 'duration' && b.kind === 'duration') return T.duration;
  }
  return null;
}

/** ` (did you mean "X"?)` for a near miss among the known names: the same letters in another case, or one or two edits away. */
export function suggest(name: string, known: string[]): string {
  const lower = name.toLowerCase();
  const best = known.find((k) => k.toLowerCase() === lower) ?? known.find((k) => editDistance(k.toLowerCase(), lower) <= 2);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}
