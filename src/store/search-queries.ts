import { type ExpressionBuilder, type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Project } from '../model/model.ts';
import { type MembersRead, readableBy } from './owner-scope.ts';
import { type GroupPlans, planGroups } from './access-group-plan.ts';
import { listProjects } from './project-queries.ts';
import type { FieldCondition, ProjectQuery, ProjectSearch } from '../model/records.ts';
import { VALUE_PREFIX_CHARS } from './migrations/007-value-prefix-indexes.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database, 'projects'>;

const COMPARE = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** Escapes LIKE wildcards with `!`, the escape character every LIKE below names. */
function likeText(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

// The positive subqueries are not correlated: the database reads the matching ids once through the (field, value) and
// (field, number) indexes and looks the projects up by id, instead of testing every project of the program.
function valueRows(eb: Eb, fieldId: string) {
  return eb.selectFrom('project_values as v').select('v.project_id').where('v.field_id', '=', fieldId);
}

function itemRows(eb: Eb, fieldId: string) {
  return eb.selectFrom('project_value_items as i').select('i.project_id').where('i.field_id', '=', fieldId);
}

// The cells of one column of a table field (migration 024): a project matches when any row's cell does.
function cellRows(eb: Eb, fieldId: string, column: string) {
  return eb.selectFrom('project_table_cells as c').select('c.project_id').where('c.field_id', '=', fieldId).where('c.column_key', '=', column);
}

type IdRows = ReturnType<typeof valueRows>;

/** The alias of the table an id subquery reads: submitted values, value items, table cells or status history. */
type Alias = 'v' | 'i' | 'c' | 'h';

/** A condition either names the projects it matches (an id subquery over `table`) or filters each project (anti-joins). */
type Condition = { ids: IdRows; table: Alias; covered?: boolean } | { filter: Expression<SqlBool> };

function among(ids: IdRows, table: Alias, covered = false): Condition {
  return { ids, table, covered };
}

/**
 * `ids` as a test of one project: does the project have a matching row? (an index probe on the project's key). It is
 * written as a scalar subquery, not EXISTS: PostgreSQL turns a top-level EXISTS into a semi-join, which it may run as a
 * hash join over every row the filter matches (150,000 for a broad one) before returning the first project; a scalar
 * subquery stays a test of each project as the walk reaches it, so the walk stops when the page is full.
 */
function probe(eb: Eb, ids: IdRows, table: Alias): Expression<SqlBool> {
  return eb(ids.whereRef(sql.ref(`${table}.project_id`), '=', 'projects.id').limit(sql.lit(1)), 'is not', null);
}

/** The anti-join of `ids`: the project has no matching row. */
function noProbe(eb: Eb, ids: IdRows, table: Alias): Expression<SqlBool> {
  return eb.not(eb.exists(ids.whereRef(sql.ref(`${table}.project_id`), '=', 'projects.id')));
}

// NOT EXISTS, correlated on the (project, field) key, rather than NOT IN: PostgreSQL runs NOT IN over a set larger
// than its work memory once per project, and NOT EXISTS becomes an anti-join on both databases.
function notAmong(eb: Eb, rows: IdRows, table: Alias): Condition {
  return { filter: noProbe(eb, rows, table) };
}

// A condition on the submitted value(s) of a field. A multi-value field matches when any one of its values does;
// `ne` matches when none equals, and `empty` when there is none, so both also match projects without a value.
function fieldCondition(eb: Eb, c: FieldCondition, collation: RawBuilder<unknown>): Condition {
  const multi = c.kind === 'multi' || c.kind === 'multiNumber';
  const cell = c.kind === 'cell' || c.kind === 'cellNumber';
  const numeric = c.kind === 'number' || c.kind === 'multiNumber' || c.kind === 'cellNumber';
  const table = cell ? 'c' : multi ? 'i' : 'v';
  // The tables have the columns used below (value, folded, num_value), referred to through the alias.
  const rows = () => (cell ? cellRows(eb, c.fieldId, c.column ?? '') : multi ? itemRows(eb, c.fieldId) : valueRows(eb, c.fieldId)) as unknown as IdRows;
  const content = c.content ?? '';
  if (c.op === 'empty' || c.op === 'notempty') {
    const filled = rows().where(sql.ref(`${table}.value`), 'is not', null).where(sql.ref(`${table}.value`), '<>', '');
    return c.op === 'empty' ? notAmong(eb, filled, table) : among(filled, table);
  }
  if (c.blind) {
    // A sealed value is found by its blind index alone (held in `folded`): equal or not, nothing else can be compared.
    const equal = rows().where(sql.ref(`${table}.folded`), 'in', c.blind);
    if (c.op === 'eq') return among(equal, table);
    if (c.op === 'ne') return notAmong(eb, equal, table);
    throw new Error(`a sealed field cannot be compared by ${c.op}`);
  }
  if (c.op === 'contains') {
    // Both sides are folded in JavaScript, so the match ignores letter case the same way on both databases.
    return among(rows().where(sql<SqlBool>`${sql.ref(`${table}.folded`)} like ${`%${likeText(content.toLowerCase())}%`} escape '!'`), table);
  }
  if (numeric) {
    const column = sql.ref(`${table}.num_value`);
    if (c.op === 'ne') return notAmong(eb, rows().where(column, '=', c.number), table);
    return among(rows().where(column, COMPARE[c.op], c.number), table);
  }
  const column = sql.ref(`${table}.value`);
  // Equal values have equal prefixes: the prefix comparison lets the (field, prefix) index find the candidates.
  // Order comparisons read the field's values through the same index and compare whole values, in code-point order.
  // Content shorter than the prefix equals a value exactly when the value's prefix does (a longer value has a
  // prefix as long as the prefix), so the index alone answers; longer content is compared whole as well.
  const prefix = sql`substr(${column}, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`;
  const equal = () => ([...content].length < VALUE_PREFIX_CHARS
    ? rows().where(prefix, '=', content)
    : rows().where(prefix, '=', sql`substr(${content}, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`).where(column, '=', content));
  // Short content is compared in the covering (field, prefix, project) index alone: as a probe, one index read.
  if (c.op === 'eq') return among(equal(), table, [...content].length < VALUE_PREFIX_CHARS);
  if (c.op === 'ne') return notAmong(eb, equal(), table);
  // An empty text is no value (as for `empty`), so no order comparison matches it.
  return among(rows().where(column, '<>', '').where(sql<SqlBool>`${column}${collation} ${sql.raw(COMPARE[c.op])} ${content}`), table);
}

/** The collation that orders text by code point on this database (nothing on SQLite, `collate "C"` on PostgreSQL). */
// Text in Unicode code-point order on both databases, whatever collation PostgreSQL was set up with: SQLite's BINARY
// collation (its default) compares UTF-8 bytes, and so does PostgreSQL's "C"; UTF-8 byte order is code-point order.
export function codePointCollation(db: Db): RawBuilder<unknown> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql` collate "C"` : sql``;
}

