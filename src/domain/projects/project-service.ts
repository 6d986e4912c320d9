import { pageHistory } from '../workflow/status-reasons.ts';
import { canChangeOwner, canCreate, mayReadForm, ownerFilter, roleIn } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Program, ProgramModel, Project, ProjectListing, Status } from '../../model/model.ts';
import { formatProjectNumber } from './submit-service.ts';
import { changeProject, recordChange } from './change-project.ts';
import { claimIdempotencyKey } from './idempotency-service.ts';
import { formSummary, loadProgram, loadReadableProject, type ProgramContext, projectHeader, statusById, versionOf } from './project-context.ts';
import type { Organization } from '../../store/organization-queries.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { followUps, type ReactingDeps, type ReactionDeps } from './change-reaction.ts';
import { MAX_WRITE_TRANSACTION_MS, type StoreWriter } from '../../store/store.ts';
import type { AtVersion, LandingView, NewProjectView, OwnerView, ProgramView, ProjectSummaryView, ProjectsView } from '../views.ts';
import type { ProjectKey } from '../../model/records.ts';
import { decodeProgramCursor, encodeProgramCursor } from './program-cursor.ts';
import { prefillDefaults } from '../organizations/organization-defaults.ts';

/**
 * Paging and filtering of GetProjects, already checked by the HTTP layer: a page starts at `offset` or, by keyset,
 * after the cursor `after` that the previous page gave out (never both).
 */
export interface ListOptions { changedSince?: number; limit: number; offset: number; after?: string; version: number }

/** A page of GetProjects, with the cursor of the page after it when there are more projects to list. */
export interface ProjectsPageView extends ProjectsView { nextCursor: string | null }

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

function summary(model: ProgramModel, p: ProjectListing): ProjectSummaryView {
  const status = statusById(model, p.statusId);
  return {
    projectId: p.id, programId: p.programId, projectNumber: p.number, status: status.name, statusTimestamp: p.statusAt,
    lastChangeTimestamp: p.updatedAt, statusCustomId: status.customId, statusPublicId: status.publicId,
  };
}

/**
 * The opaque cursor of GetProjects (program-cursor.ts): the creation time and id of the last project of a page. It
 * holds a place in creation order and nothing else: what a page lists is still decided by the caller's access, so a
 * cursor made up by hand shows nothing the caller may not read.
 */
export function encodeProjectCursor(programId: string, key: ProjectKey): string {
  return encodeProgramCursor(programId, key.createdAt, key.id);
}

function decodeProjectCursor(programId: string, cursor: string): ProjectKey {
  const { at, id } = decodeProgramCursor(programId, cursor, () => new ApiError('INVALID_PARAMETER',
    'Query parameter after is not a cursor of this program\'s GetProjects; take it from the Link header (rel="next") of the previous page, or start again without it.'));
  return { createdAt: at, id };
}

/** ProjectsResponse content: the base variant for version 1, the extended one from version 2. */
export function projectsView(version: number, requestTimestamp: number, model: ProgramModel, rows: ProjectListing[]): ProjectsView {
  return { schemaVersion: version, extended: version >= 2, requestTimestamp, projects: rows.map((p) => summary(model, p)) };
}

/** Writes a new project's first data in its creation's transaction; returns what its audit row adds. */
export type ProjectSeed = (tx: StoreWriter, project: Project, now: number) => Promise<Record<string, unknown>>;

