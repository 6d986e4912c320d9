import type { Kysely } from 'kysely';
import type { Project } from '../model/model.ts';
import { PROJECT_COLUMNS, toProject } from './project-queries.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * Sets the access groups a project is in (migration 057): the project's own column, read with the project for the
 * one-project decision, and the membership rows lists filter by. Written only when they differ from `before`.
 */
export async function setProjectAccessGroups(db: Db, programId: string, projectId: string, groups: readonly string[], before: readonly string[]): Promise<boolean> {
  if (groups.length === before.length && groups.every((g, i) => g === before[i])) return false;
  await db.updateTable('projects').set({ access_groups: groups.length > 0 ? JSON.stringify(groups) : null } as never).where('id', '=', projectId).execute();
  await db.deleteFrom('project_access_groups').where('project_id', '=', projectId).execute();
  if (groups.length > 0) {
    await db.insertInto('project_access_groups').values(groups.map((g) => ({ project_id: projectId, group_id: g, program_id: programId }))).execute();
  }
  return true;
}

/** Up to `limit` projects of a program after `after` in id order (with their groups now): a page of a recount. */
export async function projectGroupsPage(db: Db, programId: string, after: string | null, limit: number): Promise<Project[]> {
  let query = db.selectFrom('projects').selectAll().where('program_id', '=', programId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map(toProject);
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
