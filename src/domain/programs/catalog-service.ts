import { mayReadForm, mayUseForm } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { CustomList, ProgramModel, TableSpec } from '../../model/model.ts';
import { findForm, formSummary, loadProgramWith, loadProgram, statusById, statusRef } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { CustomListView, FormSchemaView, FormsView, StatusListView, TableSchemaView } from '../views.ts';

function listView(list: CustomList): CustomListView {
  return { listId: list.id, customId: list.customId, name: list.name, choices: list.choices.map((c) => ({ value: c.value, label: c.label })) };
}

// A form schema names a long list (rows loaded from CSV) without its thousands of rows: GetCustomListChoices gives them.
function schemaListView(list: CustomList): CustomListView {
  return list.rows ? { listId: list.id, customId: list.customId, name: list.name, choices: [], long: true } : listView(list);
}

/** Describes a program: its forms, their schemas, custom lists and the status workflow. */
export class CatalogService {
  readonly #deps: ServiceDeps<'programs'>;
  constructor(deps: ServiceDeps<'programs'>) {
    this.#deps = deps;
  }

  /** GetForms: the forms of the program whose data the caller may read, in program order. */
  async getForms(caller: Caller, programRef: string): Promise<FormsView> {
    const { model, role } = await loadProgram(this.#deps, caller, programRef);
    return { programId: model.program.id, forms: model.forms.filter((f) => mayReadForm(role, f)).map((f) => formSummary(model, f)) };
  }

  /** GetFormSchema: a form's fields and attachment definitions, for callers who may use it in some status. */
  async getFormSchema(caller: Caller, programRef: string, formRef: string, version: number): Promise<FormSchemaView> {
    const { model, role } = await loadProgram(this.#deps, caller, programRef);
    const form = findForm(model, formRef);
    if (!mayUseForm(role, form) || form.availableIn.length === 0) {
      throw new ApiError('FORBIDDEN', `Your role (${role}) may not use form ${form.name} in any status.`);
    }
    const dataFields = form.fields.map((placed) => {
      const f = model.fields.find((x) => x.id === placed.fieldId)!;
      const list = model.lists.find((l) => l.id === f.listId);
      return {
        dataFieldId: f.id, customId: f.customId, name: f.name, type: f.type, required: placed.required, multiValue: f.multiValue,
        sensitive: f.sensitive, maxLength: f.maxLength, min: f.min, max: f.max, group: f.group, list: list ? schemaListView(list) : null,
        formula: f.formula ?? null, rules: placed.rules ?? null,
        ...(f.type === 'table' && f.table ? { table: tableSchema(model, f.table) } : {}),
      };
    });
    const attachments = form.attachments.map((a) => ({
      attachmentId: a.id, customId: a.customId, name: a.name, required: a.required, maxSizeBytes: a.maxSizeBytes, allowedTypes: a.allowedTypes,
    }));
    return { version, form: { formId: form.id, customId: form.customId, programId: model.program.id, name: form.name }, dataFields, attachments };
  }

  /** GetCustomListChoices: one custom list of the program with its choices. */
  async getCustomListChoices(caller: Caller, programRef: string, listRef: string): Promise<CustomListView> {
    const { model } = await loadProgram(this.#deps, caller, programRef);
    const list = model.lists.find((l) => l.id === listRef || l.customId === listRef);
    if (!list) throw new ApiError('NOT_FOUND', `Custom list "${listRef}" was not found in program ${model.program.id}.`);
    return listView(list);
  }

  /** GetStatusList (privilege moveStatus): every status with the statuses allowed next. */
  async getStatusList(caller: Caller, programRef: string): Promise<StatusListView> {
    const { program, model } = await loadProgramWith(this.#deps, caller, programRef, 'moveStatus', 'GetStatusList');
    const statuses = model.statuses.map((s) => ({
      statusId: s.id, customId: s.customId, publicId: s.publicId, name: s.name, initial: s.isInitial,
      next: s.next.flatMap((id) => model.statuses.filter((n) => n.id === id).map(statusRef)),
      reasons: s.reasons || s.reasonRequired ? {
        reasons: s.reasons ?? [], required: s.reasonRequired === true,
        requiredFrom: Array.isArray(s.reasonRequired) ? s.reasonRequired.map((id) => statusRef(statusById(model, id))) : [],
      } : null,
    }));
    return { programId: program.id, statuses };
  }
}

/** A table field's columns as GetFormSchema describes them, each choice column with its list. */
function tableSchema(model: ProgramModel, table: TableSpec): TableSchemaView {
  return {
    minRows: table.minRows, maxRows: table.maxRows,
    columns: table.columns.map((c) => {
      const list = c.listId === null ? undefined : model.lists.find((l) => l.id === c.listId);
      return { customId: c.customId, name: c.name, type: c.type, required: c.required, maxLength: c.maxLength, min: c.min, max: c.max, list: list ? schemaListView(list) : null };
    }),
  };
}
