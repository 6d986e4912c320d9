import type { Automation } from '../../model/automation.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Project } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import type { ScheduleCursor, ScheduleRunKey } from '../../store/schedule-queries.ts';
import { localDateOf, startOfLocalDay } from '../calendar/local-date.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import { systemCaller, systemContext } from '../deadlines/deadline-poller.ts';
import { type BackgroundTask, clockPacedTask, type WorkLog } from '../events/background-work.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { conditionHolds } from './run-automations.ts';

/** How often the runner looks for a schedule whose time of day has come (ms): runs start within this of their time. */
export const SCHEDULE_POLL_MS = 60_000;

/** Projects read per page of a run; the run's place is saved after each page. */
export const SCHEDULE_PAGE = 200;

/** How long a run's lease lasts without news from its holder (ms); a run whose holder died is taken over after it. */
export const SCHEDULE_LEASE_MS = 120_000;

/** What the runner needs; `owner` names this instance in the leases it takes (a fresh id when left out). */
export interface ScheduleRunnerDeps extends ReactingDeps { store: Store; clock: Clock; ids: IdGenerator; publicUrl?: string; log?: WorkLog; owner?: string }

/** What one round did: runs finished, and projects the automations acted on. */
export interface ScheduleRound { finished: number; acted: number }

/**
 * Runs the scheduled automations whose time of day has come today (in the program calendar's time zone) and whose
 * day's run is not done: each over the program's projects (in the `when`'s status, if any) in creation order, and on
 * each project whose `if` holds, the automation's actions in a change of that project (changeProject: locked, one
 * transaction, audited as `automation.schedule` by the service, with the automation's run record). The project's
 * mark for the day is written in that change, so a run repeated after a crash, or by two instances, acts on a
 * project at most once a day; the run's saved place and its lease let another round continue a run that died.
 * A day the service was down from the time of day to midnight is not caught up the next day.
 */
export async function runSchedules(deps: ScheduleRunnerDeps): Promise<ScheduleRound> {
  const owner = deps.owner ?? deps.ids.next();
  const round: ScheduleRound = { finished: 0, acted: 0 };
  for (const programId of await deps.store.schedules.programsWithAutomations()) {
    const ctx = await systemContext(deps.store, programId);
    if (!ctx) continue;
    for (const a of ctx.program.automations ?? []) {
      if (a.when.trigger !== 'schedule' || !a.when.at) continue;
      const now = deps.clock.now();
      const zone = (ctx.program.calendar ?? DEFAULT_CALENDAR).timeZone;
      const day = scheduleDay(ctx, now);
      if (now < timeOfDay(day, a.when.at, zone)) continue;
      const key: ScheduleRunKey = { programId, automation: a.customId, day };
      if (await deps.store.schedules.scheduleRunDone(key)) continue;
      const cursor = await deps.store.schedules.claimScheduleRun(key, owner, now, now + SCHEDULE_LEASE_MS);
      if (cursor === undefined) continue;
      const done = await runOne(deps, ctx, a, key, owner, cursor, round);
      if (done) round.finished += 1;
    }
  }
  return round;
}

/** The local day of the program's calendar that `now` falls on: the day a schedule's runs and marks are for. */
export function scheduleDay(ctx: ProgramContext, now: number): string {
  return localDateOf(now, (ctx.program.calendar ?? DEFAULT_CALENDAR).timeZone);
}

/** The instant a local time of day (HH:MM) falls on a local date; across a DST jump, counted from local midnight. */
function timeOfDay(day: string, at: string, zone: string): number {
  const [h, m] = at.split(':').map(Number) as [number, number];
  return startOfLocalDay(day, zone) + (h * 60 + m) * 60_000;
}

