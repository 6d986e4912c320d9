import { canWrite, isStaff, mayReadForm, mayUseForm, overridesForms, type Role } from '../roles/access.ts';
import { seenDefinitions } from '../document-templates.ts';
import { ApiError } from '../api-error.ts';
import { attachmentProblems } from './attachment-rules.ts';
import type { Caller } from '../caller.ts';
import { currentDraft } from './current-draft.ts';
import { draftInputs, type RawFormValues } from './draft-inputs.ts';
import { completenessProblems, resolveInputs } from './field-rules.ts';
import { MASK } from './value-check.ts';
import { decideForm, hasRules, type RuleContext } from '../rules/form-rules.ts';
import { ruledState } from '../rules/rule-state.ts';
import type { FormDataService } from './form-data-service.ts';
import type { AttachmentRecord, ColumnType, DataField, FieldType, FieldValue, Form, ProgramModel, Project } from '../../model/model.ts';
import { MAX_TABLE_ROWS, tableRows } from './table-values.ts';
import { findForm, loadProgram, loadReadableProject, type ProgramContext, projectHeader, statusById } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { shownValue } from './shown-value.ts';
import { longListChoices, type LongListView } from '../lists/list-choices.ts';
import type { DataFieldInput, FormDataView, ProjectHeaderView } from '../views.ts';
import { isTestProgram } from '../test-program.ts';

/** One data field of a form page: its definition, the choices of its list, and the saved value(s), sensitive ones masked. */
export interface FormFieldView {
  fieldId: string; customId: string | null; name: string; type: FieldType; required: boolean; multiValue: boolean; sensitive: boolean;
  maxLength: number | null; min: number | null; max: number | null; group: string | null;
  choices: { value: string; label: string }[] | null;
  value: string | null; values: string[] | null;
  /** Shown but not to be changed now: a calculated field, or one whose readOnlyIf rule holds. */
  readOnly: boolean;
  /** Computed by the service from its formula. */
  calculated: boolean;
  /** A table field's columns (each choice column with its choices) and row limits; absent for other fields. */
  table?: FormTableView;
  /** A table field's rows as saved, empty rows included (`value` holds their stored text); absent for other fields. */
  rows?: Record<string, string>[];
  /** What the last lookup at save said of the value (a connection's `lookup:`); absent when none was made. */
  lookup?: { state: string; message: string };
  /** A field choosing from a long list (rows from CSV): its search; `choices` then hold the values shown and the matches. */
  longList?: LongListView;
}

/** A search of a form page for a field's long list: the field (generated id) and the words typed. */
export interface ListSearch { fieldId: string; query: string }

/** The columns and row limits of a table field on a form page. */
export interface FormTableView {
  columns: {
    customId: string; name: string; type: ColumnType; required: boolean; maxLength: number | null; min: number | null; max: number | null; choices: { value: string; label: string }[] | null;
    /** The name of the long list a choice column's cells are keys of (typed, not chosen); absent for others. */
    longList?: string;
  }[];
  minRows: number | null; maxRows: number | null;
}

/** The active file of an attachment definition as the pages show it. */
export interface FileView {
  fileName: string; version: number; size: number; contentType: string; uploadedAt: number; approvalStatus: string; note: string | null;
}

/** One attachment definition of a form with its rules and the active file, if any. */
export interface FormAttachmentView {
  attachmentId: string; customId: string | null; name: string; required: boolean; allowedTypes: string[]; maxSizeBytes: number; file: FileView | null;
  /** The customId of the document template whose generated files it holds (no upload offered), or null. */
  document: string | null;
}

/** What a form page shows: the project, the form's fields with the draft, its attachments, and whether the caller may change it now. */
export interface FormPageView extends ProjectHeaderView {
  agencyName: string; programName: string; statusName: string;
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  form: { formId: string; customId: string | null; name: string };
  /** Null when the caller may fill in the form now; otherwise why not, for people. */
  readOnlyReason: string | null;
  fields: FormFieldView[];
  attachments: FormAttachmentView[];
}

