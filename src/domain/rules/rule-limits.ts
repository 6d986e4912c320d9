import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

/**
 * The most a rule may cost, in cost units, both as estimated at import from the declared limits of the fields it
 * reads and as counted while it runs (docs/programs.md, "Limits"). One unit is about one step of the evaluator
 * (a fraction of a microsecond); a rule at the limit runs in tens of milliseconds.
 */
export const RULE_COST_LIMIT = 100_000;

/** The longest expression, in characters (the file's schema says the same of field rules; it also holds automations'). */
export const MAX_EXPRESSION_CHARS = 4_000;

/** The most a form's rules and the program's formulas may cost together, as estimated: what one save runs (about 100 ms). */
export const FORM_COST_LIMIT = 1_000_000;

/** The most brackets, ( [ and {, an expression may open inside each other (checked before it is parsed). */
export const MAX_BRACKET_DEPTH = 32;

/** The deepest an expression's syntax tree may be (a + b + c … nests without brackets). */
export const MAX_EXPRESSION_DEPTH = 100;

/** Where an expression nests too deeply, and by how much; null when it does not. */
export interface NestingProblem { offset: number; message: string }

/**
 * Finds an opening bracket nested deeper than MAX_BRACKET_DEPTH, skipping string literals, without parsing: the
 * parser recurses per bracket, and a few hundred would overflow its stack.
 */
export function bracketProblem(source: string): NestingProblem | null {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'") {
      i = stringEnd(source, i);
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth++;
      if (depth > MAX_BRACKET_DEPTH) return { offset: i, message: `brackets are nested more than ${MAX_BRACKET_DEPTH} deep` };
    } else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return null;
}

/** The index of the last character of the string literal opened at `start` (triple quotes and escapes included). */
function stringEnd(source: string, start: number): number {
  const quote = source[start]!;
  const triple = source.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  for (let i = start + close.length; i < source.length; i++) {
    if (source[i] === '\\') {
      i++;
      continue;
    }
    if (source.startsWith(close, i)) return i + close.length - 1;
  }
  return source.length;
}

/** The children of a node of the syntax tree, in the order they are written. */
export function childrenOf(e: Expr): Expr[] {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': return k.value.operand ? [k.value.operand] : [];
    case 'callExpr': return [...(k.value.target ? [k.value.target] : []), ...k.value.args];
    case 'listExpr': return k.value.elements;
    case 'structExpr': return k.value.entries.flatMap((en) => [...(en.keyKind.case === 'mapKey' ? [en.keyKind.value] : []), ...(en.value ? [en.value] : [])]);
    case 'comprehensionExpr': {
      const c = k.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter((x): x is Expr => x !== undefined);
    }
    default: return [];
  }
}

/**
 * The first node deeper than MAX_EXPRESSION_DEPTH, walked without recursion (the checker and the evaluator recurse
 * per level); null when the tree is shallow enough.
 */
export function tooDeep(parsed: ParsedExpr): Expr | null {
  if (!parsed.expr) return null;
  const stack: [Expr, number][] = [[parsed.expr, 1]];
  while (stack.length > 0) {
    const [e, depth] = stack.pop()!;
    if (depth > MAX_EXPRESSION_DEPTH) return e;
    for (const child of childrenOf(e)) stack.push([child, depth + 1]);
  }
  return null;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Number literals CEL cannot hold (ints are 64 bits; the parser keeps larger ones, and they would misbehave). */
export function literalProblems(parsed: ParsedExpr): { expr: Expr; message: string }[] {
  const problems: { expr: Expr; message: string }[] = [];
  const stack = parsed.expr ? [parsed.expr] : [];
  while (stack.length > 0) {
    const e = stack.pop()!;
    stack.push(...childrenOf(e));
    if (e.exprKind.case !== 'constExpr') continue;
    const k = e.exprKind.value.constantKind;
    if (k.case === 'int64Value' && (k.value < INT64_MIN || k.value > INT64_MAX)) {
      problems.push({ expr: e, message: `the int ${k.value} is outside the 64-bit range CEL ints have (${INT64_MIN} to ${INT64_MAX})` });
    } else if (k.case === 'uint64Value' && (k.value < 0n || k.value > UINT64_MAX)) {
      problems.push({ expr: e, message: `the uint ${k.value} is outside the 64-bit range (0 to ${UINT64_MAX})` });
    } else if (k.case === 'doubleValue' && !Number.isFinite(k.value)) {
      problems.push({ expr: e, message: 'this double is too large to be held: write a smaller number' });
    }
  }
  return problems;
}
