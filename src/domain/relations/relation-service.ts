import { type Program, type ProgramModel, type ProgramRelation, type Project, readsOnly, type RelationKind } from '../../model/model.ts';
import type { ProjectRelation } from '../../store/relation-queries.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { changeProject, type ChangeDeps, recordChange } from '../projects/change-project.ts';
import { isTestProgram } from '../test-program.ts';
import { loadProgram, loadReadableProjectByRef, type ProgramContext, statusById, versionOf } from '../projects/project-context.ts';
import { canRead, isStaff, roleIn } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AtVersion } from '../views.ts';
import { createRelatedIn, relationDetail, relationTarget } from '../projects/related-project.ts';

/** How the other project of a relation stands to the project it is read from. */
export type Relationship = RelationKind | 'parent' | 'predecessor';

/** One relation of a project as its reader sees it: only ever a project the reader may read. */
export interface RelationView {
  relationId: string; kind: RelationKind; relationship: Relationship;
  /** The customId of the program relation that made it, and its name (null for one made otherwise). */
  relation: string | null; relationName: string | null;
  programId: string; programCustomId: string; programName: string;
  projectId: string; projectNumber: string | null; statusName: string;
  createdAt: number;
  /** The e-mail address of who made it: for the program's staff only (null for others, or an unknown user). */
  createdBy: string | null;
  /** The caller is staff of the related project's program (its pages link to the review page, else to the project page). */
  staff: boolean;
}

/** A relation of the project's program that the caller may create from this project now (a button on the staff page). */
export interface RelationOfferView { customId: string; name: string; kind: RelationKind; programName: string }

/** A project's relations that the caller may see, and the related projects the caller may create from it. */
export interface ProjectRelationsView {
  programId: string; projectId: string; relations: RelationView[]; offers: RelationOfferView[];
  /** The programs whose projects the caller may link to this one (staff who may change it; else none): the page's link form. */
  linkPrograms: { customId: string; name: string }[];
}

/** What creating a related project answers: the new project and its relation, at the from-project's new version. */
export interface RelatedProjectView { relationId: string; programId: string; projectId: string; kind: RelationKind }

