import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderContext } from 'oidc-provider';

/** The claims of a test account at the provider; tests change them between sign-ins. */
export interface TestAccount { email: string; email_verified: boolean; name: string; groups: string[] }

/** A real OpenID Provider (oidc-provider v9) on a free loopback port, with one confidential client for apas. */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by login; the dev login form takes any password. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

/** How long the provider's ID tokens live (s): tests of an expired token move apas's clock past it. */
export const ID_TOKEN_TTL_SECONDS = 60;

/** Starts the provider for apas at `apasBaseUrl` (its callback registered as the client's redirect URI). */
export async function startTestProvider(apasBaseUrl: string): Promise<TestProvider> {
  const accounts = new Map<string, TestAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'apas-test';
  const clientSecret = 'apas-test-client-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [`${apasBaseUrl}/MvcProjects/SignIn/Sso/Callback`],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // The scopes' claims in the ID token itself (apas reads the ID token, not the userinfo endpoint).
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    ttl: { IdToken: ID_TOKEN_TTL_SECONDS, AccessToken: 600, AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600 },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    // Consent is taken as given for the one client, so the flow is: log in, back to apas.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer, clientId, clientSecret, accounts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A small user agent for fetch: cookies per host and port, redirects followed by hand. */
export class TestUserAgent {
  readonly jar = new Map<string, Map<string, string>>();

  /** Sends a request with this agent's cookies for the URL's host and keeps the ones it sets. */
  async send(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const u = new URL(url);
    const cookies = this.jar.get(u.host) ?? new Map<string, string>();
    const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const gone = value === '' || attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (gone) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(u.host, cookies);
    return res;
  }

  /** The value of a cookie this agent holds for a host (`127.0.0.1:port`). */
  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }
}

/** What happened at the provider: the URL it sent the browser back to apas with (not yet followed). */
export interface ProviderAnswer { callbackUrl: URL; authorizationUrl: URL }

/**
 * Runs a sign-in from apas's "Sign in with" link through the provider's login form as `login`, up to the provider's
 * redirect back to apas; `tamper` may change the authorization URL before the browser follows it.
 */
export async function signOnAtProvider(agent: TestUserAgent, apasBaseUrl: string, agencyId: string, login: string, tamper: (u: URL) => URL = (u) => u): Promise<ProviderAnswer> {
  const start = await agent.send(`${apasBaseUrl}/MvcProjects/SignIn/Sso/${encodeURIComponent(agencyId)}?next=%2FMvcProjects%2F`);
  if (start.status !== 303) throw new Error(`the sign-on start answered ${start.status}: ${await start.text()}`);
  const authorizationUrl = tamper(new URL(start.headers.get('location')!));
  let url = authorizationUrl.href;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(`${apasBaseUrl}/`)) return { callbackUrl: new URL(url), authorizationUrl };
    const res = await agent.send(url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const body = await res.text();
    if (res.status !== 200 || !body.includes('name="prompt" value="login"')) throw new Error(`the provider answered ${res.status}: ${body.slice(0, 300)}`);
    const submitted = await agent.send(url, { method: 'POST', form: { prompt: 'login', login, password: 'any' } });
    url = new URL(submitted.headers.get('location')!, url).href;
  }
  throw new Error('the provider did not send the browser back to apas');
}
