import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Form, Program, ProgramGrant, ProgramRole, Project, Status } from '../../model/model.ts';
import type { OwnerScope } from '../../model/records.ts';
import { BUILT_IN_ROLES, isPrivilege, type Privilege } from './privileges.ts';

/**
 * The caller's role in one program and what it allows: the role's name (built-in or the program's own customId),
 * its privileges (revealSensitive added by the grant's flag), and, when the role restricts moveStatus, the
 * transitions it may make (status id → the status ids it may move to); null for every transition of the workflow.
 */
export interface Role {
  name: ProgramRole; privileges: ReadonlySet<Privilege>; transitions: ReadonlyMap<string, ReadonlySet<string>> | null;
  /** The access groups the grant limits the role to (customIds): only their projects are read and changed. Absent or null: every project. */
  groups?: ReadonlySet<string> | null;
}

// Roles of frozen programs (the store's cached reads), built once: every request looks its caller's role up, and an
// admin's is a set of every privilege. A frozen program cannot change under its entry; a new definition is a new object.
const rolesOfFrozen = new WeakMap<object, Map<string, Role | null>>();

/** The role a name stands for in a program (built-in or the program's own), or null when the program has no such role. */
export function roleNamed(program: Pick<Program, 'roles'>, name: string, sensitive = false): Role | null {
  if (!Object.isFrozen(program)) return buildRole(program, name, sensitive);
  let roles = rolesOfFrozen.get(program);
  if (!roles) rolesOfFrozen.set(program, (roles = new Map()));
  const key = `${sensitive ? 's' : '-'}${name}`;
  let role = roles.get(key);
  if (role === undefined) roles.set(key, (role = buildRole(program, name, sensitive)));
  return role;
}

function buildRole(program: Pick<Program, 'roles'>, name: string, sensitive: boolean): Role | null {
  const builtIn = Object.hasOwn(BUILT_IN_ROLES, name) ? BUILT_IN_ROLES[name as keyof typeof BUILT_IN_ROLES] : null;
  const own = builtIn ? null : program.roles?.find((r) => r.customId === name);
  if (!builtIn && !own) return null;
  const privileges = new Set<Privilege>(builtIn ?? own!.privileges.filter(isPrivilege));
  if (sensitive) privileges.add('revealSensitive');
  const transitions = own?.transitions ? new Map(own.transitions.map((t) => [t.from, new Set(t.to)])) : null;
  return { name, privileges, transitions };
}

/** How pages name a role: a program's own role by its name, a built-in one by itself. */
export function roleLabel(program: Pick<Program, 'roles'>, role: Role): string {
  return program.roles?.find((r) => r.customId === role.name)?.name ?? role.name;
}

/**
 * The caller's effective role in a program: agency admins are admins of all their agency's programs, with every
 * privilege. A grant of a role the program no longer has gives no access (an import refuses to remove a granted role).
 */
export function roleIn(caller: Caller, program: Program): Role | null {
  if (caller.user.agencyAdmin && caller.user.agencyId === program.agencyId) return roleNamed(program, 'admin', true);
  const grant = caller.grants.find((g) => g.programId === program.id);
  if (!grant) return null;
  const role = roleNamed(program, grant.role, grant.sensitive);
  return role && grant.accessGroups ? limitedRole(role, grant.accessGroups) : role;
}

/**
 * The privileges over a program as a whole rather than over its projects one at a time: its webhook subscriptions
 * (every project's events), the console (its people, program file, audit trail and mail), and running its daily
 * schedules (every project they select). A grant limited to access groups reaches some projects, not the program, so
 * its role does not hold them.
 */
export const PROGRAM_WIDE_PRIVILEGES: readonly Privilege[] = ['manageWebhooks', 'administerProgram', 'runAutomations'];

// A limited grant's role is its own object (the frozen program's cached one stays the unlimited role): limited to its
// groups, without the program-wide privileges.
function limitedRole(role: Role, groups: readonly string[]): Role {
  const privileges = new Set([...role.privileges].filter((p) => !PROGRAM_WIDE_PRIVILEGES.includes(p)));
  return { ...role, privileges, groups: new Set(groups) };
}

