import type { DataField, ProgramModel, Project } from '../../model/model.ts';
import { decodeProgramCursor, encodeProgramCursor } from '../projects/program-cursor.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { canCreate, isStaff, mayUseForm, ownerFilter } from '../roles/access.ts';
import { loadProgram, type ProgramContext, statusById } from '../projects/project-context.ts';
import { shownValue } from '../projects/shown-value.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { removalOf } from './project-removal-service.ts';
import { waitingForApplicant } from './waiting-for-applicant.ts';
import { isTestProgram } from '../test-program.ts';

/** Which of their projects an applicant lists: all, those waiting for them, drafts only, or submitted ones only. */
export type MyProjectsShow = 'all' | 'action' | 'drafts' | 'submitted';

/** The shows My projects offers, in the order of its filter. */
export const MY_PROJECTS_SHOWS: readonly MyProjectsShow[] = ['all', 'action', 'drafts', 'submitted'];

/** What an applicant asks My projects for; every part optional but the program. */
export interface MyProjectsRequest { programRef: string; search?: string; statusId?: string; show?: MyProjectsShow; after?: string }

/** One project of My projects: its number (null for a draft), status, last change, summary fields and what waits. */
export interface MyProjectRow {
  projectId: string; projectNumber: string | null;
  /** Never submitted: no number yet. */
  draft: boolean;
  status: string; lastChange: number;
  /** The summary fields' values as people read them, in the order of `columns` ('' for none). */
  summary: string[];
  waiting: string[];
  /** What the applicant may do to get rid of it: delete (a draft), withdraw (a submitted project), or nothing. */
  removal: 'delete' | 'withdraw' | null;
}

/** A page of My projects with the filters as understood, the summary columns and the cursor of the next page. */
export interface MyProjectsView {
  agencyName: string; programId: string; programName: string; canStart: boolean;
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  columns: { fieldId: string; name: string }[];
  statuses: { id: string; name: string }[];
  filter: { search: string; statusId: string | null; show: MyProjectsShow };
  rows: MyProjectRow[];
  nextCursor: string | null;
}

/** Projects per page of My projects. */
export const MY_PROJECTS_PAGE = 25;

/** The longest search text My projects takes. */
export const MAX_SEARCH_CHARS = 200;

function encodeCursor(programId: string, p: Pick<Project, 'updatedAt' | 'id'>): string {
  return encodeProgramCursor(programId, p.updatedAt, p.id);
}

// A cursor holds a place in the order and nothing else: what a page lists is decided by the owner filter alone.
function decodeCursor(programId: string, cursor: string): { updatedAt: number; id: string } {
  const { at, id } = decodeProgramCursor(programId, cursor,
    () => new ApiError('INVALID_PARAMETER', 'The page cursor (after) is not one of this program\'s My projects; start again from the first page.'));
  return { updatedAt: at, id };
}

/** The program's summary fields (program file `summary: true`), in the program's field order. */
export function summaryFields(model: ProgramModel): DataField[] {
  return model.fields.filter((f) => f.summary === true && !f.sensitive).sort((a, b) => a.position - b.position);
}

/** My projects: an applicant's own projects of a program, searched, filtered and paged by cursor. */
export class MyProjectsService {
  readonly #deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'inquiries'>;
  constructor(deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'inquiries'>) {
    this.#deps = deps;
  }

