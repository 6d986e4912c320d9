import { type Kysely, sql } from 'kysely';
import type { SearchTuning } from '../model/records.ts';
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

/** How a list limited to access groups reads its projects: from the groups' members, or testing each project it walks. */
export type GroupPlan = 'members' | 'probe';

const plans = new WeakMap<Db, Map<string, { plan: GroupPlan; at: number }>>();

/**
 * Chooses how a list limited to `groups` reads the program's projects: by its members (`project_access_groups_group`,
 * program, group, project) when they are few (FEW_MEMBERS) and a small share of the program (SMALL_SHARE); otherwise
 * by probing each project of the list's walk. Both counts stop at their bound (at most FEW_MEMBERS index entries, and
 * SMALL_SHARE times the members counted), and the answer is kept GROUP_PLAN_TTL_MS; `tuning.groupPlan` forces it.
 */
export async function planGroups(db: Db, programId: string, groups: readonly string[], tuning?: SearchTuning): Promise<GroupPlan> {
  if (tuning?.groupPlan) return tuning.groupPlan;
  if (groups.length === 0) return 'probe';
  const key = `${programId}\u0000${[...groups].sort().join('\u0000')}`;
  let cache = plans.get(db);
  if (!cache) plans.set(db, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < GROUP_PLAN_TTL_MS) return hit.plan;
  const plan = await countedPlan(db, programId, groups);
  if (cache.size > 1000) cache.clear();
  cache.set(key, { plan, at: now });
  return plan;
}

async function countedPlan(db: Db, programId: string, groups: readonly string[]): Promise<GroupPlan> {
  // Memberships, not projects: a project in two of the groups counts twice, which only errs towards probing.
  const [m] = await db.selectFrom((eb) => eb.selectFrom('project_access_groups').select('project_id')
    .where('program_id', '=', programId).where('group_id', 'in', [...groups]).limit(sql.lit(FEW_MEMBERS)).as('counted'))
    .select((eb) => eb.fn.countAll<number | string>().as('n')).execute();
  const members = Number(m!.n);
  if (members >= FEW_MEMBERS) return 'probe';
  const enough = members * SMALL_SHARE + 1;
  const [p] = await db.selectFrom((eb) => eb.selectFrom('projects').select('id').where('program_id', '=', programId).limit(sql.lit(enough)).as('counted'))
    .select((eb) => eb.fn.countAll<number | string>().as('n')).execute();
  return Number(p!.n) >= enough ? 'members' : 'probe';
}
