import type { Store } from '../../src/store/store.ts';
import { formatApiKey, hashSecret } from '../../src/domain/accounts/secrets.ts';
import { IDS, T0, user } from './fixtures.ts';
import type { Identity } from './http-harness.ts';

/**
 * The organization access matrix, written once for the API, page and feed tests: who is asked, how they stand to
 * organization A, and whether they must read A's projects. `applicant` (the harness's) is A's admin and starts the
 * projects for A; `otherApplicant` is A's member. The others are applicants of the program too, with their own
 * identities: one in no organization, one who joined A and was removed, and one member of organization B only.
 */
export const ORGANIZATION_MATRIX = [
  { who: 'member', reads: true, why: 'a member of A (not the owner) works on the project like its owner' },
  { who: 'nonMember', reads: false, why: 'an applicant in no organization' },
  { who: 'removed', reads: false, why: 'a member removed from A: same credentials, no access any more' },
  { who: 'orgB', reads: false, why: 'a member of organization B' },
] as const;

/** One row of the matrix. */
export type OrganizationSubject = (typeof ORGANIZATION_MATRIX)[number]['who'];

/** The organizations of the matrix and the extra identities (the harness's applicant and otherApplicant are A's). */
export interface OrganizationWorld { orgA: string; orgB: string; ids: Record<'nonMember' | 'removed' | 'orgB', Identity> }

const EXTRA = { nonMember: 'USER00000011', removed: 'USER00000012', orgB: 'USER00000013' } as const;

/**
 * Sets the matrix up in a store seeded by the HTTP harness: organizations A (applicant admin, otherApplicant member,
 * `removed` a member until removed at the end) and B (`orgB`), and three more applicants with API keys.
 */
export async function seedOrganizations(store: Store, membersOfA: { admin: string; member: string }): Promise<OrganizationWorld> {
  const ids = {} as OrganizationWorld['ids'];
  for (const [name, id] of Object.entries(EXTRA) as [keyof typeof EXTRA, string][]) {
    const password = `password-of-${name}`;
    const secret = `secret${name}`.padEnd(32, 'x');
    const [passwordHash, secretHash] = await Promise.all([hashSecret(password), hashSecret(secret)]);
    const keyId = `KEY${id.slice(-9)}`;
    await store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(id), passwordHash, T0);
      await tx.accounts.insertApiKey({ id: keyId, userId: id, name: 'test', secretHash, createdAt: T0, revokedAt: null });
      await tx.accounts.setGrant({ userId: id, programId: IDS.program, role: 'applicant', sensitive: false });
    });
    ids[name] = { id, email: `${id.toLowerCase()}@example.org`, password, apiKey: formatApiKey({ id: keyId, secret }) };
  }
  const orgA = 'ORGANIZATNA1';
  const orgB = 'ORGANIZATNB1';
  await store.transaction(async (tx) => {
    for (const [id, name] of [[orgA, 'Sunny Installers'], [orgB, 'Bright Roofs']] as const) {
      await tx.organizations.insertOrganization({ id, agencyId: IDS.agency, name, defaults: {}, createdAt: T0, createdBy: membersOfA.admin });
    }
    await tx.organizations.addMember(orgA, membersOfA.admin, 'admin', T0);
    await tx.organizations.addMember(orgA, membersOfA.member, 'member', T0);
    await tx.organizations.addMember(orgA, ids.removed.id, 'member', T0);
    await tx.organizations.addMember(orgB, ids.orgB.id, 'admin', T0);
  });
  return { orgA, orgB, ids };
}

/** Removes the `removed` identity from A, as its admin would: from its next request on it reads nothing of A's. */
export async function removeFromA(store: Store, world: OrganizationWorld): Promise<void> {
  await store.transaction((tx) => tx.organizations.removeMember(world.orgA, world.ids.removed.id));
}
