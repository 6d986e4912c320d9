import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { hasPrivilege, isStaff } from '../roles/access.ts';
import { loadProgram, type ProgramContext } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { QueueView } from '../../store/queue-view-queries.ts';

/** The longest name of a saved view, and the longest query string it keeps. */
export const MAX_VIEW_NAME = 100;
export const MAX_VIEW_QUERY = 4000;

/** The most views one staff member keeps in one program (shared ones included). */
export const MAX_VIEWS_PER_USER = 50;

/**
 * The privilege that shares a view with the program's staff: `assign`, because a shared view arranges other staff's
 * work as assigning does (editors and admins hold it; readers keep personal views only).
 */
export const SHARE_VIEW_PRIVILEGE = 'assign' as const;

/** A saved view as the queue page lists it: whose it is and what the caller may do with it. */
export interface QueueViewSummary { viewId: string; name: string; shared: boolean; query: string; mine: boolean }

/** What saving a view asks for: its name, whether it is shared, the queue's query string, and the view it replaces (null: a new one). */
export interface SaveQueueViewInput { viewId: string | null; name: string; shared: boolean; query: string }

/** Saved views of the work queue: personal, or shared with the program's staff; only their owner changes or deletes them. */
export class QueueViewService {
  readonly #deps: ServiceDeps<'programs' | 'queueViews' | 'audit'>;
  constructor(deps: ServiceDeps<'programs' | 'queueViews' | 'audit'>) {
    this.#deps = deps;
  }

  /** The caller's own views of the program and the shared ones (staff only), and whether the caller may share one. */
  async list(caller: Caller, programRef: string): Promise<{ views: QueueViewSummary[]; mayShare: boolean }> {
    const ctx = await this.#staffProgram(caller, programRef);
    const views = (await this.#deps.store.queueViews.listQueueViews(ctx.program.id, caller.user.id)).map((v) => summary(caller, v));
    return { views, mayShare: hasPrivilege(ctx.role, SHARE_VIEW_PRIVILEGE) };
  }

  /** Saves a new view, or replaces one of the caller's own; sharing needs SHARE_VIEW_PRIVILEGE. Audited. */
  async save(caller: Caller, programRef: string, input: SaveQueueViewInput): Promise<QueueViewSummary> {
    const ctx = await this.#staffProgram(caller, programRef);
    const name = input.name.trim();
    if (name === '' || name.length > MAX_VIEW_NAME) throw new ApiError('INVALID_REQUEST', `A view's name must have 1 to ${MAX_VIEW_NAME} characters.`);
    if (input.query.length > MAX_VIEW_QUERY) throw new ApiError('INVALID_REQUEST', `A view keeps at most ${MAX_VIEW_QUERY} characters of filters and columns.`);
    if (input.shared && !hasPrivilege(ctx.role, SHARE_VIEW_PRIVILEGE)) {
      throw new ApiError('FORBIDDEN', `Sharing a view with the program's staff needs the privilege ${SHARE_VIEW_PRIVILEGE}, which your role (${ctx.role.name}) does not have; save it as a personal view.`);
    }
    const now = this.#deps.clock.now();
    return this.#deps.store.transaction(async (tx) => {
      const existing = input.viewId === null ? null : await this.#own(tx.queueViews, caller, ctx, input.viewId);
      if (!existing && (await tx.queueViews.listQueueViews(ctx.program.id, caller.user.id)).filter((v) => v.ownerId === caller.user.id).length >= MAX_VIEWS_PER_USER) {
        throw new ApiError('INVALID_REQUEST', `You keep ${MAX_VIEWS_PER_USER} views in this program already; delete one first.`);
      }
      const view: QueueView = existing
        ? { ...existing, name, shared: input.shared, query: input.query, updatedAt: now }
        : { id: this.#deps.ids.next(), programId: ctx.program.id, ownerId: caller.user.id, name, shared: input.shared, query: input.query, createdAt: now, updatedAt: now };
      if (existing) await tx.queueViews.updateQueueView(view.id, view);
      else await tx.queueViews.insertQueueView(view);
      await this.#audit(tx, caller, ctx, 'queue.view.save', { viewId: view.id, shared: view.shared, replaced: existing !== null }, now);
      return summary(caller, view);
    });
  }

  /** Deletes one of the caller's own views. Audited. */
  async delete(caller: Caller, programRef: string, viewId: string): Promise<void> {
    const ctx = await this.#staffProgram(caller, programRef);
    const now = this.#deps.clock.now();
    await this.#deps.store.transaction(async (tx) => {
      const view = await this.#own(tx.queueViews, caller, ctx, viewId);
      await tx.queueViews.deleteQueueView(view.id);
      await this.#audit(tx, caller, ctx, 'queue.view.delete', { viewId: view.id }, now);
    });
  }

  // Another's personal view is reported missing (its existence is not the caller's business); a shared one is seen but not changed.
  async #own(views: Pick<ServiceDeps<'queueViews'>['store']['queueViews'], 'getQueueView'>, caller: Caller, ctx: ProgramContext, viewId: string): Promise<QueueView> {
    const view = await views.getQueueView(viewId);
    if (!view || view.programId !== ctx.program.id || (view.ownerId !== caller.user.id && !view.shared)) {
      throw new ApiError('NOT_FOUND', `Program ${ctx.program.id} has no view ${viewId} that you can see.`);
    }
    if (view.ownerId !== caller.user.id) throw new ApiError('FORBIDDEN', `View "${view.name}" is shared with you; only the staff member who saved it changes or deletes it.`);
    return view;
  }

  async #audit(tx: Parameters<Parameters<ServiceDeps['store']['transaction']>[0]>[0], caller: Caller, ctx: ProgramContext, action: string, detail: Record<string, unknown>, at: number) {
    await tx.audit.write({ action, actorId: caller.user.id, agencyId: ctx.program.agencyId, programId: ctx.program.id, projectId: null, requestId: caller.requestId, detail }, at, this.#deps.ids.next());
  }

  async #staffProgram(caller: Caller, programRef: string): Promise<ProgramContext> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', `The work queue's views of program ${ctx.program.id} are for its staff.`);
    return ctx;
  }
}

function summary(caller: Caller, v: QueueView): QueueViewSummary {
  return { viewId: v.id, name: v.name, shared: v.shared, query: v.query, mine: v.ownerId === caller.user.id };
}
