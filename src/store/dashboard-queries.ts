import type { Kysely } from 'kysely';
import { localDateOf } from '../model/local-date.ts';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The kinds of summary counts the dashboards read (dashboard_counts.kind), each with what its keys k1, k2, k3 hold:
 * `t` projects now by status; `s` projects now by the UTC day they entered their status and the status (day, status);
 * `w` first submissions by week (Monday);
 * `c` first arrivals in a status after submission by month, status and duration bucket; `d` deadlines that ended by
 * month, definition and state; `r` running deadlines by definition; `a` assigned projects by assignee and status; `m`
 * status moves after submission by week and the person who made them. A kind the dashboard shows over a window of
 * time has its period first (k1), so the window is one range of the key however long the program has run.
 */
export type SummaryKind = 't' | 's' | 'w' | 'c' | 'd' | 'r' | 'a' | 'm';

/** One summary count of a program. */
export interface SummaryCount { k1: string; k2: string; k3: string; n: number }

type Fact = [SummaryKind, string, string, string];

// Formatting dates dominated the backfill of a million projects; a day's name is kept (one entry per day ever seen).
const dayNames = new Map<number, string>();
// Local days of other zones, by zone and quarter hour: every zone's offset is a whole number of quarter hours, so an
// instant's local date is that of its quarter hour. Dropped whole when it grows large (a backfill of many years).
const zoneDays = new Map<string, string>();
const QUARTER_HOUR = 900_000;

/** The day (YYYY-MM-DD) of an instant in a time zone (UTC unless given). */
export function dayOf(ms: number, timeZone = 'UTC'): string {
  if (timeZone !== 'UTC') {
    const key = `${timeZone} ${Math.floor(ms / QUARTER_HOUR)}`;
    let local = zoneDays.get(key);
    if (local === undefined) {
      if (zoneDays.size > 200_000) zoneDays.clear();
      local = localDateOf(Math.floor(ms / QUARTER_HOUR) * QUARTER_HOUR, timeZone);
      zoneDays.set(key, local);
    }
    return local;
  }
  const day = Math.floor(ms / DAY);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY).toISOString().slice(0, 10);
    dayNames.set(day, name);
  }
  return name;
}

/** The Monday (YYYY-MM-DD) of the week of an instant in a time zone (UTC unless given). */
export function weekOf(ms: number, timeZone = 'UTC'): string {
  const day = Math.floor(Date.parse(dayOf(ms, timeZone)) / DAY);
  // 1970-01-01 was a Thursday: three days after a Monday.
  return dayOf((day - ((day + 3) % 7)) * DAY);
}

/** The month (YYYY-MM) of an instant in a time zone (UTC unless given). */
export function monthOf(ms: number, timeZone = 'UTC'): string {
  return dayOf(ms, timeZone).slice(0, 7);
}

/** Buckets per doubling of a duration: each bucket spans a factor 2^(1/8) (9 %), so its middle is within 4.5 %. */
export const BUCKETS_PER_DOUBLING = 8;

/** The histogram bucket of a duration: 0 for under a minute, else 1 + floor(8 · log2(minutes)). */
export function durationBucket(ms: number): number {
  const minutes = ms / MINUTE;
  return minutes < 1 ? 0 : 1 + Math.floor(BUCKETS_PER_DOUBLING * Math.log2(minutes));
}

/** The duration a bucket stands for: its geometric middle (30 s for bucket 0). */
export function bucketMiddleMs(bucket: number): number {
  return bucket === 0 ? 30_000 : MINUTE * 2 ** ((bucket - 0.5) / BUCKETS_PER_DOUBLING);
}

interface ProjectRow { id: string; program_id: string; status_id: string; status_at: number; assignee_id: string | null; access_groups: string | null }
interface HistoryRow { project_id: string; status_id: string; changed_at: number; changed_by: string; automation: string | null }
interface DeadlineRow { project_id: string; deadline_id: string; state: string; ended_at: number | null }
interface FactRow { project_id: string; program_id: string; facts: string; groups: string | null }

/** The columns of a project that decide what it adds to the counts (its access groups decide where else they are counted). */
const PROJECT_COLUMNS = ['id', 'program_id', 'status_id', 'status_at', 'assignee_id', 'access_groups'] as const;

