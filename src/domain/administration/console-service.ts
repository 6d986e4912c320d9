import type { Caller } from '../caller.ts';
import { hasPrivilege, holdsRoleAnywhere } from '../roles/access.ts';
import { type AgencyPrograms, type ConsoleScope, requireConsoleScope } from './console-scope.ts';

/** The console's entry: what a caller administers (console-scope.ts), for the pages' header and every console route. */
export class ConsoleService {
  readonly #programs: AgencyPrograms;
  readonly #agencies: { findAgency(ref: string): Promise<{ name: string } | null> };

  constructor(deps: { store: { programs: AgencyPrograms; accounts: { findAgency(ref: string): Promise<{ name: string } | null> } } }) {
    this.#programs = deps.store.programs;
    this.#agencies = deps.store.accounts;
  }

  /** The name of the caller's agency, which the console's pages show in their header (a cached read). */
  async agencyName(caller: Caller): Promise<string | null> {
    return (await this.#agencies.findAgency(caller.user.agencyId))?.name ?? null;
  }

  /** The caller's scope, or FORBIDDEN when they administer nothing. */
  scope(caller: Caller): Promise<ConsoleScope> {
    return requireConsoleScope(caller, this.#programs);
  }

  /** True when the caller administers anything (the page header then links to the console): consoleScopeOf's rule. */
  mayUse(caller: Caller): Promise<boolean> {
    return holdsRoleAnywhere(caller, () => this.#programs.listPrograms(caller.user.agencyId), (role) => hasPrivilege(role, 'administerProgram'));
  }
}
