import { ApiError } from './api-error.ts';
import type { Caller } from './caller.ts';
import type { Program, ProgramRole, Project } from './model.ts';

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
