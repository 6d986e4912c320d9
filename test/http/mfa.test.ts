import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { CreateMfaSessionTokenResponse } from '../../src/wire/documents/mfa-session-token.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, type HttpHarness, NS } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_BODY } from '../support/json-answers.ts';
import { COMPLETE, PROGRAM, projectPath, sharedHarness } from './http-helpers.ts';

const TOKENS = '/services/v2/Accounts/MfaSessionTokens';

/** Enrols an identity through the service the CLI uses and returns its TOTP secret. */
async function enrol(h: HttpHarness, email: string): Promise<string> {
  const uri = await new MfaService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).enrol(email);
  const secret = new URL(uri).searchParams.get('secret');
  assert.ok(secret, uri);
  return secret;
}

/** A fresh TOTP code: the test clock moves on one period first, since every code is good once. */
function freshCode(h: HttpHarness, secret: string): string {
  h.clock.advance(30_000);
  return totpCode(secret, h.clock.now());
}

forEachDialect('multi-factor authentication', ({ dialect }) => {
  describe('an enrolled user', () => {
    const harness = sharedHarness(dialect);
    let secret = '';

    it('is refused without a second factor (MFA_REQUIRED), with it (TOTP) answered', async () => {
      const h = harness();
      secret = await enrol(h, h.who.editor.email);
      const bare = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor' });
      assertError(h, bare, 401, 'MFA_REQUIRED');
      const ok = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, secret) } });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    it('cannot use one TOTP code twice, nor a wrong one', async () => {
      const h = harness();
      const code = freshCode(h, secret);
      const first = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-totp': code } });
      assert.equal(first.statusCode, 200);
      const again = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-totp': code } });
      assertError(h, again, 401, 'MFA_INVALID');
      const wrong = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-totp': '000000' === code ? '111111' : '000000' } });
      assertError(h, wrong, 401, 'MFA_INVALID');
    });

    it('creates a session token with a TOTP, uses it, and the token cannot create another', async () => {
      const h = harness();
      const res = await h.request({
        method: 'POST', url: TOKENS, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, secret) },
        body: `<CreateMfaSessionTokenRequest xmlns="${NS}" ExpiresAfterMinutes="30"/>`,
      });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'CreateMfaSessionTokenResponse');
      const token = attr(res.body, 'MfaSessionToken', 'Token')!;
      assert.match(token, /^mst_[0-9A-Z]{12}_[0-9A-Z]{48}$/);
      assert.equal(Date.parse(attr(res.body, 'MfaSessionToken', 'ExpiresTimestamp')!), h.clock.now() + 30 * 60_000);
      const stored = await h.store.mfa.getSessionToken(attr(res.body, 'MfaSessionToken', 'TokenId')!);
      assert.ok(stored && !JSON.stringify(stored).includes(token.split('_')[2]!), 'only a hash of the token is stored');
      for (let i = 0; i < 3; i++) {
        const use = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-session-token': token } });
        assert.equal(use.statusCode, 200, use.body);
      }
      const viaToken = await h.request({ method: 'POST', url: TOKENS, as: 'editor', headers: { 'x-mfa-session-token': token } });
      assertError(h, viaToken, 401, 'MFA_REQUIRED');
    });

    it('a new token deletes the earlier one; tokens expire', async () => {
      const h = harness();
      const create = async (minutes: number) => {
        const r = await h.request({ method: 'POST', url: TOKENS, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, secret) }, body: `<CreateMfaSessionTokenRequest xmlns="${NS}" ExpiresAfterMinutes="${minutes}"/>` });
        assert.equal(r.statusCode, 200, r.body);
        return attr(r.body, 'MfaSessionToken', 'Token')!;
      };
      const first = await create(60);
      const second = await create(1);
      const old = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-session-token': first } });
      assertError(h, old, 401, 'MFA_INVALID');
      assert.equal((await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-session-token': second } })).statusCode, 200);
      h.clock.advance(61_000);
      const expired = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-session-token': second } });
      assertError(h, expired, 401, 'MFA_INVALID');
    });

    it('refuses a lifetime beyond the maximum, and changes nothing', async () => {
      const h = harness();
      const before = await h.store.audit.list({ action: 'user.mfa.session_token.create' });
      for (const minutes of ['721', '0', 'abc']) {
        const r = await h.request({ method: 'POST', url: TOKENS, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, secret) }, body: `<CreateMfaSessionTokenRequest xmlns="${NS}" ExpiresAfterMinutes="${minutes}"/>` });
        assertError(h, r, 400, 'INVALID_REQUEST');
      }
      assert.deepEqual(await h.store.audit.list({ action: 'user.mfa.session_token.create' }), before);
    });

    it('reads a JSON body (or none) and answers in JSON; refuses a JSON lifetime its schema does not accept', async () => {
      const h = harness();
      const post = (body?: string) =>
        h.request({ method: 'POST', url: TOKENS, as: 'editor', body, headers: { ...JSON_BODY, 'x-mfa-totp': freshCode(h, secret) } });
      const before = await h.store.audit.list({ action: 'user.mfa.session_token.create' });
      for (const body of ['{"ExpiresAfterMinutes":0}', '{"ExpiresAfterMinutes":"30"}', '{"ExpiresAfterMinutes":1.5}', '{"Minutes":30}']) {
        assertJsonError(await post(body), 400, 'INVALID_REQUEST');
      }
      assert.deepEqual(await h.store.audit.list({ action: 'user.mfa.session_token.create' }), before);
      const token = assertJsonAnswer(await post('{"ExpiresAfterMinutes":45}'), CreateMfaSessionTokenResponse).MfaSessionToken;
      assert.match(token.Token, new RegExp(`^mst_${token.TokenId}_`));
      assert.equal(Date.parse(token.ExpiresTimestamp), h.clock.now() + 45 * 60_000);
      const byDefault = assertJsonAnswer(await post(), CreateMfaSessionTokenResponse).MfaSessionToken;
      assert.equal(Date.parse(byDefault.ExpiresTimestamp), h.clock.now() + 60 * 60_000);
    });

    it('deletes its own token, authenticated by that same token, and nobody else\'s', async () => {
      const h = harness();
      const r = await h.request({ method: 'POST', url: TOKENS, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, secret) } });
      assert.equal(r.statusCode, 200, r.body);
      const tokenId = attr(r.body, 'MfaSessionToken', 'TokenId')!;
      const token = attr(r.body, 'MfaSessionToken', 'Token')!;
      const other = await h.request({ method: 'DELETE', url: `${TOKENS}/${tokenId}`, as: 'admin' });
      assertError(h, other, 404, 'NOT_FOUND');
      assert.ok(await h.store.mfa.getSessionToken(tokenId), 'another user cannot delete it');
      const del = await h.request({ method: 'DELETE', url: `${TOKENS}/${tokenId}`, as: 'editor', headers: { 'x-mfa-session-token': token } });
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assert.equal(await h.store.mfa.getSessionToken(tokenId), null);
      const after = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor', headers: { 'x-mfa-session-token': token } });
      assertError(h, after, 401, 'MFA_INVALID');
    });

    it('a user who is not enrolled needs no second factor and gets no session token', async () => {
      const h = harness();
      assert.equal((await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'reader' })).statusCode, 200);
      const r = await h.request({ method: 'POST', url: TOKENS, as: 'reader' });
      assertError(h, r, 403, 'FORBIDDEN');
    });
  });

  describe('reveal_sensitive_data', () => {
    const harness = sharedHarness(dialect);

    it('needs both the privilege and MFA; otherwise the whole request is refused', async () => {
      const h = harness();
      const created = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
      const project = attr(created.body, 'Project', 'ProjectId')!;
      const draft = `<ProjectDataRequest xmlns="${NS}"><Project><DataFields><DataField DataFieldId="name" Value="${COMPLETE.name}"/></DataFields></Project></ProjectDataRequest>`;
      assert.equal((await h.request({ method: 'POST', url: `${projectPath(project)}/Forms/application/Draft/Data`, as: 'applicant', body: draft })).statusCode, 200);
      const url = `${projectPath(project)}/Forms/application/Draft/Data?reveal_sensitive_data=true`;
      // The agency admin has the privilege but no MFA yet; the editor gets MFA but not the privilege.
      assertError(h, await h.request({ method: 'GET', url, as: 'admin' }), 403, 'SENSITIVE_DATA_NOT_ALLOWED');
      const editorSecret = await enrol(h, h.who.editor.email);
      assertError(h, await h.request({ method: 'GET', url, as: 'editor', headers: { 'x-mfa-totp': freshCode(h, editorSecret) } }), 403, 'SENSITIVE_DATA_NOT_ALLOWED');
      const adminSecret = await enrol(h, h.who.admin.email);
      const shown = await h.request({ method: 'GET', url, as: 'admin', headers: { 'x-mfa-totp': freshCode(h, adminSecret) } });
      assert.equal(shown.statusCode, 200, shown.body);
      assert.match(shown.body, /CustomId="name" Name="Applicant name" Value="Jane Doe"/);
      const masked = await h.request({ method: 'GET', url: url.replace('true', 'false'), as: 'admin', headers: { 'x-mfa-totp': freshCode(h, adminSecret) } });
      assert.match(masked.body, /CustomId="name" Name="Applicant name" Value="\*{8}"/);
    });

    it('a grant made with the sensitive privilege reveals too, with MFA', async () => {
      const h = harness();
      await h.store.transaction((tx) => tx.accounts.setGrant({ userId: h.who.reader.id, programId: IDS.program, role: 'reader', sensitive: true }));
      const secret = await enrol(h, h.who.reader.email);
      const list = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'reader', headers: { 'x-mfa-totp': freshCode(h, secret) } });
      const project = attr(list.body, 'Project', 'ProjectId')!;
      const r = await h.request({ method: 'GET', url: `${projectPath(project)}/Forms/application/Draft/Data?reveal_sensitive_data=true`, as: 'reader', headers: { 'x-mfa-totp': freshCode(h, secret) } });
      assert.equal(r.statusCode, 200, r.body);
      assert.match(r.body, /Value="Jane Doe"/);
    });
  });

  describe('failed sign-ins', () => {
    const harness = sharedHarness(dialect, { APAS_SIGNIN_LOCK_USER_AFTER: '4', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '12', APAS_SIGNIN_WINDOW_SECONDS: '900' });

    // The reader's key unless told otherwise: with a key that is not the named user's, failures count against the
    // address only; with the user's own key, against the user name too.
    const wrong = (h: HttpHarness, email: string, password = 'not-the-password', apiKey = h.who.reader.apiKey) => ({
      ...authHeaders(h.who.reader), 'x-apikey': apiKey, authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
    });

    it('lock a user name after repeated failures, even for the right password, until the window ends', async () => {
      const h = harness();
      for (let i = 0; i < 4; i++) assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, h.who.reader.email) }), 401, 'INVALID_CREDENTIALS');
      const locked = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'reader' });
      assertError(h, locked, 429, 'SIGN_IN_LOCKED');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      assert.equal((await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'editor' })).statusCode === 429, false, 'other users are not locked');
      h.clock.advance(900_000);
      assert.equal((await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'reader' })).statusCode, 200);
    });

    it('answer a user name that does not exist exactly like one that does, and lock neither with a key not theirs', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const answers: string[] = [];
      for (const email of ['nobody@example.org', h.who.otherApplicant.email]) {
        for (let i = 0; i < 4; i++) await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, email) });
        const r = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, email) });
        answers.push(`${r.statusCode} ${attr(r.body, 'ErrorResponse', 'Code')} ${attr(r.body, 'ErrorResponse', 'Message')} ${r.headers['retry-after']}`);
      }
      assert.equal(answers[0], answers[1]);
      assert.match(answers[0]!, /^401 INVALID_CREDENTIALS/);
    });

    /** The failures counted in the current window for a user name, and for the address app.inject sends from. */
    const counts = async (h: HttpHarness, email: string) => {
      const window = h.clock.now() - (h.clock.now() % 900_000);
      return {
        user: await h.store.counters.peekRequestCount(`signin:user:${email}`, window),
        address: await h.store.counters.peekRequestCount('signin:ip:127.0.0.1', window),
      };
    };

    const tally = (answers: { statusCode: number; body: string }[]) => {
      const out: Record<string, number> = {};
      for (const r of answers) {
        const key = `${r.statusCode} ${attr(r.body, 'ErrorResponse', 'Code')}`;
        out[key] = (out[key] ?? 0) + 1;
      }
      return out;
    };

    it('check at most the limit of wrong passwords for one user name, however many arrive at once', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const email = h.who.programAdmin.email;
      const guesses = Array.from({ length: 20 }, (_, i) => h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, email, `guess-${i}`, h.who.programAdmin.apiKey) }));
      assert.deepEqual(tally(await Promise.all(guesses)), { '401 INVALID_CREDENTIALS': 4, '429 SIGN_IN_LOCKED': 16 });
      assert.deepEqual(await counts(h, email), { user: 4, address: 4 }, 'the refused guesses are not counted as failures');
      assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'programAdmin' }), 429, 'SIGN_IN_LOCKED');
      assert.deepEqual(await counts(h, email), { user: 4, address: 4 });
    });

    it('check at most the limit of wrong passwords from one client address, however many arrive at once', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, `burst${i}@example.org`) })));
      assert.deepEqual(tally(answers), { '401 INVALID_CREDENTIALS': 12, '429 SIGN_IN_LOCKED': 8 });
      assert.equal((await counts(h, 'nobody')).address, 12);
    });

    it('do not count a sign-in that succeeded, nor the same new credentials sent many times at once', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const email = h.who.outsider.email;
      const answers = await Promise.all(Array.from({ length: 6 }, () => h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'outsider' })));
      assert.deepEqual(tally(answers), { '403 FORBIDDEN': 6 }, 'signed in, then refused by role');
      assert.deepEqual(await counts(h, email), { user: 0, address: 0 });
      const same = await Promise.all(Array.from({ length: 6 }, () => h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, email, undefined, h.who.outsider.apiKey) })));
      assert.deepEqual(tally(same), { '401 INVALID_CREDENTIALS': 6 });
      assert.deepEqual(await counts(h, email), { user: 1, address: 1 }, 'one wrong password sent six times at once is one guess');
      assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, email, 'another-guess', h.who.outsider.apiKey) }), 401, 'INVALID_CREDENTIALS');
      assert.deepEqual(await counts(h, email), { user: 2, address: 2 });
    });

    it('check at most the limit of wrong TOTP codes at once, even with remembered credentials', async () => {
      const h = harness();
      h.clock.advance(900_000);
      const secret = await enrol(h, h.who.otherApplicant.email);
      const url = `${PROGRAM}/Projects`;
      assert.equal((await h.request({ method: 'GET', url, as: 'otherApplicant', headers: { 'x-mfa-totp': freshCode(h, secret) } })).statusCode, 200);
      const good = [-30_000, 0, 30_000].map((d) => totpCode(secret, h.clock.now() + d));
      const codes = Array.from({ length: 20 }, (_, i) => String(100000 + i * 7919)).filter((c) => !good.includes(c)).slice(0, 16);
      const answers = await Promise.all(codes.map((code) => h.request({ method: 'GET', url, as: 'otherApplicant', headers: { 'x-mfa-totp': code } })));
      assert.deepEqual(tally(answers), { '401 MFA_INVALID': 4, '429 SIGN_IN_LOCKED': 12 });
      assert.equal((await counts(h, h.who.otherApplicant.email)).user, 4);
    });

    it('lock a client address that tries many user names', async () => {
      const h = harness();
      h.clock.advance(900_000);
      for (let i = 0; i < 12; i++) await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: null, headers: wrong(h, `guess${i}@example.org`) });
      assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'admin' }), 429, 'SIGN_IN_LOCKED');
      h.clock.advance(900_000);
      assert.equal((await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'admin' })).statusCode, 200);
    });
  });

  describe('on the web pages', () => {
    const harness = sharedHarness(dialect);

    /** What a browser resends on every page once the user typed the password with a code appended. */
    const typed = (h: HttpHarness, who: 'applicant' | 'otherApplicant' | 'editor', code: string) => `Basic ${Buffer.from(`${h.who[who].email}:${h.who[who].password}${code}`).toString('base64')}`;
    const pageUrl = (projectId: string) => `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`;
    const cookieOf = (res: { headers: Record<string, unknown> }) => /^apas_mfa=([^;]+);/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];
    // app.inject signs in from 127.0.0.1; web sign-ins count per user name and address.
    const userCount = (h: HttpHarness, email: string) => h.store.counters.peekRequestCount(`signin:web:127.0.0.1:${email}`, h.clock.now() - (h.clock.now() % 900_000));

    /** A project of the applicant with a thread that shows the applicant a note; made before the applicant enrols. */
    async function project(h: HttpHarness, owner: 'applicant' | 'otherApplicant' = 'applicant'): Promise<{ projectId: string; threadId: string }> {
      h.clock.advance();
      const created = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: owner });
      const projectId = attr(created.body, 'Project', 'ProjectId')!;
      const note = await h.request({
        method: 'POST', url: `${projectPath(projectId)}/InquiryNotes`, as: 'admin',
        body: `<SetInquiryNoteRequest xmlns="${NS}" Subject="Roof" VisibleToApplicant="true"><Text>Which roof?</Text></SetInquiryNoteRequest>`,
      });
      assert.equal(note.statusCode, 200, note.body);
      return { projectId, threadId: attr(note.body, 'InquiryThread', 'ThreadId')! };
    }

    it('a code signs the browser in once; its cookie then serves page loads, a reply and its redirect without a new code', async () => {
      const h = harness();
      const { projectId, threadId } = await project(h);
      const secret = await enrol(h, h.who.applicant.email);
      const basic = typed(h, 'applicant', freshCode(h, secret));
      const first = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: basic } });
      assert.equal(first.statusCode, 200, first.body);
      const setCookies = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie'] ?? []].flat().map(String);
      assert.match(setCookies(first).find((c) => c.startsWith('apas_mfa=')) ?? '', /^apas_mfa=mst_[0-9A-Z]{12}_[0-9A-Z]{48}; Path=\/MvcProjects; Max-Age=43200; HttpOnly; SameSite=Lax$/);
      // The page's reply form carries a CSRF token, which belongs to the _csrf cookie the page set.
      const csrfCookie = setCookies(first).find((c) => c.startsWith('_csrf='))!.split(';')[0]!;
      const token = /name="_csrf" value="([^"]+)"/.exec(first.body)![1]!;
      const value = cookieOf(first)!;
      const stored = await h.store.mfa.getWebSession(value.split('_')[1]!);
      assert.ok(stored && stored.userId === h.who.applicant.id && !JSON.stringify(stored).includes(value.split('_')[2]!), 'only a hash of the secret is stored');
      assert.equal(stored.expiresAt, h.clock.now() + 720 * 60_000);
      assert.equal((await h.store.audit.list({ action: 'user.mfa.web_session.create' })).length, 1);

      const browser = { authorization: basic, cookie: `other=1; apas_mfa=${value}; ${csrfCookie}` };
      h.clock.advance(120_000);
      const again = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: browser });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(setCookies(again), [], 'the session goes on; no new one');
      const reply = await h.app.inject({
        method: 'POST', url: '/MvcProjects/InquiryReply', headers: { ...browser, origin: 'http://apas.test', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, ProgramId: IDS.program, ProjectId: projectId, ThreadId: threadId, Text: 'The south roof.' }).toString(),
      });
      assert.equal(reply.statusCode, 303, reply.body);
      const redirected = await h.app.inject({ method: 'GET', url: String(reply.headers.location).replace('http://apas.test', ''), headers: browser });
      assert.equal(redirected.statusCode, 200, redirected.body);
      assert.match(redirected.body, /The south roof\./);
      assert.equal(await userCount(h, h.who.applicant.email), 0, 'no failed sign-in was counted');

      // Without the cookie the resent code is spent, as before.
      const bare = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: basic } });
      assert.equal(bare.statusCode, 401, bare.body);
    });

    it('a web session serves only its own user, only the web pages and only until it expires; ending the enrolment ends it', async () => {
      const h = harness();
      const { projectId } = await project(h, 'otherApplicant');
      const secret = await enrol(h, h.who.otherApplicant.email);
      const first = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: typed(h, 'otherApplicant', freshCode(h, secret)) } });
      assert.equal(first.statusCode, 200, first.body);
      const cookie = `apas_mfa=${cookieOf(first)}`;
      const stale = typed(h, 'otherApplicant', '000000');

      await enrol(h, h.who.editor.email);
      const asEditor = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: typed(h, 'editor', '000000'), cookie } });
      assert.equal(asEditor.statusCode, 401, "another user's cookie is no second factor");
      const api = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, as: 'otherApplicant', headers: { cookie } });
      assertError(h, api, 401, 'MFA_REQUIRED');
      const forged = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: stale, cookie: `${cookie.slice(0, -4)}AAAA` } });
      assert.equal(forged.statusCode, 401, 'a wrong secret');

      h.clock.advance(720 * 60_000 - 1000);
      assert.equal((await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: stale, cookie } })).statusCode, 200);
      h.clock.advance(1000);
      assert.equal((await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: stale, cookie } })).statusCode, 401, 'expired');

      const renewed = await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: typed(h, 'otherApplicant', freshCode(h, secret)) } });
      const fresh = `apas_mfa=${cookieOf(renewed)}`;
      assert.equal((await h.app.inject({ method: 'GET', url: pageUrl(projectId), headers: { authorization: stale, cookie: fresh } })).statusCode, 200);
      await new MfaService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).disable(h.who.otherApplicant.email);
      assert.equal(await h.store.mfa.getWebSession(cookieOf(renewed)!.split('_')[1]!), null);
    });
  });
});
