import type { DataField, FieldValidation, Form, ProgramModel } from '../../model/model.ts';
import { compileRule, type CompiledRule } from './compile-rule.ts';
import { PROJECT_DETAILS, ruleVariables } from './rule-scope.ts';
import { fieldType, T, type RuleType } from './rule-types.ts';

/** A field's compiled rules on one form. */
export interface PlacedRules {
  visibleIf: CompiledRule | null; requiredIf: CompiledRule | null; readOnlyIf: CompiledRule | null;
  validations: { rule: CompiledRule; validation: FieldValidation }[];
}

/** A program's rules and formulas, compiled once per program version. */
export interface ProgramRules {
  /** The variable name of each field that has one, by field id. */
  varOf: ReadonlyMap<string, string>;
  /** The calculated fields in an order where each formula comes after those whose values it reads. */
  formulas: { field: DataField; rule: CompiledRule }[];
  /** Per form id, per field id: the field's rules on that form (fields without rules are absent). */
  forms: ReadonlyMap<string, ReadonlyMap<string, PlacedRules>>;
  /** Per form id: true when the form's rules, or a formula, read the project's submissions or files (else not read). */
  formNeedsDetails: ReadonlyMap<string, boolean>;
  /** True when the program has no rules and no formulas at all: nothing to evaluate. */
  none: boolean;
  /** True when a rule or formula reads `related` (the related projects are then read for it). */
  readsRelated: boolean;
}

// Program models are cached per program version (program-queries.ts), so keying on the model compiles once per version.
const compiled = new WeakMap<ProgramModel, ProgramRules>();

/** The compiled rules of a program version. */
export function programRules(model: ProgramModel): ProgramRules {
  let rules = compiled.get(model);
  if (!rules) {
    rules = compileProgram(model);
    compiled.set(model, rules);
  }
  return rules;
}

function compileProgram(model: ProgramModel): ProgramRules {
  // The import type-checked reads of a related project's values against its program; here they are whatever it holds.
  const vars = ruleVariables(model.fields, undefined, model.lists, model.program.relations ?? [], 'unknown');
  const all: CompiledRule[] = [];
  const compile = (source: string, want: RuleType, what: string): CompiledRule => {
    // The import checked every rule with this same compiler, so a failure here means the stored definition is damaged.
    // Limits added since a version was imported are not applied to it: the runtime limit holds its rules.
    const result = compileRule(source, vars, want, { stored: true });
    if (!('rule' in result)) throw new Error(`program ${model.program.id}: ${what} does not compile: ${result.problems[0]!.message}`);
    all.push(result.rule);
    return result.rule;
  };
  const varOf = new Map(model.fields.filter((f) => f.customId !== null && vars.has(f.customId)).map((f) => [f.id, f.customId!]));
  const formulas = inOrder(model.fields.filter((f) => f.formula).map((f) => ({ field: f, rule: compile(f.formula!, fieldType(f), `the formula of ${f.name}`) })));
  const forms = new Map(model.forms.map((form) => [form.id, compileForm(model, form, compile)]));
  const reads = (r: CompiledRule) => PROJECT_DETAILS.some((m) => r.projectMembers.has(m));
  const formulasRead = formulas.some((f) => reads(f.rule));
  const formNeedsDetails = new Map([...forms].map(([id, placed]) => [id, formulasRead || [...placed.values()].some((p) =>
    [p.visibleIf, p.requiredIf, p.readOnlyIf, ...p.validations.map((v) => v.rule)].some((r) => r !== null && reads(r)))]));
  return {
    varOf, formulas, forms, formNeedsDetails,
    none: all.length === 0, readsRelated: all.some((r) => r.names.has('related')),
  };
}

function compileForm(model: ProgramModel, form: Form, compile: (source: string, want: RuleType, what: string) => CompiledRule): Map<string, PlacedRules> {
  const out = new Map<string, PlacedRules>();
  for (const placed of form.fields) {
    const r = placed.rules;
    if (!r) continue;
    const name = model.fields.find((f) => f.id === placed.fieldId)?.name ?? placed.fieldId;
    const one = (source: string | null, key: string) => (source === null ? null : compile(source, T.bool, `${key} of ${name} on ${form.name}`));
    out.set(placed.fieldId, {
      visibleIf: one(r.visibleIf, 'visibleIf'), requiredIf: one(r.requiredIf, 'requiredIf'), readOnlyIf: one(r.readOnlyIf, 'readOnlyIf'),
      validations: r.validations.map((v) => ({ rule: compile(v.rule, T.bool, `a validation of ${name} on ${form.name}`), validation: v })),
    });
  }
  return out;
}

/** Formulas ordered so that each runs after the formulas it reads (the import refused cycles). */
function inOrder(formulas: { field: DataField; rule: CompiledRule }[]): { field: DataField; rule: CompiledRule }[] {
  const byVar = new Map(formulas.filter((f) => f.field.customId !== null).map((f) => [f.field.customId!, f]));
  const done = new Set<typeof formulas[number]>();
  const out: typeof formulas = [];
  const visit = (f: typeof formulas[number], depth: number) => {
    if (done.has(f) || depth > formulas.length) return;
    for (const name of f.rule.names) {
      const dep = byVar.get(name);
      if (dep && dep !== f) visit(dep, depth + 1);
    }
    if (!done.has(f)) {
      done.add(f);
      out.push(f);
    }
  };
  for (const f of formulas) visit(f, 0);
  return out;
}