/** Lists programs and projects, creates projects and changes their owner. */
export class ProjectService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'organizations'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'organizations'> & ReactingDeps) {
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
    return programs.filter((p) => roleIn(caller, p) !== null).map((p) => ({ programId: p.id, programName: p.name, testOf: p.testOf ?? null }));
  }

  /**
   * GetProjects: a page of the readable projects of a program, in creation order. Its RequestTimestamp is the time up
   * to which the answer is complete (the read's start less CHANGE_VISIBILITY_MARGIN_MS): the next changed_since.
   * `nextCursor` continues after the page's last project when more readable projects follow (one row more than the
   * page is read to tell), with either kind of paging.
   */
  async getProjects(caller: Caller, programRef: string, options: ListOptions): Promise<ProjectsPageView> {
    const requestTimestamp = this.#deps.clock.now() - CHANGE_VISIBILITY_MARGIN_MS;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (options.after !== undefined && options.offset !== 0) {
      throw new ApiError('INVALID_PARAMETER', 'Send either offset or after, not both: after already says where the page starts.');
    }
    const after = options.after === undefined ? undefined : decodeProjectCursor(ctx.program.id, options.after);
    const found = await this.#deps.store.projects.listProjectListings({
      programId: ctx.program.id, owner: ownerFilter(caller, ctx.role), changedSince: options.changedSince,
      ...(after ? { after } : {}), limit: options.limit + 1, offset: options.offset,
    });
    const rows = found.slice(0, options.limit);
    const last = rows.at(-1);
    const nextCursor = found.length > options.limit && last ? encodeProjectCursor(ctx.program.id, { createdAt: last.createdAt, id: last.id }) : null;
    return { ...projectsView(options.version, requestTimestamp, ctx.model, rows), nextCursor };
  }

  /** GetProjectsByNumber: the readable projects whose numbers are asked for. */
  async getProjectsByNumber(caller: Caller, programRef: string, numbers: string[], version: number): Promise<ProjectsView> {
    const requestTimestamp = this.#deps.clock.now();
    if (numbers.length > this.#deps.maxNumbersPerRequest) {
      throw new ApiError('TOO_MANY_NUMBERS', `Ask for at most ${this.#deps.maxNumbersPerRequest} project numbers per request; got ${numbers.length}.`);
    }
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const rows = await this.#deps.store.projects.findListingsByNumbers(ctx.program.id, numbers, ownerFilter(caller, ctx.role));
    return projectsView(version, requestTimestamp, ctx.model, rows);
  }

  /**
   * CreateNewProject: an empty project in the initial status, owned by the caller. With `organizationId`, started for
   * an organization the caller is a member of (its members share it, its defaults prefill the forms' drafts); `seed`
   * (a copied application) writes the new project's first drafts after those, in its creation's transaction, and adds
   * to the creation's audit detail. A data import (src/domain/imports) also names the owner (a user it has checked)
   * and the status the project starts in (numbered then, unless it is the initial one).
   */
  async createProject(caller: Caller, programRef: string, options: { organizationId?: string | null; seed?: ProjectSeed; ownerId?: string; status?: Status } = {}): Promise<AtVersion<NewProjectView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!canCreate(ctx.role)) throw new ApiError('FORBIDDEN', `You may read but not create projects in program ${ctx.program.id} (privilege createProjects).`);
    const organizationId = options.organizationId ?? null;
    // Not a member (or no such organization): the same answer, so the request learns nothing about other organizations.
    if (organizationId !== null && !(caller.organizationIds ?? []).includes(organizationId)) throw new ApiError('NOT_FOUND', `Organization ${organizationId} not found.`);
    const project = await this.#deps.store.transaction(async (tx) => {
      // Stamped inside the transaction, so it commits within MAX_WRITE_TRANSACTION_MS of its LastChangeTimestamp.
      const now = this.#deps.clock.now();
      await claimIdempotencyKey(tx, caller, () => now);
      const organization = organizationId === null ? null : await tx.organizations.findOrganization(organizationId);
      if (organization && organization.agencyId !== ctx.program.agencyId) throw new ApiError('NOT_FOUND', `Organization ${organizationId} not found.`);
      return createProjectIn(tx, this.#deps, caller, ctx, {
        ownerId: options.ownerId ?? caller.user.id, organization, now, ...(options.seed ? { seed: options.seed } : {}), ...(options.status ? { status: options.status } : {}),
      });
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
      history: pageHistory(ctx.model, history, nameOf),
    };
  }

  /** SetProjectOwner: hands the project to another user who has access to the program. */
  async setOwner(caller: Caller, programRef: string, projectId: string, ownerEmail: string): Promise<AtVersion<OwnerView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (!canChangeOwner(caller, ctx.role, project)) throw new ApiError('FORBIDDEN', `You may read but not hand over project ${project.id} (privilege changeOwner).`);
    const owner = await this.#deps.store.accounts.findUserByEmail(ownerEmail);
    const ownerGrants = owner ? await this.#deps.store.accounts.listGrants(owner.id) : [];
    if (!owner || owner.disabled || !roleIn({ user: owner, apiKeyId: '', grants: ownerGrants }, ctx.program)) {
      throw new ApiError('UNKNOWN_USER', `No active user with access to program ${ctx.program.id} has the e-mail address "${ownerEmail}".`);
    }
    const projectVersion = await changeProject(this.#deps, caller, ctx, project.id, {
      action: 'project.owner.set', access: 'read',
      act: async ({ project: current }) => {
        // Re-checked on the locked row: the caller's own project may have been handed to someone else meanwhile.
        if (!canChangeOwner(caller, ctx.role, current)) throw new ApiError('FORBIDDEN', `You may read but not hand over project ${current.id} (privilege changeOwner).`);
        return { changes: { ownerId: owner.id }, detail: { from: current.ownerId, to: owner.id }, result: versionOf };
      },
    });
    return { name: owner.name, email: owner.email, projectVersion };
  }
}

