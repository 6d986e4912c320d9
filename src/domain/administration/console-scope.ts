import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Program } from '../../model/model.ts';
import { hasPrivilege, roleIn } from '../roles/access.ts';

/**
 * What a caller may administer in the console: everything of their agency (an agency admin), or the programs whose
 * role holds `administerProgram` (a program admin). Every console service starts from it; pages offer only what it
 * allows, and the services refuse the rest anyway.
 */
export interface ConsoleScope {
  agencyId: string;
  /** True for an agency admin: every area, every program of the agency. */
  agencyAdmin: boolean;
  /** The programs the caller administers (all of the agency's for an agency admin), in the catalog's order. */
  programs: Program[];
}

/** The programs of an agency, as the catalog lists them (the store's cached read). */
export interface AgencyPrograms { listPrograms(agencyId: string): Promise<Program[]> }

/** The caller's console scope, or null when they administer nothing (the console is then not theirs). */
export async function consoleScopeOf(caller: Caller, programs: AgencyPrograms): Promise<ConsoleScope | null> {
  const all = await programs.listPrograms(caller.user.agencyId);
  const mine = caller.user.agencyAdmin ? all : all.filter((p) => hasPrivilege(roleIn(caller, p), 'administerProgram'));
  if (!caller.user.agencyAdmin && mine.length === 0) return null;
  return { agencyId: caller.user.agencyId, agencyAdmin: caller.user.agencyAdmin, programs: mine };
}

/** The caller's console scope, or FORBIDDEN when they administer nothing. */
export async function requireConsoleScope(caller: Caller, programs: AgencyPrograms): Promise<ConsoleScope> {
  const scope = await consoleScopeOf(caller, programs);
  if (!scope) throw new ApiError('FORBIDDEN', 'The administration console is for agency admins and the admins of a program.');
  return scope;
}

/** Throws FORBIDDEN unless the scope is an agency admin's; `what` names the refused action. */
export function requireAgencyAdmin(scope: ConsoleScope, what: string): void {
  if (!scope.agencyAdmin) throw new ApiError('FORBIDDEN', `${what} is for agency admins.`);
}

/** The program of the scope with this id, or FORBIDDEN (also for a program of another agency, or none at all). */
export function requireAdministeredProgram(scope: ConsoleScope, programId: string): Program {
  const program = scope.programs.find((p) => p.id === programId || p.customId === programId);
  if (!program) throw new ApiError('FORBIDDEN', `You do not administer program ${programId}.`);
  return program;
}
