import { canRead, requirePrivilege, requireProgramRole, type Role } from '../roles/access.ts';
import type { Privilege } from '../roles/privileges.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Form, Program, ProgramModel, Project, Status } from '../../model/model.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AtVersion, CurrentStatusView, FormSummaryView, ProjectHeaderView, ProjectVersion, StatusRefView } from '../views.ts';
import type { StoreReader } from '../../store/store.ts';

/** A program the caller may use, with its definition and the caller's role (and so privileges) in it. */
export interface ProgramContext { program: Program; model: ProgramModel; role: Role }

/** Finds a program by id or custom id within the caller's agency and checks the caller has a role in it. */
export async function loadProgram(deps: Pick<ServiceDeps<'programs'>, 'store'>, caller: Caller, programRef: string): Promise<ProgramContext> {
  const program = await deps.store.programs.findProgram(programRef, caller.user.agencyId);
  if (!program) throw new ApiError('NOT_FOUND', `Program "${programRef}" was not found.`);
  caller.onProgram?.(program);
  const role = requireProgramRole(caller, program);
  const model = await deps.store.programs.loadProgramModel(program);
  return { program, model, role };
}

/** Like loadProgram, for the operations that need a privilege: FORBIDDEN, naming it, unless the caller's role holds it. */
export async function loadProgramWith(
  deps: Pick<ServiceDeps<'programs'>, 'store'>, caller: Caller, programRef: string, privilege: Privilege, operation: string,
): Promise<ProgramContext> {
  const ctx = await loadProgram(deps, caller, programRef);
  requirePrivilege(ctx.role, privilege, operation);
  return ctx;
}

/** Loads a project the caller may read; one the caller may not read is reported exactly like a missing one. */
export async function loadReadableProject(reader: Pick<StoreReader, 'projects'>, caller: Caller, ctx: ProgramContext, projectId: string): Promise<Project> {
  const project = await reader.projects.getProject(ctx.program.id, projectId);
  if (!project || !canRead(caller, ctx.role, project)) throw projectNotFound(projectId, ctx);
  return project;
}

/** True when a project reference can be a project number: numbers are the program's prefix, a hyphen and digits; ids have no hyphen. */
export function mayBeProjectNumber(ref: string): boolean {
  return /-\d+$/.test(ref);
}

/**
 * Like loadReadableProject, for the reads that also take a project number in place of the id (the commercial
 * product's V2 reads a project by number; numbers are unique within a program). A reference that names one project by
 * id and another by number is refused (INVALID_PARAMETER), so a read never answers about the wrong project; a number
 * of a project the caller may not read is NOT_FOUND, like an unknown id. Ids never hold a hyphen, so a read by id
 * costs no second lookup.
 */
export async function loadReadableProjectByRef(reader: Pick<StoreReader, 'projects'>, caller: Caller, ctx: ProgramContext, ref: string): Promise<Project> {
  if (!mayBeProjectNumber(ref)) return loadReadableProject(reader, caller, ctx, ref);
  const [byId, byNumber] = await Promise.all([reader.projects.getProject(ctx.program.id, ref), reader.projects.findProjectsByNumbers(ctx.program.id, [ref])]);
  return readableProjectOf(caller, ctx, ref, [...(byId ? [byId] : []), ...byNumber]);
}

/**
 * The project a reference names among the projects found by it (by id, and by number when it may be one), decided as
 * loadReadableProjectByRef decides: INVALID_PARAMETER for two projects, NOT_FOUND for none or one the caller may not read.
 */
export function readableProjectOf(caller: Caller, ctx: ProgramContext, ref: string, candidates: Project[]): Project {
  const found = candidates.filter((p, i) => candidates.findIndex((q) => q.id === p.id) === i);
  if (found.length > 1) {
    throw new ApiError('INVALID_PARAMETER', `ProjectId "${ref}" is the id of one project and the number of another in program ${ctx.program.id}; use the project's id.`);
  }
  const project = found[0];
  if (!project || !canRead(caller, ctx.role, project)) throw projectNotFound(ref, ctx);
  return project;
}

