import { type Kysely, PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { FieldCondition, SearchTuning } from '../model/records.ts';
import type { Project } from '../model/model.ts';
import { toProject } from './project-queries.ts';
import { codePointCollation, DRIVE_PAST_WINDOW, hasIdSet, drivenIds, planSearch, type QueueKey, type SearchPlan, searchConditions, WALK_WINDOW } from './search-queries.ts';
import type { Database } from './tables.ts';
import { ATTENTION, withBit } from './queue-view-queries.ts';
import { inAccessGroups } from './owner-scope.ts';
import { planGroups } from './access-group-plan.ts';

type Db = Kysely<Database>;

/** Where a work-queue page starts: after the project with this sort time and id (in the page's direction). */
export type { QueueKey };

/** One page of a program's work queue: filters (all optional, combined with AND), order and keyset position. */
export interface WorkQueueQuery {
  programId: string;
  statusIn?: string[];
  /** A user's id, null for unassigned projects; left out for any assignee. */
  assigneeId?: string | null;
  /** First submitted at or after `from` and before `to` (epoch ms). */
  submitted?: { from: number | null; to: number | null };
  number?: string;
  /** Only these projects (a bulk action's selection). */
  idIn?: string[];
  fields: FieldCondition[];
  /** How the store plans the data filters (its defaults when left out); tests set it to try every plan. */
  tuning?: SearchTuning;
  /**
   * Only overdue projects: a running deadline whose due time (`now`) has come (read through project_deadlines (state,
   * due_at)), or a passed deadline while the project is in a status with a move onward (the kept overdue bit).
   */
  overdue?: { now: number };
  /**
   * Only projects that need attention for one of `kinds` (OR), by the bits the change step keeps (migration 035):
   * `reply`, `files`, and for `deadline` the overdue bit (a passed deadline while open) or the near bit (a running
   * deadline due within the near window, which the near-deadline task also moves with the days).
   */
  attention?: QueueAttentionFilter;
  /** Only the projects in one of these access groups (a grant limited to them, migration 057); left out for every project. */
  groups?: readonly string[];
  /** `due`: by the running deadline due first, projects without one last in either direction. */
  sort: 'updated' | 'created' | 'due';
  direction: 'asc' | 'desc';
  after?: QueueKey;
  limit: number;
}

/** Why a project needs attention. */
export type AttentionKind = 'reply' | 'files' | 'deadline' | 'connection';

/** The needs-attention filter of the queue (see WorkQueueQuery.attention). */
export interface QueueAttentionFilter { kinds: AttentionKind[] }

/**
 * How the store reads needs attention and Overdue only alike: projects with one of the kept bits `mask`, or (when
 * `dueBy` is set) a running deadline due by then, read from the deadlines' (state, due_at) index (Overdue only's
 * deadlines past due that the poller has not fired yet: few).
 */
interface Flagged { mask: number; dueBy: number | null }

/** A project of a work-queue page with the time its first form was submitted (null while never submitted). */
export interface WorkQueueRow {
  project: Project; firstSubmittedAt: number | null;
  /** The kept columns of migration 035: the last change an applicant made (null: none), and the attention bits. */
  lastApplicantActivityAt: number | null; attention: number;
  /** The row's sort key (its last change, creation or next due time; for `due` without one, a value after all others). */
  at: number;
}

/**
 * One page of the work queue, ordered by (sort time, id) and continued by keyset: `after` is the last row of the
 * previous page, so a deep page costs what the first does (an index range read from there; migration 011 holds the
 * indexes), and rows added meanwhile neither repeat nor hide rows of later pages. Data filters are planned as
 * GetProjectsByData's are: a selective one drives the page; broad ones are tested on each project as the queue's
 * index is walked, for at most WALK_WINDOW projects, after which the rest of the page is driven by a filter.
 */
export async function workQueuePage(db: Db, query: WorkQueueQuery): Promise<WorkQueueRow[]> {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) throw new Error(`bad page size ${query.limit}`);
  const q = await withGroupPlan(db, query);
  const conditions = { statusDates: [], fields: q.fields };
  const plan = q.fields.length > 0 ? await planSearch(db, conditions, q.tuning?.broadAt) : undefined;
  let projects: KeyedProject[];
  if (!plan || 'drive' in plan) {
    projects = await queueRows(db, q, plan, q.after, null, q.limit);
  } else {
    const end = await queueWindowEnd(db, q, q.tuning?.walkWindow ?? WALK_WINDOW);
    projects = await queueRows(db, q, plan, q.after, end, q.limit);
    if (end !== null && projects.length < q.limit) {
      // The window ran out before the page was full: the rest comes after it, driven by a filter with few enough matches.
      const exact = await planSearch(db, conditions, DRIVE_PAST_WINDOW);
      projects.push(...(await queueRows(db, q, exact, end, null, q.limit - projects.length)));
    }
  }
  const firsts = await firstSubmissions(db, projects.map((p) => p.project.id));
  return projects.map((p) => ({ ...p, firstSubmittedAt: firsts.get(p.project.id) ?? null }));
}

