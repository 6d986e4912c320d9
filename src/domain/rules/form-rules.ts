import type { CelInput } from '@bufbuild/cel';
import { isCelList } from '@bufbuild/cel';
import type { AttachmentRecord, DataField, FieldType, FieldValue, Form, ProgramModel, Project } from '../../model/model.ts';
import type { Envelope } from '../../model/document.ts';
import { statusById } from '../projects/project-context.ts';
import { tableRows } from '../projects/table-values.ts';
import { programRules, type ProgramRules } from './program-rules.ts';
import { dateText, dateValue } from './rule-functions.ts';
import { ApiError } from '../api-error.ts';
import { type CompiledRule, ruleTooCostly, type RuleValue } from './compile-rule.ts';
import { MAX_TEXT_CHARS } from './rule-cost.ts';
import { LISTS_VARIABLE, ruleLists } from './rule-scope.ts';
import { rowOf } from '../lists/list-choices.ts';

/** What `project` and `role` are in the rules of one request. */
export interface RuleContext {
  status: string; number: string; submitted: string[]; files: string[]; approvedFiles: string[]; role: string;
  /** The customIds of the documents whose e-signature envelope for the project completed (`project.signed`). */
  signed: string[];
  /** The related projects the program's relations name (`related.<customId>`), when its rules read them; absent: none read. */
  related?: ReadonlyMap<string, { status: string; number: string; values?: ReadonlyMap<string, CelInput> }>;
}

/** A validation that is not met: the field it belongs to, the program's message and the fields (by id) the rule reads. */
export interface FailedValidation { fieldId: string; message: string; reads: string[] }

/** What the rules decide for one form over one state of the values (docs/programs.md, "Field rules"). */
export interface FormDecision {
  /** Fields of the form whose visibleIf is not met: not shown, not required, not checked, not submitted. */
  hidden: Set<string>;
  /** Fields of the form that must be filled in on submission (`required`, or requiredIf met, and shown). */
  required: Set<string>;
  /** Fields of the form whose readOnlyIf is met: a request may not change them. */
  readOnly: Set<string>;
  /** The value of each calculated field of the form (null when its formula cannot be decided). */
  calculated: Map<string, string | null>;
  /** Validations of shown fields that are not met (undecided ones pass: the field's own checks catch an empty value). */
  failed: FailedValidation[];
}

/**
 * The rules' view of a project from what is already read: the ids of its submitted forms, its active files and its
 * envelopes (only completed ones count as signed).
 */
export function ruleContextOf(
  model: ProgramModel, project: Project, role: string, submittedFormIds: string[], files: Pick<AttachmentRecord, 'definitionId' | 'approvalStatus'>[],
  envelopes: Pick<Envelope, 'templateId' | 'state'>[],
): RuleContext {
  const status = statusById(model, project.statusId);
  const formRef = new Map(model.forms.map((f) => [f.id, f.customId ?? f.name]));
  const defRef = new Map(model.forms.flatMap((f) => f.attachments.map((a) => [a.id, a.customId ?? a.name] as const)));
  const refs = (list: typeof files) => list.map((a) => defRef.get(a.definitionId)).filter((r) => r !== undefined);
  return {
    status: status.customId ?? status.name, number: project.number ?? '', role,
    submitted: [...new Set(submittedFormIds.map((id) => formRef.get(id)).filter((r) => r !== undefined))],
    files: refs(files), approvedFiles: refs(files.filter((a) => a.approvalStatus === 'Approved')),
    signed: [...new Set(envelopes.filter((e) => e.state === 'completed').map((e) => e.templateId))],
  };
}

/** True when the program has rules or formulas that a form's state must be run through. */
export function hasRules(model: ProgramModel): boolean {
  return !programRules(model).none;
}

/**
 * Runs a form's rules over a state of the values (every field's value as the request leaves it): formulas first, in
 * dependency order, so that rules see calculated values; then each field's visibleIf, requiredIf, readOnlyIf and
 * validations. Field order never matters: every rule sees the whole state. `reading`: for a page or answer that only
 * shows the decision (a rule that costs too much is then undecided instead of refusing).
 */
