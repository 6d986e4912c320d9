import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { AccountService, type ApiKeySummary, type CreatedApiKey } from './account-service.ts';
import { type ClientSummary, type CreatedClient, OAuthClientService } from './oauth-client-service.ts';

/** The most live API keys, and the most live OAuth clients, a user may have made for themselves. */
export const MAX_OWN_CREDENTIALS = 10;

/** A user's own credentials as the account page lists them (no secret, no hash), and whether they may make more. */
export interface OwnCredentialsView { allowed: boolean; keys: ApiKeySummary[]; clients: ClientSummary[] }

type Deps = { store: Pick<Store, 'accounts' | 'oauth' | 'programs' | 'agencyPolicies' | 'transaction'>; clock: Clock; ids: IdGenerator };

/**
 * API keys and OAuth clients a user makes and revokes for themselves on the portal's account page, when the agency's
 * self-service policy allows it (agency admins always may). They are the user's own credentials: a request with them
 * acts as that user, with the grants and organizations the user has at that request, never more. Made through the
 * same services as the CLI's (each change with its audit row, the user as actor); the secret is shown once.
 */
export class OwnCredentialsService {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** The caller's live and revoked keys and clients, and whether the policy lets them make new ones. */
  async list(caller: Caller): Promise<OwnCredentialsView> {
    const { accounts, oauth } = this.#deps.store;
    const [allowed, keys, clients] = await Promise.all([this.allowed(caller), accounts.listApiKeys(caller.user.id), oauth.listClients(caller.user.id)]);
    return {
      allowed,
      keys: keys.map(({ secretHash: _hash, ...key }) => key),
      clients: clients.map(({ secretHash: _hash, ...client }) => client),
    };
  }

  /** True when the caller may make their own credentials: the agency allows it, or they are its admin. */
  async allowed(caller: Caller): Promise<boolean> {
    if (caller.user.agencyAdmin) return true;
    return (await this.#deps.store.agencyPolicies.findPolicy(caller.user.agencyId)).ownCredentials;
  }

  /** Makes an API key of the caller; FORBIDDEN when the policy does not allow it, CONFLICT past MAX_OWN_CREDENTIALS. */
  async createKey(caller: Caller, name: string): Promise<CreatedApiKey> {
    await this.#requireAllowed(caller);
    const live = (await this.#deps.store.accounts.listApiKeys(caller.user.id)).filter((k) => k.revokedAt === null);
    if (live.length >= MAX_OWN_CREDENTIALS) throw tooMany('API keys');
    return this.#accounts(caller).createApiKey(caller.user.email, name);
  }

  /** Revokes one of the caller's own API keys (allowed whatever the policy); NOT_FOUND for any other key. */
  async revokeKey(caller: Caller, id: string): Promise<void> {
    const key = await this.#deps.store.accounts.findApiKey(id);
    if (!key || key.userId !== caller.user.id || key.revokedAt !== null) throw new ApiError('NOT_FOUND', 'You have no live API key with this id.');
    await this.#accounts(caller).revokeApiKey(id);
  }

  /** Makes an OAuth client of the caller (its tokens act as them); FORBIDDEN when not allowed, CONFLICT past the limit. */
  async createClient(caller: Caller, name: string): Promise<CreatedClient> {
    await this.#requireAllowed(caller);
    const live = (await this.#deps.store.oauth.listClients(caller.user.id)).filter((c) => c.revokedAt === null);
    if (live.length >= MAX_OWN_CREDENTIALS) throw tooMany('OAuth clients');
    return this.#clients(caller).createClient(caller.user.email, name);
  }

  /** Revokes one of the caller's own OAuth clients and its tokens (allowed whatever the policy); NOT_FOUND for any other. */
  async revokeClient(caller: Caller, id: string): Promise<void> {
    const client = await this.#deps.store.oauth.findClient(id);
    if (!client || client.userId !== caller.user.id || client.revokedAt !== null) throw new ApiError('NOT_FOUND', 'You have no live OAuth client with this id.');
    await this.#clients(caller).revokeClient(id);
  }

  async #requireAllowed(caller: Caller): Promise<void> {
    if (!(await this.allowed(caller))) throw new ApiError('FORBIDDEN', 'Your agency does not let users create their own API keys and OAuth clients; ask the agency for one.');
  }

  #accounts(caller: Caller): AccountService {
    return new AccountService({ ...this.#deps, actorId: caller.user.id });
  }

  #clients(caller: Caller): OAuthClientService {
    return new OAuthClientService({ ...this.#deps, actorId: caller.user.id });
  }
}

function tooMany(what: string): ApiError {
  return new ApiError('CONFLICT', `You have ${MAX_OWN_CREDENTIALS} live ${what}, the most you may have; revoke one first.`);
}
