import type { CustomRole, Program } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { BUILT_IN_ROLE_NAMES, isPrivilege, PRIVILEGE_NAMES } from '../roles/privileges.ts';
import type { DefinitionChange, Resolve, ResolvedRole } from './program-parts.ts';
import type { ProgramFile, RoleSpec } from './program-file.ts';
import { atLine } from './program-lines.ts';

const BUILT_IN = new Set<string>(BUILT_IN_ROLE_NAMES);

/**
 * Checks the file's own roles (names apart from the built-in ones and from each other, known privileges,
 * transitions the workflow has) and the roles its forms name; each problem names the YAML line.
 */
export function checkRoles(file: ProgramFile, statuses: Resolve, problems: string[]): ResolvedRole[] {
  const resolved = file.roles.map((role, i) => checkRole(file, role, i, statuses, problems));
  const known = [...new Set([...BUILT_IN_ROLE_NAMES, ...file.roles.map((r) => r.customId)])];
  file.forms.forEach((form, i) => {
    (form.roles ?? []).forEach((name, j) => {
      if (!known.includes(name)) {
        problems.push(`form "${form.customId ?? form.name}"${atLine(file, ['forms', i, 'roles', j])}: roles: no role is named "${name}"; the roles are ${known.join(', ')}`);
      }
    });
  });
  return resolved;
}

function checkRole(file: ProgramFile, role: RoleSpec, i: number, statuses: Resolve, problems: string[]): ResolvedRole {
  const where = `role "${role.customId}"${atLine(file, ['roles', i])}`;
  for (const key of ['customId', 'name'] as const) {
    // Grants and forms name roles by customId; a name like a built-in one would read as that role on every page.
    if (BUILT_IN.has(role[key].toLowerCase())) problems.push(`${where}: the ${key} "${role[key]}" is the name of a built-in role; choose another`);
    if (file.roles.slice(0, i).some((r) => r[key] === role[key])) problems.push(`${where}: another role has the ${key} "${role[key]}"`);
  }
  role.privileges.forEach((p, j) => {
    if (!isPrivilege(p)) problems.push(`role "${role.customId}"${atLine(file, ['roles', i, 'privileges', j])}: unknown privilege "${p}"; the privileges are ${PRIVILEGE_NAMES.join(', ')}`);
  });
  if (role.transitions === null) return { transitions: null };
  if (!role.privileges.includes('moveStatus')) {
    problems.push(`${where}: transitions limit the privilege moveStatus, which the role does not have`);
  }
  const transitions: { from: number; to: number[] }[] = [];
  role.transitions.forEach((t, k) => {
    const at = `role "${role.customId}"${atLine(file, ['roles', i, 'transitions', k])}: transitions`;
    const from = statuses(t.from, at);
    if (from === null) return;
    if (transitions.some((x) => x.from === from)) {
      problems.push(`${at}: "${t.from}" is listed twice; list every status it may move to in one entry`);
      return;
    }
    const next = file.statuses[from]!.next.map((ref) => file.statuses.findIndex((s) => s.customId === ref || s.name === ref));
    const to: number[] = [];
    for (const ref of t.to) {
      const index = statuses(ref, at);
      if (index === null) continue;
      if (to.includes(index)) problems.push(`${at}: "${ref}" is listed twice from "${t.from}"`);
      else if (!next.includes(index)) problems.push(`${at}: the workflow has no transition from "${t.from}" to "${ref}" (add it to the status's next, or leave it out here)`);
      else to.push(index);
    }
    transitions.push({ from, to });
  });
  return { transitions };
}

/** The roles to store with the program: transitions by the ids the import gives the statuses. */
export function planRoles(file: ProgramFile, resolved: ResolvedRole[], statusIds: string[]): CustomRole[] {
  return file.roles.map((r, i) => {
    const t = resolved[i]!.transitions;
    return {
      customId: r.customId, name: r.name, privileges: r.privileges,
      transitions: t === null ? null : t.map((x) => ({ from: statusIds[x.from]!, to: x.to.map((s) => statusIds[s]!) })),
    };
  });
}

/** A program's stored roles as the program file writes them; `refOf` turns a status id into its reference. */
export function roleSpecsOf(program: Program, refOf: (statusId: string) => string): RoleSpec[] {
  return (program.roles ?? []).map((r) => ({
    customId: r.customId, name: r.name, privileges: r.privileges,
    transitions: r.transitions === null ? null : r.transitions.map((t) => ({ from: refOf(t.from), to: t.to.map(refOf) })),
  }));
}

/** What an import does to the program's own roles, by customId: created, removed, or updated (name, privileges, transitions). */
export function diffRoles(before: CustomRole[], after: CustomRole[]): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  const canonical = (r: CustomRole) => ({
    name: r.name, privileges: [...r.privileges].sort(),
    transitions: r.transitions === null ? null : r.transitions.map((t) => [t.from, [...t.to].sort()]).sort(),
  });
  for (const role of after) {
    const prior = before.find((r) => r.customId === role.customId);
    if (!prior) {
      changes.push({ kind: 'role', action: 'created', ref: role.customId, properties: [] });
      continue;
    }
    const [a, b] = [canonical(prior), canonical(role)];
    const properties = (Object.keys(b) as (keyof typeof b)[]).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    if (properties.length > 0) changes.push({ kind: 'role', action: 'updated', ref: role.customId, properties });
  }
  for (const role of before) {
    if (!after.some((r) => r.customId === role.customId)) changes.push({ kind: 'role', action: 'removed', ref: role.customId, properties: [] });
  }
  return changes;
}

/**
 * Refuses an import that removes roles users still hold: their grants would silently stop giving any access.
 * The grants are changed (or removed) first, with `apas grant`.
 */
export async function refuseRemovingGrantedRoles(tx: StoreWriter, programId: string, before: CustomRole[], after: CustomRole[]): Promise<void> {
  const removed = before.filter((r) => !after.some((a) => a.customId === r.customId)).map((r) => r.customId);
  if (removed.length === 0) return;
  const grants = (await tx.accounts.listGrantDetails({ programId })).filter((g) => removed.includes(g.role));
  if (grants.length === 0) return;
  const held = removed.flatMap((name) => {
    const users = grants.filter((g) => g.role === name).map((g) => g.email);
    return users.length === 0 ? [] : [`"${name}" (held by ${users.join(', ')})`];
  });
  const noun = held.length === 1 ? 'role' : 'roles';
  throw new ApiError('INVALID_REQUEST',
    `cannot remove ${noun} ${held.join(', ')}: give those users another role first (apas grant add … --role …, or apas grant remove), or keep the ${noun} in the file`);
}
