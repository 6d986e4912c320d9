import type { Program, ProgramGrant } from '../../model/model.ts';
import type { GroupGrant } from '../../model/sign-on.ts';
import { ApiError } from '../api-error.ts';
import { isStaff, roleNamed } from '../roles/access.ts';

/**
 * What a user's groups give under an agency's mapping: agency admin or not, and one grant per program (its
 * `accessGroups` only where the mapping names them: otherwise the grant keeps the limit it has).
 */
export interface MappedAccess { agencyAdmin: boolean; grants: Omit<ProgramGrant, 'userId'>[] }

const SYNTAX = 'write GROUP = admin or GROUP = PROGRAM ROLE [sensitive] [only ACCESSGROUP,...]';
const ONLY = 'only';

const ADMIN = 'admin';

/**
 * Parses the mapping as the console's text box and the CLI take it: one entry per line (or separated by `;`),
 * `GROUP = admin` or `GROUP = PROGRAM ROLE [sensitive] [only ACCESSGROUP,...]`, split at the last `=` (group names
 * such as LDAP DNs may hold `=`). Programs are the agency's (custom id or id); roles and access groups (customIds) the
 * program's. INVALID_PARAMETER names the bad line.
 */
export function parseGroupGrants(text: string, programs: readonly Program[]): GroupGrant[] {
  const entries: GroupGrant[] = [];
  const lines = text.split(/[\n;]/).map((l) => l.trim()).filter((l) => l !== '');
  lines.forEach((line, i) => {
    const bad = (why: string) => new ApiError('INVALID_PARAMETER', `mapping line ${i + 1} ("${line}"): ${why}`);
    const at = line.lastIndexOf('=');
    const group = at < 0 ? '' : line.slice(0, at).trim();
    const words = at < 0 ? [] : line.slice(at + 1).trim().split(/\s+/).filter((w) => w !== '');
    if (group === '' || words.length === 0) throw bad(SYNTAX);
    if (group.length > 256) throw bad('a group name has at most 256 characters');
    if (words.length === 1 && words[0]!.toLowerCase() === ADMIN) {
      entries.push({ group, agencyAdmin: true });
      return;
    }
    const at2 = words.findIndex((w) => w.toLowerCase() === ONLY);
    const only = at2 < 0 ? null : words.slice(at2 + 1).join('').split(',').filter((g) => g !== '');
    const [programRef, role, flag, ...rest] = at2 < 0 ? words : words.slice(0, at2);
    if (!programRef || !role || rest.length > 0 || (flag !== undefined && flag.toLowerCase() !== 'sensitive') || (only !== null && only.length === 0)) throw bad(SYNTAX);
    const program = programs.find((p) => p.customId === programRef || p.id === programRef);
    if (!program) throw bad(`the agency has no program "${programRef}"`);
    const named = roleNamed(program, role);
    if (named === null) throw bad(`program ${program.customId} has no role "${role}"`);
    // Single sign-on is for staff; applicants keep their own accounts.
    if (!isStaff(named)) throw bad(`role "${role}" is not a staff role (it cannot read the program's projects)`);
    const unknown = (only ?? []).find((g) => !(program.accessGroups ?? []).some((a) => a.customId === g));
    if (unknown !== undefined) throw bad(`program ${program.customId} has no access group "${unknown}"`);
    entries.push({ group, agencyAdmin: false, programId: program.id, role, sensitive: flag !== undefined, ...(only ? { accessGroups: [...new Set(only)] } : {}) });
  });
  return entries;
}

/** The mapping as parseGroupGrants reads it, one entry per line (programs by custom id while they exist). */
export function formatGroupGrants(entries: readonly GroupGrant[], programs: readonly Program[]): string {
  return entries.map((e) => {
    if (e.agencyAdmin) return `${e.group} = ${ADMIN}`;
    const program = programs.find((p) => p.id === e.programId);
    return `${e.group} = ${program?.customId ?? e.programId} ${e.role}${e.sensitive ? ' sensitive' : ''}${e.accessGroups ? ` ${ONLY} ${e.accessGroups.join(',')}` : ''}`;
  }).join('\n');
}

/**
 * The access `groups` give: agency admin when any admin entry matches; per program the first matching entry in the
 * mapping's order (entries of programs that no longer exist, or roles they no longer have, give nothing).
 */
export function mappedAccess(groups: readonly string[], entries: readonly GroupGrant[], programs: readonly Program[]): MappedAccess {
  const member = new Set(groups);
  const matching = entries.filter((e) => member.has(e.group));
  const grants: MappedAccess['grants'] = [];
  for (const e of matching) {
    if (e.agencyAdmin || grants.some((g) => g.programId === e.programId)) continue;
    const program = programs.find((p) => p.id === e.programId);
    if (program && isStaff(roleNamed(program, e.role))) grants.push({ programId: e.programId, role: e.role, sensitive: e.sensitive, ...(e.accessGroups ? { accessGroups: e.accessGroups } : {}) });
  }
  return { agencyAdmin: matching.some((e) => e.agencyAdmin), grants };
}

/** True when the access lets the user in (agency admin, or at least one grant). */
export function grantsAnything(access: MappedAccess): boolean {
  return access.agencyAdmin || access.grants.length > 0;
}

/** True when the grant makes its holder staff of its program (a role that reads every project); false for applicants. */
export function isStaffGrant(grant: Pick<ProgramGrant, 'programId' | 'role'>, programs: readonly Program[]): boolean {
  const program = programs.find((p) => p.id === grant.programId);
  return program !== undefined && isStaff(roleNamed(program, grant.role));
}
