import type { Store, StoreReader, StoreWriter } from '../../store/store.ts';
import type { ApiKeyRecord, UserWithSecret } from '../../model/records.ts';
import { ApiError } from '../api-error.ts';
import type { Clock } from '../../model/clock.ts';
import { type IdGenerator, isIdLike } from '../../model/ids.ts';
import { type Agency, PROGRAM_ROLES, type Program, type ProgramGrant, type User } from '../../model/model.ts';
import { roleNamed } from '../roles/access.ts';
import type { GrantFollower } from './grant-follower.ts';
import { type ApiKeyParts, formatApiKey, hashSecret, newApiKey } from './secrets.ts';

/**
 * What the account service needs; `actorId` is recorded in audit rows (null for the command line); `grantFollowers`
 * run in a grant change's transaction (src/domain/wiring/grant-followers.ts: where none are given, none run).
 */
export interface AccountDeps {
  store: Pick<Store, 'accounts' | 'programs' | 'transaction'>; clock: Clock; ids: IdGenerator; actorId?: string | null;
  grantFollowers?: readonly GrantFollower[];
}

/** A new user: `agency` is the agency's custom id or generated id. */
export interface NewUser { agency: string; email: string; name: string; password: string; agencyAdmin?: boolean }

/** A freshly made API key: `key` is the full text, shown once and never stored. */
export interface CreatedApiKey { id: string; userId: string; name: string; key: string }

/** An API key as listings show it: no secret, no hash. */
export type ApiKeySummary = Omit<ApiKeyRecord, 'secretHash'>;

/** The bounds on a password's length, in characters. */
export const PASSWORD_LENGTH = { min: 12, max: 1024 } as const;

