import * as oidc from 'openid-client';
import type { Clock } from '../../model/clock.ts';
import type { SignOnSettings } from '../../model/sign-on.ts';
import { ApiError } from '../api-error.ts';

/** What the sign-in sends to the provider and must find again in its answer. */
export interface SignOnChecks { state: string; nonce: string; codeVerifier: string }

/** The seam to an OpenID Connect provider: where to send the browser, and the verified ID token claims of its answer. */
export interface OpenIdProviderClient {
  /** The provider's authorization URL for this sign-in (authorization code flow with PKCE S256, state and nonce). */
  authorizationUrl(settings: SignOnSettings, redirectUri: string, checks: SignOnChecks): Promise<URL>;
  /**
   * Checks the provider's answer (state, issuer, no error), redeems the code with the PKCE verifier, and verifies the
   * ID token (signature, issuer, audience, expiry, nonce); its claims, or INVALID_CREDENTIALS saying what failed.
   */
  redeem(settings: SignOnSettings, callbackUrl: URL, checks: SignOnChecks): Promise<Record<string, unknown>>;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 10;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an issuer on this machine, the only place plain http is accepted (tests, local trials). */
export function isLoopbackIssuer(issuer: URL): boolean {
  return LOOPBACK.has(issuer.hostname);
}

/**
 * The provider client over `openid-client` v6: discovery from the issuer (kept ten minutes per issuer), client secret
 * by HTTP Basic, and the ID token's time checks against the service's clock rather than the machine's.
 */
export class OpenIdClient implements OpenIdProviderClient {
  readonly #discovered = new Map<string, { at: number; server: oidc.ServerMetadata }>();

  constructor(private readonly clock: Clock) {}

  async authorizationUrl(settings: SignOnSettings, redirectUri: string, checks: SignOnChecks): Promise<URL> {
    const config = await this.#config(settings);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri, scope: settings.scopes.join(' '), state: checks.state, nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier), code_challenge_method: 'S256',
    });
  }

  async redeem(settings: SignOnSettings, callbackUrl: URL, checks: SignOnChecks): Promise<Record<string, unknown>> {
    const config = await this.#config(settings);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new ApiError('INVALID_CREDENTIALS', 'The identity provider sent no ID token.');
      return claims as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('INVALID_CREDENTIALS', `The identity provider's answer was refused: ${describe(error)}`);
    }
  }

  // A configuration per use, so that the clock skew is the clock's now; the provider's metadata is what is kept.
  async #config(settings: SignOnSettings): Promise<oidc.Configuration> {
    const issuer = new URL(settings.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackIssuer(issuer);
    const metadata: Partial<oidc.ClientMetadata> = { [oidc.clockSkew]: Math.round((this.clock.now() - Date.now()) / 1000) };
    const auth = oidc.ClientSecretBasic(settings.clientSecret);
    const now = this.clock.now();
    const known = this.#discovered.get(settings.issuer);
    let server = known && now - known.at < DISCOVERY_TTL_MS ? known.server : null;
    if (!server) {
      try {
        const found = await oidc.discovery(issuer, settings.clientId, metadata, auth, { timeout: TIMEOUT_SECONDS, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) });
        server = found.serverMetadata();
      } catch (error) {
        throw new ApiError('SERVICE_UNAVAILABLE', `The identity provider at ${settings.issuer} could not be used: ${describe(error)}`);
      }
      this.#discovered.set(settings.issuer, { at: now, server });
    }
    const config = new oidc.Configuration(server, settings.clientId, metadata, auth);
    config.timeout = TIMEOUT_SECONDS;
    if (insecure) oidc.allowInsecureRequests(config);
    return config;
  }
}

// openid-client's errors say what kind of check failed, their cause (oauth4webapi's) which one ("unexpected ID Token
// "nonce" claim value"), and the provider's own refusals its OAuth error code and description; these are told, never
// the tokens or claims the cause also carries.
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  const oauth = error as { error?: unknown; error_description?: unknown };
  const said = typeof oauth.error === 'string' ? ` (${oauth.error}${typeof oauth.error_description === 'string' ? `: ${oauth.error_description}` : ''})` : '';
  const text = `${cause && cause !== message ? `${message}: ${cause}` : message}${said}`;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