/**
 * The key of a set of access groups in dashboard_group_counts: the project's groups (projects.access_groups), sorted, as
 * JSON; null for a project in no group (no limited grant reaches it, so it is counted for nobody limited).
 */
export function groupSetKey(accessGroups: string | null): string | null {
  const groups = accessGroups === null ? [] : (JSON.parse(accessGroups) as string[]);
  return groups.length === 0 ? null : JSON.stringify([...groups].sort());
}

// What one project adds to its program's summary counts, from its row, its status history (in order) and its deadlines;
// days, weeks and months in the program's time zone.
function factsOf(p: ProjectRow, history: HistoryRow[], deadlines: DeadlineRow[], initial: Set<string>, zone: string): Fact[] {
  const facts: Fact[] = [['t', p.status_id, '', ''], ['s', dayOf(Number(p.status_at), zone), p.status_id, '']];
  if (p.assignee_id !== null) facts.push(['a', p.assignee_id, p.status_id, '']);
  const submission = history.findIndex((h) => !initial.has(h.status_id));
  if (submission >= 0) {
    const submittedAt = Number(history[submission]!.changed_at);
    facts.push(['w', weekOf(submittedAt, zone), '', '']);
    const reached = new Set(history.slice(0, submission + 1).map((h) => h.status_id));
    for (const h of history.slice(submission + 1)) {
      const at = Number(h.changed_at);
      // A person's moves only: an automation's, though made in the name of whoever triggered it, are nobody's work.
      if (h.automation === null) facts.push(['m', weekOf(at, zone), h.changed_by, '']);
      if (reached.has(h.status_id)) continue;
      reached.add(h.status_id);
      facts.push(['c', monthOf(at, zone), h.status_id, String(durationBucket(at - submittedAt))]);
    }
  }
  for (const d of deadlines) facts.push(d.ended_at === null ? ['r', d.deadline_id, '', ''] : ['d', monthOf(Number(d.ended_at), zone), d.deadline_id, d.state]);
  return facts;
}

function keyOf(programId: string, f: Fact): string {
  return JSON.stringify([programId, ...f]);
}

function groupBy<T extends { project_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const r of rows) {
    const list = map.get(r.project_id);
    if (list) list.push(r);
    else map.set(r.project_id, [r]);
  }
  return map;
}

/**
 * Brings the summary counts up to date with the projects named: each project's contribution is computed afresh from
 * its row, history and deadlines, compared with what it contributed before (dashboard_facts), and only the difference
 * is applied. A project that no longer exists takes its contribution away. Counts are written in key order, so that
 * concurrent transactions lock shared count rows in one order (no deadlock on PostgreSQL).
 */
export async function refreshSummaries(db: Db, projectIds: string[]): Promise<void> {
  if (projectIds.length === 0) return;
  const [projects, history, deadlines, previous] = await Promise.all([
    db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', 'in', projectIds).execute(),
    db.selectFrom('status_history').select(['project_id', 'status_id', 'changed_at', 'changed_by', 'automation']).where('project_id', 'in', projectIds)
      .orderBy('project_id').orderBy('seq').execute(),
    db.selectFrom('project_deadlines').select(['project_id', 'deadline_id', 'state', 'ended_at']).where('project_id', 'in', projectIds).execute(),
    db.selectFrom('dashboard_facts').select(['project_id', 'program_id', 'facts', 'groups']).where('project_id', 'in', projectIds).execute(),
  ]);
  await applyFacts(db, projects, history, deadlines, previous);
}

