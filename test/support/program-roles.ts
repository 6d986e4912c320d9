import { formatApiKey, hashSecret } from '../../src/domain/accounts/secrets.ts';
import { PRIVILEGE_NAMES, type Privilege } from '../../src/domain/roles/privileges.ts';
import type { CustomRole } from '../../src/model/model.ts';
import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import type { Store } from '../../src/store/store.ts';
import { IDS, T0, user } from './fixtures.ts';
import type { Identity } from './http-harness.ts';

/** A role of the program's own for a test: its customId, privileges and (optionally) transitions by status id. */
export interface RoleSpec { customId: string; privileges: readonly Privilege[]; transitions?: CustomRole['transitions'] }

/** A role that holds `privilege` and what it needs besides to reach the operation (`needs`), and nothing else. */
export function roleWith(privilege: Privilege, needs: readonly Privilege[] = []): Privilege[] {
  return [...new Set([...needs, privilege])];
}

/** A role that holds every privilege but `privilege` (and but the ones in `alsoWithout`, which would grant the same). */
export function roleWithout(privilege: Privilege, alsoWithout: readonly Privilege[] = []): Privilege[] {
  return PRIVILEGE_NAMES.filter((p) => p !== privilege && !alsoWithout.includes(p));
}

const PASSWORD = 'password-of-a-program-role';
const SECRET = 'secretofaprogramrole'.padEnd(32, 'x');
let hashes: Promise<[string, string]> | undefined;

/**
 * Gives the fixture program (as `rows` define it) the roles, and makes one user per role holding it (ids from
 * USER00000100 on); returns each user's identity by role customId. The program's definition is saved again with the
 * roles, so call it before the requests that should see them.
 */
export async function seedProgramRoles(store: Store, rows: ProgramDefinitionRows, roles: readonly RoleSpec[]): Promise<Record<string, Identity>> {
  // argon2 is slow on purpose: every role's user shares one password and one key secret (under its own key id).
  hashes ??= Promise.all([hashSecret(PASSWORD), hashSecret(SECRET)]);
  const [passwordHash, secretHash] = await hashes;
  const custom: CustomRole[] = roles.map((r) => ({ customId: r.customId, name: `Role ${r.customId}`, privileges: [...r.privileges], transitions: r.transitions ?? null }));
  const who: Record<string, Identity> = {};
  await store.transaction(async (tx) => {
    await tx.programs.saveProgramDefinition({ ...rows, program: { ...rows.program, roles: custom } });
    for (const [i, role] of roles.entries()) {
      const id = `USER${String(100 + i).padStart(8, '0')}`;
      const keyId = `KEYROLE${String(i).padStart(5, '0')}`;
      await tx.accounts.insertUser(user(id, { agencyAdmin: false, name: `Holder of ${role.customId}` }), passwordHash, T0);
      await tx.accounts.insertApiKey({ id: keyId, userId: id, name: 'test', secretHash, createdAt: T0, revokedAt: null });
      await tx.accounts.setGrant({ userId: id, programId: IDS.program, role: role.customId, sensitive: false });
      who[role.customId] = { id, email: `${id.toLowerCase()}@example.org`, password: PASSWORD, apiKey: formatApiKey({ id: keyId, secret: SECRET }) };
    }
  });
  return who;
}
