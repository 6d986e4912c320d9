import { canWrite, isStaff, mayReadForm, mayUseForm, overridesForms, requireFormUse, requireReveal } from '../roles/access.ts';
import { seenDefinitions } from '../document-templates.ts';
import { ApiError } from '../api-error.ts';
import { attachmentProblems } from './attachment-rules.ts';
import type { Caller } from '../caller.ts';
import { completenessProblems, resolveInputs } from './field-rules.ts';
import { MASK } from './value-check.ts';
import type { FieldValue, Form, ProgramModel, Project } from '../../model/model.ts';
import { changeProject } from './change-project.ts';
import { currentDraft, overlayDraft } from './current-draft.ts';
import { tableRowViews, withTableCells } from './table-values.ts';
import { findForm, formByRef, loadProgram, loadReadableProject, mayBeProjectNumber, type ProgramContext, projectHeader, readableProjectOf, requireAvailable } from './project-context.ts';
import type { FieldLookupRecord } from '../../store/form-read-query.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from './change-reaction.ts';
import type { FieldLookupOutcome, FieldLookups } from './field-lookup-seam.ts';
import type { AtVersion, FormDataView, ProjectDataInput } from '../views.ts';
import type { StoreReader } from '../../store/store.ts';
import { type FormDecision, hasRules } from '../rules/form-rules.ts';
import { enforceFormRules } from '../rules/enforce-form-rules.ts';
import { calculatedWrites, ruledState, rulesBeforeLock } from '../rules/rule-state.ts';

/** A form's submitted values and draft changes already in hand (after a draft write), so the answer need not read them again. */
interface KnownData { submitted: FieldValue[]; changes: FieldValue[] }

/** What a form's view is built from: the form's submitted values, the draft's changes (null: not read), the newest files, the lookups. */
interface FormParts { submitted: FieldValue[]; changes: FieldValue[] | null; files: { definitionId: string; fileName: string }[]; lookups: FieldLookupRecord[] }

// Whether the caller may try to submit the form on this project now (whether it is complete decides the rest).
function mayTrySubmit(caller: Caller, ctx: ProgramContext, project: Project, form: Form): boolean {
  return canWrite(caller, ctx.role, project) && mayUseForm(ctx.role, form) && form.availableIn.includes(project.statusId);
}

// The draft is read only when it is shown or decides whether the caller may submit the form now: a read of submitted
// data by anyone who cannot submit it (staff reviewing an application) needs no draft.
function needsDraft(draft: boolean, mayTry: boolean): boolean {
  return draft || mayTry;
}

// Before the project is read: whether the caller might submit the form on some project (canWrite needs one of these
// privileges), so that GetProjectData gathers the draft with the project rather than in a second statement.
function maySubmitSome(ctx: ProgramContext, form: Form): boolean {
  return form.availableIn.length > 0 && mayUseForm(ctx.role, form) && (ctx.role.privileges.has('editData') || ctx.role.privileges.has('editOwnProjects'));
}

// Lookups are read only for a program with a connection that looks values up.
function hasLookups(ctx: ProgramContext): boolean {
  return (ctx.program.connections ?? []).some((c) => c.lookupFieldId !== undefined);
}

/** Which view of a form's data an operation works on. */
export interface DataTarget { programRef: string; projectId: string; formRef: string; draft: boolean }

/** Reads a form's values: the draft of that form as it stands (see currentDraft), or the submitted values of the form's fields. */
async function formValues(reader: Pick<StoreReader, 'projects'>, project: Project, form: Form, draft: boolean): Promise<Map<string, FieldValue>> {
  const rows = draft ? await currentDraft(reader, project.id, form) : await reader.projects.getValues(project.id, form.fields.map((f) => f.fieldId));
  return new Map(rows.map((v) => [v.fieldId, v]));
}

