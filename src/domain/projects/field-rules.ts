import { ApiError, type FieldProblem } from '../api-error.ts';
import type { DataField, FieldValue, Form, ProgramModel } from '../../model/model.ts';
import type { DataFieldInput } from '../views.ts';
import type { FormDecision } from '../rules/form-rules.ts';
import { resolveTableInput, tableProblems } from './table-values.ts';
import { checkValue, fieldProblem } from './value-check.ts';

/** The most values a multi-value field holds. */
export const MAX_VALUES = 1000;

/** True when a stored value counts as filled in (for required fields). */
export function isFilled(v: FieldValue | undefined): boolean {
  if (!v) return false;
  if (v.values !== null) return v.values.some((x) => x.trim() !== '');
  return v.value !== null && v.value.trim() !== '';
}

/** Finds a field of a form by generated id or custom id. */
export function findFormField(model: ProgramModel, form: Form, ref: string): DataField | undefined {
  const onForm = new Set(form.fields.map((f) => f.fieldId));
  return model.fields.find((f) => onForm.has(f.id) && (f.id === ref || f.customId === ref));
}

/**
 * Resolves and checks SetProjectData input against a form: every field must be on the form, values must
 * fit their type, choices and limits, and multi-value fields take Values. Throws VALIDATION_FAILED listing
 * every problem; returns the values keyed by generated field id.
 */
export function resolveInputs(model: ProgramModel, form: Form, inputs: DataFieldInput[]): { field: DataField; value: string | null; values: string[] | null }[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const out: { field: DataField; value: string | null; values: string[] | null }[] = [];
  for (const input of inputs) {
    const field = findFormField(model, form, input.dataFieldId);
    if (!field) {
      problems.push({ dataFieldId: input.dataFieldId, code: 'UNKNOWN_FIELD', message: `Form ${form.customId ?? form.id} has no data field "${input.dataFieldId}".` });
      continue;
    }
    if (seen.has(field.id)) {
      problems.push(fieldProblem(field, 'DUPLICATE_FIELD', `${field.name} is given more than once.`));
      continue;
    }
    seen.add(field.id);
    if (field.formula) {
      problems.push(fieldProblem(field, 'CALCULATED', `${field.name} is calculated by the service from other fields and cannot be written.`));
      continue;
    }
    const list = model.lists.find((l) => l.id === field.listId);
    if (field.type === 'table') {
      if (input.value !== null || input.values !== null) problems.push(fieldProblem(field, 'ROWS_EXPECTED', `${field.name} is a table field; send Rows.`));
      const table = resolveTableInput(model, field, input.rows ?? null);
      problems.push(...table.problems);
      out.push({ field, value: table.value, values: null });
      continue;
    }
    if (input.rows !== undefined && input.rows !== null) problems.push(fieldProblem(field, 'NOT_A_TABLE', `${field.name} is not a table field; send Value or Values.`));
    if (field.multiValue) {
      if (input.value !== null) problems.push(fieldProblem(field, 'MULTI_VALUE_EXPECTED', `${field.name} is a multi-value field; send Values.`));
      const values = input.values;
      if (values && values.length > MAX_VALUES) problems.push(fieldProblem(field, 'TOO_MANY_VALUES', `${field.name} takes at most ${MAX_VALUES} values.`));
      for (const v of values ?? []) {
        const p = v === '' ? null : checkValue(field, list, v);
        if (p) problems.push(p);
      }
      out.push({ field, value: null, values });
    } else {
      if (input.values !== null) problems.push(fieldProblem(field, 'NOT_MULTI_VALUE', `${field.name} takes a single Value.`));
      const p = input.value === null || input.value === '' ? null : checkValue(field, list, input.value);
      if (p) problems.push(p);
      out.push({ field, value: input.value, values: null });
    }
  }
  if (problems.length > 0) throw new ApiError('VALIDATION_FAILED', 'Some data fields have invalid values.', { fields: problems });
  return out;
}

/**
 * The problems that keep a form's values from being complete: required fields left empty, values that no longer fit,
 * validations not met. With the rules' decision, hidden fields are left out and requiredIf counts; calculated fields
 * are the service's to fill, so they are never required.
 */
export function completenessProblems(model: ProgramModel, form: Form, values: Map<string, FieldValue>, decision?: FormDecision): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const placed of form.fields) {
    const field = model.fields.find((f) => f.id === placed.fieldId);
    if (!field || field.formula || decision?.hidden.has(field.id)) continue;
    const v = values.get(field.id);
    const required = decision ? decision.required.has(field.id) : placed.required;
    if (required && !isFilled(v)) {
      problems.push(fieldProblem(field, 'REQUIRED', `${field.name} is required.`));
      continue;
    }
    if (field.type === 'table') {
      problems.push(...tableProblems(model, field, v?.value ?? null));
      continue;
    }
    const list = model.lists.find((l) => l.id === field.listId);
    // The program may have changed since the draft was saved, so stored values are checked again.
    const texts = v ? (v.values ?? (v.value === null ? [] : [v.value])) : [];
    for (const t of texts) {
      const p = t === '' ? null : checkValue(field, list, t);
      if (p) problems.push(p);
    }
  }
  for (const failed of decision?.failed ?? []) problems.push(ruleProblem(model, failed.fieldId, failed.message));
  return problems;
}

/** A validation not met, as a problem of its field carrying the program's message. */
export function ruleProblem(model: ProgramModel, fieldId: string, message: string): FieldProblem {
  const field = model.fields.find((f) => f.id === fieldId)!;
  return fieldProblem(field, 'RULE', message);
}

/**
 * The problems of a draft save under the form's rules: a change of a read-only field, and validations that are not
 * met of filled-in fields (a draft may be incomplete) that the request touched: the field itself, or one its rule reads
 * (calculated values count as touched). A rule a draft broke before (one added by a later program version, say) is
 * left for the submission, so it never blocks saving something else.
 */
export function draftRuleProblems(model: ProgramModel, decision: FormDecision, changed: Set<string>, values: Map<string, FieldValue>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const fieldId of changed) {
    if (!decision.readOnly.has(fieldId)) continue;
    const field = model.fields.find((f) => f.id === fieldId)!;
    problems.push(fieldProblem(field, 'READ_ONLY', `${field.name} cannot be changed now (its readOnlyIf rule holds).`));
  }
  const touched = (id: string) => changed.has(id) || decision.calculated.has(id) || Boolean(model.fields.find((f) => f.id === id)?.formula);
  for (const failed of decision.failed) {
    if (!isFilled(values.get(failed.fieldId)) || ![failed.fieldId, ...failed.reads].some(touched)) continue;
    problems.push(ruleProblem(model, failed.fieldId, failed.message));
  }
  return problems;
}