/** Walks one day's run from its saved place; false when the lease was lost to another instance (it continues there). */
async function runOne(deps: ScheduleRunnerDeps, ctx: ProgramContext, a: Automation, key: ScheduleRunKey, owner: string, from: ScheduleCursor, round: ScheduleRound): Promise<boolean> {
  let cursor = from;
  for (;;) {
    const page = await deps.store.schedules.scheduleCandidates(ctx.program.id, a.when.statusId, cursor, SCHEDULE_PAGE);
    for (const candidate of page) {
      try {
        if (await actOn(deps, ctx, a, key, candidate.id)) round.acted += 1;
      } catch (error) {
        // One project's failure must not stop the day's run for the others; it is logged, and not retried today.
        deps.log?.warn({ err: error, projectId: candidate.id, automation: a.customId }, 'a scheduled automation failed on a project');
      }
    }
    if (page.length < SCHEDULE_PAGE) return deps.store.schedules.finishScheduleRun(key, owner, deps.clock.now());
    const last = page[page.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
    if (!(await deps.store.schedules.advanceScheduleRun(key, owner, cursor, deps.clock.now() + SCHEDULE_LEASE_MS))) return false;
  }
}

/** What a run now did: the day it counted for, the projects acted on, and those whose change failed. */
export interface ScheduleRunNow { day: string; acted: string[]; failed: string[] }

/** Who asked for a schedule to run now (RunAutomationSchedule): named in each project's record of the run. */
export interface RunNowRequest { userId: string }

/**
 * Runs the automation on one project when its condition holds and it has not run on it today. The condition is read
 * first without a lock (most projects are not selected, and cost no change), then again inside the change. The day's
 * mark is read and written in the locked change, so the daily run and a run asked for now act on a project once a day.
 */
async function actOn(deps: ScheduleRunnerDeps, ctx: ProgramContext, a: Automation, key: ScheduleRunKey, projectId: string, asked?: RunNowRequest): Promise<boolean> {
  const { store } = deps;
  const seen = await store.projects.getProject(ctx.program.id, projectId);
  if (!seen) return false;
  if ((await store.schedules.scheduleMark(ctx.program.id, a.customId, projectId)) === key.day) return false;
  if (!(await conditionHolds(store, ctx, a, seen, deps.clock.now()))) return false;
  return changeProject(deps, systemCaller(ctx.program), ctx, projectId, {
    action: 'automation.schedule', access: 'read',
    act: async ({ tx, project, now }) => {
      const done = (await tx.schedules.scheduleMark(ctx.program.id, a.customId, project.id)) === key.day;
      if (done || (a.when.statusId !== null && project.statusId !== a.when.statusId) || !(await conditionHolds(tx, ctx, a, project, now))) {
        return { changed: false, result: () => false };
      }
      await tx.schedules.markScheduled(ctx.program.id, a.customId, project.id, key.day);
      return { detail: { automation: a.customId, day: key.day, ...(asked ? { requestedBy: asked.userId } : {}) }, result: () => true };
    },
  });
}

/** A project a schedule selects now, and whether it was acted on today already (a run now passes it by). */
export interface ScheduleSelection { project: Project; doneToday: boolean }

/**
 * The projects a schedule selects now, in creation order, as its run would: in the `when`'s status (if any) and with
 * its condition holding, read without locks; each says whether the automation already acted on it today.
 */
export async function scheduleSelection(deps: Pick<ScheduleRunnerDeps, 'store' | 'clock'>, ctx: ProgramContext, a: Automation): Promise<{ day: string; selected: ScheduleSelection[] }> {
  const now = deps.clock.now();
  const day = scheduleDay(ctx, now);
  const selected: ScheduleSelection[] = [];
  await eachCandidate(deps, ctx, a, async (id) => {
    const project = await deps.store.projects.getProject(ctx.program.id, id);
    if (!project || !(await conditionHolds(deps.store, ctx, a, project, now))) return;
    selected.push({ project, doneToday: (await deps.store.schedules.scheduleMark(ctx.program.id, a.customId, id)) === day });
  });
  return { day, selected };
}

/**
 * Runs a schedule now, outside its time of day (RunAutomationSchedule): every project it selects and has not acted on
 * today gets the automation in a change of its own, as the daily run does, with the same mark for the day; so the
 * daily run later that day passes those projects by, and a second run now acts on none. Returns the day and the
 * projects acted on. The changes are the service's (systemContext), whatever the asking caller's role; the day's run
 * itself (its place and lease) is left alone.
 */
export async function runScheduleNow(deps: ScheduleRunnerDeps, asked: ProgramContext, a: Automation, by: RunNowRequest): Promise<ScheduleRunNow> {
  // As the service, as the daily run: the caller's own role (runAutomations alone, say) need not read the projects.
  const ctx = await systemContext(deps.store, asked.program.id);
  if (!ctx) return { day: scheduleDay(asked, deps.clock.now()), acted: [], failed: [] };
  const key: ScheduleRunKey = { programId: ctx.program.id, automation: a.customId, day: scheduleDay(ctx, deps.clock.now()) };
  const done: ScheduleRunNow = { day: key.day, acted: [], failed: [] };
  await eachCandidate(deps, ctx, a, async (id) => {
    try {
      if (await actOn(deps, ctx, a, key, id, by)) done.acted.push(id);
    } catch (error) {
      // As in the daily run: one project's failure does not stop the others; it is logged and reported.
      deps.log?.warn({ err: error, projectId: id, automation: a.customId }, 'a scheduled automation run now failed on a project');
      done.failed.push(id);
    }
  });
  return done;
}

/** Calls `visit` on each of the schedule's candidates (the program's projects, in the `when`'s status), page by page. */
async function eachCandidate(deps: Pick<ScheduleRunnerDeps, 'store'>, ctx: ProgramContext, a: Automation, visit: (id: string) => Promise<void>): Promise<void> {
  let cursor: ScheduleCursor = null;
  for (;;) {
    const page = await deps.store.schedules.scheduleCandidates(ctx.program.id, a.when.statusId, cursor, SCHEDULE_PAGE);
    for (const candidate of page) await visit(candidate.id);
    if (page.length < SCHEDULE_PAGE) return;
    const last = page[page.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The background task that runs due schedules every SCHEDULE_POLL_MS (or `intervalMs`). Background work is woken
 * after every change; a wake within half the interval of the last round is let go, as a schedule is daily.
 */
export function scheduleTask(deps: ScheduleRunnerDeps, intervalMs = SCHEDULE_POLL_MS): BackgroundTask {
  return clockPacedTask('automation schedule', deps.clock, intervalMs, () => runSchedules(deps));
}
