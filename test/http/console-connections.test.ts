import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import type { ConnectionDefinition } from '../../src/model/connection.ts';
import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, user } from '../support/fixtures.ts';
import type { HttpHarness, Identity, Who } from '../support/http-harness.ts';
import { formToken, WebVisitor } from '../support/web-visitor.ts';
import { sharedHarness } from './http-helpers.ts';

// The console's Connections area over HTTP (src/web/console/connections-routes.ts): an agency admin and a program's
// admin set, list and clear where a program's connections (and its test copy's) go and how they sign in, with the
// CLI's rules and audit rows; a refused setting changes nothing and names the field; everyone else is refused and
// changes nothing; no page ever shows a secret. On both databases.

const AREA = '/MvcProjects/Console/Connections';
const OTHER = { id: 'USER0000OTHR', email: 'other.admin@example.org', password: 'other-agency-admin-password' };
const HOST = 'billing.example.com';
const URL_OK = `https://${HOST}/accounts/lookup`;
const SECRET = 'hdr-secret-Zq81xY';
const CLIENT_SECRET = 'oauth-secret-Kp55wR';

function connection(customId: string, name: string): ConnectionDefinition {
  return {
    customId, name, method: 'POST', request: null, set: [], timeoutMs: 1000, retries: 0,
    response: { type: 'object', properties: { name: { type: 'string' } }, required: [] },
  };
}

const TEST_COPY = 'PROGRAM00T01';

// The fixture program's test copy as TestProgramService would store it: rows of its own (every id renamed), marked
// test_of the live program, with the live program's staff grants (given in before()).
function testCopyOf(rows: ProgramDefinitionRows): ProgramDefinitionRows {
  let text = JSON.stringify(rows);
  for (const id of [IDS.program, IDS.draft, IDS.submitted, IDS.sizes, IDS.name, IDS.size, IDS.kw, IDS.form, IDS.photo]) {
    text = text.replaceAll(`"${id}"`, `"${id.slice(0, -3)}T${id.slice(-2)}"`);
  }
  const copy = JSON.parse(text) as ProgramDefinitionRows;
  return { ...copy, program: { ...copy.program, customId: 'solar-test', name: 'Solar Interconnection (test)', numberPrefix: 'SOLT-', testOf: IDS.program } };
}

async function visitor(h: HttpHarness, who: Who | Identity): Promise<WebVisitor> {
  const v = new WebVisitor(h);
  const id = typeof who === 'string' ? h.who[who] : who;
  const res = await v.signIn(id.email, id.password);
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  return v;
}

// Posts a form with a CSRF token of the visitor's session (from the start page, which everyone may open).
async function post(v: WebVisitor, path: string, form: Record<string, string>) {
  const token = formToken((await v.send('GET', '/MvcProjects/')).body);
  return v.send('POST', path, { _csrf: token, ...form });
}

