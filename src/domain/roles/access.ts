import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Form, Program, ProgramRole, Project } from '../../model/model.ts';

/** The caller's effective role in a program: agency admins are admins of all their agency's programs. */
export function roleIn(caller: Caller, program: Program): ProgramRole | null {
  if (caller.user.agencyAdmin && caller.user.agencyId === program.agencyId) return 'admin';
  return caller.grants.find((g) => g.programId === program.id)?.role ?? null;
}

/** The caller's role in a program, or FORBIDDEN when the caller has no access to it at all. */
export function requireProgramRole(caller: Caller, program: Program): ProgramRole {
  const role = roleIn(caller, program);
  if (!role) throw new ApiError('FORBIDDEN', `You have no access to program ${program.id}.`);
  return role;
}

/** Throws FORBIDDEN unless the caller is an admin of the program. */
export function requireAdmin(caller: Caller, program: Program, operation: string): void {
  if (requireProgramRole(caller, program) !== 'admin') {
    throw new ApiError('FORBIDDEN', `${operation} is an admin-only operation.`);
  }
}

/** Applicants see only the projects they own; every other role sees all projects of the program. */
export function ownerFilter(caller: Caller, role: ProgramRole): string | undefined {
  return role === 'applicant' ? caller.user.id : undefined;
}

/** True when the role lets the caller read this project. */
export function canRead(caller: Caller, role: ProgramRole, project: Project): boolean {
  return role !== 'applicant' || project.ownerId === caller.user.id;
}

/** True when the role lets the caller change this project. */
export function canWrite(caller: Caller, role: ProgramRole, project: Project): boolean {
  if (role === 'admin' || role === 'editor') return true;
  return role === 'applicant' && project.ownerId === caller.user.id;
}

/** True when the role may create projects in the program. */
export function canCreate(role: ProgramRole): boolean {
  return role !== 'reader';
}

/** True when the caller may see sensitive values of the program in plain text (also needs MFA). */
export function hasSensitivePrivilege(caller: Caller, program: Program, role: ProgramRole): boolean {
  if (role === 'admin' && caller.user.agencyAdmin) return true;
  return caller.grants.some((g) => g.programId === program.id && g.sensitive);
}

/** True when the role may fill in and submit the form (admins always may). */
export function mayUseForm(role: ProgramRole, form: Form): boolean {
  return role === 'admin' || form.roles === null || form.roles.includes(role);
}

/** Throws FORBIDDEN unless the role may fill in and submit the form. */
export function requireFormUse(role: ProgramRole, form: Form): void {
  if (!mayUseForm(role, form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is not for your role (${role}) in this program.`);
}

/** True when the role may read the form's data: staff read every form, applicants only forms they may use. */
export function mayReadForm(role: ProgramRole, form: Form): boolean {
  return role !== 'applicant' || mayUseForm(role, form);
}

/** The staff roles of a program: the roles that may be assigned a project, and see its work queue. */
export const STAFF_ROLES: readonly ProgramRole[] = ['reader', 'editor', 'admin'];

/** True for the roles that may be assigned a project or assign one: staff, not applicants. */
export function isStaff(role: ProgramRole | null): boolean {
  return role !== null && STAFF_ROLES.includes(role);
}

/** Throws SENSITIVE_DATA_NOT_ALLOWED unless the caller has the sensitive-data privilege and proved a second factor. */
export function requireReveal(caller: Caller, program: Program, role: ProgramRole): void {
  if (!hasSensitivePrivilege(caller, program, role)) {
    throw new ApiError('SENSITIVE_DATA_NOT_ALLOWED', 'reveal_sensitive_data=true needs the privilege to view sensitive data in this program.');
  }
  if (!caller.mfaVerified) {
    throw new ApiError('SENSITIVE_DATA_NOT_ALLOWED', 'reveal_sensitive_data=true needs an account with multi-factor authentication enabled.');
  }
}