/**
 * True when the role's access-group limit lets it at the project: an unlimited role always; a limited one when the
 * project is in one of its groups now (the change step keeps the project's groups). The one place the limit is decided
 * for one project; lists filter by the same rule in SQL (ownerFilter's `groups`).
 */
export function withinGroups(role: Role, project: Pick<Project, 'accessGroups'>): boolean {
  const groups = role.groups;
  if (!groups) return true;
  return project.accessGroups?.some((g) => groups.has(g)) ?? false;
}

/** True when a grant reaches the project: it is not limited to access groups, or the project is in one of its groups. */
export function grantReaches(grant: Pick<ProgramGrant, 'accessGroups'>, project: Pick<Project, 'accessGroups'>): boolean {
  const groups = grant.accessGroups;
  return !groups || (project.accessGroups?.some((g) => groups.includes(g)) ?? false);
}

/** The access groups a role is limited to, as a list for a query; undefined for a role that reads every project. */
export function groupLimit(role: Role): string[] | undefined {
  return role.groups ? [...role.groups] : undefined;
}

/**
 * True when the caller holds, somewhere in their agency, a role that passes `test` (an agency admin always does).
 * Every page's header asks, so built-in roles answer by their names alone; only a grant of a program's own role reads
 * the programs (`programs`, the store's cached list), which define it.
 */
export async function holdsRoleAnywhere(caller: Caller, programs: () => Promise<Program[]>, test: (role: Role | null) => boolean): Promise<boolean> {
  if (caller.user.agencyAdmin) return true;
  if (caller.grants.some((g) => {
    const role = roleNamed({}, g.role);
    return test(role && g.accessGroups ? limitedRole(role, g.accessGroups) : role);
  })) return true;
  if (caller.grants.every((g) => roleNamed({}, g.role) !== null)) return false;
  return (await programs()).some((p) => test(roleIn(caller, p)));
}

/** The caller's role in a program, or FORBIDDEN when the caller has no access to it at all. */
export function requireProgramRole(caller: Caller, program: Program): Role {
  const role = roleIn(caller, program);
  if (!role) throw new ApiError('FORBIDDEN', `You have no access to program ${program.id}.`);
  return role;
}

/** True when the role holds the privilege. */
export function hasPrivilege(role: Role | null, privilege: Privilege): boolean {
  return role?.privileges.has(privilege) ?? false;
}

/** Throws FORBIDDEN, naming the operation and the privilege it needs, unless the role holds the privilege. */
export function requirePrivilege(role: Role, privilege: Privilege, operation: string): void {
  if (!role.privileges.has(privilege)) {
    throw new ApiError('FORBIDDEN', `${operation} needs the privilege ${privilege}, which your role (${role.name}) in this program does not have.`);
  }
}

/** True when the role may move a project from one status to another (the workflow's own rules are checked apart). */
export function mayMove(role: Role, from: Status, to: Status): boolean {
  if (!role.privileges.has('moveStatus')) return false;
  return role.transitions === null || (role.transitions.get(from.id)?.has(to.id) ?? false);
}

/** Throws FORBIDDEN naming the transition unless the role may move a project along it. */
export function requireMove(role: Role, from: Status, to: Status): void {
  requirePrivilege(role, 'moveStatus', 'SetProjectStatus');
  if (!mayMove(role, from, to)) {
    throw new ApiError('FORBIDDEN', `Your role (${role.name}) may not move a project from "${from.name}" to "${to.name}" in this program.`);
  }
}

/**
 * Staff read every project (undefined: no filter); other roles the projects they participate in: their own personal
 * projects and every project of the organizations they are a member of now (the SQL filter is readableBy). A grant
 * limited to access groups narrows either to the projects in its groups.
 */
