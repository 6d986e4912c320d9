import type { Status } from '../../model/model.ts';
import { dayOf, monthOf, type SummaryCount, weekOf } from '../../store/dashboard-queries.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { accessGroupNames } from '../projects/assignable-staff.ts';
import { loadProgram, type ProgramContext } from '../projects/project-context.ts';
import { groupLimit, isStaff } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { percentileOfBuckets } from './bucket-percentile.ts';
import { isTestProgram } from '../test-program.ts';

const DAY = 86_400_000;

/** The weeks the submissions figure covers, the current one last. */
export const SUBMISSION_WEEKS = 26;
/** The months the cycle-time and deadline figures cover, the current one last; also the throughput window in weeks. */
export const RECENT_MONTHS = 12;
/** The weeks of status moves that count as a reviewer's throughput. */
export const THROUGHPUT_WEEKS = 12;

/** The aging buckets of time in the current status: [label, first day, first day of the next bucket]. */
export const AGING_BUCKETS: readonly [string, number, number][] = [
  ['0–6 days', 0, 7], ['7–13 days', 7, 14], ['14–29 days', 14, 30], ['30–59 days', 30, 60], ['60–89 days', 60, 90], ['90 days or more', 90, Infinity],
];

// The first day of the oldest aging bucket: no day before it is read (the status's total holds them).
const OLDEST_AGING_DAY = AGING_BUCKETS.at(-1)![1];

/** The figures of a dashboard, by the id that names each in its CSV download. */
export const FIGURE_IDS = ['status', 'submissions', 'cycle', 'aging', 'deadlines', 'reviewers'] as const;

/** One figure's id. */
export type FigureId = (typeof FIGURE_IDS)[number];

/** One figure: its title, a sentence saying what it shows, and its data as a table (the chart is drawn from it). */
export interface Figure {
  id: FigureId; title: string; description: string;
  columns: string[];
  rows: (string | number | null)[][];
}

/** A program's dashboard: every figure, as of `asOf` (epoch ms). */
export interface DashboardView {
  agencyName: string; programId: string; programName: string; asOf: number; figures: Figure[];
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  /** The names of the access groups the caller's grant is limited to (every figure counts only their projects); null for every project. */
  groups: string[] | null;
}

function sum(counts: SummaryCount[], pick: (c: SummaryCount) => string | null): Map<string, number> {
  const totals = new Map<string, number>();
  for (const c of counts) {
    const key = pick(c);
    if (key !== null) totals.set(key, (totals.get(key) ?? 0) + c.n);
  }
  return totals;
}

function days(ms: number): number {
  return Math.round((ms / DAY) * 10) / 10;
}

/** The `count` weeks (their Mondays) ending with the one of `now` in the zone, oldest first. */
function recentWeeks(now: number, count: number, zone: string): string[] {
  // Counted back on the calendar's dates, not by instants: a week with a clock change is still one week.
  const monday = Date.parse(weekOf(now, zone));
  return Array.from({ length: count }, (_, i) => dayOf(monday - (count - 1 - i) * 7 * DAY));
}

/** The `count` months (YYYY-MM) ending with the one of `now` in the zone, oldest first. */
function recentMonths(now: number, count: number, zone: string): string[] {
  const [year, month] = monthOf(now, zone).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => dayOf(Date.UTC(year, month - 1 - (count - 1 - i), 1)).slice(0, 7));
}

/**
 * A program's dashboard for its staff (the privilege readProjects): every figure is read from the summary counts
 * kept in each change's transaction (migration 036), so its cost does not grow with the number of projects.
 */
export class DashboardService {
  readonly #deps: ServiceDeps<'programs' | 'accounts' | 'dashboards'>;
  constructor(deps: ServiceDeps<'programs' | 'accounts' | 'dashboards'>) {
    this.#deps = deps;
  }