/**
 * One form on the project page: its submitted values as people read them (masked where sensitive; choices by label),
 * its files, whether it is open in the current status, whether the caller may fill it in now, and whether it was
 * ever submitted (or its data written as submitted data).
 */
export interface ProjectFormView {
  formId: string; customId: string | null; name: string; available: boolean; canFill: boolean; submitted: boolean;
  values: { fieldId: string; name: string; values: string[] }[];
  attachments: FormAttachmentView[];
}

/** The project page's forms and the names every page header shows. */
export interface ProjectFormsView {
  agencyName: string; programName: string; forms: ProjectFormView[]; nextSteps: string[];
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
}

/** A form page's address: program, project and form ids. */
export interface FormTarget { programRef: string; projectId: string; formRef: string }

function fileView(r: AttachmentRecord | undefined): FileView | null {
  if (!r) return null;
  return {
    fileName: r.fileName, version: r.version, size: r.sizeBytes, contentType: r.contentType, uploadedAt: r.uploadedAt,
    approvalStatus: r.approvalStatus, note: r.note,
  };
}

function attachmentViews(ctx: ProgramContext, form: Form, files: AttachmentRecord[]): FormAttachmentView[] {
  return seenDefinitions(ctx.model, isStaff(ctx.role), form.attachments).map((a) => ({
    attachmentId: a.id, customId: a.customId, name: a.name, required: a.required, allowedTypes: a.allowedTypes, maxSizeBytes: a.maxSizeBytes,
    file: fileView(files.find((f) => f.definitionId === a.id)), document: a.document ?? null,
  }));
}

/** Why the caller may not fill in the form now, or null when they may. */
function readOnlyReason(caller: Caller, ctx: ProgramContext, form: Form, project: Project): string | null {
  if (!canWrite(caller, ctx.role, project)) return 'You may read this project but not change it.';
  if (!mayUseForm(ctx.role, form)) return `${form.name} is not filled in by your role.`;
  if (!overridesForms(ctx.role) && !form.availableIn.includes(project.statusId)) {
    return `${form.name} cannot be changed while the project is in status "${statusById(ctx.model, project.statusId).name}".`;
  }
  return null;
}

/** A table field's columns (each choice column with its choices) and row limits, as a form page shows them. */
export function formTable(model: ProgramModel, field: DataField): FormTableView {
  const spec = field.table ?? { columns: [], minRows: null, maxRows: null };
  return {
    minRows: spec.minRows, maxRows: Math.min(spec.maxRows ?? MAX_TABLE_ROWS, MAX_TABLE_ROWS),
    columns: spec.columns.map((c) => {
      const list = c.listId === null ? undefined : model.lists.find((l) => l.id === c.listId);
      return {
        customId: c.customId, name: c.name, type: c.type, required: c.required, maxLength: c.maxLength, min: c.min, max: c.max,
        // A long list's cells are typed (its thousands of rows are no select); its labels are looked up as shown.
        choices: list?.rows ? null : list?.choices ?? null,
        ...(list?.rows ? { longList: list.name } : {}),
      };
    }),
  };
}

/** True when an applicant's form in the project's current status still waits for them: the form is open now for their (non-staff) role. */
export function formWaiting(role: Role, form: Form, project: Project): boolean {
  return !isStaff(role) && mayUseForm(role, form) && form.availableIn.includes(project.statusId);
}

/**
 * True when a form's draft and files are complete enough to submit. `rules` gives what the form's rules see (the
 * project and the caller's role); the rules then decide what is required over the draft and `others`, the project's
 * other values.
 */
export function draftComplete(model: ProgramModel, form: Form, draft: FieldValue[], files: AttachmentRecord[], rules?: { ctx: RuleContext; others: FieldValue[] }): boolean {
  const values = new Map([...(rules?.others ?? []), ...draft].map((v) => [v.fieldId, v]));
  const decision = rules && hasRules(model) ? decideForm(model, form, values, rules.ctx, { reading: true }) : undefined;
  return completenessProblems(model, form, values, decision).length === 0
    && attachmentProblems(form, new Set(files.map((f) => f.definitionId))).length === 0;
}

