import { type CelInput, type CelValue, isCelError, parse, plan } from '@bufbuild/cel';
import { checkRule } from './rule-check.ts';
import { estimateCost, type Shape } from './rule-cost.ts';
import { RULE_FUNCTION_CODE } from './rule-functions.ts';
import { bracketProblem, literalProblems, MAX_EXPRESSION_CHARS, MAX_EXPRESSION_DEPTH, RULE_COST_LIMIT, tooDeep } from './rule-limits.ts';
import { instrument, meteredEnv } from './rule-meter.ts';
import { ApiError } from '../api-error.ts';
import { fits, typeName, type RuleType } from './rule-types.ts';

/** A problem of an expression, at a 1-based line and column of the expression's own text. */
export interface RuleProblem { line: number; column: number; message: string }

/** What a rule gives when it runs: its value, or `undefined` when it cannot be decided (see evaluate). */
export type RuleValue = CelValue | undefined;

/** A parsed, checked and planned expression, ready to run any number of times. */
export interface CompiledRule {
  /** The expression as the program file wrote it. */
  readonly source: string;
  /** The type the checker found (a formula's value is converted to its field's type). */
  readonly type: RuleType;
  /** The variables the expression reads (field customIds, `project`, `role`). */
  readonly names: ReadonlySet<string>;
  /** The members of `project` it reads. */
  readonly projectMembers: ReadonlySet<string>;
  /** The most the rule can cost with every value at its declared limit (rule-cost.ts). */
  readonly estimatedCost: number;
  /**
   * Runs the rule over the bindings. A rule that reads an empty field, or fails as it runs (a division by zero), is
   * undecided: `undefined`. CEL's && and || still decide when one side settles it (`!HasBattery || Size > 0.0`).
   * A run that costs more than RULE_COST_LIMIT stops there and throws a VALIDATION_FAILED ApiError (ruleTooCostly).
   */
  evaluate(bindings: Record<string, CelInput>): RuleValue;
}

/** How an expression is compiled: the largest values of its variables, and whether it was checked at an import. */
export interface CompileOptions {
  /** The largest value of each variable, from the fields' declared limits (others: as large as their type allows). */
  shapes?: ReadonlyMap<string, Shape>;
  /**
   * True for a rule an import already accepted (a stored program version): the limits an import checks (cost,
   * nesting, number literals) are not checked again, so that a version stored before a limit existed still runs; the
   * runtime limit holds it.
   */
  stored?: boolean;
}

const PARSE_ERROR = /^<input>:(\d+):(\d+): ([\s\S]*)$/;

/** Parses, checks and plans an expression that must produce `want`; its problems instead when it has any. */
export function compileRule(source: string, vars: ReadonlyMap<string, RuleType>, want: RuleType, opts: CompileOptions = {}): { rule: CompiledRule } | { problems: RuleProblem[] } {
  if (!opts.stored && source.length > MAX_EXPRESSION_CHARS) {
    return { problems: [{ line: 1, column: 1, message: `is ${source.length} characters long; an expression may have at most ${MAX_EXPRESSION_CHARS}` }] };
  }
  const nesting = opts.stored ? null : bracketProblem(source);
  if (nesting) return { problems: [{ ...at(source, nesting.offset), message: nesting.message }] };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (error) {
    const text = (error as Error).message;
    const m = PARSE_ERROR.exec(text);
    // The parser gives each problem a line of its own; the first says enough to find the others.
    const first = (m ? m[3]! : text).split('\n')[0]!;
    return { problems: [{ line: m ? Number(m[1]) : 1, column: m ? Number(m[2]) : 1, message: `syntax error: ${first}` }] };
  }
  const positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
  const offsetOf = (id: bigint) => positions[String(id)] ?? 0;
  const deep = opts.stored ? null : tooDeep(parsed);
  if (deep) return { problems: [{ ...at(source, offsetOf(deep.id)), message: `the expression nests more than ${MAX_EXPRESSION_DEPTH} levels deep: split it up` }] };
  const checked = checkRule(parsed, vars);
  const problems = checked.problems.map((p) => ({ ...at(source, p.offset), message: p.message }));
  if (!opts.stored) problems.push(...literalProblems(parsed).map((p) => ({ ...at(source, offsetOf(p.expr.id)), message: p.message })));
  if (problems.length === 0 && !fits(checked.type, want)) {
    problems.push({ line: 1, column: 1, message: `must give a ${typeName(want)}, but gives a ${typeName(checked.type)}` });
  }
  if (problems.length > 0) return { problems };
  const estimatedCost = Math.ceil(estimateCost(parsed, vars, opts.shapes ?? new Map()));
  if (!opts.stored && estimatedCost > RULE_COST_LIMIT) {
    return { problems: [{ line: 1, column: 1, message: `costs up to ${estimatedCost < 1e15 ? estimatedCost : 'more than 10^15'} units with the fields at their declared limits, more than the ${RULE_COST_LIMIT} a rule may cost: lower the fields' maxRows or maxLength, or loop over fewer values` }] };
  }
  return { rule: { source, type: checked.type, names: checked.names, projectMembers: checked.projectMembers, estimatedCost, evaluate: evaluator(source, parsed) } };
}

/** The refusal of a request on whose values a rule costs more than RULE_COST_LIMIT; `what` names the rule. */
export function ruleTooCostly(what: string, options: ConstructorParameters<typeof ApiError>[2] = {}): ApiError {
  return new ApiError('VALIDATION_FAILED', `${what} costs more than the ${RULE_COST_LIMIT} units a rule may cost on these values, so nothing was changed: fewer rows or shorter values may pass, or the program's author can simplify the rule.`, options);
}

/** The evaluation of a checked expression, metered: each rule has its own meter, as evaluations never overlap. */
function evaluator(source: string, parsed: ReturnType<typeof parse>): CompiledRule['evaluate'] {
  const upfront = instrument(parsed);
  const meter = { spent: 0, limit: RULE_COST_LIMIT };
  const run = plan(meteredEnv(RULE_FUNCTION_CODE, meter), parsed);
  return (bindings) => {
    // CEL returns its errors as values (an empty field read is one), each an Error that captures a stack trace:
    // half the time of running the demo's rules went there, and the trace is never read. Running is synchronous,
    // so nothing else sees the limit changed.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    meter.spent = upfront;
    try {
      const value = run(bindings);
      // The meter's throw ends the run as an error value; the spent units tell it from any other error.
      if (meter.spent > meter.limit) throw ruleTooCostly(`The rule "${source.length > 80 ? `${source.slice(0, 80)}…` : source}"`);
      return isCelError(value) ? undefined : value;
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
}

/** The 1-based line and column of a character offset in a text (past any blank: the parser places an operator there). */
function at(text: string, offset: number): { line: number; column: number } {
  let i = offset;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const before = text.slice(0, i).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