  /**
   * Every figure of the program's dashboard; staff only (FORBIDDEN for anyone else who may see the program). For a
   * grant limited to access groups every figure counts the projects of those groups only.
   */
  async view(caller: Caller, programRef: string): Promise<DashboardView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', `The dashboard of program ${ctx.program.id} is for its staff (the roles that read every project).`);
    // A grant limited to access groups sees the counts of its groups' projects only (kept apart, migration 060).
    const groups = groupLimit(ctx.role);
    const now = this.#deps.clock.now();
    // Days, weeks and months are the program's calendar's (the counts are kept in its zone, migration 044).
    const zone = ctx.program.calendar?.timeZone ?? 'UTC';
    const today = Date.parse(dayOf(now, zone));
    const weeks = recentWeeks(now, SUBMISSION_WEEKS, zone);
    const months = recentMonths(now, RECENT_MONTHS, zone);
    const throughputWeeks = weeks.slice(-THROUGHPUT_WEEKS);
    const read = this.#deps.store.dashboards;
    const id = ctx.program.id;
    const [agency, { totals, byDay }, submitted, cycles, ended, running, assigned, moves] = await Promise.all([
      this.#deps.store.accounts.findAgency(caller.user.agencyId),
      read.statusCounts(id, dayOf(today - (OLDEST_AGING_DAY - 1) * DAY), groups),
      read.summaryCounts(id, 'w', weeks[0], groups), read.summaryCounts(id, 'c', months[0], groups),
      read.summaryCounts(id, 'd', months[0], groups), read.summaryCounts(id, 'r', undefined, groups), read.summaryCounts(id, 'a', undefined, groups),
      read.summaryCounts(id, 'm', throughputWeeks[0], groups),
    ]);
    return {
      agencyName: agency?.name ?? '', programId: id, programName: ctx.program.name, testProgram: isTestProgram(ctx.program), asOf: now,
      groups: groups ? accessGroupNames(ctx.program, groups) : null,
      figures: [
        statusFigure(ctx, totals, groups !== undefined),
        submissionsFigure(weeks, submitted, zone),
        cycleFigure(ctx, months, cycles),
        agingFigure(ctx, today, zone, totals, byDay),
        deadlinesFigure(ctx, months, ended, running),
        await this.#reviewersFigure(ctx, throughputWeeks, assigned, moves),
      ],
    };
  }

  /** One figure of the dashboard (its CSV download). */
  async figure(caller: Caller, programRef: string, figureId: string): Promise<{ programId: string; figure: Figure }> {
    if (!(FIGURE_IDS as readonly string[]).includes(figureId)) {
      throw new ApiError('INVALID_PARAMETER', `The figure must be one of ${FIGURE_IDS.join(', ')}; got "${figureId.slice(0, 40)}".`);
    }
    const view = await this.view(caller, programRef);
    return { programId: view.programId, figure: view.figures.find((f) => f.id === figureId)! };
  }

  async #reviewersFigure(ctx: ProgramContext, weeks: string[], assigned: SummaryCount[], moves: SummaryCount[]): Promise<Figure> {
    const open = new Set(statusesOf(ctx).filter((s) => s.next.length > 0).map((s) => s.id));
    const workload = sum(assigned, (c) => (open.has(c.k2) ? c.k1 : null));
    const moved = sum(moves, (c) => c.k2);
    const ids = [...new Set([...workload.keys(), ...moved.keys()])];
    const users = new Map((await this.#deps.store.accounts.usersByIds(ids)).map((u) => [u.id, u]));
    const rows = ids.map((u): (string | number)[] => [users.get(u)?.name ?? u, workload.get(u) ?? 0, moved.get(u) ?? 0, Math.round(((moved.get(u) ?? 0) / weeks.length) * 10) / 10])
      .sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0])));
    return {
      id: 'reviewers', title: 'Workload and throughput per person',
      description: `For each person: the open projects assigned to them now, and the status moves after submission they made in the last ${weeks.length} weeks (from the week of ${weeks[0]}).`,
      columns: ['Person', 'Open projects assigned', `Moves in ${weeks.length} weeks`, 'Moves per week'], rows,
    };
  }
}

/** The program's statuses in workflow order, and retired ones that still hold projects after them. */
function statusesOf(ctx: ProgramContext): Status[] {
  return [...ctx.model.statuses, ...ctx.model.retired.statuses];
}

function statusFigure(ctx: ProgramContext, counts: SummaryCount[], limited: boolean): Figure {
  const totals = sum(counts, (c) => c.k1);
  const rows = statusesOf(ctx).filter((s) => ctx.model.statuses.includes(s) || totals.has(s.id)).map((s) => [s.name, totals.get(s.id) ?? 0]);
  const all = rows.reduce((n, r) => n + (r[1] as number), 0);
  return {
    id: 'status', title: 'Projects by status now',
    description: `How many of the ${limited ? `${all} projects of your access groups` : `program's ${all} projects`} are in each status now, in workflow order.`,
    columns: ['Status', 'Projects'], rows,
  };
}

