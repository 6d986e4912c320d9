import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { SignOnSettingsService, type SignOnInput } from '../../src/domain/sign-on/sign-on-settings-service.ts';
import type { Clock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { DIALECTS } from '../support/databases.ts';
import { ID_TOKEN_TTL_SECONDS, signOnAtProvider, startTestProvider, type TestProvider, TestUserAgent } from '../support/oidc-test-provider.ts';

// Staff single sign-on against a real OpenID Provider (oidc-provider) the test starts: the authorization code flow
// with PKCE, state and nonce, provisioning by the groups → grants mapping, and every refusal the issue names, each
// answered with a 4xx page, no session, and no user or grant changed (read back from the store).

const SSO_PATH = '/MvcProjects/Console/SignOn';

for (const dialect of DIALECTS) {
  describe(`web: staff single sign-on [${dialect}]`, () => {
    let server: WebServer;
    let idp: TestProvider;
    let browser: Browser;
    let agencyId: string;
    let programId: string;
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset };
    const apasHost = () => new URL(server.baseUrl).host;

    const settings = (more: Partial<SignOnInput> = {}): SignOnInput => ({
      label: 'Test IdP', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: '', emailClaim: '', groupsClaim: '',
      groupGrants: 'staff-reviewers = RES-SOLAR editor\napas-admins = admin', allowPasswords: true, enabled: true, ...more,
    });
    const save = (more: Partial<SignOnInput> = {}) =>
      new SignOnSettingsService({ store: server.store, clock, ids: new RandomIdGenerator() }).save(agencyId, settings(more), null);
    const account = (login: string, groups: string[], verified = true) => {
      idp.accounts.set(login, { email: `${login}@staff.example`, email_verified: verified, name: `Staff ${login}`, groups });
      return `${login}@staff.example`;
    };
    // What a refusal must leave as it was: the user (or its absence) and its grants.
    const stateOf = async (email: string) => {
      const user = await server.store.accounts.findUserByEmail(email);
      return { user: user ? { id: user.id, agencyAdmin: user.agencyAdmin, disabled: user.disabled } : null, grants: user ? await server.store.accounts.listGrants(user.id) : [] };
    };
    const signedIn = async (agent: TestUserAgent) => (await agent.send(`${server.baseUrl}/MvcProjects/`)).status === 200;
    const assertRefused = async (res: Response, status: number, text: RegExp) => {
      const body = await res.text();
      assert.equal(res.status, status, body.slice(0, 500));
      assert.match(body, /Single sign-on did not sign you in/);
      assert.match(body, text);
      assert.equal(res.headers.getSetCookie().some((c) => c.startsWith('apas_session=') && !/^apas_session=;/.test(c)), false, 'no session cookie');
    };

    before(async () => {
      server = await startWebServer(dialect, {}, undefined, clock);
      idp = await startTestProvider(server.baseUrl);
      agencyId = (await server.store.accounts.listAgencies())[0]!.id;
      programId = server.programId;
      await save();
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await idp?.close();
      await server?.close();
    });

    it('provisions a staff member on first sign-in from the mapping, and re-reads the groups at the next one', async () => {
      const email = account('casey', ['staff-reviewers', 'unrelated']);
      assert.equal((await stateOf(email)).user, null);
      const agent = new TestUserAgent();
      const { callbackUrl, authorizationUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'casey');
      // PKCE with S256, a state and a nonce went to the provider.
      assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
      for (const p of ['code_challenge', 'state', 'nonce']) assert.ok((authorizationUrl.searchParams.get(p) ?? '').length >= 43, p);
      const res = await agent.send(callbackUrl.href);
      assert.equal(res.status, 303, await res.text());
      assert.equal(res.headers.get('location'), '/MvcProjects/');
      assert.ok(agent.cookie(apasHost(), 'apas_session'), 'a session started');
      assert.equal(agent.cookie(apasHost(), 'apas_sign_on'), undefined, 'the binding cookie is cleared');
      assert.ok(await signedIn(agent));
      const after1 = await stateOf(email);
      assert.deepEqual(after1.user && { agencyAdmin: after1.user.agencyAdmin, disabled: after1.user.disabled }, { agencyAdmin: false, disabled: false });
      assert.deepEqual(after1.grants.map((g) => [g.programId, g.role, g.sensitive]), [[programId, 'editor', false]]);
      // The provider now puts the user in the admins' group too: the next sign-in makes them an agency admin.
      idp.accounts.get('casey')!.groups = ['staff-reviewers', 'apas-admins'];
      const again = new TestUserAgent();
      const second = await again.send((await signOnAtProvider(again, server.baseUrl, agencyId, 'casey')).callbackUrl.href);
      assert.equal(second.status, 303);
      assert.equal((await stateOf(email)).user?.agencyAdmin, true);
      assert.equal((await stateOf(email)).user?.id, after1.user?.id, 'the same user, not a second one');
    });

    it('refuses an answer from a wrong issuer: 401, no session, no user', async () => {
      const email = account('ivy', ['staff-reviewers']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'ivy');
      assert.equal(callbackUrl.searchParams.get('iss'), idp.issuer, 'the provider names itself (RFC 9207)');
      callbackUrl.searchParams.set('iss', 'https://idp.attacker.example');
      await assertRefused(await agent.send(callbackUrl.href), 401, /identity provider.s answer was refused.*iss/s);
      assert.equal(await signedIn(agent), false);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('refuses a replayed state, even with the browser\'s binding cookie: 400, no new session, nothing changed', async () => {
      const email = account('rhea', ['staff-reviewers']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'rhea');
      const binding = agent.cookie(apasHost(), 'apas_sign_on')!;
      assert.equal((await agent.send(callbackUrl.href)).status, 303);
      const before = await stateOf(email);
      const replay = new TestUserAgent();
      replay.jar.set(apasHost(), new Map([['apas_sign_on', binding]]));
      await assertRefused(await replay.send(callbackUrl.href), 400, /unknown or was used already/);
      assert.equal(await signedIn(replay), false);
      assert.deepEqual(await stateOf(email), before);
    });

    it('shows the provider\'s own refusal (the person cancelled there) as a 401 page; nothing changes', async () => {
      const agent = new TestUserAgent();
      const start = await agent.send(`${server.baseUrl}/MvcProjects/SignIn/Sso/${agencyId}`);
      const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
      const callback = new URL(`${server.baseUrl}/MvcProjects/SignIn/Sso/Callback`);
      for (const [k, v] of Object.entries({ error: 'access_denied', error_description: 'End-User aborted interaction', state, iss: idp.issuer })) callback.searchParams.set(k, v);
      await assertRefused(await agent.send(callback.href), 401, /access_denied|aborted/);
      assert.equal(await signedIn(agent), false);
    });

    it('answers a start for an agency without single sign-on with 404, and a provider that cannot be reached with 503', async () => {
      const agent = new TestUserAgent();
      await assertRefused(await agent.send(`${server.baseUrl}/MvcProjects/SignIn/Sso/NO-SUCH-AGENCY`), 404, /does not offer single sign-on/);
      assert.equal(agent.cookie(apasHost(), 'apas_sign_on'), undefined);
      await save({ issuer: 'http://127.0.0.1:9', clientSecret: '' });
      try {
        await assertRefused(await agent.send(`${server.baseUrl}/MvcProjects/SignIn/Sso/${agencyId}`), 503, /could not be used/);
        assert.equal(agent.cookie(apasHost(), 'apas_sign_on'), undefined);
      } finally {
        await save({ clientSecret: '' });
      }
    });

    it('refuses an answer brought back by another browser than the one that started: 400', async () => {
      const email = account('bo', ['staff-reviewers']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'bo');
      const other = new TestUserAgent();
      await assertRefused(await other.send(callbackUrl.href), 400, /started in another browser/);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('refuses an ID token whose nonce is not the one sent: 401, no session, no user', async () => {
      const email = account('nina', ['staff-reviewers']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'nina', (u) => {
        u.searchParams.set('nonce', 'a-nonce-apas-never-made-0123456789abcdefghijk');
        return u;
      });
      await assertRefused(await agent.send(callbackUrl.href), 401, /&quot;nonce&quot; claim value|"nonce" claim value/);
      assert.equal(await signedIn(agent), false);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('refuses an expired ID token (apas\'s clock past its exp): 401, no session, no user', async () => {
      const email = account('ezra', ['staff-reviewers']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'ezra');
      // Past the token's lifetime and openid-client's 30 s tolerance, well within the attempt's ten minutes.
      offset = (ID_TOKEN_TTL_SECONDS + 90) * 1000;
      try {
        await assertRefused(await agent.send(callbackUrl.href), 401, /expiration is past current timestamp/);
      } finally {
        offset = 0;
      }
      assert.equal(await signedIn(agent), false);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('refuses an e-mail address the provider does not say is verified: 403, no session, no user', async () => {
      const email = account('uma', ['staff-reviewers'], false);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'uma');
      await assertRefused(await agent.send(callbackUrl.href), 403, /not say this e-mail address is verified/);
      assert.equal(await signedIn(agent), false);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('refuses someone whose groups map to nothing, and creates no user', async () => {
      const email = account('otto', ['marketing']);
      const agent = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(agent, server.baseUrl, agencyId, 'otto');
      await assertRefused(await agent.send(callbackUrl.href), 403, /give you no access/);
      assert.deepEqual(await stateOf(email), { user: null, grants: [] });
    });

    it('takes the grants of a user whose groups no longer map, ends their sessions, and refuses them', async () => {
      const email = account('morgan', ['staff-reviewers']);
      const first = new TestUserAgent();
      assert.equal((await first.send((await signOnAtProvider(first, server.baseUrl, agencyId, 'morgan')).callbackUrl.href)).status, 303);
      assert.ok(await signedIn(first));
      assert.equal((await stateOf(email)).grants.length, 1);
      idp.accounts.get('morgan')!.groups = ['former-staff'];
      const next = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(next, server.baseUrl, agencyId, 'morgan');
      await assertRefused(await next.send(callbackUrl.href), 403, /give you no access/);
      const after = await stateOf(email);
      assert.deepEqual(after.grants, [], 'the mapped grant is gone');
      assert.equal(after.user?.agencyAdmin, false);
      assert.equal(await signedIn(first), false, 'the earlier session ended');
      assert.equal(await signedIn(next), false);
    });

    it('unassigns the projects of a user whose groups no longer map, as the system, with the grants taken', async () => {
      const email = account('casey', ['staff-reviewers']);
      const first = new TestUserAgent();
      assert.equal((await first.send((await signOnAtProvider(first, server.baseUrl, agencyId, 'casey')).callbackUrl.href)).status, 303);
      const casey = (await server.store.accounts.findUserByEmail(email))!;
      const program = (await server.store.programs.findProgram(programId))!;
      const status = (await server.store.programs.loadProgramModel(program)).statuses[0]!;
      // A project of the program assigned to them while their grant held.
      const projectId = new RandomIdGenerator().next();
      const owner = (await server.store.accounts.findUserByEmail(DEMO.applicant.email))!.id;
      await server.store.transaction((tx) => tx.projects.insertProject({
        id: projectId, programId, number: null, statusId: status.id, statusAt: 1, createdAt: 1, createdBy: casey.id,
        updatedAt: 1, updatedBy: casey.id, ownerId: owner, assigneeId: casey.id, version: 1,
      }));
      idp.accounts.get('casey')!.groups = ['former-staff'];
      const next = new TestUserAgent();
      const { callbackUrl } = await signOnAtProvider(next, server.baseUrl, agencyId, 'casey');
      await assertRefused(await next.send(callbackUrl.href), 403, /give you no access/);
      const project = (await server.store.projects.getProject(programId, projectId))!;
      assert.equal(project.assigneeId, null, 'no longer theirs to read: unassigned with the grant');
      assert.equal(project.version, 2);
      const cleared = await server.store.audit.list({ projectId, action: 'project.assignee.set' });
      assert.deepEqual(cleared.map((r) => [r.detail, r.actorId]), [[{ from: casey.id, to: null, reason: 'grant' }, 'system']]);
      assert.deepEqual((await server.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'project.assignee_changed').map((e) => e.data.fromUserId), [casey.id]);
    });

    it('keeps a grant\'s access-group limit at every sign-in, also when the mapping changes the role', async () => {
      const email = account('riley', ['staff-reviewers']);
      const signOn = async () => {
        const agent = new TestUserAgent();
        assert.equal((await agent.send((await signOnAtProvider(agent, server.baseUrl, agencyId, 'riley')).callbackUrl.href)).status, 303);
      };
      await signOn();
      const user = (await server.store.accounts.findUserByEmail(email))!;
      // An administrator limits the mapped grant to North (as the console's grant form does).
      await server.store.transaction((tx) => tx.accounts.setGrant({ userId: user.id, programId, role: 'editor', sensitive: false, accessGroups: ['north'] }));
      const limit = async () => (await stateOf(email)).grants.map((g) => [g.role, g.accessGroups ?? null]);
      await signOn();
      assert.deepEqual(await limit(), [['editor', ['north']]], 'the same mapping keeps the limit');
      await save({ groupGrants: 'staff-reviewers = RES-SOLAR reader\napas-admins = admin' });
      try {
        await signOn();
        assert.deepEqual(await limit(), [['reader', ['north']]], 'the new role, still limited to North');
      } finally {
        await save();
      }
    });

    it('in the browser: the sign-in page offers the provider, which signs a staff member in (axe clean)', async () => {
      account('dana', ['staff-reviewers']);
      account('vera', ['staff-reviewers'], false);
      const context = await browser.newContext();
      // The provider's own login page imports a web font; this machine has no network, so it fails at once.
      await context.route(/^https:\/\/fonts\./, (route) => route.abort());
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/MvcProjects/SignIn`);
      await assertAccessible(page);
      await screenshot(page, 'sign-in-single-sign-on');
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await page.locator('input[name="login"]').fill('dana');
      await page.locator('input[name="password"]').fill('any');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.waitForURL(`${server.baseUrl}/MvcProjects/**`);
      await page.getByText('Signed in as Staff dana').waitFor();
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'You are signed out' }).waitFor();
      await context.close();
      // A refusal is a page of its own, with the way back. (A new browser: the provider still knows dana in this one.)
      const context2 = await browser.newContext();
      await context2.route(/^https:\/\/fonts\./, (route) => route.abort());
      const page2 = await context2.newPage();
      await page2.goto(`${server.baseUrl}/MvcProjects/SignIn`);
      await page2.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await page2.locator('input[name="login"]').fill('vera');
      await page2.locator('input[name="password"]').fill('any');
      await page2.getByRole('button', { name: 'Sign-in' }).click();
      await page2.getByRole('heading', { level: 1, name: 'Single sign-on did not sign you in' }).waitFor();
      await page2.getByRole('alert').getByText(/not say this e-mail address is verified/).waitFor();
      await assertAccessible(page2);
      assert.equal((await context2.cookies()).some((c) => c.name === 'apas_session'), false);
      await context2.close();
    });

    it('with local passwords off for staff, refuses a staff password on the web and the API, and lets applicants in', async () => {
      await save({ allowPasswords: false, clientSecret: '' });
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await signIn(page, server.baseUrl, DEMO.reviewer);
        await page.getByRole('alert').getByText(/signs its staff in with single sign-on: use "Sign in with Test IdP"/).waitFor();
        assert.equal((await context.cookies()).some((c) => c.name === 'apas_session'), false);
        await assertAccessible(page);
        await signIn(page, server.baseUrl, DEMO.applicant);
        await page.getByText(`Signed in as ${DEMO.applicant.name}`).waitFor();
        await context.close();
        const basic = (who: { email: string; password: string; apiKey: string }) => fetch(`${server.baseUrl}/services/v2/Programs/RES-SOLAR/Projects`, {
          headers: { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey },
        });
        const staff = await basic(DEMO.reviewer);
        assert.equal(staff.status, 403, await staff.text());
        const applicant = await basic(DEMO.applicant);
        assert.notEqual(applicant.status, 403);
        assert.notEqual(applicant.status, 401);
      } finally {
        await save({ clientSecret: '' });
      }
    });

    it('console: an agency admin sets the provider (secret never shown); others are refused and change nothing', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, server.baseUrl, DEMO.admin);
      await page.goto(`${server.baseUrl}${SSO_PATH}`);
      await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
      assert.equal(await page.getByLabel('Client secret').inputValue(), '', 'the stored secret is never shown');
      assert.equal((await page.content()).includes(idp.clientSecret), false);
      await assertAccessible(page);
      await screenshot(page, 'console-single-sign-on');
      await page.getByLabel('Provider name').fill('Agency Entra ID');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('The single sign-on settings were saved.').waitFor();
      const saved = await server.store.signOn.findSettings(agencyId);
      assert.equal(saved?.label, 'Agency Entra ID');
      assert.equal(saved?.clientSecret, idp.clientSecret, 'an empty secret field keeps the stored secret');
      // A mapping line naming no program is refused beside the form, and nothing is saved.
      await page.getByLabel('Groups and what they give').fill('someone = NO-SUCH-PROGRAM editor');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('alert').getByText(/has no program "NO-SUCH-PROGRAM"/).waitFor();
      assert.equal((await server.store.signOn.findSettings(agencyId))?.groupGrants.length, 2);
      await assertAccessible(page);
      await context.close();

      // A program's admin (the console is theirs, this area not) and a reviewer (no console at all) get 403 on the page
      // and on posts with a valid CSRF token; the settings stay as they were.
      const accounts = new AccountService({ store: server.store, clock, ids: new RandomIdGenerator() });
      const programAdmin = { email: 'program-admin@demo.apas.local', password: 'program-admin-password' };
      await accounts.createUser({ agency: agencyId, email: programAdmin.email, name: 'Pat Program-Admin', password: programAdmin.password });
      await accounts.grant(programAdmin.email, programId, 'admin');
      for (const who of [programAdmin, DEMO.reviewer]) {
        const other = await browser.newContext();
        const page2 = await other.newPage();
        await signIn(page2, server.baseUrl, who);
        const token = await page2.locator('input[name="_csrf"]').first().inputValue();
        if (who === programAdmin) {
          await page2.goto(`${server.baseUrl}/MvcProjects/Console`);
          assert.equal(await page2.getByRole('link', { name: 'Single sign-on' }).count(), 0, 'the area is not offered');
        }
        assert.equal((await page2.goto(`${server.baseUrl}${SSO_PATH}`))?.status(), 403, who.email);
        const before = await server.store.signOn.findSettings(agencyId);
        const post = await other.request.post(`${server.baseUrl}${SSO_PATH}`, { form: { _csrf: token, label: 'Hijacked', issuer: 'https://evil.example', clientId: 'x', groupGrants: '', enabled: 'on' } });
        assert.equal(post.status(), 403, who.email);
        const disable = await other.request.post(`${server.baseUrl}${SSO_PATH}/Disable`, { form: { _csrf: token } });
        assert.equal(disable.status(), 403, who.email);
        assert.deepEqual(await server.store.signOn.findSettings(agencyId), before);
        await other.close();
      }
      await save({ clientSecret: '' });
    });
  });
}