/**
 * What a refused post typed, as values the rules can read: each value that fits its field on its own (a value the save
 * refused for its type or limits is left out, so the rules see the draft's value there, as the save would have).
 */
function typedValues(model: ProgramModel, form: Form, raw: RawFormValues): FieldValue[] {
  let inputs: DataFieldInput[];
  try {
    inputs = draftInputs(model, form, raw);
  } catch {
    return [];
  }
  return inputs.flatMap((input): FieldValue[] => {
    try {
      return resolveInputs(model, form, [input]).map((r) => ({ fieldId: r.field.id, value: r.value, values: r.values, updatedAt: 0, updatedBy: '' }));
    } catch {
      return [];
    }
  });
}

/** A field's last lookup, as the form page shows it beside the field. */
function lookupOf(lookups: { fieldId: string; state: string; message: string }[], fieldId: string): Pick<FormFieldView, 'lookup'> {
  const found = lookups.find((l) => l.fieldId === fieldId);
  return found ? { lookup: { state: found.state, message: found.message } } : {};
}

/**
 * The applicant's side of the web application: a form page built from the program definition with the caller's
 * draft, saving a page's values through the API's own SetProjectData rules, and the forms of the project page.
 */
export class ApplicationService {
  readonly #deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations' | 'connections' | 'listRows'>;
  readonly #formData: FormDataService;
  constructor(deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations' | 'connections' | 'listRows'>, formData: FormDataService) {
    this.#deps = deps;
    this.#formData = formData;
  }

