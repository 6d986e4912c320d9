import { grantReaches, isStaff, requireMove, requirePrivilege, roleIn } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { HistoryEntry, ProgramModel, Status } from '../../model/model.ts';
import { changeProject } from './change-project.ts';
import { landingUrl, loadProgramWith, loadProgram, loadReadableProject, loadReadableProjectByRef, type ProgramContext, statusById, versionOf } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from './change-reaction.ts';
import { formatProjectNumber } from './submit-service.ts';
import type { AssigneeView, AtVersion, HistoryEntryView, ReportAsInput, StatusHistoryView, StatusSetView } from '../views.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import { checkMoveReason, type MoveReason, reasonName } from '../workflow/status-reasons.ts';

const NO_REASON: MoveReason = { reasonId: null, message: null };

/** A status of the program by generated or custom id. */
export function findStatus(model: ProgramModel, ref: string): Status {
  const status = model.statuses.find((s) => s.id === ref || s.customId === ref);
  if (!status) throw new ApiError('NOT_FOUND', `Status "${ref}" was not found in program ${model.program.id}.`);
  return status;
}

/** History entries as shown to people: status names and the e-mail address of who set them. */
export async function historyViews(reader: Pick<StoreReader, 'accounts'>, model: ProgramModel, entries: HistoryEntry[]): Promise<HistoryEntryView[]> {
  const users = await reader.accounts.usersByIds(entries.map((e) => e.changedBy));
  return entries.map((e) => {
    const status = statusById(model, e.statusId);
    return {
      statusId: e.statusId, customId: status.customId, name: status.name, timestamp: e.changedAt,
      changedBy: users.find((u) => u.id === e.changedBy)?.email ?? e.changedBy, reportAs: e.reportAs,
      reasonId: e.reasonId ?? null, reason: reasonName(status, e.reasonId), message: e.message ?? null,
    };
  });
}

