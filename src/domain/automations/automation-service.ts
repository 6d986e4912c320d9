import type { Automation } from '../../model/automation.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { WorkLog } from '../events/background-work.ts';
import { loadProgramWith, loadReadableProject, type ProgramContext, statusById, versionOf } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { Store } from '../../store/store.ts';
import type { AtVersion } from '../views.ts';
import { runScheduleNow, scheduleSelection } from './schedule-runner.ts';

/** The most runs GetProjectAutomationRuns answers with: the project's latest. */
export const MAX_AUTOMATION_RUNS = 1000;

/** What one action of a run did: ran, or was skipped and why. */
export interface AutomationActionView { do: string; outcome: 'ran' | 'skipped'; reason: string | null }

/** One run of an automation on a project, as its `automation.run` record says. */
export interface AutomationRunView {
  at: number; automation: string; name: string; trigger: string; depth: number;
  outcome: 'ran' | 'partly ran' | 'skipped';
  /** Why the whole run was skipped (its condition, the chain's depth); null when it ran. */
  reason: string | null;
  actions: AutomationActionView[];
}

/** A project's automation runs, in the order they ran. */
export interface AutomationRunsView { projectId: string; runs: AutomationRunView[] }

/** A project as a schedule's preview or run names it. */
export interface ScheduledProjectView { projectId: string; number: string | null; status: string }

/** What a daily schedule selects now: the day it counts for, and each project with whether it was acted on that day. */
export interface SchedulePreviewView {
  automation: string; name: string; at: string; day: string;
  projects: (ScheduledProjectView & { doneToday: boolean })[];
}

/** What running a daily schedule now did: the projects acted on, and those whose change failed. */
export interface ScheduleRunView { automation: string; name: string; day: string; acted: ScheduledProjectView[]; failed: string[] }

/** What the service needs besides the usual: the whole store (a run now changes projects as the daily run does) and a log. */
export type AutomationServiceDeps = ServiceDeps & ReactingDeps & { store: Store; log?: WorkLog };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const OUTCOMES = ['ran', 'partly ran', 'skipped'] as const;

function runView(at: number, d: Record<string, unknown>): AutomationRunView {
  const actions = Array.isArray(d.actions) ? d.actions as Record<string, unknown>[] : [];
  const outcome = OUTCOMES.find((o) => o === d.outcome) ?? 'skipped';
  return {
    at, automation: str(d.automation) ?? '', name: str(d.name) ?? '', trigger: str(d.trigger) ?? '', depth: typeof d.depth === 'number' ? d.depth : 1,
    outcome, reason: str(d.reason),
    // Only what ran and why not: an action's summary (the addresses mailed, a field's value) stays in the audit log.
    actions: actions.map((x) => ({ do: str(x.do) ?? '', outcome: x.outcome === 'ran' ? 'ran' : 'skipped', reason: x.outcome === 'ran' ? null : str(x.reason) })),
  };
}

/**
 * What the program's automations did and may do, for staff and program admins (docs/programs.md, "Automations"):
 * a project's runs (GetProjectAutomationRuns), and a daily schedule's selection now and a run now (privilege runAutomations).
 */
export class AutomationService {
  readonly #deps: AutomationServiceDeps;
  constructor(deps: AutomationServiceDeps) {
    this.#deps = deps;
  }

  /**
   * A project's automation runs (audit action `automation.run`) in the order they ran, the latest MAX_AUTOMATION_RUNS:
   * for staff (privilege readProjects), who see them on the review page too.
   */
  async runs(caller: Caller, programRef: string, projectId: string): Promise<AtVersion<AutomationRunsView>> {
    const { store } = this.#deps;
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'readProjects', 'GetProjectAutomationRuns');
    const project = await loadReadableProject(store, caller, ctx, projectId);
    const rows = await store.audit.list({ projectId: project.id, action: 'automation.run', limit: MAX_AUTOMATION_RUNS });
    // One change's runs share its time; `seq` orders them.
    rows.sort((a, b) => a.at - b.at || Number(a.detail?.seq) - Number(b.detail?.seq));
    return { projectId: project.id, runs: rows.map((r) => runView(r.at, r.detail ?? {})), projectVersion: versionOf(project) };
  }

  /** The projects a daily schedule selects now (privilege runAutomations); nothing is written. */
  async schedulePreview(caller: Caller, programRef: string, automationRef: string): Promise<SchedulePreviewView> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'runAutomations', 'GetAutomationSchedule');
    const a = scheduleOf(ctx, automationRef);
    const { day, selected } = await scheduleSelection(this.#deps, ctx, a);
    return {
      automation: a.customId, name: a.name, at: a.when.at ?? '', day,
      projects: selected.map((s) => ({ ...projectRef(ctx, s.project), doneToday: s.doneToday })),
    };
  }

  /**
   * Runs a daily schedule now (privilege runAutomations): on each project it selects and has not acted on today, as the
   * daily run would, once a day however often it is asked; audited as `automation.schedule.run` by the caller, and on
   * each project as `automation.schedule` naming the caller (`requestedBy`).
   */
  async runSchedule(caller: Caller, programRef: string, automationRef: string): Promise<ScheduleRunView> {
    const { store, clock, ids } = this.#deps;
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'runAutomations', 'RunAutomationSchedule');
    const a = scheduleOf(ctx, automationRef);
    const done = await runScheduleNow(this.#deps, ctx, a, { userId: caller.user.id });
    await store.transaction((tx) => tx.audit.write({
      action: 'automation.schedule.run', actorId: caller.user.id, agencyId: ctx.program.agencyId, programId: ctx.program.id, projectId: null,
      requestId: caller.requestId, detail: { automation: a.customId, day: done.day, acted: done.acted.length, failed: done.failed.length },
    }, clock.now(), ids.next()));
    const acted = await Promise.all(done.acted.map((id) => store.projects.getProject(ctx.program.id, id)));
    return {
      automation: a.customId, name: a.name, day: done.day,
      acted: acted.flatMap((p) => (p ? [projectRef(ctx, p)] : [])), failed: done.failed,
    };
  }
}

function projectRef(ctx: ProgramContext, p: { id: string; number: string | null; statusId: string }): ScheduledProjectView {
  const status = statusById(ctx.model, p.statusId);
  return { projectId: p.id, number: p.number, status: status.customId ?? status.name };
}

/** The program's daily schedule of that customId, or NOT_FOUND listing the program's schedules. */
function scheduleOf(ctx: ProgramContext, ref: string): Automation {
  const schedules = (ctx.program.automations ?? []).filter((a) => a.when.trigger === 'schedule');
  const a = schedules.find((s) => s.customId === ref);
  if (a) return a;
  const known = schedules.length === 0 ? 'it has none' : `its schedules: ${schedules.map((s) => s.customId).join(', ')}`;
  throw new ApiError('NOT_FOUND', `Program ${ctx.program.id} has no daily schedule "${ref.slice(0, 100)}" (an automation with trigger: schedule); ${known}.`);
}
