import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, type HttpHarness } from '../support/http-harness.ts';
import { createProject, PROGRAM, programState, sharedHarness } from './http-helpers.ts';

// Authentication (HTTP Basic + X-ApiKey on every /services/v2 request) and the per-key throughput limit.

const PROJECTS = `${PROGRAM}/Projects`;

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function keyId(apiKey: string): string {
  return apiKey.split('_')[1]!;
}

function get(h: HttpHarness, headers: Record<string, string>) {
  return h.request({ method: 'GET', url: PROJECTS, as: null, headers });
}

forEachDialect('HTTP authentication', ({ dialect }) => {
  describe('credentials', () => {
    const harness = sharedHarness(dialect);

    it('accepts Basic credentials with the matching API key, the user name in any case', async () => {
      const h = harness();
      const { email, password, apiKey } = h.who.reader;
      for (const user of [email, email.toUpperCase()]) {
        const res = await get(h, { authorization: basic(user, password), 'x-apikey': apiKey });
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectsResponse');
      }
    });

    const missing: [string, (h: HttpHarness) => Record<string, string>][] = [
      ['no Authorization header', (h) => ({ 'x-apikey': h.who.admin.apiKey })],
      ['no X-ApiKey header', (h) => ({ authorization: authHeaders(h.who.admin).authorization! })],
      ['no headers at all', () => ({})],
      ['another scheme (Digest)', (h) => ({ authorization: 'Digest username="admin", response="abc"', 'x-apikey': h.who.admin.apiKey })],
      ['a Basic value without a colon', (h) => ({ authorization: `Basic ${Buffer.from('just-a-name').toString('base64')}`, 'x-apikey': h.who.admin.apiKey })],
      ['an empty X-ApiKey', (h) => ({ authorization: authHeaders(h.who.admin).authorization!, 'x-apikey': '' })],
    ];
    for (const [what, headers] of missing) {
      it(`answers ${what} with 401 AUTHENTICATION_REQUIRED and a WWW-Authenticate challenge`, async () => {
        const h = harness();
        const res = await get(h, headers(h));
        assertError(h, res, 401, 'AUTHENTICATION_REQUIRED');
        assert.match(String(res.headers['www-authenticate']), /^Basic realm="apas"/);
      });
    }

    it('answers every kind of wrong credential with 401 INVALID_CREDENTIALS and one and the same message', async () => {
      const h = harness();
      const admin = h.who.admin;
      const wrong: [string, Record<string, string>][] = [
        ['wrong password', { authorization: basic(admin.email, 'not-the-password'), 'x-apikey': admin.apiKey }],
        ['unknown user', { authorization: basic('nobody@example.org', admin.password), 'x-apikey': admin.apiKey }],
        ['malformed key', { authorization: basic(admin.email, admin.password), 'x-apikey': 'not-a-key' }],
        ["another user's key", { authorization: basic(admin.email, admin.password), 'x-apikey': h.who.editor.apiKey }],
        ['unknown key id', { authorization: basic(admin.email, admin.password), 'x-apikey': `apas_ZZZZZZZZZZZZ_${'a'.repeat(32)}` }],
        ['wrong key secret', { authorization: basic(admin.email, admin.password), 'x-apikey': admin.apiKey.replace(/_[^_]+$/, `_${'b'.repeat(32)}`) }],
      ];
      const messages = new Set<string>();
      for (const [what, headers] of wrong) {
        const res = await get(h, headers);
        assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
        assertError(h, res, 401, 'INVALID_CREDENTIALS');
        assert.ok(res.headers['www-authenticate'], what);
        assert.equal(res.headers['ratelimit-limit'], undefined, `${what}: no budget is shown to an unauthenticated caller`);
        messages.add(attr(res.body, 'ErrorResponse', 'Message')!);
      }
      assert.equal(messages.size, 1, `the message tells nothing about which part was wrong: ${[...messages].join(' | ')}`);
    });

    it('creates nothing for a write with wrong credentials', async () => {
      const h = harness();
      const before = await programState(h);
      const res = await h.request({
        method: 'POST', url: `${PROGRAM}/NewProject`, as: null,
        headers: { authorization: basic(h.who.applicant.email, 'wrong'), 'x-apikey': h.who.applicant.apiKey },
      });
      assertError(h, res, 401, 'INVALID_CREDENTIALS');
      assert.deepEqual(await programState(h), before);
    });
  });

  describe('changes to accounts take effect at once, although verified credentials are cached', () => {
    const harness = sharedHarness(dialect);

    it('refuses a revoked API key', async () => {
      const h = harness();
      const reader = h.who.reader;
      assert.equal((await get(h, authHeaders(reader))).statusCode, 200);
      await h.store.transaction((tx) => tx.accounts.revokeApiKey(keyId(reader.apiKey), h.clock.now()));
      assertError(h, await get(h, authHeaders(reader)), 401, 'INVALID_CREDENTIALS');
    });

    it('refuses a disabled user, and accepts them again once enabled', async () => {
      const h = harness();
      const editor = h.who.editor;
      assert.equal((await get(h, authHeaders(editor))).statusCode, 200);
      await h.store.transaction((tx) => tx.accounts.updateUser(editor.id, { disabled: true }, h.clock.now()));
      assertError(h, await get(h, authHeaders(editor)), 401, 'INVALID_CREDENTIALS');
      await h.store.transaction((tx) => tx.accounts.updateUser(editor.id, { disabled: false }, h.clock.now()));
      assert.equal((await get(h, authHeaders(editor))).statusCode, 200);
    });

    it('refuses the old password right after a password change and accepts the new one', async () => {
      const h = harness();
      const user = h.who.programAdmin;
      assert.equal((await get(h, authHeaders(user))).statusCode, 200, 'the old credentials are now cached');
      const newHash = await hashSecret('a-brand-new-password');
      await h.store.transaction((tx) => tx.accounts.updateUser(user.id, { passwordHash: newHash }, h.clock.now()));
      assertError(h, await get(h, authHeaders(user)), 401, 'INVALID_CREDENTIALS');
      const res = await get(h, authHeaders({ ...user, password: 'a-brand-new-password' }));
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  for (const store of ['memory', 'database'] as const) {
    describe(`throughput limit per API key (APAS_RATE_LIMIT_MAX=3, ${store} counter)`, () => {
      const harness = sharedHarness(dialect, { APAS_RATE_LIMIT_MAX: '3', APAS_RATE_LIMIT_STORE: store });

      it('counts down 3 requests, refuses the 4th with 429 RATE_LIMITED and Retry-After, creating nothing; other keys and the next window are free', async () => {
        const h = harness();
        for (const remaining of ['2', '1', '0']) {
          const res = await h.request({ method: 'GET', url: PROJECTS, as: 'applicant' });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.headers['ratelimit-limit'], '3');
          assert.equal(res.headers['ratelimit-remaining'], remaining);
          const reset = Number(res.headers['ratelimit-reset']);
          assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `RateLimit-Reset ${res.headers['ratelimit-reset']}`);
        }

        const before = await programState(h);
        const refused = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
        assertError(h, refused, 429, 'RATE_LIMITED');
        assert.equal(refused.headers['ratelimit-remaining'], '0');
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers['retry-after']}`);
        assert.equal(refused.headers['retry-after'], refused.headers['ratelimit-reset']);
        assert.deepEqual(await programState(h), before, 'a refused NewProject creates nothing');

        const other = await h.request({ method: 'GET', url: PROJECTS, as: 'editor' });
        assert.equal(other.statusCode, 200, 'another key has its own budget');
        assert.equal(other.headers['ratelimit-remaining'], '2');

        h.clock.advance(retryAfter * 1000);
        const again = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
        assert.equal(again.statusCode, 200, again.body);
        assert.equal(again.headers['ratelimit-remaining'], '2', 'a new window');
        assert.equal((await programState(h)).projects.length, before.projects.length + 1);
      });
    });
  }

  describe('failed sign-ins (lock after 10 per user name, 30 per address)', () => {
    const harness = sharedHarness(dialect, { APAS_SIGNIN_LOCK_USER_AFTER: '10', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '30', APAS_SIGNIN_WINDOW_SECONDS: '900' });
    const MADE_UP_KEY = `apas_ZZZZZZZZZZZZ_${'m'.repeat(32)}`;
    const window = (h: HttpHarness) => h.clock.now() - (h.clock.now() % 900_000);
    const counts = async (h: HttpHarness, email: string, address = '127.0.0.1') => ({
      user: await h.store.counters.peekRequestCount(`signin:user:${email}`, window(h)),
      address: await h.store.counters.peekRequestCount(`signin:ip:${address}`, window(h)),
    });
    const landing = (projectId: string) => `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`;

    it('do not lock a user out for wrong passwords sent with a key that is not theirs: made up, another user\'s, or a wrong secret', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const reader = h.who.reader;
      const keys = [MADE_UP_KEY, h.who.editor.apiKey, reader.apiKey.replace(/_[^_]+$/, `_${'w'.repeat(32)}`)];
      for (let i = 0; i < 12; i++) {
        const res = await get(h, { authorization: basic(reader.email, `guess-${i}`), 'x-apikey': keys[i % keys.length]! });
        assertError(h, res, 401, 'INVALID_CREDENTIALS');
      }
      assert.deepEqual(await counts(h, reader.email), { user: 0, address: 12 }, 'counted against the address only');
      const res = await get(h, authHeaders(reader));
      assert.equal(res.statusCode, 200, res.body);
    });

    it('still lock a user name after 10 wrong passwords sent with its own key, even for the right password, and a refused write changes nothing', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const applicant = h.who.applicant;
      for (let i = 0; i < 10; i++) {
        assertError(h, await get(h, { authorization: basic(applicant.email, `guess-${i}`), 'x-apikey': applicant.apiKey }), 401, 'INVALID_CREDENTIALS');
      }
      assert.deepEqual(await counts(h, applicant.email), { user: 10, address: 10 });
      const before = await programState(h);
      const locked = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
      assertError(h, locked, 429, 'SIGN_IN_LOCKED');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      assert.deepEqual(await programState(h), before);
      assert.equal((await get(h, authHeaders(h.who.editor))).statusCode, 200, 'other users are not locked');
      h.clock.advance(900_000);
      assert.equal((await get(h, authHeaders(applicant))).statusCode, 200);
    });

    it('still lock a client address after 30 failures, made-up keys included', async () => {
      const h = harness();
      h.clock.advance(900_000);
      for (let i = 0; i < 30; i++) {
        const res = await get(h, { authorization: basic(`guess${i}@example.org`, 'x'), 'x-apikey': i % 2 === 0 ? MADE_UP_KEY : 'not-a-key' });
        assertError(h, res, 401, 'INVALID_CREDENTIALS');
      }
      assertError(h, await get(h, authHeaders(h.who.admin)), 429, 'SIGN_IN_LOCKED');
      const elsewhere = await h.app.inject({ method: 'GET', url: PROJECTS, headers: authHeaders(h.who.admin), remoteAddress: '192.0.2.50' });
      assert.equal(elsewhere.statusCode, 200, 'another address is not locked');
      h.clock.advance(900_000);
      assert.equal((await get(h, authHeaders(h.who.admin))).statusCode, 200);
    });

    it('on the web pages, lock a user name only from the address that failed: the user signs in from another address, and through the API', async () => {
      const h = harness();
      const projectId = await createProject(h, 'otherApplicant');
      h.clock.advance(900_000);
      const who = h.who.otherApplicant;
      const page = (password: string, remoteAddress: string) => h.app.inject({ method: 'GET', url: landing(projectId), headers: { authorization: basic(who.email, password) }, remoteAddress });
      for (let i = 0; i < 10; i++) assert.equal((await page(`guess-${i}`, '192.0.2.66')).statusCode, 401);
      assert.equal((await page(who.password, '192.0.2.66')).statusCode, 429, 'locked from the address that guessed');
      assert.equal((await page(who.password, '192.0.2.67')).statusCode, 200, 'not from another address');
      assert.equal((await get(h, authHeaders(who))).statusCode, 200, 'nor through the API');
      assert.deepEqual(await counts(h, who.email, '192.0.2.66'), { user: 0, address: 10 });
      assert.equal(await h.store.counters.peekRequestCount(`signin:web:192.0.2.66:${who.email}`, window(h)), 10, 'counted for the name from that address');
    });
  });
});
