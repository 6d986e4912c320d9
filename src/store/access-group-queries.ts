import type { Kysely } from 'kysely';
import type { Project } from '../model/model.ts';
import { PROJECT_COLUMNS, toProject } from './project-queries.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * Sets the access groups a project is in (migration 057): the project's own column, read with the project for the
 * one-project decision, and the membership rows lists filter by. Written only when they differ from `before`; the
 * change step's write of one project is a recount's page write (setPageAccessGroups) of that one.
 */
export async function setProjectAccessGroups(db: Db, programId: string, projectId: string, groups: readonly string[], before: readonly string[]): Promise<boolean> {
  return (await setPageAccessGroups(db, programId, [{ projectId, groups, before }])).length > 0;
}

/** One project's access groups as a recount computed them, beside those it was in. */
export interface GroupMove { projectId: string; groups: readonly string[]; before: readonly string[] }

// How many membership rows one insert carries (three parameters each, well below either database's limit).
const MEMBER_ROWS_PER_INSERT = 1000;

/**
 * setProjectAccessGroups for a page of a recount at once: of `moves`, those whose groups differ from `before` are
 * written in a few statements instead of three per project (one update per distinct set of groups, of which a
 * program's conditions give few; one delete and one insert of their membership rows), so that on PostgreSQL a big
 * program's recount is not mostly round trips. Gives the ids of the projects written, in the order of `moves`.
 */
export async function setPageAccessGroups(db: Db, programId: string, moves: readonly GroupMove[]): Promise<string[]> {
  const moved = moves.filter((m) => !sameGroups(m.groups, m.before));
  if (moved.length === 0) return [];
  const bySet = new Map<string, string[]>();
  for (const m of moved) {
    const json = m.groups.length > 0 ? JSON.stringify(m.groups) : '';
    const ids = bySet.get(json);
    if (ids) ids.push(m.projectId);
    else bySet.set(json, [m.projectId]);
  }
  for (const [json, ids] of bySet) {
    await db.updateTable('projects').set({ access_groups: json === '' ? null : json } as never).where('id', 'in', ids).execute();
  }
  const ids = moved.map((m) => m.projectId);
  await db.deleteFrom('project_access_groups').where('project_id', 'in', ids).execute();
  const rows = moved.flatMap((m) => m.groups.map((g) => ({ project_id: m.projectId, group_id: g, program_id: programId })));
  for (let i = 0; i < rows.length; i += MEMBER_ROWS_PER_INSERT) {
    await db.insertInto('project_access_groups').values(rows.slice(i, i + MEMBER_ROWS_PER_INSERT)).execute();
  }
  return ids;
}

function sameGroups(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((g, i) => g === b[i]);
}

/** Up to `limit` projects of a program after `after` in id order (with their groups now): a page of a recount. */
export async function projectGroupsPage(db: Db, programId: string, after: string | null, limit: number): Promise<Project[]> {
  let query = db.selectFrom('projects').selectAll().where('program_id', '=', programId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map(toProject);
}

/** How many projects a program has (what an import's recount walks; told when it did not fit in its time). */
export async function countProgramProjects(db: Db, programId: string): Promise<number> {
  const row = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number | string>().as('n')).where('program_id', '=', programId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many projects of a program are in each of its access groups (the console and `apas program show`). */
export async function countAccessGroups(db: Db, programId: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('project_access_groups').select(['group_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('program_id', '=', programId).groupBy('group_id').execute();
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

/**
 * Clears the assignee of those of `projectIds` that `assigneeId` still has, each a version of its own stamped `at` by
 * `by`, in one statement (on PostgreSQL it locks the rows, and a row another change holds is judged again once that
 * change commits); gives the projects it cleared as they are now. An import's recount, once it moved them out of that
 * assignee's access groups.
 */
export async function clearAssignee(db: Db, programId: string, assigneeId: string, projectIds: readonly string[], at: number, by: string): Promise<Project[]> {
  if (projectIds.length === 0) return [];
  const rows = await db.updateTable('projects')
    .set((eb) => ({ assignee_id: null, version: eb('version', '+', 1), updated_at: at, updated_by: by }))
    .where('id', 'in', projectIds).where('program_id', '=', programId).where('assignee_id', '=', assigneeId)
    .returning(PROJECT_COLUMNS).execute();
  return rows.map(toProject);
}

/**
 * Up to `limit` projects of a program assigned to `assigneeId`, after `after` in id order: a page of what a change of
 * that person's grant checks (the work queue's index by program and assignee finds them).
 */
export async function assignedProjectsPage(db: Db, programId: string, assigneeId: string, after: string | null, limit: number): Promise<Project[]> {
  let query = db.selectFrom('projects').selectAll().where('program_id', '=', programId).where('assignee_id', '=', assigneeId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map(toProject);
}