/**
 * How many projects the queue holds, counting at most `bound + 1` of them: the answer is exact up to `bound`, and
 * `bound + 1` means "more than bound". The count reads what a page of `bound` rows would, never the whole program.
 */
export async function countWorkQueue(db: Db, counted: Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>, bound: number): Promise<number> {
  const read = await boundedRead(db, counted, bound);
  return typeof read === 'number' ? read : Math.min(read.size, bound + 1);
}

/**
 * The work queue's needs-attention counts: its projects flagged for any kind, and for each kind, each bounded as
 * countWorkQueue's. The projects flagged for any kind are read once with their bits (that count's own read, at most
 * `bound + 1` of them); while they are no more than the bound, every kind is counted from those bits. A small access
 * group's walk of the flagged projects finds few, so it tests the whole program's flagged projects once, not once per
 * kind (1,000,000 projects, a group of 1 %: 70 ms → 22 ms of CPU on SQLite).
 */
export async function countAttentionKinds(db: Db, counted: Pick<WorkQueueQuery, 'programId' | 'groups' | 'tuning'>, bound: number): Promise<Record<AttentionKind | 'any', number>> {
  const of = (kinds: AttentionKind[]) => ({ ...counted, fields: [], attention: { kinds } });
  const flagged = await boundedRead(db, of(ATTENTION_KINDS), bound);
  if (typeof flagged === 'number') throw new Error('a needs-attention count reads its projects');
  if (flagged.size > bound) {
    const [reply, files, deadline, connection] = await Promise.all(ATTENTION_KINDS.map((k) => countWorkQueue(db, of([k]), bound)));
    return { any: bound + 1, reply: reply!, files: files!, deadline: deadline!, connection: connection! };
  }
  const bits = [...flagged.values()];
  const count = (k: AttentionKind) => bits.filter((b) => (b & attentionMask({ kinds: [k] })) !== 0).length;
  return { any: bits.length, reply: count('reply'), files: count('files'), deadline: count('deadline'), connection: count('connection') };
}

const ATTENTION_KINDS: AttentionKind[] = ['reply', 'files', 'deadline', 'connection'];

/**
 * A bounded count (see countWorkQueue); for needs attention or Overdue only, the projects it read instead, each with
 * its kept bits (at most `bound + 1`).
 */
