import type { DeadlineDefinition, ProgramModel, Project } from '../../model/model.ts';
import type { ProjectDeadline } from '../../store/deadline-queries.ts';
import type { StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { dueOf } from '../calendar/due-date.ts';
import { isDate } from '../calendar/local-date.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import type { Caller } from '../caller.ts';
import { changeProject } from '../projects/change-project.ts';
import { loadProgram, loadProgramWith, loadReadableProject, loadReadableProjectByRef, type ProgramContext, versionOf } from '../projects/project-context.ts';
import { hasPrivilege, isStaff } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { AtVersion } from '../views.ts';

/** One deadline of a project as people and clients see it. */
export interface DeadlineView {
  customId: string; name: string; state: ProjectDeadline['state']; startedAt: number;
  /** The last local day it allows ("by 12 Dec 2026"), YYYY-MM-DD. */
  dueDate: string;
  /** When it passes: the start of the local day after dueDate in the program's time zone. */
  dueAt: number;
  endedAt: number | null;
  /** Running past its due time (the poller has not fired it yet) or passed. */
  overdue: boolean;
  shownToApplicant: boolean;
}

/** A project's deadlines, and the version of the project they were read at. */
export interface DeadlinesView { projectId: string; deadlines: DeadlineView[] }

/** The review page's deadlines: every deadline the program defines (with its state on the project, if started) and whether the caller may act on them. */
export interface DeadlineBoardView {
  canManage: boolean;
  rows: { customId: string; name: string; current: DeadlineView | null }[];
}

/** What ends a running deadline by hand. */
type Ending = 'satisfied' | 'cancelled';

const ENDINGS = {
  satisfied: { action: 'project.deadline.satisfy', operation: 'SatisfyProjectDeadline' },
  cancelled: { action: 'project.deadline.cancel', operation: 'CancelProjectDeadline' },
} as const;

/** A deadline the program defines, by customId; NOT_FOUND naming the program's deadlines otherwise. */
export function findDeadline(model: ProgramModel, ref: string): DeadlineDefinition {
  const all = model.program.deadlines ?? [];
  const d = all.find((x) => x.customId === ref);
  if (!d) {
    const known = all.length > 0 ? `; its deadlines are ${all.map((x) => x.customId).join(', ')}` : '; it has none';
    throw new ApiError('NOT_FOUND', `Deadline "${ref}" was not found in program ${model.program.id}${known}.`);
  }
  return d;
}

/** A stored deadline as shown at `now`; a row whose definition the program file no longer has keeps its customId as name. */
export function deadlineView(model: ProgramModel, d: ProjectDeadline, now: number): DeadlineView {
  const def = (model.program.deadlines ?? []).find((x) => x.customId === d.deadlineId);
  return {
    customId: d.deadlineId, name: def?.name ?? d.deadlineId, state: d.state, startedAt: d.startedAt, dueDate: d.dueDate, dueAt: d.dueAt,
    endedAt: d.endedAt, overdue: d.state === 'passed' || (d.state === 'running' && d.dueAt <= now), shownToApplicant: def?.shownToApplicant ?? true,
  };
}

/**
 * Starts, satisfies, cancels and lists a project's deadlines; each change goes through changeProject (one
 * transaction, project locked, audit row, deadline.* event). Starting a running deadline restarts it from now.
 */
export class DeadlineService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'deadlines'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'deadlines'> & ReactingDeps) {
    this.#deps = deps;
  }

  /** GetProjectDeadlines: every deadline of a project for staff; for its applicant only those shown to applicants. */
  async list(caller: Caller, programRef: string, projectId: string): Promise<AtVersion<DeadlinesView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectId);
    const rows = await this.#deps.store.deadlines.listProjectDeadlines(project.id);
    return { ...this.#viewsOf(ctx, rows, this.#deps.clock.now()), projectId: project.id, projectVersion: versionOf(project) };
  }

  /** The deadlines of a project as `list` shows them, for a page that already loaded the project. */
  async deadlinesOf(ctx: ProgramContext, project: Project): Promise<DeadlineView[]> {
    return this.#viewsOf(ctx, await this.#deps.store.deadlines.listProjectDeadlines(project.id), this.#deps.clock.now()).deadlines;
  }

  /** The review page's list: each defined deadline with its current state, then rows of deadlines the file no longer has. */
  async board(caller: Caller, programRef: string, projectId: string): Promise<DeadlineBoardView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const views = await this.deadlinesOf(ctx, project);
    const defined = (ctx.program.deadlines ?? []).filter((d) => isStaff(ctx.role) || d.shownToApplicant);
    const rows = defined.map((d) => ({ customId: d.customId, name: d.name, current: views.find((v) => v.customId === d.customId) ?? null }));
    for (const v of views) if (!defined.some((d) => d.customId === v.customId)) rows.push({ customId: v.customId, name: v.name, current: v });
    return { canManage: hasPrivilege(ctx.role, 'manageDeadlines'), rows };
  }

  #viewsOf(ctx: ProgramContext, rows: ProjectDeadline[], now: number): { deadlines: DeadlineView[] } {
    const views = rows.map((d) => deadlineView(ctx.model, d, now));
    return { deadlines: isStaff(ctx.role) ? views : views.filter((v) => v.shownToApplicant) };
  }

  /**
   * StartProjectDeadline (privilege manageDeadlines): runs the deadline from now, due by the day its duration gives
   * in the program's calendar. A deadline already running is restarted (its row rewritten; the audit log keeps both).
   */
  async start(caller: Caller, programRef: string, projectId: string, deadlineRef: string): Promise<AtVersion<DeadlineView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'manageDeadlines', 'StartProjectDeadline');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const def = findDeadline(ctx.model, deadlineRef);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.deadline.start', access: 'read',
      act: async ({ tx, project, now }) => {
        const { row, detail } = await startDeadlineIn(tx, this.#deps.ids, ctx, project, def, now, caller.user.id);
        return {
          detail,
          result: (updated) => ({
            ...deadlineView(ctx.model, { ...row, state: 'running', endedAt: null, endedBy: null }, now), projectVersion: versionOf(updated),
          }),
        };
      },
    });
  }

  /** SatisfyProjectDeadline (privilege manageDeadlines): ends a running deadline as met. */
  satisfy(caller: Caller, programRef: string, projectId: string, deadlineRef: string): Promise<AtVersion<DeadlineView>> {
    return this.#end(caller, programRef, projectId, deadlineRef, 'satisfied');
  }

  /** CancelProjectDeadline (privilege manageDeadlines): ends a running deadline as no longer needed. */
  cancel(caller: Caller, programRef: string, projectId: string, deadlineRef: string): Promise<AtVersion<DeadlineView>> {
    return this.#end(caller, programRef, projectId, deadlineRef, 'cancelled');
  }

  async #end(caller: Caller, programRef: string, projectId: string, deadlineRef: string, state: Ending): Promise<AtVersion<DeadlineView>> {
    const { action, operation } = ENDINGS[state];
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'manageDeadlines', operation);
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const def = findDeadline(ctx.model, deadlineRef);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action, access: 'read',
      act: async ({ tx, project, now }) => {
        const row = (await tx.deadlines.listProjectDeadlines(project.id)).find((d) => d.deadlineId === def.customId);
        // Re-checked on the locked project: a deadline that passed (or was ended) a moment ago stays as it ended.
        if (!row || row.state !== 'running') {
          throw new ApiError('CONFLICT', `Deadline "${def.customId}" is not running on project ${project.id} (${row ? row.state : 'never started'}); nothing was changed.`);
        }
        const detail = await endDeadlineIn(tx, row, def, state, now, caller.user.id);
        return {
          detail,
          result: (updated) => ({ ...deadlineView(ctx.model, { ...row, state, endedAt: now, endedBy: caller.user.id }, now), projectVersion: versionOf(updated) }),
        };
      },
    });
  }
}

