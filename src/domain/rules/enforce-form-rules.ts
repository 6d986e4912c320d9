import { ApiError, type FieldProblem } from '../api-error.ts';
import type { FieldValue, Form, Project } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { completenessProblems, draftRuleProblems } from '../projects/field-rules.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { FormDecision } from './form-rules.ts';
import { calculatedWrites, type EarlyRuledState, type RuledState, rulesInLock, sameValue } from './rule-state.ts';

/**
 * Checks a SetProjectData write against the form's rules, on the locked project, before anything is written; returns
 * the calculated values to write with it. A draft save refuses changes of read-only fields and validations of
 * filled-in fields that are not met (VALIDATION_FAILED); a write of submitted data also refuses values for hidden
 * fields and, like a submission, an incomplete form (FORM_INCOMPLETE). The decision is over the state the write
 * leaves, so the answer can show it without running the rules again. With `early` (rulesBeforeLock), the rules are
 * not run again when the project has not changed since.
 */
export async function enforceFormRules(
  reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs'>, ctx: ProgramContext, project: Project, form: Form,
  view: 'draft' | 'submitted', incoming: FieldValue[], now: number, by: string, early: EarlyRuledState | null = null,
): Promise<{ calculated: FieldValue[]; decision: FormDecision; state: RuledState }> {
  const state = await rulesInLock(early, reader, ctx.model, ctx.role.name, project, form, view, incoming);
  const changed = new Set(incoming.filter((v) => !sameValue(state.before.get(v.fieldId), v)).map((v) => v.fieldId));
  const problems: FieldProblem[] = view === 'draft'
    ? draftRuleProblems(ctx.model, state.decision, changed, state.after)
    : submittedWriteProblems(ctx, state.decision.readOnly, state.decision.hidden, changed, incoming);
  if (problems.length > 0) throw new ApiError('VALIDATION_FAILED', 'Some data fields break the rules of the form.', { fields: problems });
  if (view === 'submitted') {
    const incomplete = completenessProblems(ctx.model, form, state.after, state.decision);
    if (incomplete.length > 0) throw new ApiError('FORM_INCOMPLETE', `Submitted data must fill out form ${form.name} completely.`, { fields: incomplete });
  }
  return { calculated: calculatedWrites(state, now, by), decision: state.decision, state };
}

function submittedWriteProblems(ctx: ProgramContext, readOnly: Set<string>, hidden: Set<string>, changed: Set<string>, incoming: FieldValue[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const v of incoming) {
    const field = ctx.model.fields.find((f) => f.id === v.fieldId)!;
    const at = { dataFieldId: field.id, customId: field.customId, name: field.name };
    if (readOnly.has(v.fieldId) && changed.has(v.fieldId)) problems.push({ ...at, code: 'READ_ONLY', message: `${field.name} cannot be changed now (its readOnlyIf rule holds).` });
    const filled = v.value !== null ? v.value !== '' : (v.values ?? []).length > 0;
    if (hidden.has(v.fieldId) && filled) problems.push({ ...at, code: 'HIDDEN', message: `${field.name} is hidden by its visibleIf rule, so submitted data has no value for it.` });
  }
  return problems;
}
