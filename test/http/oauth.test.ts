import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { runCli } from '../../src/cli/main.ts';
import type { DatabaseConfig } from '../../src/config.ts';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { OAuthClientService } from '../../src/domain/accounts/oauth-client-service.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/database.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { assertError, assertValidXml, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { createProject, draftPath, EVERYONE, eventually, PROGRAM, sharedHarness } from './http-helpers.ts';

// OAuth 2.0 client credentials (docs/interface.md, "OAuth 2.0 client credentials"): the token endpoint (RFC 6749
// §4.4), bearer tokens with X-ApiKey on every API request, revocation (RFC 7009 and `apas client revoke`), on both
// databases.

const TOKEN = '/services/v2/oauth/token';
const REVOKE = '/services/v2/oauth/revoke';
const PROJECTS = `${PROGRAM}/Projects`;
const FORM = 'application/x-www-form-urlencoded';

interface Client { id: string; secret: string; who: Who }

/** Makes an OAuth client for an identity through the service `apas client create` uses. */
async function newClient(h: HttpHarness, who: Who): Promise<Client> {
  const c = await new OAuthClientService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).createClient(h.who[who].email, `client of ${who}`);
  return { id: c.id, secret: c.secret, who };
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** POSTs a form to an OAuth endpoint; `client` authenticates with Basic and its user's key unless headers say otherwise. */
function post(h: HttpHarness, url: string, form: string, client: Client | null, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const auth = client ? { authorization: basic(client.id, client.secret), 'x-apikey': h.who[client.who].apiKey } : {};
  return h.app.inject({ method: 'POST', url, payload: form, headers: { 'content-type': FORM, ...auth, ...headers } });
}

/** A new access token of the client (asserting the answer). */
async function tokenOf(h: HttpHarness, client: Client): Promise<string> {
  const res = await post(h, TOKEN, 'grant_type=client_credentials', client);
  assert.equal(res.statusCode, 200, res.body);
  return (JSON.parse(res.body) as { access_token: string }).access_token;
}

/** Bearer + X-ApiKey headers of a token of an identity. */
function bearer(h: HttpHarness, who: Who, token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'x-apikey': h.who[who].apiKey };
}

function get(h: HttpHarness, headers: Record<string, string>, url = PROJECTS): Promise<LightMyRequestResponse> {
  return h.request({ method: 'GET', url, as: null, headers });
}

/** Asserts an RFC 6749 §5.2 error answer: status, code, JSON with a printable ASCII description, never cached. */
function assertOAuthError(res: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers.pragma, 'no-cache');
  const body = JSON.parse(res.body) as Record<string, string>;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  assert.equal(body.error, code, res.body);
  assert.match(body.error_description!, /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/, 'RFC 6749 §5.2: printable ASCII without " and \\');
}

function assertInvalidToken(h: HttpHarness, res: LightMyRequestResponse): void {
  assertError(h, res, 401, 'INVALID_CREDENTIALS');
  assert.match(String(res.headers['www-authenticate']), /^Bearer realm="apas", error="invalid_token"/);
}

/** Every row of a table, as JSON text, read over a connection of its own. */
async function tableText(config: DatabaseConfig, table: 'oauth_clients' | 'oauth_tokens' | 'audit_log'): Promise<string> {
  const opened = await openDatabase(config, 1);
  try {
    return JSON.stringify(await opened.db.selectFrom(table).selectAll().execute());
  } finally {
    await opened.changes.close();
    await opened.db.destroy();
  }
}

async function tokenCount(h: HttpHarness): Promise<number> {
  return (await h.store.audit.list({ action: 'oauth.token.issue', limit: 10_000 })).length;
}

