import type { Program, Project, User } from '../../model/model.ts';
import type { AccountReader } from '../../store/account-queries.ts';
import { grantReaches } from './access.ts';

/**
 * True when the user's grant in the project's program reaches the project now: an agency admin of its agency always,
 * a grant limited to access groups only when the project is in one of them. For work done on someone's behalf that
 * is not their own request (mail to them, an assignment): what they may not read, they are not told of.
 */
export async function userReaches(accounts: Pick<AccountReader, 'findGrant'>, user: Pick<User, 'id' | 'agencyAdmin' | 'agencyId'>, program: Pick<Program, 'id' | 'agencyId'>, project: Pick<Project, 'accessGroups'>): Promise<boolean> {
  if (user.agencyAdmin && user.agencyId === program.agencyId) return true;
  const grant = await accounts.findGrant(user.id, program.id);
  return !grant || grantReaches(grant, project);
}
