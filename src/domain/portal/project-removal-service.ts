import type { Project, Status } from '../../model/model.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { canCreate, canRead, canWrite, isStaff } from '../roles/access.ts';
import { changeProject, matchesVersion, preconditionFailed, recordChange } from '../projects/change-project.ts';
import { claimIdempotencyKey } from '../projects/idempotency-service.ts';
import { loadProgram, loadReadableProject, type ProgramContext, projectNotFound, statusById } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { checkMoveReason } from '../workflow/status-reasons.ts';
import { isTestProgram } from '../test-program.ts';

/** The status a submitted project in `from` can be withdrawn to: a withdrawal status (program file) among its next. */
export function withdrawalFrom(ctx: ProgramContext, from: Status): Status | null {
  return ctx.model.statuses.find((s) => s.withdrawal === true && from.next.includes(s.id)) ?? null;
}

/** True for a draft: never submitted (no number) and still in the initial status. */
export function isDraft(ctx: ProgramContext, project: Project): boolean {
  return project.number === null && statusById(ctx.model, project.statusId).isInitial;
}

/**
 * What the applicant may do to get rid of a project, as pages offer it: delete a draft, withdraw a submitted project
 * (when the program has a withdrawal status next from its status), or nothing. Staff use the review page instead.
 */
export function removalOf(caller: Caller, ctx: ProgramContext, project: Project): 'delete' | 'withdraw' | null {
  if (isStaff(ctx.role) || !canWrite(caller, ctx.role, project)) return null;
  if (isDraft(ctx, project)) return 'delete';
  return project.number !== null && withdrawalFrom(ctx, statusById(ctx.model, project.statusId)) ? 'withdraw' : null;
}

/** What the confirmation page of a removal shows. */
export interface RemovalView {
  programId: string; projectId: string; projectNumber: string | null; status: string; removal: 'delete' | 'withdraw'; withdrawTo: string | null;
  /** The program is a test copy: the page shows the test banner. */
  testProgram: boolean;
}

/** Where the service releases the files of a deleted draft once the deletion has committed. */
export interface RemovalDeps { blobs: BlobStore }

/**
 * Deletes an applicant's draft, or withdraws their submitted project along the workflow. A deleted draft is gone with
 * everything kept per project (its files' blobs released after the commit); its audit rows stay, with one more that
 * records the deletion. A withdrawal is a status move like any other (history, audit, events, automations).
 */
export class ProjectRemovalService {
  readonly #deps: ServiceDeps<'programs' | 'projects'> & ReactingDeps;
  readonly #blobs: BlobStore;
  constructor(deps: ServiceDeps<'programs' | 'projects'> & ReactingDeps, removal: RemovalDeps) {
    this.#deps = deps;
    this.#blobs = removal.blobs;
  }

  /** What the project page offers the caller on a project: delete or withdraw it (or neither), and copying it. */
  async offers(caller: Caller, programRef: string, projectId: string): Promise<{ removal: 'delete' | 'withdraw' | null; canCopy: boolean }> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    return { removal: removalOf(caller, ctx, project), canCopy: canCreate(ctx.role) && !isStaff(ctx.role) };
  }

  /** The confirmation page's content; FORBIDDEN when the caller may neither delete nor withdraw the project. */
  async confirmation(caller: Caller, programRef: string, projectId: string): Promise<RemovalView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const removal = removalOf(caller, ctx, project);
    if (!removal) throw notRemovable(ctx, project);
    const status = statusById(ctx.model, project.statusId);
    return {
      programId: ctx.program.id, projectId: project.id, projectNumber: project.number, status: status.name, removal, testProgram: isTestProgram(ctx.program),
      withdrawTo: removal === 'withdraw' ? withdrawalFrom(ctx, status)?.name ?? null : null,
    };
  }

  /**
   * Deletes a draft of the caller's (write access, never submitted: no number, initial status, no submission).
   * Everything is checked on the locked project in the one transaction that deletes it and writes the audit row.
   */
  async deleteDraft(caller: Caller, programRef: string, projectId: string): Promise<void> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const { clock } = this.#deps;
    const blobs = await this.#deps.store.transaction(async (tx) => {
      const project = await tx.projects.lockProject(ctx.program.id, projectId);
      const now = clock.now();
      await claimIdempotencyKey(tx, caller, () => now);
      if (!project || !canRead(caller, ctx.role, project)) throw projectNotFound(projectId, ctx);
      if (caller.ifMatch && !matchesVersion(caller.ifMatch, project)) throw preconditionFailed(project.id);
      if (isStaff(ctx.role) || !canWrite(caller, ctx.role, project)) throw notRemovable(ctx, project);
      if (!isDraft(ctx, project) || (await tx.projects.getSubmissions(project.id)).length > 0) {
        throw new ApiError('CONFLICT', `Project ${project.number ?? project.id} has been submitted: it cannot be deleted${withdrawalFrom(ctx, statusById(ctx.model, project.statusId)) ? ', only withdrawn' : ''}.`);
      }
      const keys = await tx.projects.deleteProjectRows(project.id);
      // The audit rows of the project stay (they have no tie to its row); this one says it was deleted, and by whom.
      await recordChange(tx, this.#deps, caller, ctx, {
        action: 'project.delete', projectId: project.id, ownerId: project.ownerId, at: now,
        detail: { status: project.statusId, files: keys.length },
      });
      return keys;
    });
    // Released once committed; one that fails here stays an orphan, which the next orphan sweep removes.
    for (const key of blobs) await this.#blobs.delete(key).catch(() => {});
  }

  /** Withdraws a submitted project of the caller's: a move to the withdrawal status that its status lists next. */
  async withdraw(caller: Caller, programRef: string, projectId: string): Promise<void> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const { ids } = this.#deps;
    await changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.status.set', access: 'write',
      act: async ({ tx, project, now }) => {
        // Checked on the locked project: it may have moved (or been withdrawn) since the page was shown.
        if (isStaff(ctx.role)) throw notRemovable(ctx, project);
        const from = statusById(ctx.model, project.statusId);
        const target = project.number === null ? null : withdrawalFrom(ctx, from);
        if (!target) {
          throw new ApiError('TRANSITION_NOT_ALLOWED', project.number === null
            ? `Project ${project.id} has not been submitted: delete the draft instead.`
            : `A project in status "${from.name}" cannot be withdrawn in this program.`);
        }
        const given = checkMoveReason(target, from.id, { reasonId: null, message: null });
        await tx.projects.insertHistory({ id: ids.next(), projectId: project.id, statusId: target.id, changedAt: now, changedBy: caller.user.id, reportAs: 'normal', ...given });
        return { changes: { statusId: target.id, statusAt: now }, detail: { from: from.id, to: target.id, withdrawn: true }, result: () => undefined };
      },
    });
  }
}

function notRemovable(ctx: ProgramContext, project: Project): ApiError {
  return new ApiError('FORBIDDEN', `You may not delete or withdraw project ${project.number ?? project.id} of program ${ctx.program.id}.`);
}