export function decideForm(model: ProgramModel, form: Form, values: ReadonlyMap<string, FieldValue>, ctx: RuleContext, opts: { reading?: boolean } = {}): FormDecision {
  const rules = programRules(model);
  const decision: FormDecision = { hidden: new Set(), required: new Set(), readOnly: new Set(), calculated: new Map(), failed: [] };
  const placedIds = new Set(form.fields.map((f) => f.fieldId));
  if (rules.none) {
    for (const placed of form.fields) if (placed.required) decision.required.add(placed.fieldId);
    return decision;
  }
  const bindings = bindingsOf(model, rules, values, ctx);
  // A rule that costs too much on these values refuses a change, naming the field and the rule; a read shows the
  // form with the rule undecided, so that the values can be seen and put right.
  const run = (rule: CompiledRule, field: DataField, what: string): RuleValue => {
    try {
      return rule.evaluate(bindings);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (opts.reading) return undefined;
      const label = `The ${what} of ${field.name}${what === 'formula' ? '' : ` on form ${form.name}`}`;
      const problem = { dataFieldId: field.id, customId: field.customId, name: field.name, code: 'RULE_TOO_COSTLY', message: `${label} costs too much to evaluate on these values.` };
      throw ruleTooCostly(label, { fields: [problem] });
    }
  };
  const fieldOf = (id: string) => model.fields.find((f) => f.id === id)!;
  for (const { field, rule } of rules.formulas) {
    const text = calculatedText(field, run(rule, field, 'formula'));
    const name = rules.varOf.get(field.id);
    if (name !== undefined) {
      if (text === null) delete bindings[name];
      else bindings[name] = inputOf(field, text);
    }
    if (placedIds.has(field.id)) decision.calculated.set(field.id, text);
  }
  const placedRules = rules.forms.get(form.id);
  for (const placed of form.fields) {
    const r = placedRules?.get(placed.fieldId);
    if (!r) {
      if (placed.required) decision.required.add(placed.fieldId);
      continue;
    }
    const field = fieldOf(placed.fieldId);
    if (r.visibleIf && run(r.visibleIf, field, 'visibleIf rule') !== true) {
      decision.hidden.add(placed.fieldId);
      continue;
    }
    if (placed.required || (r.requiredIf && run(r.requiredIf, field, 'requiredIf rule') === true)) decision.required.add(placed.fieldId);
    if (r.readOnlyIf && run(r.readOnlyIf, field, 'readOnlyIf rule') === true) decision.readOnly.add(placed.fieldId);
    for (const v of r.validations) {
      if (run(v.rule, field, 'validation') === false) decision.failed.push({ fieldId: placed.fieldId, message: v.validation.message, reads: readsOf(rules, v.rule.names) });
    }
  }
  return decision;
}

/** The ids of the fields behind the variable names a rule reads. */
function readsOf(rules: ProgramRules, names: ReadonlySet<string>): string[] {
  return [...rules.varOf].filter(([, name]) => names.has(name)).map(([id]) => id);
}

/** The variables of a rule over a state of the values: `project`, `role` and each field that has a value. */
export function bindingsOf(model: ProgramModel, rules: ProgramRules, values: ReadonlyMap<string, FieldValue>, ctx: RuleContext): Record<string, CelInput> {
  const bindings: Record<string, CelInput> = {
    project: new Map<string, CelInput>([
      ['status', ctx.status], ['number', ctx.number], ['submitted', ctx.submitted], ['files', ctx.files], ['approvedFiles', ctx.approvedFiles],
      ['signed', ctx.signed],
    ]),
    role: ctx.role,
  };
  const relations = model.program.relations ?? [];
  // Every relation has a member, so that "before its interconnection has Permission to Operate" is false, not undecided, without one.
  if (relations.length > 0) {
    bindings.related = new Map<string, CelInput>(relations.map((r) => {
      const facts = ctx.related?.get(r.customId);
      return [r.customId, new Map<string, CelInput>([['status', facts?.status ?? ''], ['number', facts?.number ?? ''], ['values', facts?.values ?? new Map()]])];
    }));
  }
  for (const field of model.fields) {
    const name = rules.varOf.get(field.id);
    const v = values.get(field.id);
    const input = name === undefined || !v ? undefined : fieldInput(field, v);
    if (input !== undefined) bindings[name!] = input;
  }
  const lists = listBindings(model, values);
  if (lists !== null) bindings[LISTS_VARIABLE] = lists;
  return bindings;
}

