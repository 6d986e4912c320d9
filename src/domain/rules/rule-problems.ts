import type { FieldRules } from '../../model/model.ts';
import { compileRule, type CompiledRule, type RuleProblem } from './compile-rule.ts';
import { FORM_COST_LIMIT } from './rule-limits.ts';
import { atLine } from '../programs/program-lines.ts';
import { ruleShapes, ruleVariables } from './rule-scope.ts';
import { fieldType, T, type RuleType } from './rule-types.ts';
import type { ProgramChecker, ResolvedProgram } from '../programs/program-parts.ts';
import type { SourcePosition } from '../programs/program-file.ts';

type Path = (string | number)[];

/** The rules' part of checking a program file at import: every rule and formula compiled once references resolved. */
export const rulesChecker: ProgramChecker = { part: 'rules', checkResolved: (resolved) => ruleProblems(resolved) };

/**
 * Compiles every rule and formula of a program file against its fields, as an import must before it writes
 * anything; each problem names the part, the rule and where the file wrote it (line and column).
 */
export function ruleProblems(resolved: ResolvedProgram): string[] {
  const { file } = resolved;
  const relations = file.relations ?? [];
  // Field rules also read the related projects' values; a formula does not, as it would store them in this project.
  const related = resolved.relatedFields ?? 'unknown';
  const vars = ruleVariables(file.fields, undefined, file.customLists, relations, related);
  const formulaVars = ruleVariables(file.fields, undefined, file.customLists, relations);
  const shapes = ruleShapes(file.fields, file.customLists, relations, related);
  const problems: string[] = [];
  const compile = (source: string, want: RuleType, path: Path, where: string, formula = false): CompiledRule | null => {
    const result = compileRule(source, formula ? formulaVars : vars, want, { shapes });
    if ('rule' in result) return result.rule;
    for (const p of result.problems) problems.push(`${where} ${located(file.locate?.(path) ?? null, p)}: ${p.message}`);
    return null;
  };
  const formulas = new Map<string, CompiledRule>();
  file.fields.forEach((f, i) => {
    if (f.formula === null) return;
    const where = `field "${f.customId ?? f.name}": formula`;
    if (f.multiValue) problems.push(`field "${f.customId ?? f.name}"${atLine(file, ['fields', i, 'multiValue'])}: a calculated field cannot be multiValue`);
    const rule = compile(f.formula, fieldType(f), ['fields', i, 'formula'], where, true);
    if (rule && f.customId !== null) formulas.set(f.customId, rule);
  });
  problems.push(...cycles(formulas, (name) => {
    const i = file.fields.findIndex((f) => f.customId === name);
    return `field "${name}"${atLine(file, ['fields', i, 'formula'])}: formula: `;
  }));
  // Every formula runs on each save of any form, with the form's own rules: together they have a budget of their own.
  const formulaCost = [...formulas.values()].reduce((n, r) => n + r.estimatedCost, 0);
  resolved.forms.forEach((form, i) => {
    const spec = file.forms[i]!;
    let cost = formulaCost;
    const counted = (source: string, want: RuleType, path: Path, where: string): CompiledRule | null => {
      const rule = compile(source, want, path, where);
      cost += rule?.estimatedCost ?? 0;
      return rule;
    };
    form.fields.forEach((placed, j) => {
      const field = file.fields[placed.field]!;
      const placedField = `form "${spec.customId ?? spec.name}": field "${field.customId ?? field.name}"`;
      const where = `${placedField}:`;
      const path = ['forms', i, 'fields', j];
      const fixed = placed.required ? 'required' : placed.rules?.requiredIf ? 'requiredIf' : placed.rules?.readOnlyIf ? 'readOnlyIf' : null;
      if (field.formula !== null && fixed !== null) {
        problems.push(`${placedField}${atLine(file, [...path, fixed])}: a calculated field is never filled in, so it cannot be required or read-only`);
      }
      if (placed.rules) checkPlaced(placed.rules, path, where, counted);
    });
    if (cost > FORM_COST_LIMIT) {
      problems.push(`form "${spec.customId ?? spec.name}"${atLine(file, ['forms', i])}: its rules and the program's formulas cost up to ${cost} units together, more than the ${FORM_COST_LIMIT} one save may cost`);
    }
  });
  return problems;
}

function checkPlaced(rules: FieldRules, path: Path, where: string, compile: (s: string, want: RuleType, path: Path, where: string) => unknown): void {
  for (const key of ['visibleIf', 'requiredIf', 'readOnlyIf'] as const) {
    const source = rules[key];
    if (source !== null) compile(source, T.bool, [...path, key], `${where} ${key}`);
  }
  rules.validations.forEach((v, k) => {
    compile(v.rule, T.bool, [...path, 'validations', k, 'rule'], `${where} validations[${k}]`);
  });
}

/** Formulas that need each other's values can never be computed: each such cycle is one problem, begun by `at` its first field. */
function cycles(formulas: Map<string, CompiledRule>, at: (name: string) => string): string[] {
  const problems: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const loop = [...trail.slice(trail.indexOf(name)), name];
      problems.push(`${at(loop[0]!)}calculated fields ${loop.map((n) => `"${n}"`).join(' -> ')} need each other's values: a formula cannot depend on itself`);
      return;
    }
    state.set(name, 'visiting');
    for (const used of formulas.get(name)!.names) if (formulas.has(used)) visit(used, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of formulas.keys()) visit(name, []);
  return problems;
}

/** "(line 12, column 20)": where in the file a problem of an expression is, as near as the file's text allows. */
export function located(start: SourcePosition | null, p: RuleProblem): string {
  if (start === null) return `(expression line ${p.line}, column ${p.column})`;
  if (p.line === 1 && (start.style === 'plain' || start.style === 'quoted')) {
    return `(line ${start.line}, column ${start.column + p.column - 1 + (start.style === 'quoted' ? 1 : 0)})`;
  }
  // A block scalar's text starts on the line after its indicator; other styles fold lines, so only the start is sure.
  if (start.style === 'block' && start.indent !== undefined) return `(line ${start.line + p.line}, column ${start.indent + p.column})`;
  if (start.style === 'block') return `(line ${start.line + p.line}, column ${p.column} of the expression's line)`;
  return `(line ${start.line}, column ${start.column}; expression line ${p.line}, column ${p.column})`;
}