/** The filters of a search other than its program, owner and page. */
export type SearchConditions = Pick<ProjectSearch, 'statusIn' | 'statusNotIn' | 'statusDates' | 'fields'>;

/**
 * A filter that matches at least this many projects is broad. A search with a filter below it reads that filter's
 * projects and tests each against the other filters; a search whose filters are all broad walks the projects in the
 * order of its result instead, testing each, and stops when the page is full. At 1,000,000 projects a broad filter
 * matches 10,000s to 100,000s of projects (reading them all took 0.5–3 s), while walking finds a page of 100 after a
 * few thousand projects for any filter that matches a few percent.
 */
export const BROAD_FILTER = 1000;

/**
 * How many projects in the result order a walk tests before it looks again. Broad filters that rarely match together
 * (or a deep `offset`) would otherwise walk the whole program; past the window the rest of the page is driven by the
 * filter with the fewest matches when it has fewer than DRIVE_PAST_WINDOW (reading them costs less than walking on).
 */
export const WALK_WINDOW = 20_000;

/** Past the walk's window, a filter with fewer matches than this drives the rest of the page; otherwise the walk goes on. */
export const DRIVE_PAST_WINDOW = 50_000;

function conditionsOf(eb: Eb, s: SearchConditions, collation: RawBuilder<unknown>): Condition[] {
  const conditions: Condition[] = s.statusDates.map((d) => among(eb.selectFrom('status_history as h').select('h.project_id')
    .where('h.status_id', '=', d.statusId).where('h.changed_at', COMPARE[d.op], d.at) as unknown as IdRows, 'h'));
  conditions.push(...s.fields.map((c) => fieldCondition(eb, c, collation)));
  return conditions;
}

// The id-set conditions in the order conditionsOf gives them: status dates, then fields other than `ne` and `empty`
// (anti-joins, which test each project and are never id sets).
function idSetKeys(s: SearchConditions): string[] {
  return [...s.statusDates.map((d) => `h${JSON.stringify(d)}`), ...s.fields.filter((f) => f.op !== 'ne' && f.op !== 'empty').map((f) => `f${JSON.stringify(f)}`)];
}

/** Whether some condition of a search is an id set, which a plan can be driven by. */
export function hasIdSet(s: SearchConditions): boolean {
  return idSetKeys(s).length > 0;
}

/** The way a search reads its projects: driven by the id set of one of its conditions, or by walking the result order. */
export type SearchPlan = { drive: number } | { walk: true };

