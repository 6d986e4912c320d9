import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { PREVIEW_CLOCK_STEP_MS } from '../../src/domain/documents/preview-time.ts';
import { DEMO_PROGRAM_PATH } from '../../src/domain/programs/demo.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram, OPERATOR_PUBLISHER, sha256Of } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { PROGRAM_UPLOAD_PATH, PROGRAMS_PATH, programsPaths } from '../../src/web/console/programs-paths.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { sharedHarness } from './http-helpers.ts';
import { reviewed, upload } from './console-program-helpers.ts';
import { assertPdfAnswersRanges } from './ranged-pdf-checks.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// The console's Programs area over HTTP: upload → review → publish as an agency admin and as the program's own admin,
// the version history and downloads, a stale review and a changed file refused, and an access matrix on every POST
// (applicant, reviewer, the admin of another program, the admin of another agency) that reads the program back.

const DEMO_TEXT = readFileSync(DEMO_PROGRAM_PATH, 'utf8');
const renamed = (name: string) => DEMO_TEXT.replace('name: Residential Solar Interconnection\n', `name: ${name}\n`);

forEachDialect('Console: programs', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let programId = '';
  let demoAdmin: Identity;
  let otherAgencyAdmin: Identity;
  const deps = (h: HttpHarness) => ({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), checkers: programCheckers() });

  /** The program as `program export` writes it, and its recorded versions: what a refused post must leave as it was. */
  const state = async (h: HttpHarness) => ({
    file: formatProgramFile(await exportProgram(h.store, IDS.agency, 'RES-SOLAR'), 'yaml'),
    versions: (await h.store.programs.listProgramVersions(programId)).map((v) => `${v.version} ${v.publisher} ${v.sha256}`),
  });

  before(async () => {
    const h = harness();
    // The demo program in the fixture agency, imported as `apas program import` does (the operator publishes).
    const report = await importProgram(deps(h), IDS.agency, parseProgramFile(DEMO_TEXT, 'yaml', 'residential-solar.yaml'), {
      publication: { text: DEMO_TEXT, fileName: 'residential-solar.yaml', publisher: OPERATOR_PUBLISHER },
    });
    programId = report.programId;
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() });
    await accounts.createUser({ agency: IDS.agency, email: 'solar.admin@example.org', name: 'Sol Admin', password: 'solar-admin-password-1' });
    await accounts.grant('solar.admin@example.org', 'RES-SOLAR', 'admin');
    demoAdmin = { id: (await h.store.accounts.findUserByEmail('solar.admin@example.org'))!.id, email: 'solar.admin@example.org', password: 'solar-admin-password-1', apiKey: '' };
    await accounts.createAgency('elsewhere', 'Another Agency');
    await accounts.createUser({ agency: 'elsewhere', email: 'else.admin@example.org', name: 'Else Admin', password: 'else-admin-password-1', agencyAdmin: true });
    otherAgencyAdmin = { id: '', email: 'else.admin@example.org', password: 'else-admin-password-1', apiKey: '' };
  });

  it('the CLI import recorded version 1, published by the operator, with its file', async () => {
    const h = harness();
    const [v1] = await h.store.programs.listProgramVersions(programId);
    assert.equal(v1?.version, 1);
    assert.equal(v1?.publisher, OPERATOR_PUBLISHER);
    assert.equal(v1?.publishedBy, null);
    assert.equal(v1?.sha256, sha256Of(DEMO_TEXT));
    const file = await webGet(h, programsPaths.versionFile(programId, 1), 'admin');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, DEMO_TEXT);
  });

  it('an agency admin: a file with a problem is refused with its line; the fixed file is reviewed, published and listed', async () => {
    const h = harness();
    const broken = renamed('Solar 2027').replace('numberDigits: 5\n', 'numberDigits: many\n');
    const refused = await upload(h, h.who.admin, 'solar.yaml', broken);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /solar\.yaml is not a valid program \(1 problem\)/);
    assert.match(refused.body, /numberDigits \(line 11, column 1\)|line 11/);
    assert.equal((await h.store.programs.listProgramVersions(programId)).length, 1);

    const fixed = renamed('Solar 2027');
    const r = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'solar.yaml', fixed));
    assert.match(r.page, /Program RES-SOLAR \(id [^)]+\) would be updated:\s+updated program RES-SOLAR \(name\)/);
    assert.equal(r.sha256, sha256Of(fixed));
    assert.equal(r.version, '1');
    const published = await webPost(h, programsPaths.publish(r.uploadId), 'admin', { sha256: r.sha256, version: r.version });
    assert.equal(published.statusCode, 303, published.body);
    assert.equal(published.headers.location, `${programsPaths.program(programId)}?notice=version-2`);
    assert.equal((await h.store.programs.findProgram(programId))!.name, 'Solar 2027');

    const page = await webGet(h, programsPaths.program(programId), 'admin');
    assert.match(page.body, new RegExp(`Version 2, [^<]* by User ${IDS.admin} &lt;${IDS.admin.toLowerCase()}@example\\.org>`));
    const version = await webGet(h, programsPaths.version(programId, 2), 'admin');
    assert.match(version.body, /Changes since version 1/);
    assert.match(version.body, /updated program RES-SOLAR \(name\)/);
    assert.equal((await webGet(h, programsPaths.versionFile(programId, 2), 'admin')).body, fixed);
    const live = await webGet(h, programsPaths.liveFile(programId), 'admin');
    assert.equal(live.body, formatProgramFile(await exportProgram(h.store, IDS.agency, 'RES-SOLAR'), 'yaml'));
    // The upload is gone with its publication: publishing it again is refused.
    const again = await webPost(h, programsPaths.publish(r.uploadId), 'admin', { sha256: r.sha256, version: '2' });
    assert.equal(again.statusCode, 404);
  });

  it('a review against an older version is refused (someone published meanwhile), and so is a file other than the reviewed one', async () => {
    const h = harness();
    const first = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'a.yaml', renamed('Solar A')));
    const second = await reviewed(h, demoAdmin, await upload(h, demoAdmin, 'b.yaml', renamed('Solar B')));
    assert.equal(first.version, second.version);
    const ok = await webPost(h, programsPaths.publish(first.uploadId), 'admin', { sha256: first.sha256, version: first.version });
    assert.equal(ok.statusCode, 303, ok.body);
    const before = await state(h);
    const stale = await webPost(h, programsPaths.publish(second.uploadId), demoAdmin, { sha256: second.sha256, version: second.version });
    assert.equal(stale.statusCode, 409, stale.body);
    assert.match(stale.body, new RegExp(`changed since this file was reviewed against version ${second.version}: version ${Number(second.version) + 1} was published by User ${IDS.admin} &lt;`));
    const wrongFile = await webPost(h, programsPaths.publish(second.uploadId), demoAdmin, { sha256: sha256Of('another file'), version: String(Number(second.version) + 1) });
    assert.equal(wrongFile.statusCode, 409, wrongFile.body);
    assert.match(wrongFile.body, /is not the one that was reviewed/);
    assert.deepEqual(await state(h), before);
    assert.equal((await h.store.programs.findProgram(programId))!.name, 'Solar A');
  });

  it('two publications at once against the same version: one is published, the other refused with 409', async () => {
    const h = harness();
    const a = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'a.yaml', renamed('Solar race A')));
    const b = await reviewed(h, demoAdmin, await upload(h, demoAdmin, 'b.yaml', renamed('Solar race B')));
    const count = (await h.store.programs.listProgramVersions(programId)).length;
    const answers = await Promise.all([
      webPost(h, programsPaths.publish(a.uploadId), 'admin', { sha256: a.sha256, version: a.version }),
      webPost(h, programsPaths.publish(b.uploadId), demoAdmin, { sha256: b.sha256, version: b.version }),
    ]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [303, 409], answers.map((r) => r.body.slice(0, 300)).join('\n'));
    const versions = await h.store.programs.listProgramVersions(programId);
    assert.equal(versions.length, count + 1);
    const winner = answers[0]!.statusCode === 303 ? 'Solar race A' : 'Solar race B';
    assert.equal((await h.store.programs.findProgram(programId))!.name, winner);
  });

  it('a program admin publishes their own program, but neither a new program nor another one', async () => {
    const h = harness();
    const own = await reviewed(h, demoAdmin, await upload(h, demoAdmin, 'solar.yaml', renamed('Solar by its admin')));
    const done = await webPost(h, programsPaths.publish(own.uploadId), demoAdmin, { sha256: own.sha256, version: own.version });
    assert.equal(done.statusCode, 303, done.body);
    const before = await state(h);
    const created = await upload(h, demoAdmin, 'new.yaml', DEMO_TEXT.replace('customId: RES-SOLAR\n', 'customId: NEW-SOLAR\n'));
    assert.equal(created.statusCode, 403, created.body);
    assert.equal((await h.store.programs.listPrograms(IDS.agency)).some((p) => p.customId === 'NEW-SOLAR'), false);
    // The fixture program's customId: a program of the agency this admin does not administer.
    const fixture = (await h.store.programs.findProgram(IDS.program))!;
    const theirs = await upload(h, demoAdmin, 'other.yaml', DEMO_TEXT.replace('customId: RES-SOLAR\n', `customId: ${fixture.customId}\n`));
    assert.equal(theirs.statusCode, 403, theirs.body);
    assert.deepEqual(await state(h), before);
  });

  it('a JSON file equal to the live version: reviewed as "no changes", with nothing to publish', async () => {
    const h = harness();
    const json = formatProgramFile(await exportProgram(h.store, IDS.agency, 'RES-SOLAR'), 'json');
    const r = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'solar.json', json));
    assert.match(r.page, /Program RES-SOLAR \(id \w+\): no changes\./);
    assert.match(r.page, /there is nothing to publish/);
    assert.doesNotMatch(r.page, /Publish version/);
  });

  it('posts without the CSRF token are refused and change nothing', async () => {
    const h = harness();
    const r = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'solar.yaml', renamed('Solar, cross-site')));
    const before = await state(h);
    const boundary = 'xXnotokenXx';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="solar.yaml"\r\n\r\n${renamed('Solar, cross-site')}\r\n--${boundary}--\r\n`;
    const up = await h.app.inject({
      method: 'POST', url: PROGRAM_UPLOAD_PATH, payload,
      headers: { authorization: authHeaders(h.who.admin).authorization!, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(up.statusCode, 403, up.body);
    const pub = await webPost(h, programsPaths.publish(r.uploadId), 'admin', { sha256: r.sha256, version: r.version }, false);
    assert.equal(pub.statusCode, 403, pub.body);
    assert.deepEqual(await state(h), before);
    assert.ok(await h.store.programs.findProgramUpload(r.uploadId), 'the reviewed upload is still there to publish');
  });

  it('a file larger than the bound, or not UTF-8, is refused and changes nothing', async () => {
    const h = harness();
    const before = await state(h);
    const big = await upload(h, h.who.admin, 'big.yaml', Buffer.alloc(2 * 1024 * 1024 + 10, 0x20));
    assert.equal(big.statusCode, 413, big.body);
    const binary = await upload(h, h.who.admin, 'bin.yaml', Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    assert.equal(binary.statusCode, 400, binary.body);
    assert.match(binary.body, /not a text file in UTF-8/);
    assert.deepEqual(await state(h), before);
  });

  it('the import\'s own guards apply unchanged: removing a role someone holds is refused at upload, naming them', async () => {
    const h = harness();
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() });
    await accounts.createUser({ agency: IDS.agency, email: 'plan.reviewer@example.org', name: 'Pat Reviewer', password: 'plan-reviewer-password-1' });
    await accounts.grant('plan.reviewer@example.org', 'RES-SOLAR', 'Reviewer');
    const before = await state(h);
    const live = (await h.store.programs.findProgram(programId))!.name;
    const renamedRole = renamed(live).replace(/\bReviewer\b/g, 'PlanReviewer');
    const refused = await upload(h, h.who.admin, 'solar.yaml', renamedRole);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /cannot remove role &quot;Reviewer&quot; \(held by plan\.reviewer@example\.org\)/);
    assert.deepEqual(await state(h), before);
  });

  describe('access on every POST, the program read back', () => {
    const refusedBy: { who: string; identity: (h: HttpHarness) => Identity; upload: number; publish: number }[] = [
      { who: 'an applicant', identity: (h) => h.who.applicant, upload: 403, publish: 403 },
      { who: 'a reviewer (editor)', identity: (h) => h.who.editor, upload: 403, publish: 403 },
      { who: 'the admin of another program', identity: (h) => h.who.programAdmin, upload: 403, publish: 404 },
      { who: 'the admin of another agency', identity: () => otherAgencyAdmin, upload: 403, publish: 404 },
    ];
    for (const row of refusedBy) {
      it(`${row.who}: upload ${row.upload}, publishing the agency admin's reviewed upload ${row.publish}`, async () => {
        const h = harness();
        const who = row.identity(h);
        const review = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'solar.yaml', renamed(`Solar ${row.who}`)));
        const before = await state(h);
        const uploads = await h.store.programs.findProgramUpload(review.uploadId);
        const up = await upload(h, who, 'solar.yaml', renamed('Solar, not theirs'));
        // The admin of another agency has no RES-SOLAR: for them the file names a new program, which they may not create here either.
        assert.equal(up.statusCode, row.who === 'the admin of another agency' ? 303 : row.upload, up.body);
        const pub = await webPost(h, programsPaths.publish(review.uploadId), who, { sha256: review.sha256, version: review.version });
        assert.equal(pub.statusCode, row.publish, pub.body);
        assert.deepEqual(await state(h), before);
        assert.deepEqual(await h.store.programs.findProgramUpload(review.uploadId), uploads);
        const model = await h.store.programs.loadProgramModel((await h.store.programs.findProgram(programId))!);
        const pages = [
          PROGRAMS_PATH, programsPaths.program(programId), programsPaths.liveFile(programId), programsPaths.version(programId, 1), programsPaths.versionFile(programId, 1),
          programsPaths.form(programId, model.forms[0]!.id), programsPaths.mails(programId), programsPaths.document(programId, 'ApprovalLetter'),
          programsPaths.calendar(programId), programsPaths.review(review.uploadId),
        ];
        for (const page of pages) {
          const res = await webGet(h, page, who);
          // The list is any console user's own (empty of this program); every page of the program is refused.
          const mayList = page === PROGRAMS_PATH && row.upload === 403 && row.publish === 404;
          assert.ok([403, 404].includes(res.statusCode) || mayList, `${page}: ${res.statusCode}`);
          assert.doesNotMatch(res.body, /Residential Solar|RES-SOLAR/);
        }
      });
    }
  });

  it('previews: forms, mails, the document PDF and the calendar of the live version', async () => {
    const h = harness();
    const page = await webGet(h, programsPaths.program(programId), 'admin');
    const forms = [...page.body.matchAll(/href="([^"]+\/Forms\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(forms.length >= 3, page.body);
    for (const form of forms) {
      const res = await webGet(h, form, 'admin');
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /<fieldset class="usa-fieldset" disabled/);
    }
    const application = await webGet(h, forms[0]!, 'admin');
    assert.match(application.body, /Customer name/);
    const mails = await webGet(h, programsPaths.mails(programId), 'admin');
    assert.match(mails.body, /SOLAR-00042/);
    const documents = [...page.body.matchAll(/href="([^"]+\/Documents\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(documents.length >= 1);
    const pdf = await webGet(h, documents[0]!, 'admin');
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    await assertPdfAnswersRanges(h, documents[0]!, 'admin');
    // The sample is rendered at the quarter hour's time: the same bytes all through it, so that a viewer's ranges join.
    const quarter = Math.ceil(h.clock.time / PREVIEW_CLOCK_STEP_MS) * PREVIEW_CLOCK_STEP_MS;
    const etagAt = async (time: number) => {
      h.clock.time = time;
      return (await webGet(h, documents[0]!, 'admin')).headers.etag;
    };
    assert.equal(await etagAt(quarter + 1000), await etagAt(quarter + PREVIEW_CLOCK_STEP_MS - 1000));
    const calendar = await webGet(h, programsPaths.calendar(programId), 'admin');
    assert.match(calendar.body, /America\/Los_Angeles/);
    assert.match(calendar.body, /Public holiday/);
  });
});