/**
 * What a new project starts with: its owner, the organization it is started for (its defaults prefill the drafts), its
 * first data and time, and (a data import) the status it starts in, when not the initial one.
 */
export interface NewProjectOptions { ownerId: string; organization: Organization | null; seed?: ProjectSeed; now: number; status?: Status }

/**
 * Creates a project in the initial status (or the one `options` names) inside the caller's transaction (CreateNewProject, and a related project
 * made in its from-project's change): the row, its first history entry, the organization's defaults and `seed`, the
 * program's follow-ups (automations on creation) and the creation's audit row and events.
 */
export async function createProjectIn(tx: StoreWriter, deps: ReactionDeps & ReactingDeps, caller: Caller, ctx: ProgramContext, options: NewProjectOptions): Promise<Project> {
  const initial = options.status ?? ctx.model.statuses.find((s) => s.isInitial);
  if (!initial) throw new Error(`program ${ctx.program.id} has no initial status`);
  const { ids } = deps;
  const { now, organization, ownerId } = options;
  const projectId = ids.next();
  const created: Project = {
    id: projectId, programId: ctx.program.id, statusId: initial.id, statusAt: now,
    // Numbered at once when it starts past the initial status (a data import), as a submission numbers it.
    number: initial.isInitial ? null : formatProjectNumber(ctx.program, await tx.projects.takeProjectNumber(ctx.program.id)),
    createdAt: now, createdBy: caller.user.id, updatedAt: now, updatedBy: caller.user.id,
    ownerId, assigneeId: null, version: 0, organizationId: organization?.id ?? null,
  };
  await tx.projects.insertProject(created);
  await tx.projects.insertHistory({ id: ids.next(), projectId, statusId: initial.id, changedAt: now, changedBy: caller.user.id, reportAs: 'normal' });
  const prefilled = organization ? await prefillDefaults(tx, ctx.model, ctx.role, projectId, organization.defaults, caller.user.id, now) : [];
  const detail = { status: initial.id, ...(organization ? { organizationId: organization.id, prefilled } : {}), ...(options.seed ? await options.seed(tx, created, now) : {}) };
  const automated = await followUps(deps.reactions, { tx, deps, caller, ctx, project: created, now, action: 'project.create', detail });
  let project = created;
  // A creation's follow-ups (automations) that move or assign the project change its row once more: version 1, not 0.
  if (Object.keys(automated.changes).length > 0) {
    if (!(await tx.projects.updateProject(projectId, 0, automated.changes))) throw new Error(`project ${projectId} changed while being created`);
    project = { ...created, ...automated.changes, version: 1 };
  }
  await recordChange(tx, deps, caller, ctx, { action: 'project.create', projectId, ownerId, detail, at: now });
  for (const r of automated.records) await recordChange(tx, deps, caller, { ...ctx, role: r.role }, { action: r.action, projectId, ownerId, detail: r.detail, at: now });
  return project;
}
