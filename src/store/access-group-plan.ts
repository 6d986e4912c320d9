import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Clock } from '../model/clock.ts';
import type { ProjectQuery, SearchTuning } from '../model/records.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * A caller's access groups drive their lists only while they hold fewer memberships than this: reading the members
 * and sorting them costs about a row read each, so past this a walk of the list's own index is the better plan.
 */
export const FEW_MEMBERS = 20_000;

/**
 * ...and only while they hold at most one in this many of the program's projects. A walk in the list's order tests
 * about this many projects for each row it shows (a page of 100: 2,000; a work queue's count bounded at 1,000:
 * 20,000 each), which then costs more than reading the members; a broader group fills its pages after few tests.
 */
export const SMALL_SHARE = 20;

/**
 * How long a counted plan is reused. The counts only pick the plan (both plans read the same projects), and
 * memberships change with the projects' values, a few at a time; the next page or the next request plans from them.
 */
export const GROUP_PLAN_TTL_MS = 60_000;

/**
 * How a list limited to access groups tests a project: `probe` looks each project it walks up in the membership's
 * primary key; `members` reads the groups' members once into a set and tests each walked project against it (the
 * walk keeps the list's order and reads only its index, so a page of 100 at a 1 % share tests 10,000 index entries
 * cheaply); `drive` reads the members and looks each one up, sorting them (a deep page, which a walk would reach only
 * after most of the program). See inAccessGroups (owner-scope.ts) for the SQL of each.
 */
export type GroupPlan = 'probe' | 'members' | 'drive';

/** How a caller's groups are planned, and how many memberships they hold (exact below FEW_MEMBERS). */
interface Counted { plan: 'probe' | 'members'; members: number }

/** Counted plans kept per program and set of groups, at most this many (then all are dropped and counted again). */
const MAX_KEPT_PLANS = 1000;

/**
 * The counted plans of one store, each kept GROUP_PLAN_TTL_MS by the store's clock (a test moves it by hand). The
 * store owns one and its project reads plan through it, so two stores (or a test's) never share counts.
 */
export class GroupPlans {
  readonly #clock: Clock;
  readonly #kept = new Map<string, { counted: Counted; at: number }>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** planGroups, its counts kept GROUP_PLAN_TTL_MS. */
  async plan(db: Db, programId: string, groups: readonly string[], tuning?: SearchTuning): Promise<GroupPlan> {
    if (tuning?.groupPlan) return tuning.groupPlan;
    return (await this.#counted(db, programId, groups)).plan;
  }

  /** planGroupPage, its counts kept GROUP_PLAN_TTL_MS. */
  async page(db: Db, programId: string, groups: readonly string[], rows: number, tuning?: SearchTuning): Promise<GroupPlan> {
    if (tuning?.groupPlan) return tuning.groupPlan;
    return pagePlan(db, await this.#counted(db, programId, groups), rows);
  }

  /** The page query `q` with its access groups' plan decided (tuning.groupPlan), as planGroupPage would decide it. */
  async pageQuery<Q extends ProjectQuery>(db: Db, q: Q): Promise<Q> {
    if (q.owner?.ownerId !== null || q.owner.groups === undefined) return q;
    return { ...q, tuning: { ...q.tuning, groupPlan: await this.page(db, q.programId, q.owner.groups, q.offset + q.limit, q.tuning) } };
  }

  /** The work-queue query `q` with its access groups' plan decided (tuning.groupPlan), as planGroups would decide it. */
  async queueQuery<Q extends { programId: string; groups?: readonly string[]; tuning?: SearchTuning }>(db: Db, q: Q): Promise<Q> {
    if (q.groups === undefined) return q;
    return { ...q, tuning: { ...q.tuning, groupPlan: await this.plan(db, q.programId, q.groups, q.tuning) } };
  }

  async #counted(db: Db, programId: string, groups: readonly string[]): Promise<Counted> {
    if (groups.length === 0) return { plan: 'probe', members: 0 };
    const key = `${programId}\u0000${[...groups].sort().join('\u0000')}`;
    const now = this.#clock.now();
    const hit = this.#kept.get(key);
    if (hit && now - hit.at < GROUP_PLAN_TTL_MS) return hit.counted;
    const c = await countedPlan(db, programId, groups);
    if (this.#kept.size >= MAX_KEPT_PLANS) this.#kept.clear();
    this.#kept.set(key, { counted: c, at: now });
    return c;
  }
}

/**
 * Chooses how a list limited to `groups` tests the program's projects: against a set of its members
 * (`project_access_groups_group`, program, group, project) when they are few (FEW_MEMBERS) and a small share of the
 * program (SMALL_SHARE); otherwise by probing each project of the list's walk. Both counts stop at their bound (at most
 * FEW_MEMBERS index entries, and SMALL_SHARE times the members counted); `tuning.groupPlan` forces it. Counted afresh
 * each call: the store's reads plan through its GroupPlans, which keeps the counts.
 */
export async function planGroups(db: Db, programId: string, groups: readonly string[], tuning?: SearchTuning): Promise<GroupPlan> {
  if (tuning?.groupPlan) return tuning.groupPlan;
  return groups.length === 0 ? 'probe' : (await countedPlan(db, programId, groups)).plan;
}

/**
 * The plan of a page that needs its first `rows` projects in order (offset + limit): as planGroups, but driven by the
 * members when a walk would reach the page only after testing more projects than they number (at least SMALL_SHARE
 * projects a row, by the share planGroups checked). A page of 100 at a 1 % share walks 10,000 index entries cheaply;
 * `offset=10000` would walk the whole program (1,000,000 projects) where the 9,764 members cost far less. Counted
 * afresh each call, like planGroups.
 */
export async function planGroupPage(db: Db, programId: string, groups: readonly string[], rows: number, tuning?: SearchTuning): Promise<GroupPlan> {
  if (tuning?.groupPlan) return tuning.groupPlan;
  return groups.length === 0 ? 'probe' : pagePlan(db, await countedPlan(db, programId, groups), rows);
}

function pagePlan(db: Db, c: Counted, rows: number): GroupPlan {
  // PostgreSQL runs a driven page as a hash join over a sequential scan of the program's projects (it prices a lookup
  // per member above a scan: 55 ms for 1,010 members at 100,000 projects), so there the hashed set's walk serves
  // every page (3 ms for the first).
  const drives = !(db.getExecutor().adapter instanceof PostgresAdapter);
  return c.plan === 'members' && drives && rows * SMALL_SHARE > c.members ? 'drive' : c.plan;
}

async function countedPlan(db: Db, programId: string, groups: readonly string[]): Promise<Counted> {
  // Memberships, not projects: a project in two of the groups counts twice, which only errs towards probing.
  const [m] = await db.selectFrom((eb) => eb.selectFrom('project_access_groups').select('project_id')
    .where('program_id', '=', programId).where('group_id', 'in', [...groups]).limit(sql.lit(FEW_MEMBERS)).as('counted'))
    .select((eb) => eb.fn.countAll<number | string>().as('n')).execute();
  const members = Number(m!.n);
  if (members >= FEW_MEMBERS) return { plan: 'probe', members };
  const enough = members * SMALL_SHARE + 1;
  const [p] = await db.selectFrom((eb) => eb.selectFrom('projects').select('id').where('program_id', '=', programId).limit(sql.lit(enough)).as('counted'))
    .select((eb) => eb.fn.countAll<number | string>().as('n')).execute();
  return { plan: Number(p!.n) >= enough ? 'members' : 'probe', members };
}
