import { isStaff, mayReadForm, ownerFilter, requireReveal, type Role } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { checkValue, quoted } from './value-check.ts';
import type { DataField, ProgramModel } from '../../model/model.ts';
import { loadProgram, type ProgramContext } from './project-context.ts';
import { projectsView } from './project-service.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ProjectByDataQuery, ProjectsView } from '../views.ts';
import type { FieldCondition, ProjectSearch } from '../../model/records.ts';

/** The operators a sensitive (sealed) field can be searched with: equality and emptiness. */
const SEALED_OPERATORS: ReadonlySet<string> = new Set(['eq', 'ne', 'empty', 'notempty']);

const NUMBER = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

function statusId(model: ProgramModel, ref: string): string {
  const status = model.statuses.find((s) => s.id === ref || s.customId === ref);
  if (!status) throw new ApiError('INVALID_REQUEST', `Status "${ref}" is not a status of program ${model.program.id}.`);
  return status.id;
}

// A field the caller may filter on: one on a form whose data the caller may read. Otherwise an applicant could
// learn the values of staff-only forms (a reviewer's notes) by filtering their own projects on them.
function searchableField(model: ProgramModel, role: Role, ref: string): DataField | undefined {
  const field = model.fields.find((x) => x.id === ref || x.customId === ref);
  if (!field || isStaff(role)) return field;
  return model.forms.some((form) => mayReadForm(role, form) && form.fields.some((p) => p.fieldId === field.id)) ? field : undefined;
}

/** A GetProjectsByData condition resolved for the store: the field checked readable and comparable, sensitive ones only for callers who may reveal. */
export function resolveFieldCondition(ctx: ProgramContext, caller: Caller, f: ProjectByDataQuery['fields'][number]): FieldCondition {
  const { model, role } = ctx;
  const field = searchableField(model, role, f.fieldRef);
  if (!field) {
    const cell = resolveCellCondition(ctx, f);
    if (cell) return cell;
    throw new ApiError('INVALID_REQUEST', `Data field "${f.fieldRef}" is not a field of program ${model.program.id}.`);
  }
  if (field.type === 'table') {
    throw new ApiError('INVALID_REQUEST', `${field.name} is a table field: search one of its columns as ${field.customId ?? field.id}.<column>, e.g. ${field.customId ?? field.id}.${field.table?.columns[0]?.customId ?? 'Column'}.`);
  }
  // Filtering on a sensitive field would reveal its value bit by bit, so it takes what revealing it takes.
  if (field.sensitive) {
    requireReveal(caller, role);
    // Sensitive values are stored sealed, with a blind index that can only tell equal from different.
    if (!SEALED_OPERATORS.has(f.operator)) {
      throw new ApiError('INVALID_REQUEST', `${field.name} is a sensitive field, stored encrypted: it can be searched only with the operators eq, ne, empty and notempty, not ${f.operator}.`);
    }
    return { fieldId: field.id, kind: field.multiValue ? 'multi' : 'text', op: f.operator, content: f.content, number: null, sealed: true };
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  const compares = f.operator !== 'contains' && f.operator !== 'empty' && f.operator !== 'notempty';
  const byNumber = numeric && compares;
  if (byNumber && !NUMBER.test(f.content ?? '')) {
    throw new ApiError('INVALID_REQUEST', `${field.name} is a number field; Content ${quoted(field, f.content ?? '')} is not a number.`);
  }
  // Dates compare as yyyy-MM-dd text, which only orders real dates written that way.
  if (field.type === 'date' && compares && checkValue(field, undefined, f.content ?? '') !== null) {
    throw new ApiError('INVALID_REQUEST', `${field.name} is a date field; Content ${quoted(field, f.content ?? '')} is not a date as yyyy-MM-dd.`);
  }
  return {
    fieldId: field.id, kind: field.multiValue ? (byNumber ? 'multiNumber' : 'multi') : byNumber ? 'number' : 'text', op: f.operator,
    content: f.content, number: byNumber ? Number(f.content) : null,
  };
}

/**
 * A condition on a column of a table field, named `<field>.<column>` (the field by id or customId, the column by its
 * customId; a field whose own customId holds the dot is found first). It matches a project when any row's cell does
 * (`ne`: when no row's does; `empty`: when no row fills the column), compared by the column's type as a field's value
 * is. Null when the reference names no column of a readable table field.
 */
function resolveCellCondition(ctx: ProgramContext, f: ProjectByDataQuery['fields'][number]): FieldCondition | null {
  const dot = f.fieldRef.lastIndexOf('.');
  if (dot <= 0) return null;
  const field = searchableField(ctx.model, ctx.role, f.fieldRef.slice(0, dot));
  if (!field || field.type !== 'table') return null;
  const column = field.table?.columns.find((c) => c.customId === f.fieldRef.slice(dot + 1));
  if (!column) throw new ApiError('INVALID_REQUEST', `Table field ${field.name} has no column "${f.fieldRef.slice(dot + 1)}".`);
  const asField: DataField = { ...field, name: `${field.name}.${column.name}`, type: column.type, table: null };
  const numeric = column.type === 'number' || column.type === 'integer';
  const compares = f.operator !== 'contains' && f.operator !== 'empty' && f.operator !== 'notempty';
  const byNumber = numeric && compares;
  if (byNumber && !NUMBER.test(f.content ?? '')) {
    throw new ApiError('INVALID_REQUEST', `${asField.name} is a number column; Content ${quoted(asField, f.content ?? '')} is not a number.`);
  }
  if (column.type === 'date' && compares && checkValue(asField, undefined, f.content ?? '') !== null) {
    throw new ApiError('INVALID_REQUEST', `${asField.name} is a date column; Content ${quoted(asField, f.content ?? '')} is not a date as yyyy-MM-dd.`);
  }
  return {
    fieldId: field.id, kind: byNumber ? 'cellNumber' : 'cell', column: column.customId, op: f.operator, content: f.content,
    number: byNumber ? Number(f.content) : null,
  };
}

/** Finds projects by their current status, status dates and submitted values. */
export class SearchService {
  readonly #deps: ServiceDeps<'programs' | 'projects'>;
  constructor(deps: ServiceDeps<'programs' | 'projects'>) {
    this.#deps = deps;
  }

  /** GetProjectsByData: the readable projects matching every filter, a page at a time, in creation order. */
  async getProjectsByData(
    caller: Caller, programRef: string, query: ProjectByDataQuery, page: { limit: number; offset: number; version: number },
  ): Promise<ProjectsView> {
    const requestTimestamp = this.#deps.clock.now();
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const statusIds = query.statuses?.refs.map((r) => statusId(ctx.model, r));
    const search: ProjectSearch = {
      programId: ctx.program.id, owner: ownerFilter(caller, ctx.role),
      ...(query.statuses?.operation === 'include' ? { statusIn: statusIds } : {}),
      ...(query.statuses?.operation === 'exclude' ? { statusNotIn: statusIds } : {}),
      statusDates: query.statusDates.map((d) => ({ statusId: statusId(ctx.model, d.statusRef), op: d.operator, at: d.at })),
      fields: query.fields.map((f) => resolveFieldCondition(ctx, caller, f)),
      limit: page.limit, offset: page.offset,
    };
    return projectsView(page.version, requestTimestamp, ctx.model, await this.#deps.store.projects.searchProjects(search));
  }
}