  /**
   * A form page: the form's definition with the draft values (sensitive ones masked) and its attachments (read access).
   * With `typed` (a refused save's post), the rules decide what is shown over the draft with what was typed, so that a
   * field the typing made visible is there to correct.
   */
  async formPage(caller: Caller, target: FormTarget, typed?: RawFormValues, search?: ListSearch): Promise<FormPageView> {
    const { store } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, target.programRef);
    const project = await loadReadableProject(store, caller, ctx, target.projectId);
    const form = findForm(ctx.model, target.formRef);
    if (!mayReadForm(ctx.role, form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is for program staff.`);
    const [draft, files, agency, ruled, lookups] = await Promise.all([
      currentDraft(store, project.id, form), store.attachments.listActiveAttachments(project.id), store.accounts.findAgency(caller.user.agencyId),
      hasRules(ctx.model) ? ruledState(store, ctx.model, ctx.role.name, project, form, 'draft', typed ? typedValues(ctx.model, form, typed) : [], { reading: true }) : null,
      (ctx.program.connections ?? []).some((c) => c.lookupFieldId !== undefined) ? store.connections.listLookups(project.id) : [],
    ]);
    // The page shows what the rules decide over the draft (and what was typed): a hidden field is left out (its value stays in the draft).
    const hidden = ruled?.decision.hidden ?? new Set<string>();
    const fields = form.fields.filter((placed) => !hidden.has(placed.fieldId)).map((placed): FormFieldView => {
      const f = ctx.model.fields.find((x) => x.id === placed.fieldId)!;
      const v = draft.find((d) => d.fieldId === f.id);
      const list = ctx.model.lists.find((l) => l.id === f.listId);
      // The web pages never reveal sensitive values: the mask stands in, and sending it back keeps the saved value.
      const mask = (x: string) => (f.sensitive ? MASK : x);
      return {
        fieldId: f.id, customId: f.customId, name: f.name, type: f.type, multiValue: f.multiValue, sensitive: f.sensitive,
        required: !f.formula && (ruled ? ruled.decision.required.has(f.id) : placed.required),
        readOnly: Boolean(f.formula) || (ruled?.decision.readOnly.has(f.id) ?? false), calculated: Boolean(f.formula),
        maxLength: f.maxLength, min: f.min, max: f.max, group: f.group, choices: list ? list.choices : null,
        value: v?.value == null ? null : mask(v.value), values: v?.values == null ? null : v.values.map(mask),
        ...(f.type === 'table' ? { table: formTable(ctx.model, f), rows: tableRows(f, v?.value ?? null) } : {}),
        ...lookupOf(lookups, f.id),
      };
    });
    // A long list offers the values shown and a search's matches, never its thousands of rows.
    await Promise.all(fields.map(async (view) => {
      const list = ctx.model.lists.find((l) => l.id === ctx.model.fields.find((x) => x.id === view.fieldId)?.listId);
      if (!list?.rows) return;
      const typedValue = typed?.[view.fieldId];
      const shown = [...(view.values ?? (view.value === null ? [] : [view.value])), ...(typeof typedValue === 'string' ? [typedValue] : [])];
      const found = await longListChoices(store, list, shown, search?.fieldId === view.fieldId ? search.query : null);
      view.choices = found.choices;
      view.longList = found.view;
    }));
    return {
      ...projectHeader(this.#deps, ctx.model, project), agencyName: agency?.name ?? '', programName: ctx.program.name, testProgram: isTestProgram(ctx.program),
      statusName: statusById(ctx.model, project.statusId).name,
      form: { formId: form.id, customId: form.customId, name: form.name },
      readOnlyReason: readOnlyReason(caller, ctx, form, project), fields, attachments: attachmentViews(ctx, form, files),
    };
  }

  /**
   * Saves a form page's values as the form's draft through SetProjectData, so every rule of the API applies
   * (VALIDATION_FAILED lists each field's problem; nothing is saved then). See draftInputs for how values are read:
   * only the fields the person changed are written, and a page saved as it was shown writes nothing.
   */
  async saveDraft(caller: Caller, target: FormTarget, raw: RawFormValues): Promise<FormDataView> {
    const inputs = await this.#inputs(caller, target, raw);
    return this.#formData.set(caller, { ...target, draft: true }, { projectId: null, formId: null, fields: inputs }, { unchangedWritesNothing: true });
  }

  async #inputs(caller: Caller, target: FormTarget, raw: RawFormValues): Promise<DataFieldInput[]> {
    const ctx = await loadProgram(this.#deps, caller, target.programRef);
    // Readable first: whether a form exists says nothing, but a project the caller may not read must stay a 404.
    await loadReadableProject(this.#deps.store, caller, ctx, target.projectId);
    return draftInputs(ctx.model, findForm(ctx.model, target.formRef), raw);
  }

  /** The project page's forms (those the caller may read) with submitted values and files, and what the applicant is to do next. */
  async projectForms(caller: Caller, programRef: string, projectId: string): Promise<ProjectFormsView> {
    const { store } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(store, caller, ctx, projectId);
    const forms = ctx.model.forms.filter((f) => mayReadForm(ctx.role, f));
    const [values, submissions, files, agency] = await Promise.all([
      store.projects.getAllValues(project.id), store.projects.getSubmissions(project.id),
      store.attachments.listActiveAttachments(project.id), store.accounts.findAgency(caller.user.agencyId),
    ]);
    const views = forms.map((form): ProjectFormView => ({
      formId: form.id, customId: form.customId, name: form.name, available: form.availableIn.includes(project.statusId),
      canFill: readOnlyReason(caller, ctx, form, project) === null,
      submitted: submissions.some((s) => s.formId === form.id) || values.some((v) => v.formId === form.id),
      values: form.fields.flatMap((placed) => {
        const f = ctx.model.fields.find((x) => x.id === placed.fieldId)!;
        const v = values.find((x) => x.fieldId === f.id);
        const texts = v ? (v.values ?? (v.value === null ? [] : [v.value])) : [];
        return texts.length === 0 ? [] : [{ fieldId: f.id, name: f.name, values: texts.map((t) => shownValue(ctx.model, f, t)) }];
      }),
      attachments: attachmentViews(ctx, form, files).filter((a) => a.file !== null),
    }));
    const open = forms.filter((f) => formWaiting(ctx.role, f, project));
    const nextSteps = open.length > 0
      ? open.map((f) => `Fill in and submit ${f.name}.`)
      : ['Nothing is needed from you right now: the agency works on the project. Its questions to you appear on this page and on My projects.'];
    return { agencyName: agency?.name ?? '', programName: ctx.program.name, testProgram: isTestProgram(ctx.program), forms: views, nextSteps };
  }
}
