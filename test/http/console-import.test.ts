import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { IMPORT_PATH } from '../../src/web/console/import-pages.tsx';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { sharedHarness } from './http-helpers.ts';
import { csrfFrom, webGet } from './web-page-helpers.ts';

// The console's Import projects area over HTTP: the form's post (multipart, the CSRF token first) as each kind of
// user, reading the program's projects back after every refusal; a dry run keeps nothing, an import creates, a second
// import finds the rows unchanged; a file refused as a whole is shown on the page with why.

const FILE = 'ExternalId,name,kw\nW-1,Ann,4\nW-2,Bob,9999\n';

/** Posts the import form as the browser does; fields in the form's order, then the button pressed. */
async function post(h: HttpHarness, who: Identity, fields: { program: string; mapping?: string; file: string | Buffer; mode: string }): Promise<LightMyRequestResponse> {
  const pair = await csrfFrom(h, who);
  const boundary = 'xXimportXx';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = field('_csrf', pair.token) + field('program', fields.program) + field('mapping', fields.mapping ?? '')
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="apps.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), Buffer.from(fields.file), Buffer.from(`\r\n${field('mode', fields.mode)}--${boundary}--\r\n`)]);
  return h.app.inject({
    method: 'POST', url: IMPORT_PATH, payload,
    headers: { authorization: authHeaders(who).authorization!, 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: pair.cookie },
  });
}

forEachDialect('Console: import projects', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let otherAgencyAdmin: Identity;
  const projects = async (h: HttpHarness) => (await h.store.projects.listProjects({ programId: IDS.program, limit: 100, offset: 0 })).map((p) => p.id).sort();

  before(async () => {
    const h = harness();
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() });
    await accounts.createAgency('elsewhere', 'Another Agency');
    await accounts.createUser({ agency: 'elsewhere', email: 'else.admin@example.org', name: 'Else Admin', password: 'else-admin-password-1', agencyAdmin: true });
    otherAgencyAdmin = { id: '', email: 'else.admin@example.org', password: 'else-admin-password-1', apiKey: '' };
  });

  it('refuses everyone but an agency admin and the program\'s admins, changing nothing', async () => {
    const h = harness();
    const rows: [string, Identity][] = [
      ['an editor', h.who.editor], ['a reader', h.who.reader], ['an applicant', h.who.applicant], ['a user of no program', h.who.outsider],
      ['the admin of another agency', otherAgencyAdmin],
    ];
    for (const [who, identity] of rows) {
      const page = await webGet(h, IMPORT_PATH, identity);
      assert.equal(page.statusCode, who === 'the admin of another agency' ? 200 : 403, `${who} GET`);
      for (const mode of ['dry-run', 'import']) {
        const res = await post(h, identity, { program: IDS.program, file: FILE, mode });
        assert.equal(res.statusCode, 403, `${who} ${mode}: ${res.body.slice(0, 200)}`);
      }
      assert.deepEqual(await projects(h), [], `${who}: nothing was imported`);
      assert.equal((await h.store.imports.findExternalIds(IDS.program, ['W-1'])).size, 0);
    }
    const page = await webGet(h, IMPORT_PATH, h.who.programAdmin);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<option value="PROGRAM00001"[^>]*>Solar Interconnection \(solar\)<\/option>/);
  });

  it('a dry run reports each row and keeps nothing; the import creates; a second import finds them unchanged', async () => {
    const h = harness();
    const dry = await post(h, h.who.programAdmin, { program: IDS.program, file: FILE, mode: 'dry-run' });
    assert.equal(dry.statusCode, 200, dry.body);
    assert.match(dry.body, /Checked: nothing was kept/);
    assert.match(dry.body, /2 rows: 1 would be created, 0 would be updated,\s*0 unchanged, 1 refused/);
    assert.match(dry.body, /<td>W-2<\/td><td>Refused<\/td><td><\/td><td><ul[^>]*><li>kw: [^<]+<\/li>/);
    assert.deepEqual(await projects(h), []);

    const real = await post(h, h.who.admin, { program: 'solar', file: FILE, mode: 'import' });
    assert.equal(real.statusCode, 200, real.body);
    assert.match(real.body, /2 rows: 1 created, 0 updated,\s*0 unchanged, 1 refused/);
    const made = await projects(h);
    assert.equal(made.length, 1);
    assert.equal((await h.store.imports.findExternalIds(IDS.program, ['W-1'])).get('W-1'), made[0]);
    assert.match(real.body, new RegExp(`href="/MvcProjects/LandingPage\\?ProgramId=PROGRAM00001&amp;ProjectId=${made[0]}"`));

    const again = await post(h, h.who.admin, { program: 'solar', file: FILE.replace('9999', '9'), mode: 'import' });
    assert.match(again.body, /2 rows: 1 created, 0 updated,\s*1 unchanged, 0 refused/);
    assert.equal((await projects(h)).length, 2);
  });

  it('shows a file refused as a whole on the page, with the line, and imports nothing', async () => {
    const h = harness();
    const before = await projects(h);
    const cases: [string | Buffer, RegExp, number][] = [
      [Buffer.from([0x45, 0x78, 0x0a, 0xe9, 0x0a]), /not UTF-8 \(from line 2\)/, 400],
      ['ExternalId,name\n"W-9,Ann\n', /quote opened on line 2 is never closed/, 400],
      ['Ref,name\nW-9,Ann\n', /Line 1, column Ref: Column &quot;Ref&quot; names no data field/, 400],
      [Buffer.alloc(5 * 1024 * 1024 + 10, 0x41), /larger than 5 MB/, 413],
      ['', /it has no header line/, 400],
    ];
    for (const [file, message, status] of cases) {
      const res = await post(h, h.who.admin, { program: IDS.program, file, mode: 'import' });
      assert.equal(res.statusCode, status, String(message));
      assert.match(res.body, /The file was not imported/);
      assert.match(res.body, message);
    }
    // A post the form could not have sent (more parts than it has) is refused, not a server error.
    const pair = await csrfFrom(h, h.who.admin);
    const many = `${Array.from({ length: 8 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="${i === 0 ? '_csrf' : `f${i}`}"\r\n\r\n${i === 0 ? pair.token : 'x'}\r\n`).join('')}--b--\r\n`;
    const extra = await h.app.inject({
      method: 'POST', url: IMPORT_PATH, payload: many,
      headers: { authorization: authHeaders(h.who.admin).authorization!, 'content-type': 'multipart/form-data; boundary=b', cookie: pair.cookie },
    });
    assert.ok(extra.statusCode >= 400 && extra.statusCode < 500, `${extra.statusCode}`);
    const mapped = await post(h, h.who.admin, { program: IDS.program, mapping: 'Ref = externalId', file: 'Ref,name\nW-9,Ann\n', mode: 'dry-run' });
    assert.equal(mapped.statusCode, 200);
    assert.match(mapped.body, /W-9<\/td><td>Refused/);
    assert.deepEqual(await projects(h), before);
  });
});