type AuditFields = { agencyId?: string; programId?: string; detail?: Record<string, unknown> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Agencies, users, grants and API keys: each change in one transaction with its audit row, never a secret in it. */
export class AccountService {
  readonly #deps: AccountDeps;

  constructor(deps: AccountDeps) {
    this.#deps = deps;
  }

  /** Creates an agency; CONFLICT when the custom id is taken. */
  async createAgency(customId: string, name: string): Promise<Agency> {
    if (!isIdLike(customId)) throw invalid(`agency id "${customId}" must be 1 to 64 characters of A-Z, a-z, 0-9, "_", ".", "~" or "-"`);
    const agency: Agency = { id: this.#deps.ids.next(), customId, name: requireName(name, 'agency name') };
    return this.#write('agency.create', { agencyId: agency.id, detail: { customId, name: agency.name } }, async (tx) => {
      if (await tx.accounts.findAgency(customId)) throw new ApiError('CONFLICT', `agency "${customId}" already exists`);
      await tx.accounts.insertAgency(agency, this.#deps.clock.now());
      return agency;
    });
  }

  /** Creates a user in an agency; CONFLICT when the e-mail is taken. */
  async createUser(input: NewUser): Promise<User> {
    const email = normaliseEmail(input.email);
    const name = requireName(input.name, 'user name');
    const hash = await hashSecret(checkPassword(input.password));
    return this.#write('user.create', { detail: { email, agencyAdmin: input.agencyAdmin ?? false } }, async (tx, audit) => {
      const agency = await tx.accounts.findAgency(input.agency);
      if (!agency) throw new ApiError('NOT_FOUND', `agency "${input.agency}" not found`);
      if (await tx.accounts.findUserByEmail(email)) throw new ApiError('CONFLICT', `a user with the e-mail ${email} already exists`);
      const user: User = { id: this.#deps.ids.next(), agencyId: agency.id, email, name, agencyAdmin: input.agencyAdmin ?? false, disabled: false };
      await tx.accounts.insertUser(user, hash, this.#deps.clock.now());
      audit({ agencyId: agency.id, detail: { userId: user.id, email, agencyAdmin: user.agencyAdmin } });
      return user;
    });
  }

  /** Replaces a user's password and ends the user's sessions and OAuth access tokens, as a mailed reset does. */
  async setPassword(email: string, password: string): Promise<void> {
    const hash = await hashSecret(checkPassword(password));
    await this.#write('user.password', {}, async (tx, audit) => {
      const user = await findUser(tx, email);
      const now = this.#deps.clock.now();
      await tx.accounts.updateUser(user.id, { passwordHash: hash }, now);
      await tx.accountTokens.endUserSessions(user.id, 'sessions-and-access-tokens', now);
      audit({ agencyId: user.agencyId, detail: { userId: user.id, email: user.email } });
    });
  }

  /**
   * Disables (or enables again) a user: a disabled user can neither sign in nor use API keys, nor use a mailed link;
   * disabling ends the user's sessions and OAuth access tokens, and unassigns the projects assigned to them in every
   * program they held a grant in (every program of the agency for its admin), as a grant's removal does.
   */
  async setDisabled(email: string, disabled: boolean): Promise<User> {
    return this.#write(disabled ? 'user.disable' : 'user.enable', {}, async (tx, audit) => {
      const user = await findUser(tx, email);
      const now = this.#deps.clock.now();
      await tx.accounts.updateUser(user.id, { disabled }, now);
      // Neither a mailed link nor a new sign-up with the address may bring back an account an operator disabled, nor
      // may enabling it again bring back its sessions.
      if (disabled) {
        await tx.accountTokens.consumeAccountTokens(user.id, now);
        await tx.accountTokens.endUserSessions(user.id, 'sessions-and-access-tokens', now);
        // Nobody may be assigned a disabled user (SetAssignee), so nobody stays one: enabling again gives nothing back.
        const programs = new Set((await tx.accounts.listGrants(user.id)).map((g) => g.programId));
        if (user.agencyAdmin) for (const p of await tx.programs.listPrograms(user.agencyId)) programs.add(p.id);
        for (const programId of programs) await this.#followGrant(tx, user.id, programId);
      }
      audit({ agencyId: user.agencyId, detail: { userId: user.id, email: user.email } });
      return { ...withoutSecret(user), disabled };
    });
  }

  /**
   * Gives a user a role in a program of the user's agency, replacing any earlier grant there: a built-in role or one
   * of the program's own (by customId); `groups`, when given, limits it to the projects of those access groups.
   */
  async grant(email: string, programRef: string, role: string, sensitive = false, groups: string[] | null = null): Promise<ProgramGrant> {
    return this.#write('grant.set', {}, async (tx, audit) => {
      const user = await findUser(tx, email);
      const program = await findProgram(tx, programRef, user);
      if (roleNamed(program, role) === null) {
        const roles = [...PROGRAM_ROLES, ...(program.roles ?? []).map((r) => r.customId)];
        throw invalid(`role must be one of ${roles.join(', ')} in program ${program.customId}, got "${role}"`);
      }
      const accessGroups = groups === null ? null : checkedGroups(program, groups);
      const grant: ProgramGrant = { userId: user.id, programId: program.id, role, sensitive, ...(accessGroups ? { accessGroups } : {}) };
      await tx.accounts.setGrant(grant);
      await this.#followGrant(tx, user.id, program.id);
      audit({ agencyId: user.agencyId, programId: program.id, detail: { userId: user.id, email: user.email, role, sensitive, ...(accessGroups ? { accessGroups } : {}) } });
      return grant;
    });
  }

  /** Removes a user's grant in a program; NOT_FOUND when there was none. */
  async revokeGrant(email: string, programRef: string): Promise<void> {
    await this.#write('grant.remove', {}, async (tx, audit) => {
      const user = await findUser(tx, email);
      const program = await findProgram(tx, programRef, user);
      if (!(await tx.accounts.deleteGrant(user.id, program.id))) {
        throw new ApiError('NOT_FOUND', `${user.email} has no grant in program "${programRef}"`);
      }
      await this.#followGrant(tx, user.id, program.id);
      audit({ agencyId: user.agencyId, programId: program.id, detail: { userId: user.id, email: user.email } });
    });
  }

  /**
   * Makes an API key for a user and returns its full text, the only time it is available.
   * `parts` fixes id and secret (the demo's documented keys); otherwise both are random.
   */
  async createApiKey(email: string, name = 'default', parts: ApiKeyParts = newApiKey(this.#deps.ids.next())): Promise<CreatedApiKey> {
    const keyName = requireName(name, 'key name');
    const secretHash = await hashSecret(parts.secret);
    return this.#write('apikey.create', {}, async (tx, audit) => {
      const user = await findUser(tx, email);
      if (await tx.accounts.findApiKey(parts.id)) throw new ApiError('CONFLICT', `an API key with the id ${parts.id} already exists`);
      await tx.accounts.insertApiKey({ id: parts.id, userId: user.id, name: keyName, secretHash, createdAt: this.#deps.clock.now(), revokedAt: null });
      audit({ agencyId: user.agencyId, detail: { keyId: parts.id, userId: user.id, email: user.email, name: keyName } });
      return { id: parts.id, userId: user.id, name: keyName, key: formatApiKey(parts) };
    });
  }

  /** Revokes an API key for good; NOT_FOUND when no active key has that id. */
  async revokeApiKey(id: string): Promise<void> {
    await this.#write('apikey.revoke', { detail: { keyId: id } }, async (tx, audit) => {
      const key = await tx.accounts.findApiKey(id);
      if (!key || !(await tx.accounts.revokeApiKey(id, this.#deps.clock.now()))) throw new ApiError('NOT_FOUND', `no active API key has the id ${id}`);
      const user = await tx.accounts.findUserById(key.userId);
      audit({ ...(user ? { agencyId: user.agencyId } : {}), detail: { userId: key.userId } });
    });
  }

  /** A user's API keys, oldest first, without their hashes. */
  async listApiKeys(email: string): Promise<ApiKeySummary[]> {
    const user = await findUser(this.#deps.store, email);
    const keys = await this.#deps.store.accounts.listApiKeys(user.id);
    return keys.map(({ secretHash: _hash, ...key }) => key);
  }

  /** The users, of one agency (custom id or id) or of all, by e-mail address, with their agency; never a secret. */
  async listUsers(agencyRef?: string): Promise<(User & { agency: Agency })[]> {
    const { accounts } = this.#deps.store;
    const agencies = await accounts.listAgencies();
    const only = agencyRef === undefined ? undefined : agencies.find((a) => a.customId === agencyRef || a.id === agencyRef);
    if (agencyRef !== undefined && !only) throw new ApiError('NOT_FOUND', `agency "${agencyRef}" not found`);
    const byId = new Map(agencies.map((a) => [a.id, a]));
    const users = await accounts.listUsers(only?.id);
    return users.map((u) => ({ ...u, agency: byId.get(u.agencyId) as Agency }));
  }

  /**
   * The grants of one user, of one program, or all of them, by program and user. A program is named by its id, or by
   * its custom id with the agency (custom id or id) when custom ids repeat across agencies.
   */
  async listGrants(filter: { user?: string; program?: string; agency?: string }): Promise<(ProgramGrant & { email: string; programCustomId: string })[]> {
    const { accounts, programs } = this.#deps.store;
    const user = filter.user === undefined ? undefined : await findUser(this.#deps.store, filter.user);
    let programId: string | undefined;
    if (filter.program !== undefined) {
      const agency = filter.agency === undefined ? undefined : await accounts.findAgency(filter.agency);
      if (filter.agency !== undefined && !agency) throw new ApiError('NOT_FOUND', `agency "${filter.agency}" not found`);
      const program = await programs.findProgram(filter.program, agency?.id);
      if (!program) throw new ApiError('NOT_FOUND', `program "${filter.program}" not found${agency ? ` in agency "${filter.agency}"` : ' (name its agency with --agency if several agencies use this custom id)'}`);
      programId = program.id;
    }
    return accounts.listGrantDetails({ ...(user ? { userId: user.id } : {}), ...(programId ? { programId } : {}) });
  }

  // What follows a grant change in its transaction: the projects the user no longer reads unassigned (the access groups).
  async #followGrant(tx: StoreWriter, userId: string, programId: string): Promise<void> {
    const { clock, ids, actorId, grantFollowers = [] } = this.#deps;
    const change = { userId, programId, actorId: actorId ?? null, at: clock.now() };
    for (const follower of grantFollowers) await follower.grantChanged(tx, ids, change);
  }

  /** Runs `work` in a transaction and appends one audit row; `audit` lets the work add what it learned. */
  async #write<T>(
    action: string, base: AuditFields, work: (tx: StoreWriter, audit: (more: AuditFields) => void) => Promise<T>,
  ): Promise<T> {
    const { store, clock, ids, actorId } = this.#deps;
    return store.transaction(async (tx) => {
      let fields = base;
      const result = await work(tx, (more) => {
        fields = { ...fields, ...more, detail: { ...fields.detail, ...more.detail } };
      });
      await tx.audit.write({ action, actorId: actorId ?? null, ...fields }, clock.now(), ids.next());
      return result;
    });
  }
}

function invalid(message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', message);
}

/** `name` trimmed; INVALID_PARAMETER unless it is 1 to 200 characters. */
export function requireName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 200) throw invalid(`${what} must be 1 to 200 characters`);
  return trimmed;
}