/** Reads, writes and shows the draft and submitted data of a project's forms. */
export class FormDataService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations' | 'connections'> & ReactingDeps;
  readonly #lookups: FieldLookups | null;
  /** `lookups`: the connections' field lookups at save (src/domain/connections), when the service is wired with them. */
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations' | 'connections'> & ReactingDeps, lookups: FieldLookups | null = null) {
    this.#deps = deps;
    this.#lookups = lookups;
  }

  /** GetProjectData: one form's draft or submitted data; sensitive values masked unless revealed. */
  async get(caller: Caller, target: DataTarget, reveal: boolean): Promise<AtVersion<FormDataView>> {
    const ctx = await loadProgram(this.#deps, caller, target.programRef);
    if (reveal) requireReveal(caller, ctx.role);
    // One statement reads the project with everything its form view shows (form-read-query.ts). The form is looked up
    // first only to say which draft to gather: an unknown form is still refused after the project, as before.
    const named = formByRef(ctx.model, target.formRef);
    const reads = await this.#deps.store.projects.readFormData({
      programId: ctx.program.id, ref: target.projectId, orNumber: mayBeProjectNumber(target.projectId), lookups: hasLookups(ctx),
      draftFormId: named && (target.draft || maySubmitSome(ctx, named)) ? named.id : null,
    });
    // The access decisions, on the row that came back, before anything of its data is used.
    const project = readableProjectOf(caller, ctx, target.projectId, reads.map((r) => r.project));
    const form = findForm(ctx.model, target.formRef);
    if (!mayReadForm(ctx.role, form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is for program staff.`);
    const read = reads.find((r) => r.project.id === project.id)!;
    const onForm = new Set(form.fields.map((f) => f.fieldId));
    const parts: FormParts = { submitted: read.values.filter((v) => onForm.has(v.fieldId)), changes: read.changes, files: read.files, lookups: read.lookups };
    return this.#build(this.#deps.store, caller, ctx, project, form, target.draft, reveal, parts);
  }

  /**
   * SetProjectData: writes draft values (write access), or submitted values (admins, complete forms only). A
   * ProjectId or FormId in the body must name the project and form of the path. With `unchangedWritesNothing`, a
   * draft write of no field (a web page saved as it was shown) is checked like any other and then writes nothing.
   */
  async set(caller: Caller, target: DataTarget, input: ProjectDataInput, opts: { unchangedWritesNothing?: boolean } = {}): Promise<AtVersion<FormDataView>> {
    const ctx = await loadProgram(this.#deps, caller, target.programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, target.projectId);
    if (!canWrite(caller, ctx.role, project)) throw new ApiError('FORBIDDEN', `You may read but not change project ${project.id} (privilege editData, or editOwnProjects on your own projects).`);
    if (!target.draft && !overridesForms(ctx.role)) throw new ApiError('FORBIDDEN', 'Writing submitted data needs the privilege overrideForms; write the draft and submit it.');
    const form = findForm(ctx.model, target.formRef);
    if (input.projectId !== null && input.projectId !== project.id) {
      throw new ApiError('INVALID_REQUEST', `The body names project "${input.projectId}" but the path names project "${target.projectId}".`);
    }
    if (input.formId !== null && input.formId !== form.id && input.formId !== form.customId) {
      throw new ApiError('INVALID_REQUEST', `The body names form "${input.formId}" but the path names form "${target.formRef}" (${form.id}).`);
    }
    const inputs = input.fields;
    requireFormUse(ctx.role, form);
    if (target.draft && !overridesForms(ctx.role)) requireAvailable(ctx.model, form, project);
    const resolved = resolveInputs(ctx.model, form, inputs);
    // A web page saved with nothing changed (see draftInputs): allowed exactly when a write would be, and writes nothing,
    // unless a calculated value is not what its formula gives now (a copy, a formula added since): then it writes that.
    if (target.draft && inputs.length === 0 && opts.unchangedWritesNothing === true && !(await this.#staleCalculated(ctx, project, form))) {
      return this.#view(this.#deps.store, caller, ctx, project, form, true, false);
    }
    const view = target.draft ? 'draft' : 'submitted';
    const valuesAt = (now: number): FieldValue[] => resolved.map((r) => ({ fieldId: r.field.id, value: r.value, values: r.values, updatedAt: now, updatedBy: caller.user.id }));
    // Values a connection looks up are asked about before the lock is taken (the agency's system may be slow or down);
    // a verified one prefills the form's fields this request leaves alone. The value itself is written whatever comes.
    const lookups: FieldLookupOutcome[] = this.#lookups ? await this.#lookups.lookUp(ctx, caller, project, valuesAt(0)) : [];
    const asked = new Set(resolved.map((r) => r.field.id));
    const onThisForm = new Set(form.fields.map((f) => f.fieldId));
    const prefill = lookups.flatMap((l) => l.prefill).filter((v) => !asked.has(v.fieldId) && onThisForm.has(v.fieldId));
    const written = (now: number): FieldValue[] => [...valuesAt(now), ...prefill.map((v) => ({ ...v, updatedAt: now, updatedBy: caller.user.id }))];
    // The rules run before the lock is taken; inside, they run again only if the project changed in between.
    const early = hasRules(ctx.model) ? await rulesBeforeLock(this.#deps.store, ctx.model, ctx.role.name, project, form, view, written(0)) : null;
    return changeProject(this.#deps, caller, ctx, project.id, {
      action: target.draft ? 'project.draft.set' : 'project.data.set', access: 'write',
      act: async ({ tx, project: current, now }) => {
        // The caller's earlier read may be stale (owner, status, …): the rules are checked again on the locked project.
        if (target.draft && !overridesForms(ctx.role)) requireAvailable(ctx.model, form, current);
        const values = written(now);
        for (const l of lookups) await tx.connections.markLookup(current.id, l.fieldId, l.state, l.message, now);
        let decision: FormDecision | undefined;
        let known: KnownData | undefined;
        if (hasRules(ctx.model)) {
          const ruled = await enforceFormRules(tx, ctx, current, form, view, values, now, caller.user.id, early);
          values.push(...ruled.calculated);
          decision = ruled.decision;
          // What the rules read, with this write applied, is what the answer would read again: a draft write leaves
          // the submitted values as they are and replaces the draft changes of the fields it writes.
          const written = new Set(values.map((v) => v.fieldId));
          const onForm = new Set(form.fields.map((f) => f.fieldId));
          known = {
            submitted: ruled.state.submitted.filter((v) => onForm.has(v.fieldId)),
            changes: [...ruled.state.changes.filter((v) => !written.has(v.fieldId)), ...values],
          };
        } else if (!target.draft) await this.#requireComplete(tx, ctx.model, current, form, values);
        if (target.draft) await tx.projects.upsertDraft(current.id, form.id, values);
        else await tx.projects.upsertValues(current.id, form.id, withTableCells(ctx.model, values));
        return {
          // Field ids only: values may be sensitive and the audit log is read by operators.
          detail: { formId: form.id, fields: values.map((v) => v.fieldId) },
          // A submitted-data write leaves the draft's own rules to be decided in the view (the draft differs from what was written).
          result: (updated) => this.#view(tx, caller, ctx, updated, form, target.draft, false, target.draft ? decision : undefined, target.draft ? known : undefined),
        };
      },
    });
  }

  // True when the form's draft holds a calculated value other than what its formula gives over the draft as it stands.
  async #staleCalculated(ctx: ProgramContext, project: Project, form: Form): Promise<boolean> {
    if (!hasRules(ctx.model)) return false;
    const state = await ruledState(this.#deps.store, ctx.model, ctx.role.name, project, form, 'draft');
    return calculatedWrites(state, 0, '').length > 0;
  }

  async #requireComplete(reader: Pick<StoreReader, 'projects'>, model: ProgramModel, project: Project, form: Form, incoming: FieldValue[]): Promise<void> {
    const merged = await formValues(reader, project, form, false);
    for (const v of incoming) merged.set(v.fieldId, v);
    const problems = completenessProblems(model, form, merged);
    if (problems.length > 0) throw new ApiError('FORM_INCOMPLETE', `Submitted data must fill out form ${form.name} completely.`, { fields: problems });
  }


  async #view(
    reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs' | 'connections'>, caller: Caller, ctx: ProgramContext, project: Project, form: Form, draft: boolean, reveal: boolean,
    decided?: FormDecision, known?: KnownData,
  ): Promise<AtVersion<FormDataView>> {
    // Independent reads: on PostgreSQL they go out at once (over the pool, or queued on a transaction's connection).
    // The submitted values are read once: the draft as it stands overlays the form's changes on them.
    const [submitted, changes, active, lookups] = await Promise.all([
      known ? known.submitted : reader.projects.getValues(project.id, form.fields.map((f) => f.fieldId)),
      known ? known.changes : needsDraft(draft, mayTrySubmit(caller, ctx, project, form)) ? reader.projects.getDraft(project.id, form.id) : null,
      reader.attachments.listActiveAttachments(project.id),
      // What the agency's system said of looked-up values at their last save, read only for a program with lookups.
      hasLookups(ctx) ? reader.connections.listLookups(project.id) : [],
    ]);
    const files = active.map((a) => ({ definitionId: a.definitionId, fileName: a.fileName }));
    return this.#build(reader, caller, ctx, project, form, draft, reveal, { submitted, changes, files, lookups }, decided);
  }

  // The view of a form's data from what was read of it (GetProjectData's one statement, or #view's reads).
  async #build(
    reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs' | 'connections'>, caller: Caller, ctx: ProgramContext, project: Project, form: Form, draft: boolean, reveal: boolean,
    parts: FormParts, decided?: FormDecision,
  ): Promise<AtVersion<FormDataView>> {
    const mayTry = mayTrySubmit(caller, ctx, project, form);
    const { submitted, lookups } = parts;
    // A read made without the draft where it turns out to be needed (maySubmitSome guesses before the project is known).
    const changes = parts.changes ?? (needsDraft(draft, mayTry) ? await reader.projects.getDraft(project.id, form.id) : null);
    const lookupOf = new Map(lookups.map((l) => [l.fieldId, l]));
    const draftValues = changes === null ? null : new Map(overlayDraft(form, changes, submitted).map((v) => [v.fieldId, v]));
    const values = draft && draftValues ? draftValues : new Map(submitted.map((v) => [v.fieldId, v]));
    const files = new Map(parts.files.map((a) => [a.definitionId, a.fileName]));
    // Only a form that may be submitted is run through its rules: a program without rules reads nothing more.
    const decision = mayTry && hasRules(ctx.model) ? (decided ?? (await ruledState(reader, ctx.model, ctx.role.name, project, form, 'draft', [], { reading: true })).decision) : undefined;
    const canSubmit = mayTry && draftValues !== null && completenessProblems(ctx.model, form, draftValues, decision).length === 0
      && attachmentProblems(form, new Set(files.keys())).length === 0;
    const dataFields = form.fields.map((placed) => {
      const field = ctx.model.fields.find((f) => f.id === placed.fieldId)!;
      const v = values.get(field.id);
      const hide = field.sensitive && !reveal;
      const value = v?.value ?? null;
      const list = v?.values ?? null;
      if (field.type === 'table') {
        const rows = tableRowViews(field, value);
        return { dataFieldId: field.id, customId: field.customId, name: field.name, multiValue: false, value: null, values: null, rows: rows.length > 0 ? rows : null };
      }
      const lookup = value !== null && value !== '' ? lookupOf.get(field.id) : undefined;
      return {
        dataFieldId: field.id, customId: field.customId, name: field.name, multiValue: field.multiValue,
        value: hide && value !== null ? MASK : value,
        values: hide && list !== null ? list.map(() => MASK) : list,
        ...(lookup ? { lookup: { state: lookup.state, message: lookup.message, checkedAt: lookup.checkedAt } } : {}),
      };
    });
    const attachments = seenDefinitions(ctx.model, isStaff(ctx.role), form.attachments).map((a) => ({ attachmentId: a.id, customId: a.customId, name: a.name, fileName: files.get(a.id) ?? null }));
    return { ...projectHeader(this.#deps, ctx.model, project), formId: form.id, draft, canSubmit, dataFields, attachments };
  }
}