async function boundedRead(db: Db, counted: Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>, bound: number): Promise<number | Map<string, number>> {
  if (!Number.isSafeInteger(bound) || bound < 1) throw new Error(`bad count bound ${bound}`);
  // A count with no filter but a small group has no order to keep: its members drive it, each looked up until past
  // the bound (as a set, a walk tested ~100 projects a match). With filters the set stays: offered `id in`, SQLite
  // drove each needs-attention branch by the members too, reading every member's row 16 times.
  const planned = await withGroupPlan(db, counted);
  const q = planned.tuning?.groupPlan === 'members' && onlyGroups(planned) ? { ...planned, tuning: { ...planned.tuning, groupPlan: 'drive' as const } } : planned;
  const query = { ...q, sort: 'updated' as const, direction: 'desc' as const, limit: bound };
  const searched = q.fields.length > 0 ? await countPlan(db, q, bound) : undefined;
  if (searched && 'joined' in searched) {
    return boundedCount(db, drivenIds(db, q.programId, { statusDates: [], fields: q.fields }, searched.joined).limit(sql.lit(bound + 1)));
  }
  const plan = searched;
  const split = asFlagged(query);
  if (split) {
    // Each branch stops at bound + 1 ids, so the union is exact up to the bound and says "more" past it; one query
    // with OR made PostgreSQL gather every flagged project of the program (1,000,000 projects: 50 ms a count).
    const rest = { ...split.rest, sort: 'updated' as const, direction: 'desc' as const, limit: bound };
    const union = new Map<string, number>();
    const { dueBy } = split.flagged;
    // SQLite reads an IN list of an index's column value by value, stopping at the limit as the branches do, and tests
    // a small group's set built once (as branches, once each: 5 × 1.5 ms at 1,000,000 projects).
    const parts = db.getExecutor().adapter instanceof PostgresAdapter ? attentionParts(db, q.programId, { ...split.flagged, dueBy: null })
      : [(query: QueueProjects) => query.where('projects.attention', 'in', withBit(split.flagged.mask))];
    const branches = parts
      .map((part) => () => filtered(db, rest, plan, part(queueProjects(db, rest, undefined))).select(['projects.id', 'projects.attention']).limit(sql.lit(bound + 1)).execute());
    if (dueBy !== null) {
      // Joined from the deadlines' (state, due_at) index: as `id in (…)`, PostgreSQL read the program's projects
      // against the whole list (1,000,000 projects: 50 ms a count).
      branches.push(() => filtered(db, rest, plan, queueProjects(db, rest, undefined)).innerJoin('project_deadlines as ad', 'ad.project_id', 'projects.id')
        .where('ad.state', '=', 'running').where('ad.program_id', '=', q.programId).where('ad.due_at', '<=', dueBy)
        .select(['projects.id', 'projects.attention']).distinct().limit(sql.lit(bound + 1)).execute());
    }
    // One after another, stopping once past the bound: usually the first branch with flagged projects decides.
    for (const branch of branches) {
      for (const r of await branch()) union.set(r.id, Number(r.attention));
      if (union.size > bound) break;
    }
    return union;
  }
  return boundedCount(db, filtered(db, query, plan, queueProjects(db, query, undefined)).select('projects.id').limit(sql.lit(bound + 1)));
}

// True when a count filters by nothing but its groups.
function onlyGroups(q: Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>): boolean {
  return q.fields.length === 0 && q.statusIn === undefined && q.assigneeId === undefined && q.number === undefined && q.idIn === undefined
    && q.submitted === undefined && q.overdue === undefined && q.attention === undefined;
}