/** The answer for a project that does not exist or that the caller may not read: the same, so nobody learns which. */
export function projectNotFound(projectId: string, ctx: ProgramContext): ApiError {
  return new ApiError('NOT_FOUND', `Project "${projectId}" was not found in program ${ctx.program.id}.`);
}

/** The form a reference names (its id or customId), or undefined. */
export function formByRef(model: ProgramModel, formRef: string): Form | undefined {
  return model.forms.find((f) => f.id === formRef || f.customId === formRef);
}

/** A form of the program by generated or custom id. */
export function findForm(model: ProgramModel, formRef: string): Form {
  const form = formByRef(model, formRef);
  if (!form) throw new ApiError('NOT_FOUND', `Form "${formRef}" was not found in program ${model.program.id}.`);
  return form;
}

/**
 * A status of the program by generated id, retired ones included: history entries (and, after a race with an
 * import, a project) may still be in a status that the current definition no longer has.
 */
export function statusById(model: ProgramModel, statusId: string): Status {
  const status = model.statuses.find((s) => s.id === statusId) ?? model.retired.statuses.find((s) => s.id === statusId);
  // Statuses are never deleted and history rows reference them, so this means stored data of another program.
  if (!status) throw new ApiError('INTERNAL_ERROR', 'The service failed to handle this request; the fault has been logged.');
  return status;
}

/** The status reference shown in AvailableInStatuses and LeadsToStatus. */
export function statusRef(status: Status): StatusRefView {
  return { statusId: status.id, customId: status.customId, name: status.name };
}

/** The landing-page address of a project. */
export function landingUrl(publicUrl: string, project: Project): string {
  const q = new URLSearchParams({ ProgramId: project.programId, ProjectId: project.id });
  return `${publicUrl}/MvcProjects/LandingPage?${q.toString()}`;
}

/** The project and version an answer shows (its ETag). */
export function versionOf(project: Pick<Project, 'id' | 'version'>): ProjectVersion {
  return { projectId: project.id, version: project.version };
}

/** The header every single-project response starts with, and the version it shows. */
export function projectHeader(deps: Pick<ServiceDeps, 'publicUrl'>, model: ProgramModel, project: Project): AtVersion<ProjectHeaderView> {
  const status = statusById(model, project.statusId);
  const currentStatus: CurrentStatusView = { statusId: status.id, customId: status.customId, name: status.name, timestamp: project.statusAt };
  return {
    projectId: project.id, programId: project.programId, projectNumber: project.number,
    url: landingUrl(deps.publicUrl, project), lastChangeTimestamp: project.updatedAt, currentStatus,
    projectVersion: versionOf(project),
  };
}

/** Throws FORM_NOT_AVAILABLE unless the form can be used in the project's current status. */
export function requireAvailable(model: ProgramModel, form: Form, project: Project): void {
  if (form.availableIn.includes(project.statusId)) return;
  const names = form.availableIn.map((id) => model.statuses.find((s) => s.id === id)?.name ?? id);
  const current = statusById(model, project.statusId).name;
  throw new ApiError('FORM_NOT_AVAILABLE',
    `Form ${form.name} is not available while the project is in status "${current}"; it is available in: ${names.join(', ') || 'no status'}.`);
}

/** The summary of a form that GetForms and CreateNewProject list. */
export function formSummary(model: ProgramModel, form: Form): FormSummaryView {
  return {
    formId: form.id, customId: form.customId, programId: model.program.id, name: form.name,
    availableInStatuses: form.availableIn.map((id) => statusRef(statusById(model, id))),
    leadsToStatus: form.leadsToStatusId ? statusRef(statusById(model, form.leadsToStatusId)) : null,
  };
}