export function ownerFilter(caller: Caller, role: Role): OwnerScope | undefined {
  const groups = groupLimit(role);
  if (role.privileges.has('readProjects')) return groups ? { ownerId: null, organizationIds: [], groups } : undefined;
  return { ownerId: caller.user.id, organizationIds: caller.organizationIds ?? [], ...(groups ? { groups } : {}) };
}

/**
 * True when the caller participates in the project: a project started for an organization belongs to its members
 * (its owner included only while a member); any other project to its owner. The same rule as ownerFilter's SQL.
 */
export function participates(caller: Caller, project: Project): boolean {
  const organizationId = project.organizationId ?? null;
  if (organizationId !== null) return caller.organizationIds?.includes(organizationId) ?? false;
  return project.ownerId === caller.user.id;
}

/** True when the role lets the caller read this project. */
export function canRead(caller: Caller, role: Role, project: Project): boolean {
  return (role.privileges.has('readProjects') || participates(caller, project)) && withinGroups(role, project);
}

/** True when the role lets the caller change this project's data, files and inquiries as a participant. */
export function canWrite(caller: Caller, role: Role, project: Project): boolean {
  if (!withinGroups(role, project)) return false;
  if (role.privileges.has('editData')) return true;
  return role.privileges.has('editOwnProjects') && participates(caller, project);
}

/** True when the role lets the caller hand this project to another owner. */
export function canChangeOwner(caller: Caller, role: Role, project: Project): boolean {
  if (!withinGroups(role, project)) return false;
  if (role.privileges.has('changeOwner')) return true;
  return role.privileges.has('editOwnProjects') && participates(caller, project);
}

/** True when the role may create projects in the program. */
export function canCreate(role: Role): boolean {
  return role.privileges.has('createProjects');
}

/** True when the caller may see sensitive values of the program in plain text (also needs MFA). */
export function hasSensitivePrivilege(role: Role): boolean {
  return role.privileges.has('revealSensitive');
}

/** True when the role may fill in forms outside their statuses and write submitted data (admins). */
export function overridesForms(role: Role): boolean {
  return role.privileges.has('overrideForms');
}

/** True when the role may fill in and submit the form (roles that override forms always may). */
export function mayUseForm(role: Role, form: Form): boolean {
  return role.privileges.has('overrideForms') || form.roles === null || form.roles.includes(role.name);
}

/** Throws FORBIDDEN unless the role may fill in and submit the form. */
export function requireFormUse(role: Role, form: Form): void {
  if (!mayUseForm(role, form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is not for your role (${role.name}) in this program.`);
}

/** True when the role may read the form's data: staff read every form, others only forms they may use. */
export function mayReadForm(role: Role, form: Form): boolean {
  return role.privileges.has('readProjects') || mayUseForm(role, form);
}

/** The names of a program's staff roles (those with readProjects): who may be assigned a project and sees the work queue. */
export function staffRoles(program: Program): ProgramRole[] {
  const builtIn = Object.entries(BUILT_IN_ROLES).filter(([, p]) => p.includes('readProjects')).map(([name]) => name);
  return [...builtIn, ...(program.roles ?? []).filter((r) => r.privileges.includes('readProjects')).map((r) => r.customId)];
}

/** True for staff: roles that read every project, may be assigned one, and see the work queue. */
export function isStaff(role: Role | null): boolean {
  return hasPrivilege(role, 'readProjects');
}

/** Throws SENSITIVE_DATA_NOT_ALLOWED unless the caller has the sensitive-data privilege and proved a second factor. */
export function requireReveal(caller: Caller, role: Role): void {
  if (!hasSensitivePrivilege(role)) {
    throw new ApiError('SENSITIVE_DATA_NOT_ALLOWED', 'reveal_sensitive_data=true needs the privilege to view sensitive data in this program.');
  }
  if (!caller.mfaVerified) {
    throw new ApiError('SENSITIVE_DATA_NOT_ALLOWED', 'reveal_sensitive_data=true needs an account with multi-factor authentication enabled.');
  }
}
