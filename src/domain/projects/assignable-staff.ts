import type { Program, Project, User } from '../../model/model.ts';
import type { AccountReader } from '../../store/account-queries.ts';
import { grantReaches, staffRoles } from '../roles/access.ts';

/** A staff member who may be assigned a program's projects, with the access groups their grant is limited to (null: every project). */
export interface AssignableStaff { user: User; accessGroups: string[] | null }

/**
 * The active staff of a program (agency admins and holders of a role that reads every project), by name, at most
 * `limit`, each with their grant's access-group limit: SetAssignee refuses a project outside it, so lists offer them
 * only projects they reach (reachesProject, sharesGroups).
 */
export async function assignableStaff(accounts: Pick<AccountReader, 'usersWithProgramRole' | 'programGrantsOf'>, program: Program, limit: number): Promise<AssignableStaff[]> {
  const users = await accounts.usersWithProgramRole(program, staffRoles(program), limit);
  const grants = await accounts.programGrantsOf(program.id, users.filter((u) => !u.agencyAdmin).map((u) => u.id));
  const byUser = new Map(grants.map((g) => [g.userId, g]));
  // An agency admin is an admin of every program of their agency, whatever grant they also hold.
  return users.map((user) => ({ user, accessGroups: user.agencyAdmin ? null : (byUser.get(user.id)?.accessGroups ?? null) }));
}

/** True when the staff member may be assigned the project: their grant reaches it. */
export function reachesProject(staff: AssignableStaff, project: Pick<Project, 'accessGroups'>): boolean {
  return grantReaches(staff, project);
}

/** The names of access groups (customIds) as the program names them, in its order; one it no longer defines by its customId. */
export function accessGroupNames(program: Pick<Program, 'accessGroups'>, groups: readonly string[]): string[] {
  const defined = program.accessGroups ?? [];
  return [...defined.filter((g) => groups.includes(g.customId)).map((g) => g.name), ...groups.filter((g) => !defined.some((d) => d.customId === g))];
}

/**
 * True when the staff member could be assigned some project a caller limited to `groups` reads: either is unlimited,
 * or their groups meet.
 */
export function sharesGroups(staff: AssignableStaff, groups: readonly string[] | undefined): boolean {
  return !groups || !staff.accessGroups || staff.accessGroups.some((g) => groups.includes(g));
}
