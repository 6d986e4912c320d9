import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import { formatAccessToken, newAccessToken, parseAccessToken } from './access-token.ts';
import type { AuthService, PresentedClient } from './auth-service.ts';
import { hashTokenSecret, tokenMatches } from './mfa.ts';
import { OAuthError } from './oauth-error.ts';
import { admitKey, type RateLimiter } from './rate-limiter.ts';

/** The one grant type this service issues tokens for (RFC 6749 §4.4). */
export const CLIENT_CREDENTIALS = 'client_credentials';

/** What the token endpoint received (RFC 6749 §4.4.2): the client's credentials and the form's parameters. */
export interface TokenRequest { client: PresentedClient; grantType: string | undefined; scope: string | undefined; requestId?: string }

/** A new access token as the token endpoint answers it, with the RateLimit-* headers of the key it counted against. */
export interface IssuedToken { accessToken: string; expiresIn: number; headers: Record<string, string> }

/** What the revocation endpoint received (RFC 7009 §2.1); token_type_hint is not needed, there is one kind of token. */
export interface RevocationRequest { client: PresentedClient; token: string | undefined; requestId?: string }

/** What the access-token service needs; `lifetimeSeconds` is APAS_OAUTH_TOKEN_TTL_SECONDS. */
export interface AccessTokenDeps {
  store: Pick<Store, 'oauth' | 'sessions' | 'transaction'>; clock: Clock; ids: IdGenerator;
  auth: Pick<AuthService, 'authenticateClient'>; rateLimiter: RateLimiter; lifetimeSeconds: number;
}

/**
 * Issues (RFC 6749 §4.4) and revokes (RFC 7009) the opaque bearer tokens of OAuth clients. A token acts as its
 * client's user until it expires or is revoked; only the SHA-256 of its secret is stored, which is enough for 300
 * random bits and cheap on every request. Both endpoints authenticate the client like a sign-in (AuthService) and
 * count against the throughput of the API key the request carried.
 */
export class AccessTokenService {
  constructor(private readonly deps: AccessTokenDeps) {}

  /** A new token for a client: invalid_request, unsupported_grant_type, invalid_scope, invalid_client, invalid_grant. */
  async issue(r: TokenRequest): Promise<IssuedToken> {
    if (r.grantType === undefined) throw new OAuthError('invalid_request', `Send the parameter grant_type=${CLIENT_CREDENTIALS}.`);
    if (r.grantType !== CLIENT_CREDENTIALS) {
      throw new OAuthError('unsupported_grant_type', `This service issues tokens for the ${CLIENT_CREDENTIALS} grant only, not for '${r.grantType}'.`);
    }
    // No scopes: a token may do what its client's user may. Refused rather than ignored, so that no client believes
    // it holds a narrower token than it does.
    if (r.scope !== undefined) throw new OAuthError('invalid_scope', 'This service has no scopes: leave the scope parameter out.');
    const { store, clock, ids, auth, rateLimiter, lifetimeSeconds } = this.deps;
    const { client, user, apiKeyId } = await auth.authenticateClient(r.client);
    if (user.disabled) throw new OAuthError('invalid_grant', 'The client\'s user is disabled, so no token is issued.');
    const headers = await admitKey(rateLimiter, apiKeyId);
    const now = clock.now();
    const parts = newAccessToken(ids);
    const expiresAt = now + lifetimeSeconds * 1000;
    await store.transaction(async (tx) => {
      await tx.oauth.insertAccessToken({ id: parts.id, clientId: client.id, tokenHash: hashTokenSecret(parts.secret), createdAt: now, expiresAt, revokedAt: null });
      await tx.audit.write({
        action: 'oauth.token.issue', actorId: user.id, agencyId: user.agencyId, detail: { clientId: client.id, tokenId: parts.id, expiresAt }, requestId: r.requestId,
      }, now, ids.next());
    });
    await store.sessions.markClientUsed(client.id, now);
    return { accessToken: formatAccessToken(parts), expiresIn: lifetimeSeconds, headers };
  }

  /**
   * Revokes a token of the authenticated client at once; returns the RateLimit-* headers. A token that is unknown,
   * already revoked or expired, or another client's, is left alone without an error (RFC 7009 §2.2), so the answer
   * tells nobody whether it exists.
   */
  async revoke(r: RevocationRequest): Promise<Record<string, string>> {
    if (r.token === undefined) throw new OAuthError('invalid_request', 'Send the token to revoke in the token parameter.');
    const { store, clock, ids, auth, rateLimiter } = this.deps;
    const { client, user, apiKeyId } = await auth.authenticateClient(r.client);
    const headers = await admitKey(rateLimiter, apiKeyId);
    const parts = parseAccessToken(r.token);
    const row = parts ? await store.oauth.findAccessToken(parts.id) : null;
    if (!parts || !row || row.clientId !== client.id || !tokenMatches(parts.secret, row.tokenHash)) return headers;
    const now = clock.now();
    await store.transaction(async (tx) => {
      if (!(await tx.oauth.revokeAccessToken(row.id, client.id, now))) return;
      await tx.audit.write({
        action: 'oauth.token.revoke', actorId: user.id, agencyId: user.agencyId, detail: { clientId: client.id, tokenId: row.id }, requestId: r.requestId,
      }, now, ids.next());
    });
    return headers;
  }
}
