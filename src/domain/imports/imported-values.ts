import { ApiError } from '../api-error.ts';
import type { FieldValue, Form, Project } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import { completenessProblems } from '../projects/field-rules.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { withTableCells } from '../projects/table-values.ts';
import { hasRules } from '../rules/form-rules.ts';
import { enforceFormRules } from '../rules/enforce-form-rules.ts';
import { sameValue } from '../rules/rule-state.ts';

/** One form's values of an import row, already checked against their fields' types, lists and limits. */
export interface FormValues { form: Form; values: FieldValue[] }

/**
 * Writes an import row's values of one form as the project's submitted data, as SetProjectData does for an admin
 * (overrideForms), in the change's transaction: only the values that differ from what is stored, through the form's
 * rules (validations, read-only and hidden fields, calculated values), and only when the form is then complete.
 * Returns the ids of the fields written (none when every value was already so).
 */
export async function writeImportedValues(tx: StoreWriter, ctx: ProgramContext, project: Project, given: FormValues, now: number, by: string): Promise<string[]> {
  const { form } = given;
  const stored = new Map((await tx.projects.getValues(project.id, form.fields.map((f) => f.fieldId))).map((v) => [v.fieldId, v]));
  const values = given.values.filter((v) => !sameValue(stored.get(v.fieldId), v)).map((v) => ({ ...v, updatedAt: now, updatedBy: by }));
  if (values.length === 0) return [];
  if (hasRules(ctx.model)) {
    const ruled = await enforceFormRules(tx, ctx, project, form, 'submitted', values, now, by);
    values.push(...ruled.calculated);
  } else {
    for (const v of values) stored.set(v.fieldId, v);
    const problems = completenessProblems(ctx.model, form, stored);
    if (problems.length > 0) throw new ApiError('FORM_INCOMPLETE', `Submitted data must fill out form ${form.name} completely.`, { fields: problems });
  }
  await tx.projects.upsertValues(project.id, form.id, withTableCells(ctx.model, values));
  return values.map((v) => v.fieldId);
}
