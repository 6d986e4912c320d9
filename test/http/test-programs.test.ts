import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import { RESET_BATCH } from '../../src/domain/administration/test-program-service.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { Program } from '../../src/model/model.ts';
import { openDatabase } from '../../src/store/database.ts';
import type { Database } from '../../src/store/tables.ts';
import { TEST_PROGRAMS_PATH } from '../../src/web/console/test-program-pages.tsx';
import { DASHBOARD_PATH, projectPagePath } from '../../src/web/web-paths.ts';
import { DIALECTS } from '../support/databases.ts';
import { basicAuth, DEMO_APPLICATION, type DemoApi, demoApi, demoUser } from '../support/demo-api.ts';
import { attrs, dataRequest, NS } from '../support/http-harness.ts';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';

// Test copies of a program (issue 33 §3), on the demo program: made from the console, used over the API and the pages,
// kept apart from the live program (queue, dashboard, export, mail), marked everywhere, and reset.

const API = '/services/v2/Programs';
const FROM = 'APAS <noreply@apas.test>';
const admin = demoUser('admin');
const reviewer = demoUser('reviewer');
const applicant = demoUser('applicant');
const BANNER = 'aria-label="Test program"';
// A program admin of the live program (its built-in admin role), not an agency admin.
const programAdmin = { ...admin, role: 'program admin', email: 'pat.programadmin@example.org', name: 'Pat Program-Admin', password: 'program-admin-password-1', agencyAdmin: false, grant: 'admin' as const };

/** A request to the API under a program's root as `c`. */
function call(demo: DemoApi, c: typeof admin, method: 'GET' | 'POST', url: string, body?: string): Promise<LightMyRequestResponse> {
  demo.clock.advance();
  return demo.app.inject({
    method, url, payload: body,
    headers: { authorization: basicAuth(c), 'x-apikey': c.apiKey, ...(body !== undefined ? { 'content-type': 'application/xml' } : {}) },
  });
}

async function ok(res: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const r = await res;
  assert.equal(r.statusCode, 200, r.body);
  return r;
}

/** A submitted demo application of the applicant in the program `ref`: its id and number. */
async function submitIn(demo: DemoApi, ref: string): Promise<{ id: string; number: string }> {
  const root = `${API}/${ref}`;
  const id = /ProjectId="([^"]+)"/.exec((await ok(call(demo, applicant, 'POST', `${root}/NewProject`))).body)![1]!;
  demo.clock.advance();
  const upload = await demo.app.inject({
    method: 'POST', url: `${root}/Projects/${id}/Forms/Application/Attachments/SitePlan`, payload: TINY_PDF,
    headers: { authorization: basicAuth(applicant), 'x-apikey': applicant.apiKey, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' },
  });
  assert.equal(upload.statusCode, 200, upload.body);
  await ok(call(demo, applicant, 'POST', `${root}/Projects/${id}/Forms/Application/Draft/Data`, dataRequest(DEMO_APPLICATION)));
  const submitted = await ok(call(demo, applicant, 'POST', `${root}/Projects/${id}/Forms/Application/Draft/Submit`));
  return { id, number: /ProjectNumber="([^"]+)"/.exec(submitted.body)![1]! };
}

/** Assigns a project to the reviewer as the admin: the reviewer is mailed about it. */
async function assignToReviewer(demo: DemoApi, ref: string, projectId: string): Promise<void> {
  await ok(call(demo, admin, 'POST', `${API}/${ref}/Projects/${projectId}/Assignee`,
    `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${reviewer.email}</AssigneeEmail></SetAssigneeRequest>`));
}

/** One pass of the background mail work: queue mails from the outbox, then send what is due over SMTP. */
async function deliver(demo: DemoApi, smtp: SmtpCapture): Promise<void> {
  const ids = new RandomIdGenerator();
  while ((await consumeOutbox(demo.db.store, mailNotifier({ ids, publicUrl: 'http://apas.test' }))) > 0);
  const mailer = smtpMailer(smtp.url, FROM);
  try {
    await sendDueMail({ store: demo.db.store, clock: demo.clock, mailer });
  } finally {
    mailer.close();
  }
}