/** The related projects of projects: reads them (filtered by the reader's access) and creates them (staff). */
export class RelationService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'relations' | 'accounts'> & ChangeDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'relations' | 'accounts'> & ChangeDeps) {
    this.#deps = deps;
  }

  /**
   * GetProjectRelations: the relations of a project the caller may read, each only when the caller may read the
   * other project too; one it may not read is left out entirely (not its number, not that it exists).
   */
  async listRelations(caller: Caller, programRef: string, projectRef: string): Promise<ProjectRelationsView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectRef);
    const rows = await this.#deps.store.relations.listProjectRelations(project.id);
    const programs = new Map<string, { program: Program; model: ProgramModel; ctx: ProgramContext | null } | null>();
    const relations: RelationView[] = [];
    for (const r of rows) {
      const view = await this.#view(caller, ctx, project, r, programs);
      if (view) relations.push(view);
    }
    return { programId: ctx.program.id, projectId: project.id, relations, offers: await this.#offers(caller, ctx), linkPrograms: await this.#linkPrograms(caller, ctx) };
  }

  /**
   * CreateRelatedProject: a project of the relation's program made from this one (staff who may change it and may
   * create projects there), prefilled as the relation's `copy` says, in this project's change step: both projects
   * record the relation (audit and event), and a refused request changes nothing.
   */
  async createRelated(caller: Caller, programRef: string, projectRef: string, relationRef: string): Promise<AtVersion<RelatedProjectView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', 'Only the program\'s staff create related projects.');
    const relation = findRelation(ctx.program, relationRef);
    let made: RelatedProjectView | undefined;
    const version = await changeProject(this.#deps, caller, ctx, project.id, {
      action: 'project.relation.add', access: 'write',
      act: async ({ tx, project: current, now }) => {
        const created = await createRelatedIn(tx, this.#deps, caller, { ctx, project: current }, relation, now, 'caller');
        made = { relationId: created.relation.id, programId: created.project.programId, projectId: created.project.id, kind: created.relation.kind };
        return { detail: created.detail, result: versionOf };
      },
    });
    return { ...made!, projectVersion: version };
  }

  /**
   * LinkProject: relates an existing project to this one (the other is its child, successor or a link), for staff who
   * may change this project and may read the other; both projects record it (audit and event). A project the caller
   * may not read is NOT_FOUND, as a missing one; a pair already related is CONFLICT; a refused request changes nothing.
   */
  async linkProject(caller: Caller, programRef: string, projectRef: string, other: { programRef: string; projectRef: string; kind: RelationKind }): Promise<AtVersion<RelatedProjectView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', 'Only the program\'s staff relate projects.');
    const notFound = () => new ApiError('NOT_FOUND', `Project "${other.projectRef}" was not found in program ${other.programRef}.`);
    const found = await this.#programOf(caller, other.programRef);
    if (!found?.ctx) throw notFound();
    const target = await loadReadableProjectByRef(this.#deps.store, caller, found.ctx, other.projectRef).catch(() => { throw notFound(); });
    if (target.id === project.id) throw new ApiError('INVALID_REQUEST', 'A project cannot be related to itself.');
    if (isTestProgram(ctx.program) !== isTestProgram(found.program)) throw new ApiError('INVALID_REQUEST', 'A test copy\'s projects are related only to projects of test copies, and live ones to live ones.');
    let made: RelatedProjectView | undefined;
    const version = await changeProject(this.#deps, caller, ctx, project.id, {
      action: 'project.relation.add', access: 'write',
      act: async ({ tx, now }) => {
        // Checked in the change (this project locked), so two requests cannot both relate the pair.
        const rows = await tx.relations.listProjectRelations(project.id);
        if (rows.some((r) => r.fromProjectId === target.id || r.toProjectId === target.id)) throw new ApiError('CONFLICT', `Project ${project.id} and project ${target.id} are already related.`);
        const row = {
          id: this.#deps.ids.next(), agencyId: ctx.program.agencyId, fromProgramId: ctx.program.id, fromProjectId: project.id, toProgramId: found.program.id,
          toProjectId: target.id, kind: other.kind, relation: null, createdAt: now, createdBy: caller.user.id,
        };
        await tx.relations.insertRelation(row);
        await recordChange(tx, this.#deps, caller, found.ctx!, { action: 'project.relation.add', projectId: target.id, ownerId: target.ownerId, detail: relationDetail(row, 'to'), at: now });
        made = { relationId: row.id, programId: found.program.id, projectId: target.id, kind: other.kind };
        return { detail: { ...relationDetail(row, 'from'), toProgramId: found.program.id, toProjectId: target.id }, result: versionOf };
      },
    });
    return { ...made!, projectVersion: version };
  }

  /**
   * UnlinkProject: removes a free link (kind `link`) of this project, for staff who may change it and may read the
   * other project; both projects record it (audit `project.relation.remove`, event `project.unrelated`). A child or
   * successor relation is fixed (CONFLICT): it is where the project came from, and rules read it. A relation the caller
   * cannot see (not this project's, or to a project it may not read) is NOT_FOUND; a refused request changes nothing.
   */
  async unlinkProject(caller: Caller, programRef: string, projectRef: string, relationId: string): Promise<AtVersion<RelatedProjectView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', 'Only the program\'s staff remove related projects.');
    const notFound = () => new ApiError('NOT_FOUND', `Project ${project.id} has no relation "${relationId}".`);
    const shown = (await this.listRelations(caller, programRef, project.id)).relations.find((r) => r.relationId === relationId);
    if (!shown) throw notFound();
    const other = await this.#programOf(caller, shown.programId);
    let removed: RelatedProjectView | undefined;
    const version = await changeProject(this.#deps, caller, ctx, project.id, {
      action: 'project.relation.remove', access: 'write',
      act: async ({ tx, now }) => {
        // Read again with this project locked: a second request finds the relation gone.
        const row = (await tx.relations.listProjectRelations(project.id)).find((r) => r.id === relationId);
        if (!row) throw notFound();
        if (row.kind !== 'link') {
          throw new ApiError('CONFLICT', `A ${row.kind} relation is fixed: the ${row.kind} was made from or attached to this project as such, and rules read it. Only a link is removed.`);
        }
        await tx.relations.deleteRelation(row.id);
        const side = row.fromProjectId === project.id ? 'from' : 'to';
        const target = await tx.projects.getProject(shown.programId, shown.projectId);
        await recordChange(tx, this.#deps, caller, other!.ctx!, {
          action: 'project.relation.remove', projectId: shown.projectId, ownerId: target!.ownerId, detail: relationDetail(row, side === 'from' ? 'to' : 'from'), at: now,
        });
        removed = { relationId: row.id, programId: shown.programId, projectId: shown.projectId, kind: row.kind };
        return { detail: { ...relationDetail(row, side), otherProgramId: shown.programId, otherProjectId: shown.projectId }, result: versionOf };
      },
    });
    return { ...removed!, projectVersion: version };
  }

  async #view(caller: Caller, ctx: ProgramContext, project: Project, r: ProjectRelation, programs: Map<string, { program: Program; model: ProgramModel; ctx: ProgramContext | null } | null>): Promise<RelationView | null> {
    const outgoing = r.fromProjectId === project.id;
    const otherProgramId = outgoing ? r.toProgramId : r.fromProgramId;
    const otherProjectId = outgoing ? r.toProjectId : r.fromProjectId;
    if (!programs.has(otherProgramId)) programs.set(otherProgramId, await this.#programOf(caller, otherProgramId));
    const other = programs.get(otherProgramId);
    if (!other?.ctx) return null;
    const related = await this.#deps.store.projects.getProject(otherProgramId, otherProjectId);
    if (!related || !canRead(caller, other.ctx.role, related)) return null;
    const fromProgram = outgoing ? ctx.program : other.program;
    const offered = r.relation === null ? undefined : (fromProgram.relations ?? []).find((x) => x.customId === r.relation);
    const creator = isStaff(ctx.role) ? await this.#deps.store.accounts.findUserById(r.createdBy) : null;
    return {
      relationId: r.id, kind: r.kind, relationship: outgoing ? r.kind : inverse(r.kind), relation: r.relation, relationName: offered?.name ?? null,
      programId: other.program.id, programCustomId: other.program.customId, programName: other.program.name,
      projectId: related.id, projectNumber: related.number, statusName: statusById(other.model, related.statusId).name,
      createdAt: r.createdAt, createdBy: creator?.email ?? null, staff: isStaff(other.ctx.role),
    };
  }

  // A program of the caller's agency and the caller's role there (ctx null: no role, so none of its projects shows).
  async #programOf(caller: Caller, programId: string): Promise<{ program: Program; model: ProgramModel; ctx: ProgramContext | null } | null> {
    const program = await this.#deps.store.programs.findProgram(programId, caller.user.agencyId);
    if (!program || program.agencyId !== caller.user.agencyId) return null;
    const model = await this.#deps.store.programs.loadProgramModel(program);
    const role = roleIn(caller, program);
    return { program, model, ctx: role ? { program, model, role } : null };
  }

  // Staff who may change the project may link a project of any program of the agency they hold a role in (live with live, test with test).
  async #linkPrograms(caller: Caller, ctx: ProgramContext): Promise<{ customId: string; name: string }[]> {
    if (!isStaff(ctx.role) || !ctx.role.privileges.has('editData')) return [];
    const programs = await this.#deps.store.programs.listPrograms(ctx.program.agencyId);
    return programs.filter((p) => roleIn(caller, p) !== null && isTestProgram(p) === isTestProgram(ctx.program)).map((p) => ({ customId: p.customId, name: p.name }));
  }

  // Staff who may change the project see the program's relations whose program they may create projects in.
  async #offers(caller: Caller, ctx: ProgramContext): Promise<RelationOfferView[]> {
    if (!isStaff(ctx.role) || !ctx.role.privileges.has('editData')) return [];
    const out: RelationOfferView[] = [];
    for (const r of (ctx.program.relations ?? []).filter((x) => !readsOnly(x.kind))) {
      const target = await relationTarget(this.#deps.store, ctx.program, r);
      if (typeof target !== 'string' && roleIn(caller, target.program)?.privileges.has('createProjects')) out.push({ customId: r.customId, name: r.name, kind: r.kind as RelationKind, programName: target.program.name });
    }
    return out;
  }
}

/** The program's relation by customId; NOT_FOUND naming the ones it has. */
export function findRelation(program: Program, ref: string): ProgramRelation {
  const relations = program.relations ?? [];
  const found = relations.find((r) => r.customId === ref);
  if (!found) {
    const known = relations.map((r) => r.customId).join(', ');
    throw new ApiError('NOT_FOUND', `Program ${program.customId} has no relation "${ref}"${known ? `; its relations are ${known}` : ' (relations: is empty)'}.`);
  }
  return found;
}

function inverse(kind: RelationKind): Relationship {
  return kind === 'child' ? 'parent' : kind === 'successor' ? 'predecessor' : 'link';
}