// How many rows `ids` (a query of project ids that stops at its limit) has.
async function boundedCount<DB, TB extends keyof DB>(db: Db, ids: SelectQueryBuilder<DB, TB, { id: string }>): Promise<number> {
  const row = await db.selectFrom(ids.as('counted')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * How a count reads its data filters. With no other filter, every project a data filter's index names is in the
 * program and counts once the other data filters pass, so the count drives by one (the fewest at bound + 1) and reads
 * at most about bound + 1 of its entries however broad it is; walking the program tested thousands of projects for a
 * broad one (1,000,000 projects: 53 ms). With other filters, as the page plans, so a selective status drives.
 */
async function countPlan(db: Db, q: Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>, bound: number): Promise<SearchPlan | { joined: number }> {
  const conditions = { statusDates: [], fields: q.fields };
  const onlyData = q.statusIn === undefined && q.assigneeId === undefined && q.number === undefined && q.idIn === undefined
    && q.submitted === undefined && q.overdue === undefined && q.attention === undefined && q.groups === undefined;
  if (!onlyData || !hasIdSet(conditions)) return planSearch(db, conditions, DRIVE_PAST_WINDOW);
  const plan = await planSearch(db, conditions, bound + 1);
  return { joined: 'drive' in plan ? plan.drive : 0 };
}

/**
 * The query with how its access groups are read decided (tuning.groupPlan): a small group's projects are tested
 * against a set of its members as the queue's order is walked, which costs less than a probe each (access-group-plan.ts).
 */
async function withGroupPlan<Q extends Pick<WorkQueueQuery, 'programId' | 'groups' | 'tuning'>>(db: Db, q: Q): Promise<Q> {
  if (q.groups === undefined) return q;
  return { ...q, tuning: { ...q.tuning, groupPlan: await planGroups(db, q.programId, q.groups, q.tuning) } };
}

type KeyedProject = { project: Project; at: number; lastApplicantActivityAt: number | null; attention: number };

function keyed(r: Parameters<typeof toProject>[0] & { last_applicant_activity_at: number | null; attention: number }, at: number): KeyedProject {
  return { project: toProject(r), at, lastApplicantActivityAt: r.last_applicant_activity_at === null ? null : Number(r.last_applicant_activity_at), attention: Number(r.attention) };
}

// A project without a running deadline sorts after every due time in either direction; literals, so the plan is fixed.
const NO_DUE_AT = { asc: Number.MAX_SAFE_INTEGER, desc: -1 } as const;
const NO_DUE = { asc: sql.lit(NO_DUE_AT.asc), desc: sql.lit(NO_DUE_AT.desc) };

/** What the queue is ordered by: a column, or for `due` the project's earliest running due time (one index probe). */
function sortKey(q: WorkQueueQuery): RawBuilder<number> {
  if (q.sort === 'updated') return sql.ref<number>('projects.updated_at');
  if (q.sort === 'created') return sql.ref<number>('projects.created_at');
  return sql<number>`coalesce((select min(nd.due_at) from project_deadlines nd where nd.project_id = projects.id and nd.state = 'running'), ${NO_DUE[q.direction]})`;
}

/** `(sort key, id) op (key.at, key.id)`: a keyset bound in the queue's order. */
function keyBound(q: WorkQueueQuery, op: '<' | '>' | '<=' | '>=', key: QueueKey) {
  return sql<boolean>`(${sortKey(q)}, projects.id) ${sql.raw(op)} (${key.at}, ${key.id})`;
}

/** The queue's projects without its data filters (the columns its indexes hold), after `after` in its order. */
function queueProjects(db: Db, q: WorkQueueQuery, after: QueueKey | undefined) {
  let query = db.selectFrom('projects').where('projects.program_id', '=', q.programId);
  if (q.statusIn) query = q.statusIn.length === 1 ? query.where('projects.status_id', '=', q.statusIn[0]!) : query.where('projects.status_id', 'in', q.statusIn);
  if (q.assigneeId === null) query = query.where('projects.assignee_id', 'is', null);
  else if (q.assigneeId !== undefined) query = query.where('projects.assignee_id', '=', q.assigneeId);
  if (q.number !== undefined) query = query.where('projects.number', '=', q.number);
  if (q.idIn !== undefined) query = q.idIn.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('projects.id', 'in', q.idIn);
  if (q.overdue) {
    const { now } = q.overdue;
    // A passed deadline counts while the project is in a status with a move onward: the bit the change step keeps.
    query = query.where((eb) => eb.or([eb('projects.id', 'in', runningDueBy(db, q.programId, now)), eb('projects.attention', 'in', withBit(ATTENTION.overdue))]));
  }
  if (q.attention) query = query.where('projects.attention', 'in', withBit(attentionMask(q.attention)));
  if (q.groups !== undefined) {
    const plan = q.tuning?.groupPlan ?? 'probe';
    query = query.where(inAccessGroups('projects', q.groups, 'id', plan === 'probe' ? undefined : { programId: q.programId, drive: plan === 'drive' }));
  }
  if (after) query = query.where(keyBound(q, q.direction === 'desc' ? '<' : '>', after));
  return query;
}

/** The kept bits the filter's kinds stand for (read as one IN list of every combination with a wanted bit). */
function attentionMask(a: QueueAttentionFilter): number {
  return (a.kinds.includes('reply') ? ATTENTION.reply : 0) | (a.kinds.includes('files') ? ATTENTION.files : 0)
    | (a.kinds.includes('deadline') ? ATTENTION.overdue | ATTENTION.near : 0) | (a.kinds.includes('connection') ? ATTENTION.connection : 0);
}

/** The key of the `window`-th project a walk of the queue from `q.after` would test, or null when there are fewer. */
async function queueWindowEnd(db: Db, q: WorkQueueQuery, window: number): Promise<QueueKey | null> {
  if (!Number.isSafeInteger(window) || window < 1) throw new Error(`bad walk window ${window}`);
  const at = sortKey(q);
  const row = await queueProjects(db, q, q.after).select([at.as('at'), 'projects.id']).orderBy(at, q.direction).orderBy('projects.id', q.direction)
    .limit(sql.lit(1)).offset(sql.lit(window - 1)).executeTakeFirst();
  return row ? { at: Number(row.at), id: row.id } : null;
}

/** Up to `limit` projects of the queue after `after` and up to `end` (inclusive, when given), filtered as `plan` says. */
async function queueRows(db: Db, q: WorkQueueQuery, plan: SearchPlan | undefined, after: QueueKey | undefined, end: QueueKey | null, limit: number): Promise<KeyedProject[]> {
  if (q.sort === 'due') return dueRows(db, q, plan, after, end, limit);
  // Overdue only is read like needs attention: the same branches serve it.
  const split = q.sort === 'updated' ? asFlagged(q) : null;
  if (split) return flaggedRows(db, split.rest, split.flagged, plan, after, end, limit);
  const at = sortKey(q);
  let query = filtered(db, q, plan, queueProjects(db, q, after)).selectAll('projects').select(at.as('queue_at'));
  if (end) query = query.where(keyBound(q, q.direction === 'desc' ? '>=' : '<=', end));
  // A literal LIMIT, as in listProjects: SQLite plans a bound LIMIT as if it might be huge.
  const rows = await query.orderBy(at, q.direction).orderBy('projects.id', q.direction).limit(sql.lit(limit)).execute();
  return rows.map((r) => keyed(r, Number(r.queue_at)));
}

/**
 * Needs attention (or Overdue only) in last-change order, in branches each read in order from an index with no sort:
 * one per combination of kept bits (projects_queue_attention holds program, bits, then last change), and Overdue
 * only's running deadlines past due (few); merged here. One query with OR would gather every flagged project of the
 * program and sort them all for each page (at 1,000,000 projects some 50,000 of them). `q` is the query without the
 * filter `flagged` stands for.
 */
async function flaggedRows(db: Db, q: WorkQueueQuery, flagged: Flagged, plan: SearchPlan | undefined, after: QueueKey | undefined, end: QueueKey | null, limit: number): Promise<KeyedProject[]> {
  const branches = attentionParts(db, q.programId, flagged).map((part) => {
    let query = filtered(db, q, plan, part(queueProjects(db, q, after))).selectAll('projects').select('projects.updated_at as queue_at');
    if (end) query = query.where(keyBound(q, q.direction === 'desc' ? '>=' : '<=', end));
    return query.orderBy('projects.updated_at', q.direction).orderBy('projects.id', q.direction).limit(sql.lit(limit)).execute();
  });
  const seen = new Map<string, KeyedProject>();
  for (const rows of await Promise.all(branches)) for (const r of rows) seen.set(r.id, keyed(r, Number(r.queue_at)));
  const sign = q.direction === 'desc' ? -1 : 1;
  return [...seen.values()].sort((a, b) => sign * (a.at - b.at || (a.project.id < b.project.id ? -1 : a.project.id > b.project.id ? 1 : 0))).slice(0, limit);
}

type QueueProjects = ReturnType<typeof queueProjects>;

/** A Flagged filter as branches whose union it is: one per combination of kept bits, and the running deadlines due by `dueBy`. */
function attentionParts(db: Db, programId: string, flagged: Flagged): ((query: QueueProjects) => QueueProjects)[] {
  const parts = withBit(flagged.mask).map((bits) => (query: QueueProjects) => query.where('projects.attention', '=', bits));
  const { dueBy } = flagged;
  if (dueBy !== null) {
    parts.push((query) => query.where('projects.id', 'in', runningDueBy(db, programId, dueBy)));
  }
  return parts;
}

/** The projects of a program with a running deadline due by `dueBy`, read from the deadlines' (state, due_at) index. */
function runningDueBy(db: Db, programId: string, dueBy: number) {
  return db.selectFrom('project_deadlines as ad').select('ad.project_id').where('ad.state', '=', 'running').where('ad.program_id', '=', programId).where('ad.due_at', '<=', dueBy);
}

/** Needs attention or Overdue only (when a query has just one of them) as a Flagged filter, and the query without it. */
function asFlagged<Q extends Omit<WorkQueueQuery, 'limit' | 'after'>>(q: Q): { flagged: Flagged; rest: Q } | null {
  if (q.attention && !q.overdue) {
    const { attention, ...rest } = q;
    return { flagged: { mask: attentionMask(attention), dueBy: null }, rest: rest as Q };
  }
  if (q.overdue && !q.attention) {
    const { overdue, ...rest } = q;
    return { flagged: { mask: ATTENTION.overdue, dueBy: overdue.now }, rest: rest as Q };
  }
  return null;
}

/** The queue's projects with the filters its indexes do not hold: the data filters as `plan` says, the submission dates. */
function filtered(db: Db, q: WorkQueueQuery, plan: SearchPlan | undefined, base: ReturnType<typeof queueProjects>) {
  let query = base;
  if (plan) query = query.where((eb) => searchConditions(eb, { statusDates: [], fields: q.fields }, codePointCollation(db), plan));
  const range = q.submitted;
  if (range && (range.from !== null || range.to !== null)) {
    // The submissions index names the candidates; the first submission of each must then fall in the range too.
    let ids = db.selectFrom('form_submissions as s').select('s.project_id');
    if (range.from !== null) ids = ids.where('s.submitted_at', '>=', range.from);
    if (range.to !== null) ids = ids.where('s.submitted_at', '<', range.to);
    query = query.where('projects.id', 'in', ids);
    if (range.from !== null) {
      const from = range.from;
      query = query.where((eb) => eb(eb.selectFrom('form_submissions as f').select((f) => f.fn.min('f.submitted_at').as('m')).whereRef('f.project_id', '=', 'projects.id'), '>=', from));
    }
  }
  return query;
}

/**
 * The due-date order in two ranges, so neither probes every project of the program: first the projects with a running
 * deadline, read in due order from the deadlines' (state, due_at) index (each by its earliest running deadline only);
 * then, once those run out, the projects without one, by id. A key with NO_DUE's value lies in the second range.
 */
async function dueRows(db: Db, q: WorkQueueQuery, plan: SearchPlan | undefined, after: QueueKey | undefined, end: QueueKey | null, limit: number): Promise<KeyedProject[]> {
  const none = NO_DUE_AT[q.direction];
  const [past, upTo] = q.direction === 'desc' ? ['<', '>='] as const : ['>', '<='] as const;
  const out: KeyedProject[] = [];
  if (!(after && after.at === none)) {
    let running = filtered(db, q, plan, queueProjects(db, { ...q, sort: 'due' }, undefined))
      .innerJoin('project_deadlines as nd', 'nd.project_id', 'projects.id')
      .where('nd.state', '=', 'running').where('nd.program_id', '=', q.programId)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('project_deadlines as ne').select('ne.id')
        .whereRef('ne.project_id', '=', 'nd.project_id').where('ne.state', '=', 'running')
        .where(sql<boolean>`(ne.due_at, ne.id) < (nd.due_at, nd.id)`))));
    if (after) running = running.where(sql<boolean>`(nd.due_at, projects.id) ${sql.raw(past)} (${after.at}, ${after.id})`);
    if (end && end.at !== none) running = running.where(sql<boolean>`(nd.due_at, projects.id) ${sql.raw(upTo)} (${end.at}, ${end.id})`);
    const rows = await running.selectAll('projects').select('nd.due_at as queue_at')
      .orderBy('nd.due_at', q.direction).orderBy('projects.id', q.direction).limit(sql.lit(limit)).execute();
    out.push(...rows.map((r) => keyed(r, Number(r.queue_at))));
  }
  if (out.length === limit || (end && end.at !== none)) return out;
  let without = filtered(db, q, plan, queueProjects(db, { ...q, sort: 'due' }, undefined))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('project_deadlines as nr').select('nr.id')
      .whereRef('nr.project_id', '=', 'projects.id').where('nr.state', '=', 'running'))));
  if (after && after.at === none) without = without.where('projects.id', past, after.id);
  if (end) without = without.where('projects.id', upTo, end.id);
  const rows = await without.selectAll('projects').orderBy('projects.id', q.direction).limit(sql.lit(limit - out.length)).execute();
  out.push(...rows.map((r) => keyed(r, none)));
  return out;
}

/** When each project's first form submission was, for the projects that have one. */
export async function firstSubmissions(db: Db, projectIds: string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.selectFrom('form_submissions').select(['project_id', (eb) => eb.fn.min('submitted_at').as('first')])
    .where('project_id', 'in', projectIds).groupBy('project_id').execute();
  return new Map(rows.map((r) => [r.project_id, Number(r.first)]));
}

/** The submitted values of the given fields of several projects (a page of an export), as stored. */
export async function valuesOfProjects(db: Db, projectIds: string[], fieldIds: string[]): Promise<{ projectId: string; fieldId: string; value: string | null; values: string[] | null }[]> {
  if (projectIds.length === 0 || fieldIds.length === 0) return [];
  const rows = await db.selectFrom('project_values').select(['project_id', 'field_id', 'value', 'values_json'])
    .where('project_id', 'in', projectIds).where('field_id', 'in', fieldIds).execute();
  return rows.map((r) => ({ projectId: r.project_id, fieldId: r.field_id, value: r.value, values: r.values_json === null ? null : (JSON.parse(r.values_json) as string[]) }));
}