/** The audit detail of a deadline's start or end, from which its deadline.* event is made. */
export type DeadlineDetail = Record<string, unknown> & { deadlineId: string; dueAt: number };

/**
 * Starts (or restarts) `def` on a locked project in the change's transaction: due by the day its duration gives in the
 * program's calendar. The one place a deadline starts, for staff (StartProjectDeadline) and automations alike.
 */
export async function startDeadlineIn(
  tx: StoreWriter, ids: { next(): string }, ctx: ProgramContext, project: Project, def: DeadlineDefinition, now: number, by: string,
): Promise<{ row: Omit<ProjectDeadline, 'state' | 'endedAt' | 'endedBy'>; detail: DeadlineDetail }> {
  const due = dueOf(ctx.program.calendar ?? DEFAULT_CALENDAR, now, def.duration, await untilDate(tx, project, def));
  if (!due) throw noDueDate(def);
  const prior = (await tx.deadlines.listProjectDeadlines(project.id)).find((d) => d.deadlineId === def.customId);
  const row = {
    id: prior?.id ?? ids.next(), projectId: project.id, programId: ctx.program.id, deadlineId: def.customId,
    startedAt: now, dueDate: due.dueDate, dueAt: due.dueAt, startedBy: by,
  };
  await tx.deadlines.startProjectDeadline(row);
  return {
    row,
    detail: { deadlineId: def.customId, dueAt: due.dueAt, dueDate: due.dueDate, shownToApplicant: def.shownToApplicant, ...(prior?.state === 'running' ? { restarted: true } : {}) },
  };
}

/** Ends a running deadline row as satisfied or cancelled in the change's transaction; the caller checked it runs. */
export async function endDeadlineIn(tx: StoreWriter, row: ProjectDeadline, def: DeadlineDefinition, state: 'satisfied' | 'cancelled', now: number, by: string): Promise<DeadlineDetail> {
  await tx.deadlines.endProjectDeadline(row.id, state, now, by);
  return { deadlineId: def.customId, dueAt: row.dueAt, dueDate: row.dueDate, shownToApplicant: def.shownToApplicant };
}

/** The date an untilField deadline runs to: the field's submitted value, else its draft's is not used (null). */
async function untilDate(tx: StoreWriter, project: Project, def: DeadlineDefinition): Promise<string | null> {
  if (!('untilField' in def.duration)) return null;
  const [value] = await tx.projects.getValues(project.id, [def.duration.untilField]);
  const date = value?.value ?? value?.values?.[0] ?? null;
  return date !== null && isDate(date) ? date : null;
}

function noDueDate(def: DeadlineDefinition): ApiError {
  const why = 'untilField' in def.duration ? 'its date field has no submitted date' : 'the program\'s calendar has no working day';
  return new ApiError('CONFLICT', `Deadline "${def.customId}" cannot start: ${why}; nothing was changed.`);
}
