import { canCreate, canWrite, mayReadForm, ownerFilter, roleIn } from './access.ts';
import { formSummary } from './catalog-service.ts';
import { ApiError } from './api-error.ts';
import type { Caller } from './caller.ts';
import type { Program, ProgramModel, Project } from '../model/model.ts';
import { changeProject, recordChange } from './change-project.ts';
import { loadProgram, loadReadableProject, projectHeader, statusById } from './project-context.ts';
import type { ServiceDeps } from './service-deps.ts';
import { MAX_WRITE_TRANSACTION_MS } from '../store/store.ts';
import type { LandingView, NewProjectView, OwnerView, ProgramView, ProjectSummaryView, ProjectsView } from './views.ts';

/** Paging and filtering of GetProjects, already checked by the HTTP layer. */
export interface ListOptions { changedSince?: number; limit: number; offset: number; version: number }

/** The most projects one page may hold (the commercial system's documented maximum). */
export const MAX_PAGE = 1000;

/**
 * How far GetProjects' RequestTimestamp lies before the start of its read, in milliseconds. A change is stamped
 * inside its transaction and commits within MAX_WRITE_TRANSACTION_MS of its stamp, so a change the read did not see
 * carries a LastChangeTimestamp later than the read's start minus that bound; the margin is larger still (for the
 * commit itself and small clock differences between instances). RequestTimestamp is therefore the time up to which
 * the answer is complete, and sent back as changed_since it misses nothing.
 */
export const CHANGE_VISIBILITY_MARGIN_MS = MAX_WRITE_TRANSACTION_MS + 5_000;

function summary(model: ProgramModel, p: Project): ProjectSummaryView {
  const status = statusById(model, p.statusId);
  return {
    projectId: p.id, programId: p.programId, projectNumber: p.number, status: status.name, statusTimestamp: p.statusAt,
    lastChangeTimestamp: p.updatedAt, statusCustomId: status.customId, statusPublicId: status.publicId,
  };
}

/** ProjectsResponse content: the base variant for version 1, the extended one from version 2. */
export function projectsView(version: number, requestTimestamp: number, model: ProgramModel, rows: Project[]): ProjectsView {
  return { schemaVersion: version, extended: version >= 2, requestTimestamp, projects: rows.map((p) => summary(model, p)) };
}