forEachDialect('HTTP: OAuth 2.0 client credentials', ({ dialect, open }) => {
  const within = dialect === 'sqlite' ? 0 : 2000;

  describe('the token endpoint', () => {
    const harness = sharedHarness(dialect);

    it('issues a Bearer token for Basic client credentials and for form fields, never cached, counted against the key', async () => {
      const h = harness();
      const client = await newClient(h, 'reader');
      const viaBasic = await post(h, TOKEN, 'grant_type=client_credentials', client);
      const viaForm = await post(h, TOKEN, `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}`, null, { 'x-apikey': h.who.reader.apiKey });
      const sameId = await post(h, TOKEN, `grant_type=client_credentials&client_id=${client.id}`, client, { 'content-type': `${FORM}; charset=UTF-8` });
      const tokens = new Set<string>();
      for (const res of [viaBasic, viaForm, sameId]) {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers.pragma, 'no-cache');
        assert.ok(Number(res.headers['ratelimit-remaining']) < 1200);
        const body = JSON.parse(res.body) as { access_token: string; token_type: string; expires_in: number };
        assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
        assert.equal(body.token_type, 'Bearer');
        assert.equal(body.expires_in, 3600);
        assert.match(body.access_token, /^at_[0-9A-Z]{12}_[0-9A-Z]{60}$/);
        tokens.add(body.access_token);
        assert.equal((await get(h, bearer(h, 'reader', body.access_token))).statusCode, 200);
      }
      assert.equal(tokens.size, 3, 'every request gets a token of its own');
    });

    it('refuses what is not a client credentials request with the RFC 6749 error, never a 500, and issues nothing', async () => {
      const h = harness();
      const client = await newClient(h, 'editor');
      const other = await newClient(h, 'reader');
      const key = h.who.editor.apiKey;
      const grant = 'grant_type=client_credentials';
      const before = await tokenCount(h);
      const cases: [string, () => Promise<LightMyRequestResponse>, number, string][] = [
        ['another grant type', () => post(h, TOKEN, 'grant_type=password&username=a&password=b', client), 400, 'unsupported_grant_type'],
        ['no grant type', () => post(h, TOKEN, 'scope=', client), 400, 'invalid_request'],
        ['a scope', () => post(h, TOKEN, `${grant}&scope=read`, client), 400, 'invalid_scope'],
        ['grant_type twice', () => post(h, TOKEN, `${grant}&${grant}`, client), 400, 'invalid_request'],
        ['a JSON body', () => post(h, TOKEN, '{"grant_type":"client_credentials"}', client, { 'content-type': 'application/json' }), 400, 'invalid_request'],
        ['an XML body', () => post(h, TOKEN, '<a/>', client, { 'content-type': 'application/xml' }), 400, 'invalid_request'],
        ['no body', () => h.app.inject({ method: 'POST', url: TOKEN, headers: { authorization: basic(client.id, client.secret), 'x-apikey': key } }), 400, 'invalid_request'],
        ['a huge body', () => post(h, TOKEN, `${grant}&pad=${'x'.repeat(100_000)}`, client), 413, 'invalid_request'],
        ['Basic and client_secret both', () => post(h, TOKEN, `${grant}&client_id=${client.id}&client_secret=${client.secret}`, client), 400, 'invalid_request'],
        ['Basic for one client, client_id of another', () => post(h, TOKEN, `${grant}&client_id=${other.id}`, client), 400, 'invalid_request'],
        ['no client authentication', () => post(h, TOKEN, grant, null, { 'x-apikey': key }), 401, 'invalid_client'],
        ['a client_id without its secret', () => post(h, TOKEN, `${grant}&client_id=${client.id}`, null, { 'x-apikey': key }), 401, 'invalid_client'],
        ['a wrong secret', () => post(h, TOKEN, grant, { ...client, secret: 'not-the-secret' }), 401, 'invalid_client'],
        ['a wrong secret in the form', () => post(h, TOKEN, `${grant}&client_id=${client.id}&client_secret=wrong`, null, { 'x-apikey': key }), 401, 'invalid_client'],
        ['an unknown client', () => post(h, TOKEN, grant, { ...client, id: 'ZZZZZZZZZZZZ' }), 401, 'invalid_client'],
        ['a client id no client can have', () => post(h, TOKEN, grant, { ...client, id: `a\u0001%zz${'b'.repeat(400)}` }), 401, 'invalid_client'],
        ['no X-ApiKey', () => post(h, TOKEN, grant, null, { authorization: basic(client.id, client.secret) }), 401, 'invalid_client'],
        ["another user's API key", () => post(h, TOKEN, grant, client, { 'x-apikey': h.who.reader.apiKey }), 401, 'invalid_client'],
        ['a malformed API key', () => post(h, TOKEN, grant, client, { 'x-apikey': 'not-a-key' }), 401, 'invalid_client'],
        ['a Bearer header', () => post(h, TOKEN, grant, client, { authorization: 'Bearer at_x' }), 401, 'invalid_client'],
        ['a Basic header that is not base64', () => post(h, TOKEN, grant, client, { authorization: 'Basic !!!' }), 401, 'invalid_client'],
        ['a Basic header with a bad percent-encoding', () => post(h, TOKEN, grant, client, { authorization: basic(`${client.id}%zz`, client.secret) }), 401, 'invalid_client'],
      ];
      for (const [what, send, status, code] of cases) {
        const res = await send();
        assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`);
        assertOAuthError(res, status, code);
        if (status === 401) assert.match(String(res.headers['www-authenticate']), /^Basic realm="apas"/, what);
      }
      assert.equal(await tokenCount(h), before, 'no token was issued');
      const wrongMethod = await h.app.inject({ method: 'GET', url: TOKEN });
      assertOAuthError(wrongMethod, 405, 'method_not_allowed');
      assert.equal(wrongMethod.headers.allow, 'POST');
    });

    it('accepts the form-encoded Basic credentials of RFC 6749 §2.3.1 and ignores the query string', async () => {
      const h = harness();
      const client = await newClient(h, 'programAdmin');
      const encoded = { ...client, id: encodeURIComponent(client.id), secret: encodeURIComponent(client.secret) };
      assert.equal((await post(h, TOKEN, 'grant_type=client_credentials', encoded)).statusCode, 200);
      const inQuery = await h.app.inject({
        method: 'POST', url: `${TOKEN}?grant_type=client_credentials`, payload: '', headers: { 'content-type': FORM, authorization: basic(client.id, client.secret), 'x-apikey': h.who.programAdmin.apiKey },
      });
      assertOAuthError(inQuery, 400, 'invalid_request');
    });
  });

  describe('bearer tokens on the API', () => {
    const harness = sharedHarness(dialect);

    it('act as the client\'s user: every role gets the answers it gets with Basic credentials', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const mask = (body: string) => body.replace(/RequestId="[^"]*"/g, '').replace(/ProjectId="[^"]*"/g, '');
      for (const who of EVERYONE) {
        const token = await tokenOf(h, await newClient(h, who));
        for (const [method, url] of [['GET', PROJECTS], ['GET', draftPath(projectId)], ['POST', `${PROGRAM}/NewProject`]] as const) {
          const withBasic = await h.request({ method, url, as: who });
          const withBearer = await h.request({ method, url, as: null, headers: bearer(h, who, token) });
          assert.equal(withBearer.statusCode, withBasic.statusCode, `${who} ${method} ${url}: ${withBearer.body}`);
          if (method === 'GET') assert.equal(mask(withBearer.body), mask(withBasic.body), `${who} ${url}`);
          else assert.equal(/Code="(\w+)"/.exec(withBearer.body)?.[1], /Code="(\w+)"/.exec(withBasic.body)?.[1]);
        }
      }
    });

    it('need a live API key of the same user, and a well-formed live token', async () => {
      const h = harness();
      const token = await tokenOf(h, await newClient(h, 'reader'));
      const noKey = await get(h, { authorization: `Bearer ${token}` });
      assertError(h, noKey, 401, 'AUTHENTICATION_REQUIRED');
      assert.equal(noKey.headers['www-authenticate'], 'Bearer realm="apas"');
      for (const key of [h.who.editor.apiKey, 'not-a-key', h.who.reader.apiKey.replace(/_[^_]+$/, `_${'w'.repeat(32)}`)]) {
        const res = await get(h, { authorization: `Bearer ${token}`, 'x-apikey': key });
        assertError(h, res, 401, 'INVALID_CREDENTIALS');
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="apas"');
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
      for (const sent of ['Bearer', 'Bearer ', 'Bearer abc.def.ghi', `Bearer ${token}x`, `Bearer ${token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`, `bearer  ${token.slice(0, 20)}`]) {
        assertInvalidToken(h, await get(h, { authorization: sent, 'x-apikey': h.who.reader.apiKey }));
      }
      const ok = await get(h, { authorization: `bearer ${token}`, 'x-apikey': h.who.reader.apiKey });
      assert.equal(ok.statusCode, 200, 'the scheme is case-insensitive');
      assertValidXml(h, ok, 'ProjectsResponse');
    });

    it('expire after APAS_OAUTH_TOKEN_TTL_SECONDS (one hour by default): then 401 with WWW-Authenticate: Bearer error="invalid_token"', async () => {
      const h = harness();
      const token = await tokenOf(h, await newClient(h, 'editor'));
      h.clock.advance(3_599_000);
      assert.equal((await get(h, bearer(h, 'editor', token))).statusCode, 200);
      h.clock.advance(1000);
      assertInvalidToken(h, await get(h, bearer(h, 'editor', token)));
    });

    it('of a disabled user are refused, and the token endpoint answers invalid_grant; both work again once the user is enabled', async () => {
      const h = harness();
      const client = await newClient(h, 'otherApplicant');
      const token = await tokenOf(h, client);
      await h.store.transaction((tx) => tx.accounts.updateUser(h.who.otherApplicant.id, { disabled: true }, h.clock.now()));
      assertInvalidToken(h, await get(h, bearer(h, 'otherApplicant', token)));
      assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', client), 400, 'invalid_grant');
      assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', { ...client, secret: 'wrong' }), 401, 'invalid_client');
      await h.store.transaction((tx) => tx.accounts.updateUser(h.who.otherApplicant.id, { disabled: false }, h.clock.now()));
      assert.equal((await get(h, bearer(h, 'otherApplicant', token))).statusCode, 200);
      await tokenOf(h, client);
    });

    it('of a user enrolled in MFA still need the second factor on every request; the token endpoint asks for none', async () => {
      const h = harness();
      const token = await tokenOf(h, await newClient(h, 'programAdmin'));
      const uri = await new MfaService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).enrol(h.who.programAdmin.email);
      const secret = new URL(uri).searchParams.get('secret')!;
      const bare = await get(h, bearer(h, 'programAdmin', token));
      assertError(h, bare, 401, 'MFA_REQUIRED');
      assert.equal(bare.headers['www-authenticate'], 'Bearer realm="apas"');
      const fresh = await tokenOf(h, await newClient(h, 'programAdmin'));
      h.clock.advance(30_000);
      const ok = await get(h, { ...bearer(h, 'programAdmin', fresh), 'x-mfa-totp': totpCode(secret, h.clock.now()) });
      assert.equal(ok.statusCode, 200, ok.body);
    });
  });

  describe('a configured token lifetime (APAS_OAUTH_TOKEN_TTL_SECONDS=120)', () => {
    const harness = sharedHarness(dialect, { APAS_OAUTH_TOKEN_TTL_SECONDS: '120' });

    it('is what expires_in says and when the token stops working', async () => {
      const h = harness();
      const res = await post(h, TOKEN, 'grant_type=client_credentials', await newClient(h, 'reader'));
      const body = JSON.parse(res.body) as { access_token: string; expires_in: number };
      assert.equal(body.expires_in, 120);
      h.clock.advance(119_000);
      assert.equal((await get(h, bearer(h, 'reader', body.access_token))).statusCode, 200);
      h.clock.advance(1000);
      assertInvalidToken(h, await get(h, bearer(h, 'reader', body.access_token)));
    });
  });

  describe('failed client authentications share the sign-in lockout (10 per user name, 30 per address)', () => {
    const harness = sharedHarness(dialect, { APAS_SIGNIN_LOCK_USER_AFTER: '10', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '30', APAS_SIGNIN_WINDOW_SECONDS: '900' });
    const window = (h: HttpHarness) => h.clock.now() - (h.clock.now() % 900_000);
    const counts = async (h: HttpHarness, email: string) => ({
      user: await h.store.counters.peekRequestCount(`signin:user:${email}`, window(h)),
      address: await h.store.counters.peekRequestCount('signin:ip:127.0.0.1', window(h)),
    });

    it('wrong secrets with the user\'s own key lock the user name: no token, no Basic sign-in, no bearer request, until the window ends', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const client = await newClient(h, 'applicant');
      const earlier = await tokenOf(h, client);
      for (let i = 0; i < 10; i++) assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', { ...client, secret: `guess-${i}` }), 401, 'invalid_client');
      assert.deepEqual(await counts(h, h.who.applicant.email), { user: 10, address: 10 });
      const locked = await post(h, TOKEN, 'grant_type=client_credentials', client);
      assertOAuthError(locked, 429, 'sign_in_locked');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      assertError(h, await h.request({ method: 'GET', url: PROJECTS, as: 'applicant' }), 429, 'SIGN_IN_LOCKED');
      assertError(h, await get(h, bearer(h, 'applicant', earlier)), 429, 'SIGN_IN_LOCKED');
      assert.equal((await h.request({ method: 'GET', url: PROJECTS, as: 'editor' })).statusCode, 200, 'other users are not locked');
      h.clock.advance(900_000);
      await tokenOf(h, client);
    });

    it('a user name locked by wrong passwords gets no token either', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const client = await newClient(h, 'reader');
      const reader = h.who.reader;
      for (let i = 0; i < 10; i++) assertError(h, await get(h, { authorization: basic(reader.email, `guess-${i}`), 'x-apikey': reader.apiKey }), 401, 'INVALID_CREDENTIALS');
      assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', client), 429, 'sign_in_locked');
    });

    it('wrong secrets sent with a key that is not the user\'s count against the address only', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const client = await newClient(h, 'editor');
      for (const key of [h.who.reader.apiKey, `apas_ZZZZZZZZZZZZ_${'m'.repeat(32)}`, 'not-a-key']) {
        for (let i = 0; i < 4; i++) assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', { ...client, secret: `guess-${i}` }, { 'x-apikey': key }), 401, 'invalid_client');
      }
      assert.deepEqual(await counts(h, h.who.editor.email), { user: 0, address: 12 });
      await tokenOf(h, client);
    });
  });

  describe('revocation', () => {
    /** The harness on a database of its own, and a second app instance on the same database. */
    async function twoInstances(): Promise<{ h: HttpHarness; db: TestStore; other: (headers: Record<string, string>) => Promise<LightMyRequestResponse> }> {
      const db = await open();
      const h = await startHttp(db);
      const store = await db.reopen();
      const app = await buildApp({ config: h.config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: new DatabaseBlobStore(store, h.clock) });
      const close = h.close;
      h.close = async () => {
        await app.close();
        await close();
      };
      return { h, db, other: (headers) => app.inject({ method: 'GET', url: PROJECTS, headers }) };
    }

    it('RFC 7009: the client revokes its own token, refused at once here and on the other instance; unknown and others\' tokens answer 200 and change nothing', async () => {
      const { h, other } = await twoInstances();
      try {
        const client = await newClient(h, 'editor');
        const stranger = await newClient(h, 'reader');
        const token = await tokenOf(h, client);
        const kept = await tokenOf(h, stranger);
        for (let i = 0; i < 2; i++) {
          assert.equal((await get(h, bearer(h, 'editor', token))).statusCode, 200);
          assert.equal((await other(bearer(h, 'editor', token))).statusCode, 200, 'served from the caches');
        }
        const unknown = await post(h, REVOKE, `token=at_ZZZZZZZZZZZZ_${'Z'.repeat(60)}`, client);
        assert.equal(unknown.statusCode, 200, unknown.body);
        const notShaped = await post(h, REVOKE, 'token=whatever&token_type_hint=refresh_token', client);
        assert.equal(notShaped.statusCode, 200, notShaped.body);
        const othersToken = await post(h, REVOKE, `token=${kept}`, client);
        assert.equal(othersToken.statusCode, 200);
        assert.equal((await get(h, bearer(h, 'reader', kept))).statusCode, 200, "another client's token is left alone");
        assertOAuthError(await post(h, REVOKE, `token=${token}`, { ...client, secret: 'wrong' }), 401, 'invalid_client');
        assertOAuthError(await post(h, REVOKE, 'token_type_hint=access_token', client), 400, 'invalid_request');
        assert.equal((await get(h, bearer(h, 'editor', token))).statusCode, 200, 'refused revocations revoke nothing');

        const revoked = await post(h, REVOKE, `token=${encodeURIComponent(token)}&token_type_hint=access_token`, client);
        assert.equal(revoked.statusCode, 200, revoked.body);
        assert.equal(revoked.body, '');
        assert.equal(revoked.headers['cache-control'], 'no-store');
        assertInvalidToken(h, await get(h, bearer(h, 'editor', token)));
        assertInvalidToken(h, await eventually(() => other(bearer(h, 'editor', token)), 401, within));
        assert.equal((await post(h, REVOKE, `token=${token}`, client)).statusCode, 200, 'revoking again is no error');
        assert.equal((await h.store.audit.list({ action: 'oauth.token.revoke' })).length, 1);
        await tokenOf(h, client);
      } finally {
        await h.close();
      }
    });

    it('apas client revoke ends the client and all its tokens on every instance', async () => {
      const { h, db, other } = await twoInstances();
      try {
        const client = await newClient(h, 'programAdmin');
        const tokens = [await tokenOf(h, client), await tokenOf(h, client)];
        for (const token of tokens) {
          assert.equal((await get(h, bearer(h, 'programAdmin', token))).statusCode, 200);
          assert.equal((await other(bearer(h, 'programAdmin', token))).statusCode, 200);
        }
        const url = db.config.kind === 'sqlite' ? db.config.file : db.config.url;
        let out = '';
        let err = '';
        const code = await runCli(['client', 'revoke', client.id], {
          out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), readStdin: async () => '', stdinIsTty: false, env: { DATABASE_URL: url }, cwd: process.cwd(),
        });
        assert.equal(code, 0, err);
        assert.match(out, new RegExp(`Revoked OAuth client ${client.id}`));
        for (const token of tokens) {
          assertInvalidToken(h, await eventually(() => get(h, bearer(h, 'programAdmin', token)), 401, within));
          assertInvalidToken(h, await eventually(() => other(bearer(h, 'programAdmin', token)), 401, within));
        }
        assertOAuthError(await post(h, TOKEN, 'grant_type=client_credentials', client), 401, 'invalid_client');
        const clients = await new OAuthClientService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).listClients(h.who.programAdmin.email);
        assert.ok(clients.find((c) => c.id === client.id)?.revokedAt, 'listed as revoked');
      } finally {
        await h.close();
      }
    });

    it('stores only hashes: neither a token nor a client secret is in any table or the audit log', async () => {
      const { h, db } = await twoInstances();
      try {
        const client = await newClient(h, 'reader');
        const token = await tokenOf(h, client);
        const secret = token.split('_')[2]!;
        const tokens = await tableText(db.config, 'oauth_tokens');
        assert.ok(tokens.includes(createHash('sha256').update(secret).digest('hex')), 'the SHA-256 of the token is stored');
        const clients = await tableText(db.config, 'oauth_clients');
        assert.match(clients, /\$argon2id\$/, 'the client secret is an argon2id hash');
        for (const text of [tokens, clients, await tableText(db.config, 'audit_log')]) {
          assert.ok(!text.includes(secret) && !text.includes(token), 'no token');
          assert.ok(!text.includes(client.secret), 'no client secret');
        }
      } finally {
        await h.close();
      }
    });
  });
});
