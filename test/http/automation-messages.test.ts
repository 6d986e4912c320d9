import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { basicAuth } from '../support/demo-api.ts';
import { dataRequest, TestClock } from '../support/http-harness.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// Automations and the program's status reasons and named mail templates (docs/programs.md, "Automations" and "Status
// reasons and mail templates"): a move an automation makes gives the target status's reason as staff must, and a mail
// it sends may be one of the program's named templates.

const MSG = `
customId: MSG
name: Messages test
numberPrefix: MSG
fields:
  - { customId: Size, name: Size, type: number }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted, next: [Rejected, Returned] }
  - customId: Rejected
    name: Rejected
    reasons: [{ customId: OutOfArea, name: Outside the service area }, { customId: TooLarge, name: Too large }]
    reasonRequired: true
  - customId: Returned
    name: Returned for correction
    next: [Submitted]
    reasons: [{ customId: FixSize, name: Correct the size }]
    reasonRequired: [Submitted]
forms:
  - { customId: Application, name: Application, availableIn: [Unsubmitted, Returned], leadsTo: Submitted, fields: [Size] }
mailTemplates:
  - customId: Sorry
    subject: "{{projectNumber}} was not accepted"
    text: "Your project {{projectNumber}} is {{status}}. See {{link}}"
automations:
  - customId: too-large
    name: Systems over 100 kW are rejected
    when: { trigger: form.submitted, form: Application }
    if: Size > 100.0
    then:
      - { do: moveStatus, to: Rejected, reason: TooLarge, message: "The program takes systems up to 100 kW." }
      - { do: sendMail, to: owner, template: Sorry }
  - customId: too-small
    name: Tiny systems go back without a reason
    when: { trigger: form.submitted, form: Application }
    if: Size < 1.0
    then:
      - { do: moveStatus, to: Returned }
  - customId: ask-roof
    name: Mid-sized systems are asked about the roof
    when: { trigger: form.submitted, form: Application }
    if: Size > 50.0 && Size <= 100.0
    then:
      - { do: openInquiry, subject: Roof, text: "Which roof is it on?", visibleToApplicant: true }
`;

const who = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;

for (const dialect of DIALECTS) {
  describe(`automations with status reasons and named mail templates [${dialect}]`, () => {
    let db: TestStore | undefined;
    let app: FastifyInstance | undefined;
    let model: ProgramModel;
    const clock = new TestClock();
    const applicant = who('applicant');

    before(async () => {
      db = await openTestStore(dialect);
      const ids = new RandomIdGenerator();
      await seedDemo({ store: db.store, clock, ids, checkers: programCheckers() });
      const { programId } = await importProgram({ store: db.store, clock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(MSG));
      await new AccountService({ store: db.store, clock, ids }).grant(applicant.email, programId, 'applicant');
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' }), store: db.store, clock, logger: false, blobs: new DatabaseBlobStore(db.store, clock) });
      model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
    });
    after(async () => {
      await app?.close();
      await db?.close();
    });

    function call(method: 'GET' | 'POST', path: string, body?: string): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method, url: `/services/v2/Programs/MSG/${path}`, payload: body,
        headers: { authorization: basicAuth(applicant), 'x-apikey': applicant.apiKey, ...(body !== undefined ? { 'content-type': 'application/xml' } : {}) },
      });
    }
    async function submitted(size: string): Promise<string> {
      const created = await call('POST', 'NewProject');
      assert.equal(created.statusCode, 200, created.body);
      const projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
      assert.equal((await call('POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest({ Size: size }))).statusCode, 200);
      const submit = await call('POST', `Projects/${projectId}/Forms/Application/Draft/Submit`);
      assert.equal(submit.statusCode, 200, submit.body);
      return projectId;
    }
    const statusOf = (id: string) => model.statuses.find((s) => s.id === id)!.customId;
    const project = async (projectId: string) => (await db!.store.projects.getProject(model.program.id, projectId))!;
    const runs = async (projectId: string) => (await db!.store.audit.list({ projectId })).filter((r) => r.action === 'automation.run').map((r) => r.detail ?? {});

    it("a move gives its reason and message: kept with the history entry, the reason in the event; the named template's mail is queued", async () => {
      const projectId = await submitted('250');
      const p = await project(projectId);
      assert.equal(statusOf(p.statusId), 'Rejected');
      const last = (await db!.store.projects.getHistory(projectId)).sort((a, b) => b.changedAt - a.changedAt)[0]!;
      assert.deepEqual([statusOf(last.statusId), last.reasonId, last.message], ['Rejected', 'TooLarge', 'The program takes systems up to 100 kW.']);
      const moved = (await db!.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'project.status_changed').at(-1)!;
      assert.equal((moved.data as { reasonId?: string }).reasonId, 'TooLarge');
      const mail = (await db!.store.mail.listMail()).find((m) => m.kind === 'automation' && m.subject === `${p.number} was not accepted`);
      assert.ok(mail, 'the named template was sent');
      assert.equal(mail.to, applicant.email);
      assert.match(mail.text, new RegExp(`Your project ${p.number} is Rejected\\. See http://apas\\.test/`));
    });

    // The automation acts in the applicant's name, but what it does is not the applicant's own change (docs/programs.md).
    it("the applicant is mailed about what an automation did on their submission: its move and its question, not their own submission's move", async () => {
      const notify = mailNotifier({ ids: new RandomIdGenerator(), publicUrl: 'http://apas.test' });
      while ((await consumeOutbox(db!.store, notify)) > 0);
      const before = new Set((await db!.store.mail.listMail()).map((m) => m.id));
      const declined = await submitted('300');
      const asked = await submitted('75');
      while ((await consumeOutbox(db!.store, notify)) > 0);
      const mails = (await db!.store.mail.listMail()).filter((m) => !before.has(m.id) && m.kind !== 'automation');
      const number = async (id: string) => (await project(id)).number!;
      assert.deepEqual(mails.map((m) => [m.kind, m.to]).sort(), [['question', applicant.email], ['statusChanged', applicant.email]]);
      const moved = mails.find((m) => m.kind === 'statusChanged')!;
      assert.match(moved.subject + moved.text, new RegExp(await number(declined)));
      assert.match(moved.text, /Rejected/);
      assert.doesNotMatch(moved.text, /Submitted/, 'the submission\'s own move into Submitted is not mailed');
      assert.match(mails.find((m) => m.kind === 'question')!.subject + mails.find((m) => m.kind === 'question')!.text, new RegExp(await number(asked)));
    });

    it('a move into a status that needs a reason from here, made without one, is skipped and recorded; the submission stands', async () => {
      const projectId = await submitted('0.5');
      assert.equal(statusOf((await project(projectId)).statusId), 'Submitted', 'the person\'s submission committed, the move did not happen');
      const run = (await runs(projectId)).find((r) => r.automation === 'too-small')!;
      assert.equal(run.outcome, 'partly ran');
      const [action] = run.actions as { do: string; outcome: string; reason: string }[];
      assert.equal(action!.outcome, 'skipped');
      assert.match(action!.reason, /A move to "Returned for correction" needs a reason \(ReasonId\): one of FixSize \(Correct the size\)/);
    });
  });
}