// Computes the projects' facts afresh, writes those that changed, and applies the difference to the counts: the
// program's, and those of the project's set of access groups (dashboard_group_counts, read for limited grants).
async function applyFacts(db: Db, projects: ProjectRow[], history: HistoryRow[], deadlines: DeadlineRow[], previous: FactRow[]): Promise<void> {
  const programIds = [...new Set(projects.map((p) => p.program_id))];
  const initial = new Set(programIds.length === 0 ? [] : (await db.selectFrom('statuses').select('id')
    .where('program_id', 'in', programIds).where('is_initial', '=', 1).execute()).map((s) => s.id));
  const zones = await zonesOf(db, programIds);
  const deltas = new Map<string, number>();
  const groupDeltas = new Map<string, number>();
  const add = (programId: string, groups: string | null, facts: Fact[], by: number) => {
    for (const f of facts) {
      const key = keyOf(programId, f);
      deltas.set(key, (deltas.get(key) ?? 0) + by);
      if (groups === null) continue;
      const groupKey = JSON.stringify([programId, ...f, groups]);
      groupDeltas.set(groupKey, (groupDeltas.get(groupKey) ?? 0) + by);
    }
  };
  const oldFacts = new Map(previous.map((r) => [r.project_id, r]));
  for (const r of previous) add(r.program_id, r.groups, JSON.parse(r.facts) as Fact[], -1);
  const historyOf = groupBy(history);
  const deadlinesOf = groupBy(deadlines);
  const rows: FactRow[] = [];
  for (const p of projects) {
    const facts = factsOf(p, historyOf.get(p.id) ?? [], deadlinesOf.get(p.id) ?? [], initial, zones.get(p.program_id) ?? 'UTC');
    const groups = groupSetKey(p.access_groups);
    add(p.program_id, groups, facts, 1);
    const text = JSON.stringify(facts);
    const old = oldFacts.get(p.id);
    if (old?.facts !== text || (old.groups ?? null) !== groups) rows.push({ project_id: p.id, program_id: p.program_id, facts: text, groups });
  }
  const present = new Set(projects.map((p) => p.id));
  const gone = previous.filter((r) => !present.has(r.project_id)).map((r) => r.project_id);
  if (gone.length > 0) await db.deleteFrom('dashboard_facts').where('project_id', 'in', gone).execute();
  for (let i = 0; i < rows.length; i += 2000) {
    await db.insertInto('dashboard_facts').values(rows.slice(i, i + 2000))
      .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ facts: eb.ref('excluded.facts'), program_id: eb.ref('excluded.program_id'), groups: eb.ref('excluded.groups') }))).execute();
  }
  await applyDeltas(db, 'dashboard_counts', deltas);
  await applyDeltas(db, 'dashboard_group_counts', groupDeltas);
}

const COUNT_KEYS = { dashboard_counts: ['program_id', 'kind', 'k1', 'k2', 'k3'], dashboard_group_counts: ['program_id', 'kind', 'k1', 'k2', 'k3', 'groups'] } as const;

// Adds the differences (by their JSON keys, in COUNT_KEYS' order) to one table of counts, in key order, so that
// concurrent transactions lock shared count rows in one order (no deadlock on PostgreSQL); a count that fell to
// nothing goes, so the table holds only what some project contributes.
async function applyDeltas(db: Db, table: keyof typeof COUNT_KEYS, deltas: Map<string, number>): Promise<void> {
  const columns = COUNT_KEYS[table];
  const changed = [...deltas].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const values = changed.map(([key, n]) => {
    const parts = JSON.parse(key) as string[];
    return { ...Object.fromEntries(columns.map((c, i) => [c, parts[i]!])), n } as Record<string, string> & { n: number };
  });
  // Both tables share their columns but `groups`; Kysely's types take one table at a time.
  const t = db as unknown as Kysely<Record<string, Record<string, string | number>>>;
  for (let i = 0; i < values.length; i += 2000) {
    await t.insertInto(table).values(values.slice(i, i + 2000))
      .onConflict((oc) => oc.columns([...columns]).doUpdateSet((eb) => ({ n: eb(eb.ref(`${table}.n`), '+', eb.ref('excluded.n')) })))
      .execute();
  }
  for (const v of values.filter((x) => x.n < 0)) {
    let q = t.deleteFrom(table).where('n', '<=', 0);
    for (const c of columns) q = q.where(c, '=', v[c]!);
    await q.execute();
  }
}

/** The time zone of a program's calendar (programs.calendar), UTC without one. */
function calendarZone(calendar: string | null): string {
  const zone = calendar === null ? undefined : (JSON.parse(calendar) as { timeZone?: unknown }).timeZone;
  return typeof zone === 'string' ? zone : 'UTC';
}