/** Lists programs and projects, creates projects and changes their owner. */
export class ProjectService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts'>;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts'>) {
    this.#deps = deps;
  }

  /**
   * GetPrograms: the programs of the caller's agency in which the caller has a role. Any other agency, existing or
   * not, is NOT_FOUND with one and the same answer, so that nobody learns which agencies exist.
   */
  async getPrograms(caller: Caller, agencyRef: string): Promise<ProgramView[]> {
    const agency = await this.#deps.store.accounts.findAgency(agencyRef);
    if (!agency || agency.id !== caller.user.agencyId) throw new ApiError('NOT_FOUND', `Agency "${agencyRef}" was not found.`);
    const programs: Program[] = await this.#deps.store.programs.listPrograms(agency.id);
    return programs.filter((p) => roleIn(caller, p) !== null).map((p) => ({ programId: p.id, programName: p.name }));
  }

  /**
   * GetProjects: a page of the readable projects of a program, in creation order. Its RequestTimestamp is the time up
   * to which the answer is complete (the read's start less CHANGE_VISIBILITY_MARGIN_MS): the next changed_since.
   */
  async getProjects(caller: Caller, programRef: string, options: ListOptions): Promise<ProjectsView> {
    const requestTimestamp = this.#deps.clock.now() - CHANGE_VISIBILITY_MARGIN_MS;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const rows = await this.#deps.store.projects.listProjects({
      programId: ctx.program.id, ownerId: ownerFilter(caller, ctx.role), changedSince: options.changedSince,
      limit: options.limit, offset: options.offset,
    });
    return projectsView(options.version, requestTimestamp, ctx.model, rows);
  }

  /** GetProjectsByNumber: the readable projects whose numbers are asked for. */
  async getProjectsByNumber(caller: Caller, programRef: string, numbers: string[], version: number): Promise<ProjectsView> {
    const requestTimestamp = this.#deps.clock.now();
    if (numbers.length > this.#deps.maxNumbersPerRequest) {
      throw new ApiError('TOO_MANY_NUMBERS', `Ask for at most ${this.#deps.maxNumbersPerRequest} project numbers per request; got ${numbers.length}.`);
    }
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const rows = await this.#deps.store.projects.findProjectsByNumbers(ctx.program.id, numbers, ownerFilter(caller, ctx.role));
    return projectsView(version, requestTimestamp, ctx.model, rows);
  }

  /** CreateNewProject: an empty project in the initial status, owned by the caller. */
  async createProject(caller: Caller, programRef: string): Promise<NewProjectView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!canCreate(ctx.role)) throw new ApiError('FORBIDDEN', `You may read but not create projects in program ${ctx.program.id}.`);
    const initial = ctx.model.statuses.find((s) => s.isInitial);
    if (!initial) throw new Error(`program ${ctx.program.id} has no initial status`);
    const { clock, ids } = this.#deps;
    const projectId = ids.next();
    const project = await this.#deps.store.transaction(async (tx) => {
      // Stamped inside the transaction, so it commits within MAX_WRITE_TRANSACTION_MS of its LastChangeTimestamp.
      const now = clock.now();
      const created: Project = {
        id: projectId, programId: ctx.program.id, number: null, statusId: initial.id, statusAt: now,
        createdAt: now, createdBy: caller.user.id, updatedAt: now, updatedBy: caller.user.id,
        ownerId: caller.user.id, assigneeId: null, version: 0,
      };
      await tx.projects.insertProject(created);
      await tx.projects.insertHistory({ id: ids.next(), projectId, statusId: initial.id, changedAt: now, changedBy: caller.user.id, reportAs: 'normal' });
      await recordChange(tx, this.#deps, caller, ctx, { action: 'project.create', projectId, detail: {}, at: now });
      return created;
    });
    const forms = ctx.model.forms.filter((f) => mayReadForm(ctx.role, f)).map((f) => formSummary(ctx.model, f));
    return { ...projectHeader(this.#deps, ctx.model, project), forms };
  }

  /** The landing page's content: the project, its owner, the forms the caller may read and its status history. */
  async landing(caller: Caller, programRef: string, projectId: string): Promise<LandingView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const history = await this.#deps.store.projects.getHistory(project.id);
    const users = await this.#deps.store.accounts.usersByIds([project.ownerId, ...history.map((h) => h.changedBy)]);
    const nameOf = (id: string) => users.find((u) => u.id === id)?.name ?? id;
    return {
      ...projectHeader(this.#deps, ctx.model, project),
      programName: ctx.program.name,
      ownerName: nameOf(project.ownerId),
      // The same forms CreateNewProject lists: staff see every form, applicants only those meant for them.
      forms: ctx.model.forms.filter((f) => mayReadForm(ctx.role, f)).map((f) => ({ name: f.name, available: f.availableIn.includes(project.statusId) })),
      history: history.map((h) => ({ status: statusById(ctx.model, h.statusId).name, at: h.changedAt, by: nameOf(h.changedBy) })),
    };
  }

  /** SetProjectOwner: hands the project to another user who has access to the program. */
  async setOwner(caller: Caller, programRef: string, projectId: string, ownerEmail: string): Promise<OwnerView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (!canWrite(caller, ctx.role, project)) throw new ApiError('FORBIDDEN', `You may read but not change project ${project.id}.`);
    const owner = await this.#deps.store.accounts.findUserByEmail(ownerEmail);
    const ownerGrants = owner ? await this.#deps.store.accounts.listGrants(owner.id) : [];
    if (!owner || owner.disabled || !roleIn({ user: owner, apiKeyId: '', grants: ownerGrants }, ctx.program)) {
      throw new ApiError('UNKNOWN_USER', `No active user with access to program ${ctx.program.id} has the e-mail address "${ownerEmail}".`);
    }
    await changeProject(this.#deps, caller, ctx, project.id, {
      action: 'project.owner.set', access: 'write',
      act: async ({ project: current }) => ({
        changes: { ownerId: owner.id }, detail: { from: current.ownerId, to: owner.id }, result: () => undefined,
      }),
    });
    return { name: owner.name, email: owner.email };
  }
}