/** Moves projects through the workflow, reports their history, and assigns staff. */
export class WorkflowService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts'> & ReactingDeps) {
    this.#deps = deps;
  }

  /** GetProjectStatusHistory (privilege readHistory): newest first, with who and how each entry is reported. */
  async getHistory(caller: Caller, programRef: string, projectId: string): Promise<AtVersion<StatusHistoryView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'readHistory', 'GetProjectStatusHistory');
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectId);
    const entries = await historyViews(this.#deps.store, ctx.model, await this.#deps.store.projects.getHistory(project.id));
    return { projectId: project.id, programId: project.programId, projectNumber: project.number, entries, projectVersion: versionOf(project) };
  }

  /**
   * SetProjectStatus (privilege moveStatus, along the role's transitions): moves the project to a status allowed next
   * from its current one, with a reason from the target status's list (required where the status says) and a message.
   */
  async setStatus(caller: Caller, programRef: string, projectId: string, statusRef: string, reason: MoveReason = NO_REASON): Promise<AtVersion<StatusSetView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'moveStatus', 'SetProjectStatus');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const target = findStatus(ctx.model, statusRef);
    checkMoveReason(target, seen.statusId, reason);
    const { ids } = this.#deps;
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.status.set', access: 'read',
      act: async ({ tx, project, now }) => {
        // Checked again on the definition as it is now: an import since may have changed the status's reasons.
        const given = checkMoveReason(await this.#requireActive(tx, ctx, target), project.statusId, reason);
        const from = statusById(ctx.model, project.statusId);
        if (!from.next.includes(target.id)) {
          const allowed = from.next.map((id) => ctx.model.statuses.find((s) => s.id === id)?.name ?? id);
          throw new ApiError('TRANSITION_NOT_ALLOWED',
            `A project in status "${from.name}" cannot move to "${target.name}"; allowed next: ${allowed.length > 0 ? allowed.join(', ') : 'none (final status)'}.`);
        }
        // Checked on the locked project: a role limited to some transitions may make only those from its status now.
        requireMove(ctx.role, from, target);
        // Only projects without a number are Unsubmitted: one that staff move on is numbered then, as a submission would.
        const number = project.number ?? (target.isInitial ? null : formatProjectNumber(ctx.program, await tx.projects.takeProjectNumber(ctx.program.id)));
        await tx.projects.insertHistory({
          id: ids.next(), projectId: project.id, statusId: target.id, changedAt: now, changedBy: caller.user.id, reportAs: 'normal', ...given,
        });
        return {
          changes: { number, statusId: target.id, statusAt: now },
          // The reason by key only: the message is people's words and may name people, so it stays in the history.
          detail: { from: from.id, to: target.id, ...(number !== project.number ? { number } : {}), ...(given.reasonId === null ? {} : { reasonId: given.reasonId }) },
          result: (updated) => ({
            status: { statusId: target.id, customId: target.customId, name: target.name, timestamp: now },
            url: landingUrl(this.#deps.publicUrl, project), projectVersion: versionOf(updated),
          }),
        };
      },
    });
  }

  /** SetProjectStatusReportAs (privilege moveStatus): marks one history entry as reported normally or suppressed. */
  async setReportAs(caller: Caller, programRef: string, projectId: string, input: ReportAsInput): Promise<AtVersion<HistoryEntryView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'moveStatus', 'SetProjectStatusReportAs');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const status = findStatus(ctx.model, input.statusRef);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.history.report_as', access: 'read',
      act: async ({ tx, project }) => {
        const matches = (await tx.projects.getHistory(project.id)).filter((e) =>
          e.statusId === status.id && e.changedAt >= input.timestamp && e.changedAt < input.timestamp + input.precisionMs);
        if (matches.length === 0) throw new ApiError('NOT_FOUND', `Project ${project.id} has no history entry of status "${status.name}" at that time.`);
        if (matches.length > 1) throw new ApiError('INVALID_REQUEST', `Several "${status.name}" entries fall within that second; send the Timestamp with milliseconds.`);
        const entry = matches[0]!;
        await tx.projects.setHistoryReportAs(entry.id, input.reportAs);
        return {
          detail: { entryId: entry.id, from: entry.reportAs, to: input.reportAs },
          result: async (updated) => ({ ...(await historyViews(tx, ctx.model, [{ ...entry, reportAs: input.reportAs }]))[0]!, projectVersion: versionOf(updated) }),
        };
      },
    });
  }

  /** SetAssignee (privilege assign): assigns a staff member of the program, or clears the assignee. */
  async setAssignee(caller: Caller, programRef: string, projectId: string, email: string | null): Promise<AtVersion<AssigneeView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    requirePrivilege(ctx.role, 'assign', 'SetAssignee');
    const assignee = email === null ? null : await this.#staffMember(ctx, email);
    const projectVersion = await changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.assignee.set', access: 'read',
      // The one already assigned again: nothing changes, so nobody is told of an assignment twice.
      act: async ({ project }) => {
        // A staff member whose grant is limited to access groups is assigned only projects in them.
        if (assignee && !grantReaches(assignee.grant ?? {}, project)) {
          throw new ApiError('UNKNOWN_USER', `The staff member "${email}" cannot read project ${project.id}: their grant is limited to access groups it is not in.`);
        }
        return {
          changed: project.assigneeId !== (assignee?.id ?? null),
          changes: { assigneeId: assignee?.id ?? null },
          detail: { from: project.assigneeId, to: assignee?.id ?? null },
          result: versionOf,
        };
      },
    });
    return { assignee: assignee ? { name: assignee.name, email: assignee.email } : null, projectVersion };
  }

  async #staffMember(ctx: ProgramContext, email: string) {
    const user = await this.#deps.store.accounts.findUserByEmail(email);
    const grants = user ? await this.#deps.store.accounts.listGrants(user.id) : [];
    if (!user || user.disabled || !isStaff(roleIn({ user, apiKeyId: '', grants }, ctx.program))) {
      throw new ApiError('UNKNOWN_USER', `No active staff member (a role that reads every project) of program ${ctx.program.id} has the e-mail address "${email}".`);
    }
    // An agency admin's grant, if any, does not limit them.
    const grant = user.agencyAdmin && user.agencyId === ctx.program.agencyId ? undefined : grants.find((g) => g.programId === ctx.program.id);
    return { ...user, grant };
  }

  // The definition was read before the transaction; an import since may have retired the target status. The status as it is now.
  async #requireActive(tx: StoreWriter, ctx: ProgramContext, target: Status): Promise<Status> {
    const program = await tx.programs.findProgram(ctx.program.id);
    if (program && program.updatedAt === ctx.program.updatedAt) return target;
    const model = program ? await tx.programs.loadProgramModel(program) : null;
    const current = model?.statuses.find((s) => s.id === target.id);
    if (!current) throw new ApiError('CONFLICT', `Status "${target.name}" was just retired from program ${ctx.program.id}; read the statuses again.`);
    return current;
  }
}