async function programs(demo: DemoApi): Promise<{ live: Program; test: Program | null }> {
  const all = await demo.db.store.programs.listPrograms((await demo.db.store.programs.findProgram('RES-SOLAR'))!.agencyId);
  const live = all.find((p) => p.customId === 'RES-SOLAR')!;
  return { live, test: all.find((p) => p.testOf === live.id) ?? null };
}

async function countRows(db: Kysely<Database>, table: 'projects' | 'events' | 'attachments' | 'mail_messages' | 'status_history', programId: string): Promise<number> {
  const row = table === 'projects' || table === 'events'
    ? await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('program_id', '=', programId).executeTakeFirst()
    : await db.selectFrom(table).innerJoin('projects', 'projects.id', `${table}.project_id`).select((eb) => eb.fn.countAll().as('n'))
      .where('projects.program_id', '=', programId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

for (const dialect of DIALECTS) {
  describe(`test copies of a program [${dialect}]`, () => {
    const demo = demoApi(dialect);
    let smtp: SmtpCapture;
    let opened: Awaited<ReturnType<typeof openDatabase>>;
    // The tables read back over a connection of the test's own.
    let db: Kysely<Database>;
    before(async () => {
      smtp = await startSmtpCapture();
      opened = await openDatabase(demo.db.config, 1);
      db = opened.db;
    });
    after(async () => {
      await smtp.stop();
      await opened.changes.close();
      await opened.db.destroy();
    });

    it("is made by the live program's admin from the console; a reviewer or an applicant is refused and nothing is made", async () => {
      const live0 = (await demo.db.store.programs.findProgram('RES-SOLAR'))!;
      const passwordHash = await hashSecret(programAdmin.password);
      await demo.db.store.transaction(async (tx) => {
        await tx.accounts.insertUser({ id: 'PROGRAMADMIN', agencyId: live0.agencyId, email: programAdmin.email, name: programAdmin.name, agencyAdmin: false, disabled: false }, passwordHash, Date.now());
        await tx.accounts.setGrant({ userId: 'PROGRAMADMIN', programId: live0.id, role: 'admin', sensitive: false });
      });
      for (const c of [reviewer, applicant]) {
        const refused = await demo.webPost(c, `${TEST_PROGRAMS_PATH}/Create`, { ProgramId: 'RES-SOLAR' });
        assert.equal(refused.statusCode, 403, `${c.role}: ${refused.body.slice(0, 200)}`);
        assert.equal((await programs(demo)).test, null);
      }
      const made = await demo.webPost(programAdmin, `${TEST_PROGRAMS_PATH}/Create`, { ProgramId: 'RES-SOLAR' });
      assert.equal(made.statusCode, 303, made.body);
      const { live, test } = await programs(demo);
      assert.ok(test);
      assert.equal(made.headers.location, `${TEST_PROGRAMS_PATH}/${test.id}?notice=created`);
      assert.deepEqual([test.customId, test.name, test.numberPrefix, test.testOf], ['RES-SOLAR-test', `${live.name} (test)`, 'TESTSOLAR', live.id]);
      // The staff's grants came along; the applicant's did not (real applicants never see a test copy unless granted).
      const grants = await demo.db.store.accounts.listGrantDetails({ programId: test.id });
      assert.deepEqual(grants.map((g) => `${g.email} ${g.role}`).sort(), [
        `${demoUser('north reviewer').email} editor`, `${programAdmin.email} admin`, `${demoUser('plan reviewer').email} Reviewer`,
        `${reviewer.email} editor`, `${demoUser('south reviewer').email} editor`,
      ]);
      // A second copy, or a copy of the copy, is refused on the page, and nothing more is made.
      const again = await demo.webPost(programAdmin, `${TEST_PROGRAMS_PATH}/Create`, { ProgramId: 'RES-SOLAR' });
      assert.equal(again.statusCode, 409);
      assert.match(again.body, /already has a test copy/);
      assert.equal((await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/Create`, { ProgramId: test.id })).statusCode, 409);
      const all = await demo.db.store.programs.listPrograms(live.agencyId);
      assert.equal(all.filter((p) => p.testOf !== undefined).length, 1);
    });

    it("has the live program's definition: forms, rules, automations, documents and roles", async () => {
      const { live, test } = await programs(demo);
      // Custom lists have no order of their own (the export lists them by their generated ids): compared by customId.
      const file = async (p: Program) => {
        const f = await exportProgram(demo.db.store, p.agencyId, p.id);
        const customLists = [...f.customLists].sort((a, b) => String(a.customId).localeCompare(String(b.customId)));
        return formatProgramFile({ ...f, customLists, customId: 'x', name: 'x', numberPrefix: 'X' }, 'yaml');
      };
      const liveText = await file(live);
      assert.equal(await file(test!), liveText);
      assert.match(liveText, /automations:/);
      assert.match(liveText, /documents:/);
      const page = await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/${test!.id}/Update`, {});
      assert.equal(page.headers.location, `${TEST_PROGRAMS_PATH}/${test!.id}?notice=unchanged`);

      // A new live version reaches the copy by "Update from live" only; the copy keeps its custom id and numbering.
      const liveFile = await exportProgram(demo.db.store, live.agencyId, live.id);
      const renamed = { ...liveFile, forms: liveFile.forms.map((f, i) => (i === 0 ? { ...f, name: `${f.name} v2` } : f)) };
      await importProgram({ store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, live.agencyId, renamed);
      assert.notEqual(await file(test!), await file(live));
      assert.equal((await demo.webPost(reviewer, `${TEST_PROGRAMS_PATH}/${test!.id}/Update`, {})).statusCode, 403);
      assert.notEqual(await file(test!), await file(live));
      const updated = await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/${test!.id}/Update`, {});
      assert.equal(updated.headers.location, `${TEST_PROGRAMS_PATH}/${test!.id}?notice=updated`);
      assert.equal(await file(test!), await file(live));
      const after = (await programs(demo)).test!;
      assert.deepEqual([after.id, after.customId, after.numberPrefix, after.testOf], [test!.id, 'RES-SOLAR-test', 'TESTSOLAR', live.id]);
    });

    it('keeps its projects out of the live queue, dashboard and export, and marks its pages and answers', async () => {
      const { live, test } = await programs(demo);
      // Applicants are granted a test copy separately (the People area or `apas grant`).
      const applicantUser = (await demo.db.store.accounts.findUserByEmail(applicant.email))!;
      await demo.db.store.transaction((tx) => tx.accounts.setGrant({ userId: applicantUser.id, programId: test!.id, role: 'applicant', sensitive: false }));
      const liveProject = await submitIn(demo, 'RES-SOLAR');
      const dashboardBefore = await db.selectFrom('dashboard_counts').selectAll().where('program_id', '=', live.id).execute();
      const t = await submitIn(demo, 'RES-SOLAR-test');
      assert.equal(t.number, 'TESTSOLAR-00001');
      assert.match(liveProject.number, /^SOLAR-/);

      // Answers: the header on the test copy's, never on the live program's; GetPrograms names the live program.
      const testRead = await ok(call(demo, applicant, 'GET', `${API}/RES-SOLAR-test/Projects/${t.id}/Forms/Application/Data`));
      assert.equal(testRead.headers['apas-test-program'], 'true');
      const liveRead = await ok(call(demo, applicant, 'GET', `${API}/RES-SOLAR/Projects/${liveProject.id}/Forms/Application/Data`));
      assert.equal(liveRead.headers['apas-test-program'], undefined);
      const refused = await call(demo, applicant, 'GET', `${API}/RES-SOLAR-test/Projects/NOSUCHPROJ00/Forms/Application/Data`);
      assert.equal(refused.statusCode, 404);
      assert.equal(refused.headers['apas-test-program'], undefined);
      const list = await ok(call(demo, applicant, 'GET', `${API}?Agency=demo`));
      assert.deepEqual(demo.schemas.validate('ProgramsResponse', list.body), []);
      assert.deepEqual(attrs(list.body, 'Program', 'TestOf'), [live.id]);
      // The demo's incentive claims too, where the applicant also has a role.
      const claims = (await demo.db.store.programs.findProgram('INCENTIVE-CLAIM', live.agencyId))!;
      assert.deepEqual(attrs(list.body, 'Program', 'ProgramId').sort(), [claims.id, live.id, test!.id].sort());

      // The live program knows nothing of the test project: its list, its queue, its dashboard, its export.
      const liveList = (await ok(call(demo, reviewer, 'GET', `${API}/RES-SOLAR/Projects`))).body;
      assert.ok(liveList.includes(liveProject.id) && !liveList.includes(t.id));
      const liveQueue = (await demo.webGet(reviewer, `/Projects/ProjectList?ProgramId=${live.id}`)).body;
      assert.ok(liveQueue.includes(liveProject.number) && !liveQueue.includes(t.number));
      assert.ok(!liveQueue.includes(BANNER));
      assert.deepEqual(await db.selectFrom('dashboard_counts').selectAll().where('program_id', '=', live.id).execute(), dashboardBefore);
      assert.equal((await call(demo, admin, 'GET', `${API}/RES-SOLAR/Projects/${t.id}/Export`)).statusCode, 404);
      const exported = await ok(call(demo, admin, 'GET', `${API}/RES-SOLAR-test/Projects/${t.id}/Export`));
      assert.equal(exported.headers['apas-test-program'], 'true');
      // Operations of other capabilities are marked by the same loading of the program (webhooks here).
      const hooks = await ok(call(demo, admin, 'GET', `${API}/RES-SOLAR-test/Webhooks`));
      assert.equal(hooks.headers['apas-test-program'], 'true');
      assert.equal((await ok(call(demo, admin, 'GET', `${API}/RES-SOLAR/Webhooks`))).headers['apas-test-program'], undefined);
      const refusedHooks = await call(demo, applicant, 'GET', `${API}/RES-SOLAR-test/Webhooks`);
      assert.equal(refusedHooks.statusCode, 403);
      assert.equal(refusedHooks.headers['apas-test-program'], undefined);

      // Pages: every page of the test copy shows the banner; the live program's do not.
      const pages: [typeof admin, string][] = [
        [applicant, projectPagePath(test!.id, t.id)],
        [applicant, `/MvcProjects/MyProjects?ProgramId=${test!.id}`],
        [reviewer, `/Projects/ProjectList?ProgramId=${test!.id}`],
        [reviewer, `${DASHBOARD_PATH}?ProgramId=${test!.id}`],
        [reviewer, `/MvcProjects/Programs/${test!.id}/Projects/${t.id}/Review`],
      ];
      for (const [c, url] of pages) {
        const page = await demo.webGet(c, url);
        assert.equal(page.statusCode, 200, `${url}: ${page.body.slice(0, 300)}`);
        assert.ok(page.body.includes(BANNER), `no banner on ${url}`);
      }
      const livePage = await demo.webGet(applicant, projectPagePath(live.id, liveProject.id));
      assert.ok(!livePage.body.includes(BANNER));
    });

    it("sends the live program's mail over SMTP and keeps the test copy's in its outbox", async () => {
      const { test } = await programs(demo);
      const t = (await demo.db.store.projects.listProjects({ programId: test!.id, limit: 10, offset: 0 }))[0]!;
      const live = (await demo.db.store.projects.listProjects({ programId: (await programs(demo)).live.id, limit: 10, offset: 0 }))[0]!;
      const before = smtp.messages.length;
      await assignToReviewer(demo, 'RES-SOLAR-test', t.id);
      await assignToReviewer(demo, 'RES-SOLAR', live.id);
      await deliver(demo, smtp);
      await smtp.waitFor(before + 1);
      await new Promise((r) => setTimeout(r, 200));
      const sent = smtp.messages.slice(before);
      assert.equal(sent.length, 1, sent.map((m) => m.subject).join('; '));
      assert.ok(!sent[0]!.text.includes(t.id), 'the mail that went out is about the live project');
      const kept = await db.selectFrom('mail_messages').selectAll().where('project_id', '=', t.id).execute();
      assert.deepEqual(kept.map((m) => [m.status, m.to_address]), [['test', reviewer.email]]);
      // A later round sends nothing more: the kept mail is not pending.
      await deliver(demo, smtp);
      assert.equal(smtp.messages.length, before + 1);
      // The console page of the test copy shows it: recipient, subject and text.
      const page = await demo.webGet(admin, `${TEST_PROGRAMS_PATH}/${test!.id}`);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(reviewer.email) && page.body.includes(kept[0]!.subject.replace(/&/g, '&amp;')));
    });

    it('is reset by its admins only: projects, files, events and mail go, numbering starts again', async () => {
      const { test } = await programs(demo);
      const id = test!.id;
      const blobKeys = (await db.selectFrom('attachments').innerJoin('projects', 'projects.id', 'attachments.project_id')
        .select('attachments.blob_key').where('projects.program_id', '=', id).execute()).map((r) => r.blob_key);
      assert.ok(blobKeys.length > 0);
      // More projects than one batch of the reset holds, so that it deletes in more than one transaction.
      for (let n = 0; n < RESET_BATCH; n++) await ok(call(demo, applicant, 'POST', `${API}/RES-SOLAR-test/NewProject`));
      const counts = async () => Promise.all((['projects', 'events', 'attachments', 'mail_messages', 'status_history'] as const).map((t) => countRows(db, t, id)));
      const full = await counts();
      assert.ok(full.every((n) => n > 0), String(full));
      // Refused: a reviewer (FORBIDDEN), an applicant, and the admin without ticking the box: nothing is deleted.
      assert.equal((await demo.webPost(reviewer, `${TEST_PROGRAMS_PATH}/${id}/Reset`, { Confirm: 'yes' })).statusCode, 403);
      assert.equal((await demo.webPost(applicant, `${TEST_PROGRAMS_PATH}/${id}/Reset`, { Confirm: 'yes' })).statusCode, 403);
      assert.equal((await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/${id}/Reset`, {})).statusCode, 400);
      // The live program is not a test copy: resetting it is refused.
      assert.equal((await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/RES-SOLAR/Reset`, { Confirm: 'yes' })).statusCode, 409);
      assert.deepEqual(await counts(), full);
      const liveProjects = await countRows(db, 'projects', (await programs(demo)).live.id);

      // The live program's admin administers its copy too (the grant came with it).
      const reset = await demo.webPost(programAdmin, `${TEST_PROGRAMS_PATH}/${id}/Reset`, { Confirm: 'yes' });
      assert.equal(reset.statusCode, 303, reset.body);
      assert.deepEqual(await counts(), [0, 0, 0, 0, 0]);
      assert.equal(await countRows(db, 'projects', (await programs(demo)).live.id), liveProjects);
      for (const key of blobKeys) await assert.rejects(demo.blobs.read(key));
      const audit = await demo.db.store.audit.list({ action: 'program.test.reset' });
      assert.equal(audit.length, 1);
      assert.deepEqual(audit[0]!.detail, { projects: full[0] });
      assert.ok(full[0]! > RESET_BATCH);
      assert.equal((await submitIn(demo, 'RES-SOLAR-test')).number, 'TESTSOLAR-00001');
    });
  });
}