forEachDialect('console connections', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  const testCopy = TEST_COPY;
  before(async () => {
    const h = harness();
    const rows = programRows(Date.now());
    rows.program = { ...rows.program, connections: [connection('lookup', 'Account lookup'), connection('gis', 'Hosting capacity')] };
    const hash = await hashSecret(OTHER.password);
    await h.store.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(rows);
      await tx.connections.allowHost(IDS.agency, HOST);
      await tx.accounts.insertAgency({ id: 'AGENCY000002', customId: 'other', name: 'Other Agency' }, 0);
      await tx.accounts.insertUser(user(OTHER.id, { agencyId: 'AGENCY000002', email: OTHER.email, agencyAdmin: true }), hash, 0);
    });
    await h.store.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(testCopyOf(rows));
      for (const who of ['programAdmin', 'editor', 'reader'] as const) await tx.accounts.setGrant({ userId: h.who[who].id, programId: TEST_COPY, role: who === 'programAdmin' ? 'admin' : who, sensitive: false });
    });
  });

  const settings = async (h: HttpHarness) => ({
    live: await h.store.connections.findSettings(IDS.program, 'lookup'),
    gis: await h.store.connections.findSettings(IDS.program, 'gis'),
    test: await h.store.connections.findSettings(testCopy, 'lookup'),
  });
  const auditRows = async (h: HttpHarness) => (await h.store.audit.list({ limit: 500 })).filter((r) => r.action.startsWith('connection.'));
  const noSecret = (html: string, what: string) => {
    for (const s of [SECRET, CLIENT_SECRET, 'NEW-SECRET-never-kept']) assert.ok(!html.includes(s), `${what} shows a secret`);
  };
  const header = { SignIn: 'header', HeaderName: 'X-Api-Key', HeaderSecret: SECRET };

  it('sets, lists and clears a program\'s and its test copy\'s connections, with the CLI\'s audit rows', async () => {
    const h = harness();
    const admin = await visitor(h, 'admin');
    const empty = await admin.send('GET', AREA);
    assert.equal(empty.statusCode, 200, empty.body.slice(0, 300));
    assert.match(empty.body, /<caption>Connections of Solar Interconnection<\/caption>/);
    assert.match(empty.body, /<caption>Connections of [^<]*\(test copy\)<\/caption>/);
    assert.match(empty.body, /Not set: its calls wait/);
    assert.match(empty.body, new RegExp(`Hosts the agency's connections may reach: ${HOST.replace(/\./g, '\\.')}`));

    const set = await post(admin, `${AREA}/Set`, { ProgramId: IDS.program, ConnectionId: 'lookup', Url: URL_OK, ...header });
    assert.equal(set.statusCode, 303, set.body.slice(0, 500));
    assert.equal(set.headers.location, `${AREA}?notice=set`);
    const stored = await settings(h);
    assert.equal(stored.live?.url, URL_OK);
    assert.deepEqual(stored.live?.auth, { kind: 'header', name: 'X-Api-Key', value: SECRET });
    assert.equal(stored.gis, null);
    assert.equal(stored.test, null, 'the test copy keeps its own settings');

    const oauth = await post(admin, `${AREA}/Set`, {
      ProgramId: testCopy, ConnectionId: 'lookup', Url: `https://${HOST}/test/lookup`, SignIn: 'oauth',
      TokenUrl: `https://${HOST}/token`, ClientId: 'apas-test', ClientSecret: CLIENT_SECRET, Scope: 'accounts',
    });
    assert.equal(oauth.statusCode, 303, oauth.body.slice(0, 500));
    assert.deepEqual((await settings(h)).test?.auth, { kind: 'oauth', tokenUrl: `https://${HOST}/token`, clientId: 'apas-test', clientSecret: CLIENT_SECRET, scope: 'accounts' });
    assert.equal((await settings(h)).live?.url, URL_OK, 'the live program keeps its own');

    const listed = await admin.send('GET', `${AREA}?notice=set`);
    assert.match(listed.body, /The connection was saved/);
    assert.match(listed.body, new RegExp(`${URL_OK.replace(/[./]/g, '\\$&')}<br/?>Secret header X-Api-Key, set on <time`));
    assert.match(listed.body, /OAuth client credentials \(client apas-test\), set on <time/);
    noSecret(listed.body, 'the list');
    const edit = await admin.send('GET', `${AREA}/Edit?ProgramId=${testCopy}&ConnectionId=lookup`);
    assert.equal(edit.statusCode, 200);
    assert.equal(edit.body.match(/type="password" maxlength="2000" autocomplete="off" value(="")?\/>/g)?.length, 2, 'both secret fields are empty password fields');
    for (const kept of [`name="TokenUrl" type="text" inputmode="url" spellcheck="false" maxlength="2000" autocomplete="off" value="https://${HOST}/token"`, 'name="ClientId" type="text" spellcheck="false" maxlength="2000" autocomplete="off" value="apas-test"', 'value="accounts"']) {
      assert.ok(edit.body.includes(kept), `the form shows what is no secret: ${kept}`);
    }
    noSecret(edit.body, 'the connection\'s page');

    const setRows = (await auditRows(h)).filter((r) => r.action === 'connection.settings.set');
    assert.deepEqual(setRows.map((r) => [r.actorId, r.programId, r.detail]).sort(), [
      [h.who.admin.id, IDS.program, { connection: 'lookup', url: URL_OK, auth: 'header' }],
      [h.who.admin.id, testCopy, { connection: 'lookup', url: `https://${HOST}/test/lookup`, auth: 'oauth' }],
    ].sort());
    noSecret(JSON.stringify(await auditRows(h)), 'the audit trail');

    // A program's admin (not an agency admin) administers the program and its copy: they clear the live one.
    const programAdmin = await visitor(h, 'programAdmin');
    const cleared = await post(programAdmin, `${AREA}/Clear`, { ProgramId: IDS.program, ConnectionId: 'lookup' });
    assert.equal(cleared.statusCode, 303, cleared.body.slice(0, 300));
    assert.equal((await settings(h)).live, null);
    assert.ok((await settings(h)).test, 'clearing the live program leaves the test copy\'s');
    const removed = (await auditRows(h)).filter((r) => r.action === 'connection.settings.remove');
    assert.deepEqual(removed.map((r) => [r.actorId, r.programId, r.detail]), [[h.who.programAdmin.id, IDS.program, { connection: 'lookup' }]]);
    const again = await post(programAdmin, `${AREA}/Clear`, { ProgramId: IDS.program, ConnectionId: 'lookup' });
    assert.equal(again.statusCode, 404, 'nothing left to clear');
    const unknown = await post(admin, `${AREA}/Set`, { ProgramId: IDS.program, ConnectionId: 'nope', Url: URL_OK, SignIn: 'none' });
    assert.equal(unknown.statusCode, 404);
  });

  it('refuses a bad setting on the page, naming the field, echoing no secret and changing nothing', async () => {
    const h = harness();
    const admin = await visitor(h, 'admin');
    const ok = await post(admin, `${AREA}/Set`, { ProgramId: IDS.program, ConnectionId: 'gis', Url: `https://${HOST}/gis`, ...header });
    assert.equal(ok.statusCode, 303, ok.body.slice(0, 300));
    const before = await settings(h);
    const auditBefore = (await auditRows(h)).length;
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ Url: `http://${HOST}/gis`, ...header }, 'Address (URL)', /must use https/],
      [{ Url: 'https://elsewhere.example.org/gis', ...header }, 'Address (URL)', /elsewhere\.example\.org is not on the agency&#39;s allowlist|elsewhere\.example\.org is not on the agency's allowlist/],
      [{ Url: 'not a url', ...header }, 'Address (URL)', /not an absolute URL/],
      [{ Url: '', ...header }, 'Address (URL)', /The address is required/],
      [{ Url: `https://${HOST}/gis`, SignIn: 'header', HeaderName: 'X Api Key', HeaderSecret: 'NEW-SECRET-never-kept' }, 'Header name', /is not a header name/],
      [{ Url: `https://${HOST}/gis`, SignIn: 'header', HeaderName: 'X-Api-Key', HeaderSecret: '' }, 'Header secret', /header secret is required/],
      [{ Url: `https://${HOST}/gis`, SignIn: 'oauth', TokenUrl: 'https://evil.example.net/token', ClientId: 'c', ClientSecret: 'NEW-SECRET-never-kept' }, 'Token URL', /evil\.example\.net is not on/],
      [{ Url: `https://${HOST}/gis`, SignIn: 'oauth', TokenUrl: `https://${HOST}/token`, ClientId: 'c', ClientSecret: '' }, 'Client secret', /client secret is required/],
      [{ Url: `https://${HOST}/gis`, SignIn: 'telepathy' }, 'Sign-in', /Choose how the connection signs in/],
    ];
    for (const [form, label, why] of cases) {
      const res = await post(admin, `${AREA}/Set`, { ProgramId: IDS.program, ConnectionId: 'gis', ...form });
      assert.equal(res.statusCode, 400, `${label}: ${res.body.slice(0, 300)}`);
      const alert = /<div class="usa-alert usa-alert--error[^>]*>.*?<\/div><\/div>/s.exec(res.body)?.[0] ?? '';
      assert.ok(alert.includes(`The connection was not saved. ${label}: `), `${label}: ${alert}`);
      assert.match(alert, why);
      noSecret(res.body, `the refusal of ${label}`);
      if (form.Url) assert.ok(res.body.includes(`value="${form.Url}"`), 'the address entered is kept');
      assert.deepEqual(await settings(h), before, `${label}: nothing changed`);
    }
    assert.equal((await auditRows(h)).length, auditBefore, 'no audit row for a refusal');
  });

  it('refuses everyone but the program\'s admins, changing nothing', async () => {
    const h = harness();
    const admin = await visitor(h, 'admin');
    assert.equal((await post(admin, `${AREA}/Set`, { ProgramId: IDS.program, ConnectionId: 'lookup', Url: URL_OK, ...header })).statusCode, 303);
    const before = await settings(h);
    const auditBefore = (await auditRows(h)).length;
    const others: (Who | Identity)[] = ['editor', 'reader', 'applicant', 'outsider', OTHER as Identity];
    for (const who of others) {
      const name = typeof who === 'string' ? who : 'another agency\'s admin';
      const v = await visitor(h, who);
      const list = await v.send('GET', AREA);
      if (typeof who === 'string') assert.equal(list.statusCode, 403, name);
      else assert.ok(list.statusCode === 200 && !list.body.includes('Solar Interconnection') && !list.body.includes(URL_OK), `${name} sees nothing of this agency`);
      assert.equal((await v.send('GET', `${AREA}/Edit?ProgramId=${IDS.program}&ConnectionId=lookup`)).statusCode, 403, name);
      for (const [action, form] of [['Set', { Url: 'https://billing.example.com/elsewhere', SignIn: 'none' }], ['Clear', {}]] as const) {
        for (const program of [IDS.program, testCopy]) {
          const res = await post(v, `${AREA}/${action}`, { ProgramId: program, ConnectionId: 'lookup', ...form });
          assert.equal(res.statusCode, 403, `${name} ${action}: ${res.body.slice(0, 200)}`);
        }
      }
      assert.deepEqual(await settings(h), before, `${name}: nothing changed`);
    }
    assert.equal((await auditRows(h)).length, auditBefore);
  });
});
