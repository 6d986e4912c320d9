import type { Clock } from '../../model/clock.ts';
import { type IdGenerator, isIdLike } from '../../model/ids.ts';
import type { User } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import { AccountService, type ApiKeySummary, type CreatedApiKey } from '../accounts/account-service.ts';
import { type ClientSummary, type CreatedClient, OAuthClientService } from '../accounts/oauth-client-service.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { PersonRow } from '../../store/account-queries.ts';
import { requireAgencyAdmin, requireConsoleScope } from './console-scope.ts';
import { PEOPLE_PAGE } from './people-service.ts';

/** A user's credentials as the console lists them: API keys and OAuth clients, with when each was last used; no secret. */
export interface UserCredentials { user: User; keys: ApiKeySummary[]; clients: ClientSummary[] }

/**
 * The console's Credentials area (agency admins): a user's API keys and OAuth clients, created (the secret comes back
 * once, never stored) and revoked through the services the CLI's `key` and `client` commands use, audited with the
 * caller as actor. Only users, keys and clients of the caller's agency are reached; anything else is NOT_FOUND.
 */
export class CredentialService {
  constructor(private readonly deps: { store: Store; clock: Clock; ids: IdGenerator }) {}

  /** The agency's users by name, to pick whose credentials to manage (at most PEOPLE_PAGE; `search` narrows). */
  async people(caller: Caller, search: string): Promise<PersonRow[]> {
    await this.#requireAdmin(caller);
    return this.deps.store.accounts.listPeople(caller.user.agencyId, search.slice(0, 200), PEOPLE_PAGE);
  }

  /** A user's keys and clients, oldest first. */
  async list(caller: Caller, userId: string): Promise<UserCredentials> {
    const user = await this.#user(caller, userId);
    const [keys, clients] = await Promise.all([this.#accounts(caller).listApiKeys(user.email), this.#clients(caller).listClients(user.email)]);
    return { user, keys, clients };
  }

  /** Makes an API key for a user; its full text is in the answer, the only time it is available. */
  async createKey(caller: Caller, userId: string, name: string): Promise<CreatedApiKey> {
    const user = await this.#user(caller, userId);
    return this.#accounts(caller).createApiKey(user.email, name === '' ? undefined : name);
  }

  /** Revokes one of a user's API keys; NOT_FOUND when the user has no live key of that id. */
  async revokeKey(caller: Caller, userId: string, keyId: string): Promise<void> {
    const user = await this.#user(caller, userId);
    const key = isIdLike(keyId) ? await this.deps.store.accounts.findApiKey(keyId) : null;
    if (!key || key.userId !== user.id) throw new ApiError('NOT_FOUND', `${user.email} has no API key ${keyId}.`);
    await this.#accounts(caller).revokeApiKey(key.id);
  }

  /** Makes an OAuth client for a user; its secret is in the answer, the only time it is available. */
  async createClient(caller: Caller, userId: string, name: string): Promise<CreatedClient> {
    const user = await this.#user(caller, userId);
    return this.#clients(caller).createClient(user.email, name);
  }

  /** Revokes one of a user's OAuth clients and its tokens; NOT_FOUND when the user has no live client of that id. */
  async revokeClient(caller: Caller, userId: string, clientId: string): Promise<void> {
    const user = await this.#user(caller, userId);
    const client = isIdLike(clientId) ? await this.deps.store.oauth.findClient(clientId) : null;
    if (!client || client.userId !== user.id) throw new ApiError('NOT_FOUND', `${user.email} has no OAuth client ${clientId}.`);
    await this.#clients(caller).revokeClient(client.id);
  }

  async #requireAdmin(caller: Caller): Promise<void> {
    requireAgencyAdmin(await requireConsoleScope(caller, this.deps.store.programs), 'Managing credentials');
  }

  async #user(caller: Caller, userId: string): Promise<User> {
    await this.#requireAdmin(caller);
    const user = isIdLike(userId) ? await this.deps.store.accounts.findUserById(userId) : null;
    if (!user || user.agencyId !== caller.user.agencyId) throw new ApiError('NOT_FOUND', `There is no user ${userId} in your agency.`);
    const { passwordHash: _secret, ...rest } = user;
    return rest;
  }

  #accounts(caller: Caller): AccountService {
    return new AccountService({ ...this.deps, actorId: caller.user.id });
  }

  #clients(caller: Caller): OAuthClientService {
    return new OAuthClientService({ ...this.deps, actorId: caller.user.id });
  }
}
