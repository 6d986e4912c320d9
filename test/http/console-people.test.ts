import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { hashTokenSecret, totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { OAuthClientService } from '../../src/domain/accounts/oauth-client-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0 } from '../support/fixtures.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { formToken, WebVisitor } from '../support/web-visitor.ts';
import { sharedHarness } from './http-helpers.ts';

// The console's People, Organizations and Credentials areas over HTTP: every POST refused to an applicant, a reviewer,
// a program admin of another program and an agency admin of another agency (and the agency-only ones to a program
// admin), with the state read back to show nothing changed; then the same POSTs as the agency admin, changing it.

const CONSOLE = '/MvcProjects/Console';
const WIND = 'PROGRAM00002';
const ORG = 'ORGANIZATNA1';
const ids = new RandomIdGenerator();

/** The extra people of the matrix, each with a password to sign in on the pages. */
const EXTRA = {
  windAdmin: { email: 'wind-admin@example.org', password: 'wind admin passphrase' },
  otherAgencyAdmin: { email: 'elsewhere-admin@example.org', password: 'elsewhere admin passphrase' },
} as const;

type Caller = 'applicant' | 'reader' | 'programAdmin' | 'windAdmin' | 'otherAgencyAdmin';

/** The world the POSTs act on: the target user (otherApplicant), its key and client, and organization A's invitation. */
interface World { target: string; targetEmail: string; keyId: string; clientId: string; invitationId: string }

async function seed(h: HttpHarness): Promise<World> {
  const accounts = new AccountService({ store: h.store, clock: h.clock, ids });
  await h.store.transaction(async (tx) => {
    await tx.programs.saveProgramDefinition({
      program: { id: WIND, agencyId: IDS.agency, customId: 'wind', name: 'Wind Rebates', numberPrefix: 'W-', numberDigits: 5, updatedAt: T0, createdAt: T0 + 1 },
      lists: [], fields: [], forms: [],
      statuses: [{ id: 'STATUS000009', customId: 'open', publicId: 'OPEN-W', name: 'Open', isInitial: true, position: 0, next: [] }],
    });
    await tx.accounts.insertAgency({ id: 'AGENCY000002', customId: 'elsewhere', name: 'Elsewhere Utility' }, T0);
  });
  await accounts.createUser({ agency: 'acme', name: 'Wendy Wind', ...EXTRA.windAdmin });
  await accounts.grant(EXTRA.windAdmin.email, WIND, 'admin');
  await accounts.createUser({ agency: 'elsewhere', name: 'Elsa Where', agencyAdmin: true, ...EXTRA.otherAgencyAdmin });
  const target = h.who.otherApplicant;
  await new MfaService({ store: h.store, clock: h.clock, ids }).enrol(target.email);
  const client = await new OAuthClientService({ store: h.store, clock: h.clock, ids }).createClient(target.email, 'integration');
  const invitationId = ids.next();
  await h.store.transaction(async (tx) => {
    await tx.organizations.insertOrganization({ id: ORG, agencyId: IDS.agency, name: 'Sunny Installers', defaults: {}, createdAt: T0, createdBy: h.who.applicant.id });
    await tx.organizations.addMember(ORG, h.who.applicant.id, 'admin', T0);
    await tx.organizations.addMember(ORG, target.id, 'member', T0);
    await tx.organizations.insertInvitation({
      id: invitationId, organizationId: ORG, email: 'new-installer@example.org', tokenHash: 'x'.repeat(64), invitedBy: h.who.applicant.id, createdAt: T0, expiresAt: T0 + 30 * 86_400_000, usedAt: null,
    });
  });
  return { target: target.id, targetEmail: target.email, keyId: `KEY${target.id.slice(-9)}`, clientId: client.id, invitationId };
}

/** A signed-in browser of one of the matrix's callers, and a CSRF token of its session (from the home page's form). */
async function visitor(h: HttpHarness, who: Caller | 'admin'): Promise<{ v: WebVisitor; token: string }> {
  const v = new WebVisitor(h);
  const creds = who === 'windAdmin' || who === 'otherAgencyAdmin' ? EXTRA[who] : h.who[who];
  const res = await v.signIn(creds.email, creds.password);
  assert.equal(res.statusCode, 303, `${who}: ${res.body.slice(0, 300)}`);
  return { v, token: formToken((await v.send('GET', '/MvcProjects/')).body) };
}

/** What the state is now, for comparing before and after a refused POST. */
async function snapshot(h: HttpHarness, w: World) {
  const user = await h.store.accounts.findUserById(w.target);
  const grants = await h.store.accounts.listGrants(w.target);
  const keys = await h.store.accounts.listApiKeys(w.target);
  const clients = await h.store.oauth.listClients(w.target);
  const members = await h.store.organizations.listMembers(ORG);
  const invitations = await h.store.organizations.listPendingInvitations(ORG, h.clock.now());
  return {
    disabled: user?.disabled, invited: (await h.store.accounts.findUserByEmail('invited@example.org')) !== null,
    mfa: (await h.store.mfa.getMfa(w.target)) !== null,
    grants: grants.map((g) => `${g.programId}:${g.role}:${g.sensitive}`).sort(),
    keys: keys.map((k) => `${k.id}:${k.revokedAt === null}`), clients: clients.map((c) => `${c.id}:${c.revokedAt === null}`),
    members: members.map((m) => m.email), invitations: invitations.map((i) => i.id),
  };
}

/** Every POST of the three areas: its address, its form, and whether a program admin of the program may make it. */
function posts(w: World): { name: string; url: string; form: Record<string, string>; programAdmin: boolean }[] {
  const person = `${CONSOLE}/People/${w.target}`;
  const creds = `${CONSOLE}/Credentials/${w.target}`;
  return [
    { name: 'invite', url: `${CONSOLE}/People/Invite`, form: { Name: 'Ivy Invited', Email: 'invited@example.org' }, programAdmin: false },
    { name: 'disable', url: `${person}/Disable`, form: {}, programAdmin: false },
    { name: 'reset MFA', url: `${person}/ResetMfa`, form: {}, programAdmin: false },
    { name: 'invite again', url: `${person}/Reinvite`, form: {}, programAdmin: false },
    { name: 'grant', url: `${person}/Grants`, form: { Program: IDS.program, Role: 'reader', Sensitive: 'true' }, programAdmin: true },
    { name: 'remove grant', url: `${person}/Grants/Remove`, form: { Program: IDS.program }, programAdmin: true },
    { name: 'remove member', url: `${CONSOLE}/Organizations/${ORG}/Remove`, form: { Email: w.targetEmail }, programAdmin: false },
    { name: 'revoke invitation', url: `${CONSOLE}/Organizations/${ORG}/Invitations/Revoke`, form: { InvitationId: w.invitationId }, programAdmin: false },
    { name: 'create key', url: `${creds}/Keys`, form: { Name: 'sneaky' }, programAdmin: false },
    { name: 'revoke key', url: `${creds}/Keys/Revoke`, form: { KeyId: w.keyId }, programAdmin: false },
    { name: 'create client', url: `${creds}/Clients`, form: { Name: 'sneaky' }, programAdmin: false },
    { name: 'revoke client', url: `${creds}/Clients/Revoke`, form: { ClientId: w.clientId }, programAdmin: false },
  ];
}

forEachDialect('console: people, organizations and credentials', ({ dialect }) => {
  describe('access', () => {
    const harness = sharedHarness(dialect);
    let world: World;
    before(async () => {
      world = await seed(harness());
    });

    for (const who of ['applicant', 'reader', 'programAdmin', 'windAdmin', 'otherAgencyAdmin'] as const) {
      it(`refuses ${who} every POST it may not make, and nothing changes`, async () => {
        const h = harness();
        const { v, token } = await visitor(h, who);
        for (const post of posts(world)) {
          if (who === 'programAdmin' && post.programAdmin) continue;
          // Another agency's admin may invite, into their own agency: no refusal to show there.
          if (who === 'otherAgencyAdmin' && post.name === 'invite') continue;
          const before = await snapshot(h, world);
          const res = await v.send('POST', post.url, { _csrf: token, ...post.form });
          assert.ok(res.statusCode === 403 || res.statusCode === 404, `${who} ${post.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          assert.deepEqual(await snapshot(h, world), before, `${who} ${post.name} changed nothing`);
        }
      });
    }

    it('shows the console pages only to whom they belong', async () => {
      const h = harness();
      const pages = [`${CONSOLE}/People`, `${CONSOLE}/People/${world.target}`, `${CONSOLE}/Organizations`, `${CONSOLE}/Organizations/${ORG}`, `${CONSOLE}/Credentials/${world.target}`];
      for (const who of ['applicant', 'reader'] as const) {
        const { v } = await visitor(h, who);
        for (const page of pages) assert.equal((await v.send('GET', page)).statusCode, 403, `${who} ${page}`);
      }
      const other = (await visitor(h, 'otherAgencyAdmin')).v;
      assert.equal((await other.send('GET', `${CONSOLE}/People/${world.target}`)).statusCode, 404);
      assert.equal((await other.send('GET', `${CONSOLE}/Organizations/${ORG}`)).statusCode, 404);
      assert.equal((await other.send('GET', `${CONSOLE}/Credentials/${world.target}`)).statusCode, 404);
      assert.doesNotMatch((await other.send('GET', `${CONSOLE}/People`)).body, new RegExp(world.targetEmail));
      const programAdmin = (await visitor(h, 'programAdmin')).v;
      const person = await programAdmin.send('GET', `${CONSOLE}/People/${world.target}`);
      assert.equal(person.statusCode, 200);
      assert.doesNotMatch(person.body, /Disable this user|Reset multi-factor/, 'no account actions for a program admin');
      assert.match(person.body, /Solar Interconnection/);
      assert.doesNotMatch(person.body, /Wind Rebates/, 'only the programs the caller administers');
      assert.equal((await programAdmin.send('GET', `${CONSOLE}/Credentials`)).statusCode, 403);
    });

    it('lists and searches people with MFA and last sign-in, organizations with member counts, and credentials with last use', async () => {
      const h = harness();
      const { v } = await visitor(h, 'admin');
      const admin = await h.store.accounts.listPeople(IDS.agency, h.who.admin.email, 10);
      assert.equal(admin[0]?.lastSignInAt, h.clock.now(), 'the sign-in was recorded');
      const people = await v.send('GET', `${CONSOLE}/People`);
      assert.equal(people.statusCode, 200);
      assert.match(people.body, new RegExp(`${world.targetEmail}</td><td><span class="usa-tag">Active</span> </td><td>Enrolled</td><td>Never</td>`));
      const found = await v.send('GET', `${CONSOLE}/People?q=${encodeURIComponent('USER00000006@EXAMPLE')}`);
      assert.match(found.body, new RegExp(world.targetEmail), 'case-insensitive, a part of the address');
      assert.doesNotMatch(found.body, new RegExp(h.who.applicant.email));
      const wildcard = await v.send('GET', `${CONSOLE}/People?q=${encodeURIComponent('%')}`);
      assert.match(wildcard.body, /Nobody matches/, 'LIKE wildcards are taken literally');

      const organizations = await v.send('GET', `${CONSOLE}/Organizations`);
      assert.match(organizations.body, /<a href="\/MvcProjects\/Console\/Organizations\/ORGANIZATNA1">Sunny Installers<\/a><\/th><td>2<\/td>/);
      const organization = await v.send('GET', `${CONSOLE}/Organizations/${ORG}`);
      assert.match(organization.body, /new-installer@example\.org/);

      // A key authenticates a request: its last use is recorded, and the Credentials page shows it.
      const applicantKey = `KEY${h.who.applicant.id.slice(-9)}`;
      const api = await h.request({ method: 'GET', url: '/services/v2/Programs?Agency=acme', as: 'applicant' });
      assert.equal(api.statusCode, 200, api.body);
      assert.equal((await h.store.accounts.findApiKey(applicantKey))?.lastUsedAt, h.clock.now());
      const credentials = await v.send('GET', `${CONSOLE}/Credentials/${h.who.applicant.id}`);
      const row = credentials.body.slice(credentials.body.indexOf(`<td>${applicantKey}</td>`)).split('</tr>')[0]!;
      assert.match(row, /<td>[A-Z][a-z]{2} \d{1,2}, \d{4}, /, 'created');
      assert.doesNotMatch(row, /Never/, 'the key\'s last use is shown');
      assert.match((await v.send('GET', `${CONSOLE}/Credentials/${world.target}`)).body, /integration<\/th><td>[^<]+<\/td><td>[^<]+<\/td><td>Never<\/td>/, 'a client never used');
    });

    it('lets a program admin change the grants of their program, audited with them as actor', async () => {
      const h = harness();
      const { v, token } = await visitor(h, 'programAdmin');
      const res = await v.send('POST', `${CONSOLE}/People/${world.target}/Grants`, { _csrf: token, Program: IDS.program, Role: 'reader', Sensitive: 'true' });
      assert.equal(res.statusCode, 303, res.body.slice(0, 300));
      assert.deepEqual(await h.store.accounts.findGrant(world.target, IDS.program), { userId: world.target, programId: IDS.program, role: 'reader', sensitive: true });
      const wind = await v.send('POST', `${CONSOLE}/People/${world.target}/Grants`, { _csrf: token, Program: WIND, Role: 'reader' });
      assert.equal(wind.statusCode, 403, 'not a program they administer');
      assert.equal(await h.store.accounts.findGrant(world.target, WIND), null);
      // The test clock stands still, so the seed's grants share the time: the row is found by its user.
      const audited = (await h.store.audit.list({ action: 'grant.set' })).find((a) => a.detail?.userId === world.target);
      assert.equal(audited?.actorId, h.who.programAdmin.id);
      assert.deepEqual(audited?.detail, { userId: world.target, email: world.targetEmail, role: 'reader', sensitive: true });
      const back = await v.send('POST', `${CONSOLE}/People/${world.target}/Grants`, { _csrf: token, Program: IDS.program, Role: 'applicant' });
      assert.equal(back.statusCode, 303);
    });

    it('lets the agency admin make every change, each read back', async () => {
      const h = harness();
      const { v, token } = await visitor(h, 'admin');
      const post = (url: string, form: Record<string, string> = {}) => v.send('POST', url, { _csrf: token, ...form });
      const person = `${CONSOLE}/People/${world.target}`;
      const creds = `${CONSOLE}/Credentials/${world.target}`;

      const key = await post(`${creds}/Keys`, { Name: 'billing sync' });
      assert.equal(key.statusCode, 200);
      const shown = /value="(apas_[^"]+)"/.exec(key.body)?.[1];
      assert.ok(shown, 'the new key is on the answer page');
      assert.equal(key.headers['cache-control'], 'no-store');
      const listed = await v.send('GET', creds);
      assert.match(listed.body, /billing sync/);
      assert.ok(!listed.body.includes(shown), 'the key is never shown again');
      const client = await post(`${creds}/Clients`, { Name: 'erp' });
      assert.equal(client.statusCode, 200);
      assert.match(client.body, /Client secret/);

      assert.equal((await post(`${creds}/Keys/Revoke`, { KeyId: world.keyId })).statusCode, 303);
      assert.notEqual((await h.store.accounts.findApiKey(world.keyId))?.revokedAt, null);
      assert.equal((await post(`${creds}/Clients/Revoke`, { ClientId: world.clientId })).statusCode, 303);
      assert.notEqual((await h.store.oauth.findClient(world.clientId))?.revokedAt, null);

      assert.equal((await post(`${person}/ResetMfa`)).statusCode, 303);
      assert.equal(await h.store.mfa.getMfa(world.target), null);
      assert.equal((await post(`${person}/Grants/Remove`, { Program: IDS.program })).statusCode, 303);
      assert.equal(await h.store.accounts.findGrant(world.target, IDS.program), null);
      assert.equal((await post(`${CONSOLE}/Organizations/${ORG}/Invitations/Revoke`, { InvitationId: world.invitationId })).statusCode, 303);
      assert.deepEqual(await h.store.organizations.listPendingInvitations(ORG, h.clock.now()), []);
      assert.equal((await post(`${CONSOLE}/Organizations/${ORG}/Remove`, { Email: world.targetEmail })).statusCode, 303);
      assert.deepEqual((await h.store.organizations.listMembers(ORG)).map((m) => m.email), [h.who.applicant.email]);
      const last = await post(`${CONSOLE}/Organizations/${ORG}/Remove`, { Email: h.who.applicant.email });
      assert.equal(last.statusCode, 400, 'an organization keeps its last admin');

      const taken = await post(`${CONSOLE}/People/Invite`, { Name: 'Again', Email: world.targetEmail.toUpperCase() });
      assert.equal(taken.statusCode, 409);
      assert.match(taken.body, /<h2 class="usa-alert__heading" id="error-summary-title">Nobody was invited<\/h2>/);
      assert.match(taken.body, /<a href="#invite-email">A user with the e-mail [^<]+ already exists/);
      assert.match(taken.body, /id="invite-name" name="Name"[^>]*value="Again"/, 'what was typed is kept');
      const bad = await post(`${CONSOLE}/People/Invite`, { Name: 'Ivy', Email: 'not an address' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /<a href="#invite-email">&quot;not an address&quot; is not an e-mail address/);
      const invite = await post(`${CONSOLE}/People/Invite`, { Name: 'Ivy Invited', Email: 'invited@example.org' });
      assert.equal(invite.statusCode, 200, 'mail is off: the link is shown');
      assert.match(invite.body, /\/MvcProjects\/Welcome\?token=/);
      const invited = await h.store.accounts.findUserByEmail('invited@example.org');
      assert.equal(invited?.disabled, false);
      const link = /value="http:\/\/apas\.test(\/MvcProjects\/Welcome\?token=[A-Za-z0-9_-]+)"/.exec(invite.body)?.[1];
      assert.ok(link, 'the link to pass on');
      const ivy = new WebVisitor(h);
      const welcome = await ivy.send('GET', link);
      assert.equal(welcome.statusCode, 200);
      assert.match(welcome.body, /invited@example\.org/);
      const linkToken = new URL(link, 'http://x').searchParams.get('token')!;
      const short = await ivy.send('POST', '/MvcProjects/Welcome', { _csrf: formToken(welcome.body), token: linkToken, password: 'short' });
      assert.equal(short.statusCode, 400);
      assert.match(short.body, /at least 12 characters/);
      const set = await ivy.send('POST', '/MvcProjects/Welcome', { _csrf: formToken(welcome.body), token: linkToken, password: 'ivy chooses a passphrase' });
      assert.equal(set.statusCode, 303);
      assert.equal(set.headers.location, '/MvcProjects/SignIn?next=%2FMvcProjects%2FAccount%2FMfa');
      assert.equal((await ivy.send('GET', link)).statusCode, 400, 'the link works once');
      assert.equal((await ivy.signIn('invited@example.org', 'ivy chooses a passphrase', '/MvcProjects/Account/Mfa')).statusCode, 303);
      const enrol = await ivy.send('GET', '/MvcProjects/Account/Mfa');
      assert.equal(enrol.statusCode, 200);
      assert.match(enrol.body, /<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" width="200" height="200" alt="QR code of your multi-factor authentication secret"/);
      const secret = /<code id="mfa-secret">([A-Z2-7]{32})<\/code>/.exec(enrol.body)?.[1];
      assert.ok(secret);
      const wrong = await ivy.send('POST', '/MvcProjects/Account/Mfa', { _csrf: formToken(enrol.body), secret, code: '12345' });
      assert.equal(wrong.statusCode, 400);
      assert.equal(await h.store.mfa.getMfa(invited!.id), null, 'a wrong code enrols nobody');
      const forged = await ivy.send('POST', '/MvcProjects/Account/Mfa', { _csrf: formToken(enrol.body), secret: 'AAAA', code: '123456' });
      assert.equal(forged.statusCode, 400);
      const on = await ivy.send('POST', '/MvcProjects/Account/Mfa', { _csrf: formToken(enrol.body), secret, code: totpCode(secret, h.clock.now()) });
      assert.equal(on.statusCode, 200, on.body.slice(0, 300));
      assert.equal((await h.store.mfa.getMfa(invited!.id))?.secret, secret);
      assert.notEqual((await ivy.send('GET', '/MvcProjects/')).statusCode, 200, 'enrolling ended the session');

      // A second invitation's link is used up when its user is disabled.
      const second = await post(`${CONSOLE}/People/Invite`, { Name: 'Otto', Email: 'otto@example.org' });
      const ottoLink = /value="http:\/\/apas\.test(\/MvcProjects\/Welcome\?token=[A-Za-z0-9_-]+)"/.exec(second.body)?.[1];
      const otto = (await h.store.accounts.findUserByEmail('otto@example.org'))!;
      assert.equal((await post(`${CONSOLE}/People/${otto.id}/Disable`)).statusCode, 303);
      assert.equal((await post(`${CONSOLE}/People/${otto.id}/Enable`)).statusCode, 303);
      assert.equal((await new WebVisitor(h).send('GET', ottoLink!)).statusCode, 400);
      // Otto never chose a password: his page offers the invitation again, whose new link replaces the old ones.
      const ottoPage = await v.send('GET', `${CONSOLE}/People/${otto.id}`);
      assert.match(ottoPage.body, /otto@example\.org has not chosen a password yet/);
      const again = await post(`${CONSOLE}/People/${otto.id}/Reinvite`);
      assert.equal(again.statusCode, 200, 'mail is off: the new link is shown');
      const newLink = /value="http:\/\/apas\.test(\/MvcProjects\/Welcome\?token=[A-Za-z0-9_-]+)"/.exec(again.body)?.[1];
      assert.ok(newLink && newLink !== ottoLink);
      assert.equal((await new WebVisitor(h).send('GET', newLink)).statusCode, 200);
      const third = await post(`${CONSOLE}/People/${otto.id}/Reinvite`);
      const thirdLink = /value="http:\/\/apas\.test(\/MvcProjects\/Welcome\?token=[A-Za-z0-9_-]+)"/.exec(third.body)?.[1];
      assert.equal((await new WebVisitor(h).send('GET', newLink)).statusCode, 400, 'a new invitation retires the earlier link');
      assert.equal((await new WebVisitor(h).send('GET', thirdLink!)).statusCode, 200);
      assert.equal((await h.store.audit.list({ action: 'user.invite.resend' })).length, 2, 'audited');
      // Ivy has chosen hers: nothing to send again.
      assert.doesNotMatch((await v.send('GET', `${CONSOLE}/People/${invited!.id}`)).body, /Send the invitation again/);
      const chosen = await post(`${CONSOLE}/People/${invited!.id}/Reinvite`);
      assert.equal(chosen.statusCode, 409, 'a page that offered it before she chose: reloading it shows why');

      assert.equal((await post(`${person}/Disable`)).statusCode, 303);
      assert.equal((await h.store.accounts.findUserById(world.target))?.disabled, true);
      assert.equal((await post(`${person}/Enable`)).statusCode, 303);
      assert.equal((await h.store.accounts.findUserById(world.target))?.disabled, false);
      assert.equal((await post(`${CONSOLE}/People/${h.who.admin.id}/Disable`)).statusCode, 400, 'never oneself');
    });

    it('ends the web sessions and MFA session tokens of a user it disables, read back from the store', async () => {
      const h = harness();
      const editor = await visitor(h, 'programAdmin');
      const userId = h.who.programAdmin.id;
      const now = h.clock.now();
      const mst = { id: ids.next(), secret: `${ids.next()}${ids.next()}` };
      await h.store.transaction((tx) => tx.mfa.replaceSessionToken({ id: mst.id, userId, tokenHash: hashTokenSecret(mst.secret), createdAt: now, expiresAt: now + 3_600_000 }));
      const cookie = decodeURIComponent(editor.v.cookies.get('apas_session') ?? '');
      const sessionId = /^mst_([^_]+)_/.exec(cookie)?.[1] ?? /^([^_.]+)/.exec(cookie)?.[1];
      assert.equal((await editor.v.send('GET', '/MvcProjects/')).statusCode, 200);
      assert.ok(sessionId && (await h.store.sessions.getBrowserSession(sessionId)), 'the web session is stored');
      const { v, token } = await visitor(h, 'admin');
      assert.equal((await v.send('POST', `${CONSOLE}/People/${userId}/Disable`, { _csrf: token })).statusCode, 303);
      assert.equal(await h.store.mfa.getSessionToken(mst.id), null, 'the MFA session token is gone');
      assert.ok(sessionId, `a session cookie: ${cookie}`);
      assert.equal(await h.store.sessions.getBrowserSession(sessionId), null, 'the web session is gone');
      assert.notEqual((await editor.v.send('GET', '/MvcProjects/')).statusCode, 200, 'the browser is signed out');
      assert.equal((await v.send('POST', `${CONSOLE}/People/${userId}/Enable`, { _csrf: token })).statusCode, 303);
      assert.notEqual((await editor.v.send('GET', '/MvcProjects/')).statusCode, 200, 'enabling brings no session back');
    });
  });
});