/** An e-mail address trimmed and in lower case; INVALID_REQUEST when it is not one. */
export function normaliseEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (value.length > 254 || !EMAIL.test(value)) throw invalid(`"${email}" is not an e-mail address`);
  return value;
}

/** The password when its length is within PASSWORD_LENGTH; INVALID_REQUEST otherwise. */
export function checkPassword(password: string): string {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) throw invalid(`the password must be at least ${PASSWORD_LENGTH.min} characters long`);
  if (length > PASSWORD_LENGTH.max) throw invalid(`the password must be at most ${PASSWORD_LENGTH.max} characters long`);
  return password;
}

/** The user with an e-mail address; UNKNOWN_USER when there is none. */
export async function findUser(store: Pick<StoreReader, 'accounts'>, email: string): Promise<UserWithSecret> {
  const user = await store.accounts.findUserByEmail(email.trim());
  if (!user) throw new ApiError('UNKNOWN_USER', `no user has the e-mail ${email.trim()}`);
  return user;
}

async function findProgram(tx: StoreWriter, ref: string, user: User): Promise<Program> {
  const program = await tx.programs.findProgram(ref, user.agencyId);
  if (!program) throw new ApiError('NOT_FOUND', `program "${ref}" not found in the agency of ${user.email}`);
  return program;
}

function withoutSecret(user: UserWithSecret): User {
  const { passwordHash: _hash, ...rest } = user;
  return rest;
}

/** The access groups a grant is limited to, each one of the program's (INVALID_PARAMETER names the ones it has). */
function checkedGroups(program: Program, groups: string[]): string[] {
  const known = (program.accessGroups ?? []).map((g) => g.customId);
  const unique = [...new Set(groups)];
  if (unique.length === 0) throw invalid('a grant limited to access groups needs at least one group');
  const unknown = unique.filter((g) => !known.includes(g));
  if (unknown.length > 0) {
    throw invalid(`program ${program.customId} has no access group ${unknown.map((g) => `"${g}"`).join(', ')}${known.length > 0 ? `; its groups are ${known.join(', ')}` : '; its program file declares none (accessGroups:)'}`);
  }
  return unique;
}