// The zone each program's counts are kept in: the one noted in dashboard_zones, or, for a program counted for the first
// time, its calendar's, noted now. A calendar's zone changed by an import is taken up by rezoneSummaries.
async function zonesOf(db: Db, programIds: string[]): Promise<Map<string, string>> {
  if (programIds.length === 0) return new Map();
  const zones = new Map((await db.selectFrom('dashboard_zones').select(['program_id', 'time_zone']).where('program_id', 'in', programIds).execute())
    .map((r) => [r.program_id, r.time_zone]));
  const missing = programIds.filter((id) => !zones.has(id));
  if (missing.length > 0) {
    const programs = await db.selectFrom('programs').select(['id', 'calendar']).where('id', 'in', missing).execute();
    for (const p of programs) zones.set(p.id, calendarZone(p.calendar));
    if (programs.length > 0) {
      await db.insertInto('dashboard_zones').values(programs.map((p) => ({ program_id: p.id, time_zone: zones.get(p.id)! })))
        .onConflict((oc) => oc.column('program_id').doNothing()).execute();
    }
  }
  return zones;
}

/** The zone a program's counts are kept in and its calendar's zone now (they differ after an import changed it). */
export async function summaryZones(db: Db, programId: string): Promise<{ kept: string | null; calendar: string }> {
  const [kept, program] = await Promise.all([
    db.selectFrom('dashboard_zones').select('time_zone').where('program_id', '=', programId).executeTakeFirst(),
    db.selectFrom('programs').select('calendar').where('id', '=', programId).executeTakeFirst(),
  ]);
  return { kept: kept?.time_zone ?? null, calendar: calendarZone(program?.calendar ?? null) };
}

/**
 * Moves a program's counts to its calendar's zone after an import changed it: the zone is noted first (so every change
 * from then on counts in it), then every project is refreshed, a page at a time in id order, each page in a transaction
 * of its own that locks its projects (PostgreSQL), as a change step would. Returns the projects refreshed.
 */
export async function rezoneSummaries(db: Db, dialect: Dialect, programId: string, zone: string, pageSize = 500): Promise<number> {
  await db.insertInto('dashboard_zones').values({ program_id: programId, time_zone: zone })
    .onConflict((oc) => oc.column('program_id').doUpdateSet({ time_zone: zone })).execute();
  let after = '';
  let done = 0;
  for (;;) {
    const ids = (await db.selectFrom('projects').select('id').where('program_id', '=', programId).where('id', '>', after).orderBy('id').limit(pageSize).execute()).map((r) => r.id);
    if (ids.length === 0) return done;
    await db.transaction().execute(async (tx) => {
      if (dialect === 'postgres') await tx.selectFrom('projects').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
      await refreshSummaries(tx, ids);
    });
    done += ids.length;
    after = ids.at(-1)!;
  }
}

/**
 * Fills the summary tables from every existing project, a page of projects at a time in id order (migration 036, and
 * tests' from-scratch recount). The tables must be empty: each page is read by id range, history and deadlines too.
 */
export async function backfillSummaries(db: Db, pageSize = 5000): Promise<void> {
  let after = '';
  for (;;) {
    const projects = await db.selectFrom('projects').select(PROJECT_COLUMNS)
      .where('id', '>', after).orderBy('id').limit(pageSize).execute();
    if (projects.length === 0) return;
    const first = projects[0]!.id;
    const last = projects.at(-1)!.id;
    const [history, deadlines] = await Promise.all([
      db.selectFrom('status_history').select(['project_id', 'status_id', 'changed_at', 'changed_by', 'automation'])
        .where('project_id', '>=', first).where('project_id', '<=', last).orderBy('project_id').orderBy('seq').execute(),
      db.selectFrom('project_deadlines').select(['project_id', 'deadline_id', 'state', 'ended_at'])
        .where('project_id', '>=', first).where('project_id', '<=', last).execute(),
    ]);
    await applyFacts(db, projects, history, deadlines, []);
    after = last;
  }
}

/**
 * A program's summary counts of one kind, those whose k1 is at least `from` when given; with `groups` (a grant limited
 * to access groups), of the projects in at least one of them only: the counts of every set of groups that meets
 * them, each project counted once (under the one set it is in).
 */
export async function summaryCounts(db: Db, programId: string, kind: SummaryKind, from?: string, groups?: readonly string[]): Promise<SummaryCount[]> {
  if (groups !== undefined) return groupCounts(db, programId, kind, from, groups);
  let q = db.selectFrom('dashboard_counts').select(['k1', 'k2', 'k3', 'n']).where('program_id', '=', programId).where('kind', '=', kind);
  if (from !== undefined) q = q.where('k1', '>=', from);
  const rows = await q.execute();
  return rows.map((r) => ({ k1: r.k1, k2: r.k2, k3: r.k3, n: Number(r.n) }));
}

