import { celEnv, type CelInput, type CelValue, isCelError, parse, plan } from '@bufbuild/cel';
import { checkRule } from './rule-check.ts';
import { RULE_FUNCTION_CODE } from './rule-functions.ts';
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
  /**
   * Runs the rule over the bindings. A rule that reads an empty field, or fails as it runs (a division by zero), is
   * undecided: `undefined`. CEL's && and || still decide when one side settles it (`!HasBattery || Size > 0.0`).
   */
  evaluate(bindings: Record<string, CelInput>): RuleValue;
}

// One environment for every program: the functions are the same, and variables are typed by the checker, not here.
const ENV = celEnv({ funcs: RULE_FUNCTION_CODE });

const PARSE_ERROR = /^<input>:(\d+):(\d+): ([\s\S]*)$/;

/** Parses, checks and plans an expression that must produce `want`; its problems instead when it has any. */
export function compileRule(source: string, vars: ReadonlyMap<string, RuleType>, want: RuleType): { rule: CompiledRule } | { problems: RuleProblem[] } {
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
  const checked = checkRule(parsed, vars);
  const problems = checked.problems.map((p) => ({ ...at(source, p.offset), message: p.message }));
  if (problems.length === 0 && !fits(checked.type, want)) {
    problems.push({ line: 1, column: 1, message: `must give a ${typeName(want)}, but gives a ${typeName(checked.type)}` });
  }
  if (problems.length > 0) return { problems };
  const run = plan(ENV, parsed);
  return {
    rule: {
      source, type: checked.type, names: checked.names, projectMembers: checked.projectMembers,
      evaluate: (bindings) => {
        // CEL returns its errors as values (an empty field read is one), each an Error that captures a stack trace:
        // half the time of running the demo's rules went there, and the trace is never read. Running is synchronous,
        // so nothing else sees the limit changed.
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
          const value = run(bindings);
          return isCelError(value) ? undefined : value;
        } finally {
          Error.stackTraceLimit = limit;
        }
      },
    },
  };
}

/** The 1-based line and column of a character offset in a text (past any blank: the parser places an operator there). */
function at(text: string, offset: number): { line: number; column: number } {
  let i = offset;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const before = text.slice(0, i).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