/**
 * How long a filter's counted matches are reused for planning. A count is an estimate that only picks the plan (both
 * plans find the same projects), and on PostgreSQL counting a text filter reads a table row per match (its index holds
 * an expression, which PostgreSQL does not read alone): 30–70 ms at 1,000,000 projects for a broad one. A search
 * repeated within this time (the next page, the same filter again) plans from the earlier count.
 */
export const ESTIMATE_TTL_MS = 60_000;

const estimates = new WeakMap<Db, Map<string, { n: number; at: number }>>();

/**
 * Chooses how to run a search: counts each id-set condition's matches up to `broadAt` (one statement, each count an
 * index range read of at most `broadAt` entries; counts younger than ESTIMATE_TTL_MS are reused) and drives the search
 * by the condition with the fewest, when it has fewer than `broadAt`; otherwise every condition is broad and the
 * search walks the result order.
 */
export async function planSearch(db: Db, s: SearchConditions, broadAt = BROAD_FILTER): Promise<SearchPlan> {
  const collation = codePointCollation(db);
  if (!Number.isSafeInteger(broadAt) || broadAt < 1) throw new Error(`bad broadAt ${broadAt}`);
  const keys = idSetKeys(s).map((key) => `${broadAt}:${key}`);
  if (keys.length === 0) return { walk: true };
  let cache = estimates.get(db);
  if (!cache) estimates.set(db, (cache = new Map()));
  const now = Date.now();
  const counts = keys.map((key) => {
    const hit = cache.get(key);
    return hit && now - hit.at < ESTIMATE_TTL_MS ? hit.n : null;
  });
  const missing = counts.flatMap((n, k) => (n === null ? [k] : []));
  if (missing.length > 0) {
    const counted = await db.selectNoFrom((eb) => {
      const idSets = conditionsOf(eb as unknown as Eb, s, collation).flatMap((c) => ('ids' in c ? [c.ids] : []));
      return missing.map((k) => eb.selectFrom(idSets[k]!.limit(sql.lit(broadAt)).as('e')).select((e) => e.fn.countAll<number>().as('n')).as(`n${k}`));
    }).executeTakeFirstOrThrow() as Record<string, unknown>;
    if (cache.size > 1000) cache.clear();
    for (const k of missing) {
      counts[k] = Number(counted[`n${k}`]);
      cache.set(keys[k]!, { n: counts[k]!, at: now });
    }
  }
  const known = counts as number[];
  const fewest = known.indexOf(Math.min(...known));
  return known[fewest]! < broadAt ? { drive: fewest } : { walk: true };
}

/**
 * A search's conditions (statuses, status dates, submitted values) as one expression over `projects`, for `plan`.
 * Driven, the projects are those of the driving condition's id set (read through its covering index), each tested
 * against the other conditions by index probes on the project's key. Walking, every condition is such a probe, so
 * the database reads projects in the order the query asks for (by the index of that order) and tests each. The
 * condition `joined` is left out: the query reads its id set already (drivenIds).
 */
export function searchConditions(eb: Eb, s: SearchConditions, collation: RawBuilder<unknown>, plan: SearchPlan, joined?: number): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [];
  if (s.statusIn) all.push(s.statusIn.length > 0 ? eb('projects.status_id', 'in', s.statusIn) : sql<SqlBool>`1 = 0`);
  if (s.statusNotIn && s.statusNotIn.length > 0) all.push(eb('projects.status_id', 'not in', s.statusNotIn));
  // Probes answered by one covering index read come first: the database tests them first, and the others (an index
  // read and a row read each) only for the projects that pass them.
  const later: Expression<SqlBool>[] = [];
  let k = -1;
  for (const c of conditionsOf(eb, s, collation)) {
    if ('filter' in c) {
      later.push(c.filter);
      continue;
    }
    k++;
    if (k === joined) continue;
    if ('drive' in plan && plan.drive === k) all.push(eb('projects.id', 'in', c.ids));
    else (c.covered ? all : later).push(probe(eb, c.ids, c.table));
  }
  return eb.and([...all, ...later]);
}

/**
 * The ids of a program's projects that match every condition, read from the `k`-th id-set condition's index (in
 * planSearch's order), each tested by a probe of its project (the program and the other conditions), so a count that
 * stops at a bound reads about that many entries however broad the condition. As `id in (…)` SQLite read the whole id
 * set into a list first, and as a join PostgreSQL built a bitmap of it (a broad filter at 1,000,000 projects: 150,000
 * entries for a count of 1,001).
 */
