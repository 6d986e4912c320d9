import type { GrantFollower } from '../accounts/grant-follower.ts';
import { accessGroupsGrantFollower } from '../access-groups/unassign-unreadable.ts';
import { changeReactions } from './change-reactions.ts';

/**
 * What follows a change of a user's grant in a program, in its transaction: the access groups unassign the projects
 * the user can no longer read, recorded with the change step's reactions. Composed once where the services are wired.
 */
export function grantFollowers(): readonly GrantFollower[] {
  return [accessGroupsGrantFollower(changeReactions())];
}