function submissionsFigure(weeks: string[], counts: SummaryCount[], zone: string): Figure {
  const totals = sum(counts, (c) => c.k1);
  const rows = weeks.map((w) => [w, totals.get(w) ?? 0]);
  return {
    id: 'submissions', title: `Submissions per week, last ${weeks.length} weeks`,
    description: `Projects first submitted in each week (weeks start on Monday, ${zone}) from ${weeks[0]} to ${weeks.at(-1)}; ${rows.reduce((n, r) => n + (r[1] as number), 0)} in all.`,
    columns: ['Week of', 'Submissions'], rows,
  };
}

function cycleFigure(ctx: ProgramContext, months: string[], counts: SummaryCount[]): Figure {
  const histograms = new Map<string, Map<number, number>>();
  for (const c of counts) {
    const key = `${c.k1}\u0000${c.k2}`;
    const h = histograms.get(key) ?? new Map<number, number>();
    h.set(Number(c.k3), (h.get(Number(c.k3)) ?? 0) + c.n);
    histograms.set(key, h);
  }
  const rows: Figure['rows'] = [];
  const order = statusesOf(ctx).filter((s) => !s.isInitial);
  for (const month of months) {
    for (const s of order) {
      const h = histograms.get(`${month}\u0000${s.id}`);
      if (!h) continue;
      const n = [...h.values()].reduce((a, b) => a + b, 0);
      rows.push([month, s.name, n, days(percentileOfBuckets(h, 0.5)), days(percentileOfBuckets(h, 0.9))]);
    }
  }
  return {
    id: 'cycle', title: 'Cycle time from submission to each status, by month',
    description: `For projects that first reached a status in each month from ${months[0]} to ${months.at(-1)}: the days from their first submission, median and 90th percentile (within 5 %).`,
    columns: ['Month', 'Status reached', 'Projects', 'Median days', '90th percentile days'], rows,
  };
}

// The days read are those of the younger buckets; the oldest holds the rest of each status's projects, so the cost of
// the figure does not grow with the age of the program.
function agingFigure(ctx: ProgramContext, today: number, zone: string, totals: SummaryCount[], byDay: SummaryCount[]): Figure {
  const open = statusesOf(ctx).filter((s) => s.next.length > 0);
  const grid = new Map(open.map((s) => [s.id, AGING_BUCKETS.map(() => 0)]));
  const oldest = AGING_BUCKETS.length - 1;
  for (const c of totals) {
    const row = grid.get(c.k1);
    if (row) row[oldest] = c.n;
  }
  for (const c of byDay) {
    const row = grid.get(c.k2);
    if (!row) continue;
    const age = Math.max(0, Math.round((today - Date.parse(c.k1)) / DAY));
    const i = AGING_BUCKETS.findIndex(([, from, to]) => age >= from && age < to);
    if (i === oldest) continue;
    row[i] = row[i]! + c.n;
    row[oldest] = row[oldest]! - c.n;
  }
  const rows = open.filter((s) => ctx.model.statuses.includes(s) || grid.get(s.id)!.some((n) => n > 0)).map((s) => [s.name, ...grid.get(s.id)!]);
  return {
    id: 'aging', title: 'Time in the current status',
    description: `Projects in each status that allows a move onward, by whole days since they entered it (days in ${zone}).`,
    columns: ['Status', ...AGING_BUCKETS.map(([label]) => label)], rows,
  };
}

function deadlinesFigure(ctx: ProgramContext, months: string[], ended: SummaryCount[], runningCounts: SummaryCount[]): Figure {
  const names = new Map((ctx.model.program.deadlines ?? []).map((d) => [d.customId, d.name]));
  const cells = new Map<string, { met: number; missed: number; cancelled: number }>();
  const running = sum(runningCounts, (c) => c.k1);
  for (const c of ended) {
    const key = `${c.k1}\u0000${c.k2}`;
    const cell = cells.get(key) ?? { met: 0, missed: 0, cancelled: 0 };
    if (c.k3 === 'satisfied') cell.met += c.n;
    else if (c.k3 === 'passed') cell.missed += c.n;
    else cell.cancelled += c.n;
    cells.set(key, cell);
  }
  const rows = [...cells].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, cell]) => {
    const [month, deadline] = key.split('\u0000') as [string, string];
    return [month, names.get(deadline) ?? deadline, cell.met, cell.missed, cell.cancelled];
  });
  const runningText = [...running].map(([d, n]) => `${names.get(d) ?? d}: ${n}`).join('; ');
  return {
    id: 'deadlines', title: 'Deadlines met and missed, by month',
    description: `Deadlines that ended in each month from ${months[0]} to ${months.at(-1)}: met (satisfied in time), missed (passed) or cancelled. Running now: ${runningText || 'none'}.`,
    columns: ['Month', 'Deadline', 'Met', 'Missed', 'Cancelled'], rows,
  };
}
