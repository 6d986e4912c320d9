import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { OAuthClientRecord } from '../../model/records.ts';
import type { Store } from '../../store/store.ts';
import { findUser, requireName } from './account-service.ts';
import { newClientSecret } from './access-token.ts';
import { ApiError } from '../api-error.ts';
import { hashSecret } from './secrets.ts';

/** A freshly made OAuth client: `secret` is shown once and never stored. */
export interface CreatedClient { id: string; userId: string; name: string; secret: string }

/** An OAuth client as listings show it: no secret, no hash. */
export type ClientSummary = Omit<OAuthClientRecord, 'secretHash'>;

/**
 * OAuth 2.0 clients of the client credentials grant (administration): each belongs to one user and gets tokens that
 * act as that user. Every change commits with its audit row; no secret is ever in one.
 */
export class OAuthClientService {
  /** `actorId` is recorded in audit rows: the user who acted (themselves, in the portal), null for the command line. */
  constructor(private readonly deps: { store: Pick<Store, 'accounts' | 'oauth' | 'transaction'>; clock: Clock; ids: IdGenerator; actorId?: string | null }) {}

  /** Makes a client for a user; returns its id and secret, the only time the secret is available. `id` is the demo's fixed one. */
  async createClient(email: string, name: string, secret = newClientSecret(), fixedId?: string): Promise<CreatedClient> {
    const clientName = requireName(name, 'client name');
    const secretHash = await hashSecret(secret);
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    return store.transaction(async (tx) => {
      const user = await findUser(tx, email);
      const id = fixedId ?? ids.next();
      await tx.oauth.insertClient({ id, userId: user.id, name: clientName, secretHash, createdAt: now, revokedAt: null });
      await tx.audit.write({ action: 'oauth.client.create', actorId: this.deps.actorId ?? null, agencyId: user.agencyId, detail: { clientId: id, userId: user.id, email: user.email, name: clientName } }, now, ids.next());
      return { id, userId: user.id, name: clientName, secret };
    });
  }

  /** A user's clients, oldest first, without their hashes. */
  async listClients(email: string): Promise<ClientSummary[]> {
    const user = await findUser(this.deps.store, email);
    const clients = await this.deps.store.oauth.listClients(user.id);
    return clients.map(({ secretHash: _hash, ...client }) => client);
  }

  /** Revokes a client and every token issued to it, for good; NOT_FOUND when no live client has that id. */
  async revokeClient(id: string): Promise<void> {
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    await store.transaction(async (tx) => {
      const client = await tx.oauth.findClient(id);
      if (!client || !(await tx.oauth.revokeClient(id, now))) throw new ApiError('NOT_FOUND', `no active OAuth client has the id ${id}`);
      const user = await tx.accounts.findUserById(client.userId);
      await tx.audit.write({ action: 'oauth.client.revoke', actorId: this.deps.actorId ?? null, ...(user ? { agencyId: user.agencyId } : {}), detail: { clientId: id, userId: client.userId } }, now, ids.next());
    });
  }
}