export function drivenIds(db: Db, programId: string, s: SearchConditions, k: number) {
  const collation = codePointCollation(db);
  return db.selectFrom((eb) => {
    const sets = conditionsOf(eb as unknown as Eb, s, collation).flatMap((c) => ('ids' in c ? [c.ids] : []));
    const set = sets[k];
    if (!set) throw new Error(`no id-set condition ${k}`);
    return set.as('d');
  }).select('d.project_id as id')
    .where((eb) => eb(eb.selectFrom('projects').select(sql.lit(1).as('one')).whereRef('projects.id', '=', 'd.project_id').where('projects.program_id', '=', programId)
      .where((pe) => searchConditions(pe as unknown as Eb, s, collation, { walk: true }, k)).limit(sql.lit(1)), 'is not', null));
}

/** Projects of a program matching every condition, in creation order. */
export async function searchProjects(db: Db, s: ProjectSearch, plans?: GroupPlans): Promise<Project[]> {
  const collation = codePointCollation(db);
  const plan = await planSearch(db, s, s.tuning?.broadAt);
  const page = { programId: s.programId, owner: s.owner, limit: s.limit, offset: s.offset, ...(s.tuning ? { tuning: s.tuning } : {}) };
  // Each page's access-group plan through the store's kept counts, when it gives them.
  const list = async (p: ProjectQuery, where: (eb: Eb) => Expression<SqlBool>) => listProjects(db, plans ? await plans.pageQuery(db, p) : p, where);
  if ('drive' in plan || s.limit === 0) return list(page, (eb) => searchConditions(eb, s, collation, plan));
  // Walking: within the window first, which ends at the window's last project in creation order (null when the
  // program has no more projects than the window, so the walk sees them all).
  const walked = (end: QueueKey | null) => (eb: Eb) => (end === null ? searchConditions(eb, s, collation, plan)
    : eb.and([searchConditions(eb, s, collation, plan), eb(eb.refTuple('projects.created_at', 'projects.id'), '<=', eb.tuple(end.at, end.id))]));
  // A staff caller limited to a small access group tests its window against a set of the members (access-group-plan.ts).
  const groupPlan = s.owner?.ownerId === null && s.owner.groups !== undefined ? await (plans ? plans.plan(db, s.programId, s.owner.groups, s.tuning) : planGroups(db, s.programId, s.owner.groups, s.tuning)) : 'probe';
  const members = groupPlan === 'probe' ? undefined : { programId: s.programId, drive: groupPlan === 'drive' };
  const end = await windowEnd(db, s, s.tuning?.walkWindow ?? WALK_WINDOW, members);
  const found = await list(page, walked(end));
  if (end === null || found.length === s.limit) return found;
  // The window ran out before the page was full: the rest of the page comes after it. How many matches the window
  // held decides how much of `offset` is left; with a row on this page it is known, otherwise the window is counted.
  const inWindow = found.length > 0 ? s.offset + found.length : await countMatching(db, s, walked(end), members);
  const exact = await planSearch(db, s, DRIVE_PAST_WINDOW);
  const rest = await list({ ...page, limit: s.limit - found.length, offset: Math.max(0, s.offset - inWindow) }, (eb) => eb.and([
    searchConditions(eb, s, collation, exact), eb(eb.refTuple('projects.created_at', 'projects.id'), '>', eb.tuple(end.at, end.id)),
  ]));
  return [...found, ...rest];
}

/** A position in an order of projects: a sort time and the project id. */
export interface QueueKey { at: number; id: string }

/** The creation-order key of the `window`-th project a walk of search `s` would test, or null when there are fewer. */
async function windowEnd(db: Db, s: ProjectSearch, window: number, members?: MembersRead): Promise<QueueKey | null> {
  if (!Number.isSafeInteger(window) || window < 1) throw new Error(`bad walk window ${window}`);
  let query = db.selectFrom('projects').select(['projects.created_at as at', 'projects.id']).where('projects.program_id', '=', s.programId);
  if (s.owner !== undefined) query = query.where(readableBy('projects', s.owner, members));
  if (s.statusIn && s.statusIn.length > 0) query = query.where('projects.status_id', 'in', s.statusIn);
  if (s.statusNotIn && s.statusNotIn.length > 0) query = query.where('projects.status_id', 'not in', s.statusNotIn);
  const row = await query.orderBy('projects.created_at').orderBy('projects.id').limit(sql.lit(1)).offset(sql.lit(window - 1)).executeTakeFirst();
  return row ? { at: Number(row.at), id: row.id } : null;
}

/** How many projects of search `s` match `where`. */
async function countMatching(db: Db, s: ProjectSearch, where: (eb: Eb) => Expression<SqlBool>, members?: MembersRead): Promise<number> {
  let query = db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('projects.program_id', '=', s.programId);
  if (s.owner !== undefined) query = query.where(readableBy('projects', s.owner, members));
  const row = await query.where(where).executeTakeFirst();
  return Number(row?.n ?? 0);
}