// The counts of one kind of the sets of access groups that meet `groups`, summed by key; with a second kind `also`,
// the first kind's whole and the second's from `from` (statusCounts), each with its kind.
async function groupCounts(db: Db, programId: string, kind: SummaryKind, from: string | undefined, groups: readonly string[], also?: SummaryKind): Promise<(SummaryCount & { kind: string })[]> {
  let q = db.selectFrom('dashboard_group_counts').select(['groups', 'kind', 'k1', 'k2', 'k3', 'n']).where('program_id', '=', programId);
  q = also === undefined
    ? q.where('kind', '=', kind).$if(from !== undefined, (w) => w.where('k1', '>=', from!))
    : q.where((eb) => eb.or([eb('kind', '=', kind), eb.and([eb('kind', '=', also), eb('k1', '>=', from!)])]));
  const wanted = new Set(groups);
  const sums = new Map<string, SummaryCount & { kind: string }>();
  for (const r of await q.execute()) {
    if (!(JSON.parse(r.groups) as string[]).some((g) => wanted.has(g))) continue;
    const key = JSON.stringify([r.kind, r.k1, r.k2, r.k3]);
    const held = sums.get(key);
    if (held) held.n += Number(r.n);
    else sums.set(key, { kind: r.kind, k1: r.k1, k2: r.k2, k3: r.k3, n: Number(r.n) });
  }
  return [...sums.values()];
}

/**
 * A program's projects by status now (kind `t`) and by the day they entered it from `fromDay` (kind `s`), read in one
 * statement so that they agree: the aging figure takes the days before `fromDay` as the total less the days read.
 * With `groups`, of the projects in at least one of those access groups only.
 */
export async function statusCounts(db: Db, programId: string, fromDay: string, groups?: readonly string[]): Promise<{ totals: SummaryCount[]; byDay: SummaryCount[] }> {
  const rows = groups !== undefined ? await groupCounts(db, programId, 't', fromDay, groups, 's')
    : await db.selectFrom('dashboard_counts').select(['kind', 'k1', 'k2', 'k3', 'n']).where('program_id', '=', programId)
      .where((eb) => eb.or([eb('kind', '=', 't'), eb.and([eb('kind', '=', 's'), eb('k1', '>=', fromDay)])])).execute();
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => ({ k1: r.k1, k2: r.k2, k3: r.k3, n: Number(r.n) }));
  return { totals: of('t'), byDay: of('s') };
}

/** The dashboards' summary reads. */
export function dashboardReader(db: Db) {
  return bindDb(db, { summaryCounts, statusCounts });
}

// How many noted projects a flush refreshes at a time (each a bound list of ids in its statements).
const FLUSH_PAGE = 1000;

/**
 * The summaries inside a transaction: `touch` notes a changed project, and `flush` (run by the store just before the
 * commit) refreshes each noted project once, however many records its change wrote.
 */
export function dashboardRepository(db: Db) {
  const touched = new Set<string>();
  return {
    ...dashboardReader(db),
    touch(projectId: string): void {
      touched.add(projectId);
    },
    async flush(): Promise<void> {
      if (touched.size === 0) return;
      const ids = [...touched];
      touched.clear();
      // An import's recount of access groups may note a whole program: a page of projects at a time.
      for (let i = 0; i < ids.length; i += FLUSH_PAGE) await refreshSummaries(db, ids.slice(i, i + FLUSH_PAGE));
    },
  };
}

/** Keeping each program's counts in its calendar's zone: where they stand, and moving them (transactions of its own). */
export function dashboardZoneKeeper(db: Db, dialect: Dialect) {
  return {
    summaryZones: (programId: string) => summaryZones(db, programId),
    rezoneSummaries: (programId: string, zone: string) => rezoneSummaries(db, dialect, programId, zone),
  };
}

/** Keeping each program's dashboard counts in its calendar's zone. */
export type DashboardZoneKeeper = ReturnType<typeof dashboardZoneKeeper>;

/** The dashboards' summary reads. */
export type DashboardReader = ReturnType<typeof dashboardReader>;
/** The summaries in a transaction: note changed projects, refresh them before the commit. */
export type DashboardRepository = ReturnType<typeof dashboardRepository>;