  /**
   * One page of the caller's projects of the program, newest change first. The projects are those the owner filter
   * (access.ts ownerFilter) gives the caller's role: staff, who read every project, use the work queue instead.
   */
  async page(caller: Caller, request: MyProjectsRequest): Promise<MyProjectsView> {
    const { store } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, request.programRef);
    const owner = ownerFilter(caller, ctx.role);
    if (isStaff(ctx.role) || owner === undefined) {
      throw new ApiError('FORBIDDEN', `My projects lists an applicant's own projects; as staff of program ${ctx.program.id} use its work queue.`);
    }
    const search = (request.search ?? '').trim();
    if (search.length > MAX_SEARCH_CHARS) throw new ApiError('INVALID_PARAMETER', `Search for at most ${MAX_SEARCH_CHARS} characters.`);
    const statusId = request.statusId === undefined || request.statusId === '' ? null : request.statusId;
    if (statusId !== null && !ctx.model.statuses.some((s) => s.id === statusId)) throw new ApiError('INVALID_PARAMETER', 'The status to filter by is not one of this program\'s.');
    const show = request.show ?? 'all';
    if (!MY_PROJECTS_SHOWS.includes(show)) throw new ApiError('INVALID_PARAMETER', `Show one of ${MY_PROJECTS_SHOWS.join(', ')}.`);
    const after = request.after === undefined || request.after === '' ? undefined : decodeCursor(ctx.program.id, request.after);
    const columns = summaryFields(ctx.model);
    // Forms open to the applicant's role wait for them in the statuses they are available in (as formWaiting says).
    const openIn = [...new Set(ctx.model.forms.filter((f) => mayUseForm(ctx.role, f)).flatMap((f) => f.availableIn))];
    const found = await store.projects.myProjectsPage({
      programId: ctx.program.id, owner,
      ...(statusId === null ? {} : { statusId }),
      ...(show === 'drafts' ? { stage: 'drafts' as const } : show === 'submitted' ? { stage: 'submitted' as const } : {}),
      ...(show === 'action' ? { needsAction: { statusIds: openIn } } : {}),
      // Folded as the store folds values (lower case), so that a search finds what was typed in any case.
      ...(search === '' ? {} : { search: { folded: search.toLowerCase(), fieldIds: columns.map((f) => f.id) } }),
      ...(after ? { after } : {}),
      limit: MY_PROJECTS_PAGE + 1,
    });
    const projects = found.slice(0, MY_PROJECTS_PAGE);
    const last = projects.at(-1);
    const [agency, waiting, summaries] = await Promise.all([
      store.accounts.findAgency(caller.user.agencyId),
      waitingForApplicant(store, projects.map((project) => ({ model: ctx.model, role: ctx.role, project }))),
      this.#summaries(ctx, projects, columns),
    ]);
    return {
      agencyName: agency?.name ?? '', programId: ctx.program.id, programName: ctx.program.name, testProgram: isTestProgram(ctx.program), canStart: canCreate(ctx.role),
      columns: columns.map((f) => ({ fieldId: f.id, name: f.name })),
      statuses: [...ctx.model.statuses].sort((a, b) => a.position - b.position).map((s) => ({ id: s.id, name: s.name })),
      filter: { search, statusId, show },
      rows: projects.map((p) => ({
        projectId: p.id, projectNumber: p.number, draft: p.number === null, status: statusById(ctx.model, p.statusId).name,
        lastChange: p.updatedAt, summary: summaries.get(p.id) ?? columns.map(() => ''), waiting: waiting.get(p.id) ?? [],
        removal: removalOf(caller, ctx, p),
      })),
      nextCursor: found.length > MY_PROJECTS_PAGE && last ? encodeCursor(ctx.program.id, last) : null,
    };
  }

  // The summary fields as the applicant last left them: a draft's change (the newest of any form) over the submitted value.
  async #summaries(ctx: ProgramContext, projects: Project[], columns: DataField[]): Promise<Map<string, string[]>> {
    if (projects.length === 0 || columns.length === 0) return new Map();
    const ids = projects.map((p) => p.id);
    const fieldIds = new Set(columns.map((f) => f.id));
    const formIds = ctx.model.forms.filter((f) => f.fields.some((x) => fieldIds.has(x.fieldId))).map((f) => f.id);
    const [values, drafts] = await Promise.all([
      this.#deps.store.projects.valuesOfProjects(ids, [...fieldIds]),
      this.#deps.store.projects.draftsOfProjects(ids, formIds),
    ]);
    const current = new Map<string, { at: number; value: string | null; values: string[] | null }>();
    for (const v of values) current.set(`${v.projectId} ${v.fieldId}`, { at: -1, value: v.value, values: v.values });
    for (const d of drafts) {
      if (!fieldIds.has(d.value.fieldId)) continue;
      const key = `${d.projectId} ${d.value.fieldId}`;
      const known = current.get(key);
      if (!known || d.value.updatedAt > known.at) current.set(key, { at: d.value.updatedAt, value: d.value.value, values: d.value.values });
    }
    const out = new Map<string, string[]>();
    for (const p of projects) {
      out.set(p.id, columns.map((f) => {
        const v = current.get(`${p.id} ${f.id}`);
        const texts = v?.values ?? (v?.value === null || v?.value === undefined ? [] : [v.value]);
        return texts.map((t) => shownValue(ctx.model, f, t)).join(', ');
      }));
    }
    return out;
  }
}
