import type { EventAudience } from '../../model/event.ts';
import type { StoreReader } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import { canRead, isStaff, roleIn } from '../roles/access.ts';

/** What deciding a self-service subscription's access reads: the owner, their grants and organizations, the policy, the project. */
export type OwnerAccessReader = Pick<StoreReader, 'accounts' | 'organizations' | 'programs' | 'projects' | 'agencyPolicies'>;

/** One event of a project, as far as the owner's access to it matters. */
export interface OwnedTarget { ownerId: string; programId: string; projectId: string; audience: EventAudience }

/**
 * Why a self-service subscription's owner may not be sent an event of this project now, or null when they may: the
 * owner must be an active user whose agency allows self-service webhooks, with a role in the program that reads the
 * project as it is now (its owner or organization today, not when the event happened); events only staff see (internal
 * notes) go to owners who are staff of the program. The same rule as the project reads (src/domain/roles/access.ts).
 */
export async function ownerRefusal(reader: OwnerAccessReader, t: OwnedTarget): Promise<string | null> {
  const user = await reader.accounts.findUserById(t.ownerId);
  if (!user || user.disabled) return 'its owner is disabled or no longer exists';
  if (!(await reader.agencyPolicies.findPolicy(user.agencyId)).ownWebhooks) return 'the agency turned self-service webhooks off';
  const program = await reader.programs.findProgram(t.programId, user.agencyId);
  const [grants, organizationIds] = await Promise.all([reader.accounts.listGrants(user.id), reader.organizations.organizationIdsOf(user.id)]);
  const { passwordHash: _hash, ...plain } = user;
  const caller: Caller = { user: plain, apiKeyId: '', grants, organizationIds };
  const role = program ? roleIn(caller, program) : null;
  if (!program || !role) return 'its owner no longer has access to the program';
  const project = await reader.projects.getProject(program.id, t.projectId);
  if (!project || !canRead(caller, role, project)) return 'its owner cannot read the project';
  if (t.audience === 'staff' && !isStaff(role)) return 'the event is for the program\'s staff only';
  return null;
}
