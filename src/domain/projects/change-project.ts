import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Project } from '../../model/model.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import { canRead, canWrite } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller, VersionCondition } from '../caller.ts';
import { claimIdempotencyKey } from './idempotency-service.ts';
import { type ProgramContext, projectNotFound } from './project-context.ts';
import { type ChangeReaction, type ChangeRecord, followUps, type ProjectChanges } from './change-reaction.ts';

/** What the change step hands to a change: the transaction, the locked project as it is now, and the change's time. */
export interface ChangeStep { tx: StoreWriter; project: Project; now: number }

/** What a change did: the project fields it sets, the audit detail, and the answer built from the changed project. */
export interface ChangeOutcome<T> {
  /** False when the request asked for what already is: nothing is written, not even the stamp or an audit row. */
  changed?: boolean;
  changes?: ProjectChanges;
  /** The audit action, when it depends on what the change found (else the change's own). */
  action?: string;
  /** Before and after where it matters; never a value a field marks sensitive, a file name or a note's text. */
  detail?: Record<string, unknown>;
  result(updated: Project): T | Promise<T>;
}

/** One kind of change of a project: its audit action, the access it needs, and the work (guards first, then writes). */
export interface ProjectChange<T> {
  action: string;
  /** `write`: the caller must also be allowed to change the project (its applicant owner, editors, admins). */
  access: 'read' | 'write';
  /** The FORBIDDEN message for a caller who may only read the project. */
  forbidden?: string;
  /** Checks the operation's rules on `step.project` and writes; a throw rolls everything back. */
  act(step: ChangeStep): Promise<ChangeOutcome<T>>;
}

/**
 * What the change step needs: `reactions`, what reacts to each change in its transaction (composed at start-up,
 * src/domain/wiring); `publicUrl` (for links in automations' mails and notes) when the service has one.
 */
export interface ChangeDeps { store: Pick<Store, 'transaction'>; clock: Clock; ids: IdGenerator; publicUrl?: string; reactions: readonly ChangeReaction[] }

/**
 * The one way a project changes. In one transaction it locks the project (concurrent changes of one project queue
 * and each sees the one before), takes the request's Idempotency-Key, checks access and the request's If-Match on the
 * project as it is now, runs the change's guards and writes, bumps the version and stamp, and writes the audit row. A
 * guard that throws leaves nothing changed, and the key free.
 */
export async function changeProject<T>(deps: ChangeDeps, caller: Caller, ctx: ProgramContext, projectId: string, change: ProjectChange<T>): Promise<T> {
  return deps.store.transaction(async (tx) => {
    const project = await tx.projects.lockProject(ctx.program.id, projectId);
    // Stamped inside the transaction, so the change commits within MAX_WRITE_TRANSACTION_MS of its LastChangeTimestamp;
    // read once, when first needed, so that a key is taken at its change's time.
    let stamped: number | undefined;
    const changeTime = () => (stamped ??= deps.clock.now());
    // The key first: a retry that raced the request it repeats is told so, not refused by the state that request left.
    await claimIdempotencyKey(tx, caller, changeTime);
    if (!project || !canRead(caller, ctx.role, project)) throw projectNotFound(projectId, ctx);
    if (change.access === 'write' && !canWrite(caller, ctx.role, project)) {
      throw new ApiError('FORBIDDEN', change.forbidden ?? `You may read but not change project ${project.id} (privilege editData, or editOwnProjects on your own projects).`);
    }
    // Checked on the locked row: a change committed between the client's read and this request is caught here.
    if (caller.ifMatch && !matchesVersion(caller.ifMatch, project)) throw preconditionFailed(project.id);
    const now = changeTime();
    const outcome = await change.act({ tx, project, now });
    if (outcome.changed === false) return outcome.result(project);
    const action = outcome.action ?? change.action;
    const detail = outcome.detail ?? {};
    // Follow-ups (the program's automations) act within this change, after its own writes; theirs join its one stamp and version.
    const automated = await followUps(deps.reactions, { tx, deps, caller, ctx, project: { ...project, ...outcome.changes }, now, action, detail });
    const stamp = { ...outcome.changes, ...automated.changes, updatedAt: now, updatedBy: caller.user.id };
    // The row is locked (or, on SQLite, the whole database), so its version cannot have moved since it was read.
    if (!(await tx.projects.updateProject(project.id, project.version, stamp))) throw new Error(`project ${project.id} changed while locked`);
    const ownerId = stamp.ownerId ?? project.ownerId;
    await recordChange(tx, deps, caller, ctx, { action, projectId: project.id, ownerId, detail, at: now });
    if (caller.bulkActionId !== undefined) await tx.bulkActions.setBulkOutcome(caller.bulkActionId, project.id, { outcome: 'done', detail: { action, ...detail }, at: now });
    for (const r of automated.records) await recordChange(tx, deps, caller, { ...ctx, role: r.role }, { action: r.action, projectId: project.id, ownerId, detail: r.detail, at: now });
    return outcome.result({ ...project, ...stamp, version: project.version + 1 });
  });
}

/** True when the project is at a version the condition names (`*` names every version of an existing project). */
export function matchesVersion(condition: VersionCondition, project: Pick<Project, 'id' | 'version'>): boolean {
  return condition.any || condition.versions.some((v) => v.projectId === project.id && v.version === project.version);
}

/** The answer to a write whose If-Match names a version the project is no longer at. */
export function preconditionFailed(projectId: string): ApiError {
  return new ApiError('PRECONDITION_FAILED',
    `Project ${projectId} has changed since the version your If-Match names; nothing was changed. Read it again and send the change with its new ETag.`);
}

/**
 * Writes the audit row of a project change in the change's transaction, then lets each reaction see it (the queue's
 * and dashboards' read models, the events the outbox sends on); every change of a project, its creation included, is
 * recorded in this one shape.
 */
export async function recordChange(tx: StoreWriter, deps: Pick<ChangeDeps, 'ids' | 'publicUrl' | 'reactions'>, caller: Caller, ctx: ProgramContext, record: ChangeRecord): Promise<void> {
  await tx.audit.write({
    action: record.action, actorId: caller.user.id, agencyId: ctx.program.agencyId, programId: ctx.program.id,
    projectId: record.projectId, requestId: caller.requestId, detail: caller.bulkActionId === undefined ? record.detail : { ...record.detail, bulkActionId: caller.bulkActionId },
  }, record.at, deps.ids.next());
  for (const r of deps.reactions) await r.recorded?.(tx, deps, caller, ctx, record);
}