/** A stored value of a field as a rule sees it; undefined for an empty one (reading it is undecided). */
export function fieldInput(field: DataField, v: FieldValue): CelInput | undefined {
  if (field.type === 'table') {
    const types = new Map((field.table?.columns ?? []).map((c) => [c.customId, c.type]));
    // A row is a map of its filled cells: reading an empty cell is undecided, as reading an empty field is.
    return tableRows(field, v.value).map((row) => new Map(Object.entries(row).map(([col, text]) => [col, inputOfType(types.get(col) ?? 'text', text)])));
  }
  if (field.multiValue) return (v.values ?? []).filter((x) => x.trim() !== '').map((x) => inputOf(field, x));
  return v.value !== null && v.value.trim() !== '' ? inputOf(field, v.value) : undefined;
}

/**
 * `lists` in a rule: for each list of rows from CSV, the rows of the values the project's fields and table cells
 * choosing from it hold (a key it no longer has, like a key nothing chose, is not there: reading it is undecided);
 * each row a map of its filled cells, typed as the list declares.
 */
function listBindings(model: ProgramModel, values: ReadonlyMap<string, FieldValue>): Map<string, CelInput> | null {
  const long = ruleLists(model.lists);
  if (long.length === 0) return null;
  const out = new Map<string, CelInput>();
  for (const list of long) {
    const keys = new Set<string>();
    for (const field of model.fields) {
      const v = values.get(field.id);
      if (!v) continue;
      if (field.listId === list.id) for (const k of v.values ?? (v.value === null ? [] : [v.value])) keys.add(k);
      const columns = (field.table?.columns ?? []).filter((c) => c.listId === list.id).map((c) => c.customId);
      if (columns.length > 0) for (const row of tableRows(field, v.value)) for (const c of columns) if (row[c] !== undefined) keys.add(row[c]);
    }
    const types = new Map(list.rows.columns.map((c) => [c.name, c.type]));
    const rows = new Map<string, CelInput>();
    for (const key of keys) {
      const row = rowOf(list, key);
      if (row) rows.set(key, new Map(Object.entries(row.data ?? {}).map(([col, text]) => [col, inputOfType(types.get(col) ?? 'text', text)])));
    }
    out.set(list.customId, rows);
  }
  return out;
}

/** A stored value as a rule sees it; values were checked against their type when they were saved. */
function inputOf(field: DataField, text: string): CelInput {
  return inputOfType(field.type, text);
}

function inputOfType(type: FieldType, text: string): CelInput {
  switch (type) {
    case 'number': return Number(text);
    case 'integer': return BigInt(text);
    case 'boolean': return text === 'true';
    case 'date': return dateValue(text);
    default: return text;
  }
}

/**
 * A calculated field's value as it is stored: textOf, and null (stored empty, as undecided) when it does not fit the
 * field: a text longer than its maxLength or than any value may be (10,000 characters).
 */
export function calculatedText(field: DataField, value: RuleValue): string | null {
  const text = textOf(field, value);
  if (text === null) return null;
  const most = Math.min(field.maxLength ?? MAX_TEXT_CHARS, MAX_TEXT_CHARS);
  // Code points, as field-rules.ts counts a typed value's length.
  return text.length > most && (text.length > 2 * most || [...text].length > most) ? null : text;
}

/**
 * A rule's value as a field of its type stores it; null when it is undecided or cannot be the field's type: a number
 * that is not finite (a double's Infinity or NaN), an integer beyond ±2^53.
 */
export function textOf(field: DataField, value: RuleValue): string | null {
  if (value === undefined || value === null || isCelList(value)) return null;
  switch (field.type) {
    case 'integer':
      if (typeof value === 'bigint') return value.toString();
      return typeof value === 'number' && Number.isSafeInteger(Math.trunc(value)) ? Math.trunc(value).toString() : null;
    case 'number':
      if (typeof value === 'bigint') return value.toString();
      // 15 significant digits drop the binary noise of decimal arithmetic (7.2 / 6.0 is 1.2, not 1.2000000000000002).
      return typeof value === 'number' && Number.isFinite(value) ? String(Number(value.toPrecision(15))) : null;
    case 'boolean': return typeof value === 'boolean' ? String(value) : null;
    case 'date': return typeof value === 'object' && value !== null && 'message' in value ? dateText((value as unknown as { message: Parameters<typeof dateText>[0] }).message) : null;
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : null;
  }
}
