import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import { PROGRAM_ROLES, type Program, type ProgramGrant, type User } from '../../model/model.ts';
import type { UserWithSecret } from '../../model/records.ts';
import type { PersonRow } from '../../store/account-queries.ts';
import type { Store } from '../../store/store.ts';
import { AccountService } from '../accounts/account-service.ts';
import type { GrantFollower } from '../accounts/grant-follower.ts';
import { MfaService } from '../accounts/mfa-service.ts';
import { type SelfServiceAccounts, UNCONFIRMED_PASSWORD } from '../accounts/self-service-accounts.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { isIdLike } from '../../model/ids.ts';
import { type ConsoleScope, requireAdministeredProgram, requireAgencyAdmin, requireConsoleScope } from './console-scope.ts';

/** The most people one listing shows; a search narrows it. */
export const PEOPLE_PAGE = 200;

/** A role a program offers for a grant: built-in or the program file's own (`roles:`), with its name on the page. */
export interface RoleChoice { value: string; label: string }

/** A program the caller administers, the roles it offers, and the person's grant there (null: none). */
export interface ProgramGrantView { program: Program; roles: RoleChoice[]; grant: ProgramGrant | null }

/** A person's page: the user, their MFA enrolment and last sign-in, and their grants in the programs the caller administers. */
export interface PersonView {
  person: PersonRow; grants: ProgramGrantView[];
  /** True while the user has no password yet: invited (or signed up) and not through the link; the invitation may be sent again. */
  awaitingPassword: boolean;
}

/**
 * What the people service needs: the store, time, ids, the self-service accounts that mail invitations, and what
 * follows a grant change (src/domain/wiring/grant-followers.ts).
 */
export interface PeopleDeps { store: Store; clock: Clock; ids: IdGenerator; selfService: SelfServiceAccounts; grantFollowers?: readonly GrantFollower[] }

/** The roles a program offers, built-in first. */
export function roleChoices(program: Program): RoleChoice[] {
  return [...PROGRAM_ROLES.map((r) => ({ value: r, label: r })), ...(program.roles ?? []).map((r) => ({ value: r.customId, label: `${r.name} (${r.customId})` }))];
}

/**
 * The console's People area for a caller: agency admins list, invite, disable and enable the agency's users, reset
 * their MFA and change their grants in every program; a program admin lists the agency's users and changes their
 * grants in the programs they administer only. Changes go through the account services the CLI uses, audited with the
 * caller as actor.
 */
export class PeopleService {
  readonly #deps: PeopleDeps;

  constructor(deps: PeopleDeps) {
    this.#deps = deps;
  }

  /** The agency's users by name (at most PEOPLE_PAGE), those matching `search` in name or address when given. */
  async list(caller: Caller, search: string): Promise<{ scope: ConsoleScope; people: PersonRow[] }> {
    const scope = await this.#scope(caller);
    return { scope, people: await this.#deps.store.accounts.listPeople(scope.agencyId, search.slice(0, 200), PEOPLE_PAGE) };
  }

  /** One user of the agency with their grants in the programs the caller administers; NOT_FOUND for anyone else. */
  async person(caller: Caller, userId: string): Promise<{ scope: ConsoleScope; view: PersonView }> {
    const scope = await this.#scope(caller);
    const user = await this.#user(scope, userId);
    const [rows, grants] = await Promise.all([
      this.#deps.store.accounts.listPeople(scope.agencyId, user.email, PEOPLE_PAGE),
      this.#deps.store.accounts.listGrants(user.id),
    ]);
    const person = rows.find((r) => r.id === user.id);
    if (!person) throw notFound(userId);
    const views = scope.programs.map((program) => ({ program, roles: roleChoices(program), grant: grants.find((g) => g.programId === program.id) ?? null }));
    return { scope, view: { person, grants: views, awaitingPassword: user.passwordHash === UNCONFIRMED_PASSWORD } };
  }

  /** Sends an invited user's invitation again (agency admins): see SelfServiceAccounts.reinvite. */
  async reinvite(caller: Caller, userId: string): Promise<{ user: User; link: string | null }> {
    const scope = await this.#scope(caller);
    requireAgencyAdmin(scope, 'Inviting people');
    const user = await this.#user(scope, userId);
    return this.#deps.selfService.reinvite(caller.user, user.id);
  }

  /** Invites a colleague into the agency by e-mail (agency admins): see SelfServiceAccounts.invite. */
  async invite(caller: Caller, name: string, email: string): Promise<{ user: User; link: string | null }> {
    requireAgencyAdmin(await this.#scope(caller), 'Inviting people');
    return this.#deps.selfService.invite({ inviter: caller.user, name, email });
  }

  /** Disables or enables a user of the agency (agency admins; never oneself); disabling ends their sessions and tokens. */
  async setDisabled(caller: Caller, userId: string, disabled: boolean): Promise<User> {
    const scope = await this.#scope(caller);
    requireAgencyAdmin(scope, disabled ? 'Disabling people' : 'Enabling people');
    const user = await this.#user(scope, userId);
    if (user.id === caller.user.id) throw new ApiError('INVALID_REQUEST', 'You cannot disable or enable yourself; ask another admin of the agency.');
    return this.#accounts(caller).setDisabled(user.email, disabled);
  }

  /** Ends a user's MFA enrolment and sessions (agency admins): they enrol again after their next sign-in. */
  async resetMfa(caller: Caller, userId: string): Promise<void> {
    const scope = await this.#scope(caller);
    requireAgencyAdmin(scope, 'Resetting multi-factor authentication');
    const user = await this.#user(scope, userId);
    const { store, clock, ids } = this.#deps;
    await new MfaService({ store, clock, ids, actorId: caller.user.id }).disable(user.email);
  }

  /**
   * Gives a user of the agency a role in a program the caller administers (replacing any earlier grant there);
   * `groups`, when given, limits it to the projects of those access groups of the program.
   */
  async setGrant(caller: Caller, userId: string, programId: string, role: string, sensitive: boolean, groups: string[] | null = null): Promise<ProgramGrant> {
    const scope = await this.#scope(caller);
    const program = requireAdministeredProgram(scope, programId);
    const user = await this.#user(scope, userId);
    return this.#accounts(caller).grant(user.email, program.id, role, sensitive, groups);
  }

  /** Removes a user's grant in a program the caller administers; NOT_FOUND when there was none. */
  async removeGrant(caller: Caller, userId: string, programId: string): Promise<void> {
    const scope = await this.#scope(caller);
    const program = requireAdministeredProgram(scope, programId);
    const user = await this.#user(scope, userId);
    await this.#accounts(caller).revokeGrant(user.email, program.id);
  }

  #scope(caller: Caller): Promise<ConsoleScope> {
    return requireConsoleScope(caller, this.#deps.store.programs);
  }

  #accounts(caller: Caller): AccountService {
    const { store, clock, ids, grantFollowers } = this.#deps;
    return new AccountService({ store, clock, ids, actorId: caller.user.id, ...(grantFollowers ? { grantFollowers } : {}) });
  }

  // With the password hash, which only says whether a password was chosen: never shown.
  async #user(scope: ConsoleScope, userId: string): Promise<UserWithSecret> {
    const user = isIdLike(userId) ? await this.#deps.store.accounts.findUserById(userId) : null;
    if (!user || user.agencyId !== scope.agencyId) throw notFound(userId);
    return user;
  }
}

function notFound(userId: string): ApiError {
  return new ApiError('NOT_FOUND', `There is no user ${userId} in your agency.`);
}
