import type { GrantChange, GrantFollower } from '../accounts/grant-follower.ts';
import type { Caller } from '../caller.ts';
import type { ChangeReaction } from '../projects/change-reaction.ts';
import { canRead, roleIn, roleNamed } from '../roles/access.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { StoreWriter } from '../../store/store.ts';
import { REGROUP_PAGE, unassignPage } from './keep-access-groups.ts';

/**
 * The access groups' part in a grant change (listed in src/domain/wiring/grant-followers.ts): the projects of the
 * program the user is assignee of and can no longer read are unassigned in the grant change's transaction, recorded
 * with the change step's `reactions`.
 */
export function accessGroupsGrantFollower(reactions: readonly ChangeReaction[]): GrantFollower {
  return { name: 'access groups', grantChanged: (tx, ids, change) => unassignUnreadable(tx, { ids, reactions }, change).then(() => undefined) };
}

/**
 * Unassigns every project of `change.programId` whose assignee is `change.userId` and which they can no longer read
 * under the grants they hold now (canRead with their role there, roleIn: an agency admin of the program's agency reads
 * every project, a limited grant its groups' only, no grant none but their own; a disabled user none). REGROUP_PAGE
 * of their projects at a time, cleared with the page as the import's recount does (unassignPage, `reason: grant`, or
 * `disabled` for a disabled user), stamped by who made the change (the system at the command line or a sign-in).
 * Nothing is read when the role they are left with reads every project. Gives how many projects it unassigned.
 */
export async function unassignUnreadable(tx: StoreWriter, deps: { ids: IdGenerator; reactions: readonly ChangeReaction[] }, change: GrantChange): Promise<number> {
  const [program, user] = await Promise.all([tx.programs.findProgram(change.programId), tx.accounts.findUserById(change.userId)]);
  if (!program || !user) return 0;
  // The assignee as a request of theirs would be seen: the grants the change left.
  const assignee: Caller = { user, apiKeyId: '', grants: await tx.accounts.listGrants(user.id) };
  // A disabled user reads nothing (they cannot sign in, and SetAssignee refuses them).
  const role = user.disabled ? null : roleIn(assignee, program);
  if (role?.privileges.has('readProjects') && !role.groups) return 0;
  const ctx = { program, model: await tx.programs.loadProgramModel(program), role: roleNamed(program, 'admin')! };
  const recount = { ...deps, actorId: change.actorId, requestId: null };
  let cleared = 0;
  let after: string | null = null;
  for (;;) {
    const page = await tx.projects.assignedProjectsPage(program.id, user.id, after, REGROUP_PAGE);
    const unreadable = page.filter((p) => !role || !canRead(assignee, role, p));
    cleared += await unassignPage(tx, recount, ctx, unreadable, change.at, user.disabled ? 'disabled' : 'grant');
    if (page.length < REGROUP_PAGE) return cleared;
    after = page.at(-1)!.id;
  }
}
