import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { dataRequest, NS, TestClock } from '../support/http-harness.ts';
import { postReplyWith } from './inquiry-helpers.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// Automations (docs/programs.md, "Automations") through the API: each trigger and action, the order of a chain and its
// depth bound, an automation that cannot act (the person's change still commits, the skip is recorded), and one
// version bump, audit rows and events per change.

const AUTO = `
customId: AUTO
name: Automation test
numberPrefix: AUTO
fields:
  - { customId: Size, name: Size, type: number }
  - { customId: Note, name: Note, type: text, maxLength: 12 }
  - { customId: Big, name: Big, type: boolean }
  - { customId: Label, name: Label, type: text }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted, next: [Engineering, Review] }
  - { customId: Engineering, name: Engineering review, next: [Review] }
  - { customId: Review, name: Review, next: [Approved] }
  - { customId: Approved, name: Approved }
forms:
  - customId: Application
    name: Application
    availableIn: [Unsubmitted]
    leadsTo: Submitted
    fields: [Size, Note, Big, Label]
    attachments: [{ customId: Plan, name: Plan, allowedTypes: [application/pdf] }]
roles:
  - { customId: Engineer, name: Engineer, privileges: [readProjects, moveStatus, inquiries] }
automations:
  - customId: big-to-engineering
    name: Large systems go to engineering review
    when: { trigger: form.submitted, form: Application }
    if: Size > 10.0
    then:
      - { do: moveStatus, to: Engineering }
      - { do: assign, role: Engineer, pick: leastLoaded }
  - customId: flag-big
    name: Flag projects in engineering review
    when: { trigger: status.entered, status: Engineering }
    then:
      - { do: setField, field: Big, value: "Size > 10.0" }
      - { do: setField, field: Label, value: "'big: ' + string(Size)" }
  - customId: big-to-review
    name: Flagged projects move on to review
    when: { trigger: field.changed, field: Big }
    if: Big
    then:
      - { do: moveStatus, to: Review }
      - { do: emitEvent, name: flagged }
  - customId: review-mail
    name: Tell the owner about the review
    when: { trigger: status.entered, status: Review }
    then:
      - { do: sendMail, to: owner, subject: "{{projectNumber}} in review", text: "Your project {{projectNumber}} is now {{status}}: {{link}}" }
  - customId: welcome
    name: Welcome question
    when: { trigger: project.created }
    then:
      - { do: openInquiry, subject: Welcome, text: "Tell us about your roof.", visibleToApplicant: true }
  - customId: plan-uploaded
    name: Note the plan
    when: { trigger: attachment.uploaded, attachment: Plan }
    then:
      - { do: setField, field: Note, value: "'plan in'" }
  - customId: plan-rejected
    name: Rejected plans
    when: { trigger: attachment.reviewed, attachment: Plan, approval: Rejected }
    then:
      - { do: sendMail, to: role, role: Engineer, subject: "Plan rejected on {{projectNumber}}", text: "See {{link}}" }
  - customId: plan-approved
    name: Approved plans go to an engineer in turn
    when: { trigger: attachment.reviewed, attachment: Plan, approval: Approved }
    then:
      - { do: assign, role: Engineer, pick: roundRobin }
  - customId: draft-saved
    name: Mark saved drafts
    when: { trigger: form.saved, form: Application }
    if: "project.number == ''"
    then:
      - { do: setField, field: Note, value: "'far too long for the field'" }
      - { do: emitEvent, name: never-reached }
  - customId: applicant-replied
    name: Replies from applicants
    when: { trigger: inquiry.note_added, by: applicant }
    then:
      - { do: moveStatus, to: Approved }
  - customId: staff-noted
    name: Staff notes
    when: { trigger: inquiry.note_added, by: staff }
    if: project.status == 'Review'
    then:
      - { do: assign, user: engineer2@demo.apas.local }
  - customId: left-submitted
    name: Leaving Submitted
    when: { trigger: status.left, status: Submitted }
    then:
      - { do: emitEvent, name: left-submitted }
  - customId: deep
    name: Too deep to run
    when: { trigger: status.entered, status: Review }
    then:
      - { do: emitEvent, name: deep }
`;

const ENGINEERS = [
  { email: 'engineer1@demo.apas.local', name: 'Eli Engineer' },
  { email: 'engineer2@demo.apas.local', name: 'Emma Engineer' },
];

const DEMO_APPLICATION = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', ServiceAddress: '1 Sunny Lane', UtilityAccountNumber: 'ACCT-1',
  ServiceType: '1P-120-240', SystemSizeKwDc: '12', SystemSizeKwAc: '11', ModuleCount: '30', InverterMake: 'ENPHASE',
  MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Solar LLC', InstallerLicense: 'LIC-1',
};

const who = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;
const basic = (c: DemoCredential) => `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`;

for (const dialect of DIALECTS) {
  describe(`automations [${dialect}]`, () => {
    let db: TestStore | undefined;
    let app: FastifyInstance | undefined;
    let model: ProgramModel;
    const clock = new TestClock();
    const [applicant, editor, admin] = [who('applicant'), who('reviewer'), who('admin')];
    const engineerIds: string[] = [];

    before(async () => {
      db = await openTestStore(dialect);
      const ids = new RandomIdGenerator();
      await seedDemo({ store: db.store, clock, ids, checkers: programCheckers() });
      const { programId } = await importProgram({ store: db.store, clock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(AUTO));
      const accounts = new AccountService({ store: db.store, clock, ids });
      for (const e of ENGINEERS) {
        engineerIds.push((await accounts.createUser({ agency: DEMO_AGENCY.customId, email: e.email, name: e.name, password: 'engineer-password-1', agencyAdmin: false })).id);
        await accounts.grant(e.email, programId, 'Engineer');
      }
      await accounts.grant(applicant.email, programId, 'applicant');
      await accounts.grant(editor.email, programId, 'editor');
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' }), store: db.store, clock, logger: false, blobs: new DatabaseBlobStore(db.store, clock) });
      model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
    });
    after(async () => {
      await app?.close();
      await db?.close();
    });

    const PROGRAM = '/services/v2/Programs/AUTO';
    const statusOf = (customId: string) => model.statuses.find((s) => s.customId === customId)!.id;
    const fieldOf = (customId: string) => model.fields.find((f) => f.customId === customId)!.id;

    function call(c: DemoCredential | { email: string; password: string; apiKey: string }, method: 'GET' | 'POST', path: string, body?: string, type = 'application/xml'): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method, url: `${PROGRAM}/${path}`, payload: body,
        headers: { authorization: basic(c as DemoCredential), 'x-apikey': c.apiKey, accept: 'application/xml', ...(body !== undefined ? { 'content-type': type } : {}) },
      });
    }
    async function ok(res: Promise<LightMyRequestResponse>): Promise<string> {
      const r = await res;
      assert.equal(r.statusCode, 200, r.body);
      return r.body;
    }
    async function newProject(): Promise<string> {
      return /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'NewProject')))![1]!;
    }
    /** The applicant uploads the plan (a tiny PDF) to the project's application. */
    function uploadPlan(projectId: string): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/Application/Attachments/Plan`, payload: TINY_PDF,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="p.pdf"' },
      });
    }
    const draft = (projectId: string, values: Record<string, string>) => call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest(values));
    const submit = (projectId: string) => call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`);
    async function submitted(values: Record<string, string>): Promise<string> {
      const projectId = await newProject();
      await ok(draft(projectId, values));
      await ok(submit(projectId));
      return projectId;
    }
    const project = async (projectId: string) => (await db!.store.projects.getProject(model.program.id, projectId))!;
    const value = async (projectId: string, customId: string) => (await db!.store.projects.getValues(projectId, [fieldOf(customId)]))[0]?.value ?? null;
    /** The project's audit rows, oldest first, as [action, automation] (the runs with their outcome). */
    async function audit(projectId: string): Promise<{ action: string; actorId: string | null; detail: Record<string, unknown> }[]> {
      return (await db!.store.audit.list({ projectId })).reverse().map((r) => ({ action: r.action, actorId: r.actorId ?? null, detail: r.detail ?? {} }));
    }
    /** The runs of a project's automations, in the order they ran (by change, then by their seq within it). */
    const runs = async (projectId: string): Promise<Record<string, unknown>[]> => {
      const rows = (await db!.store.audit.list({ projectId })).filter((r) => r.action === 'automation.run');
      return rows.sort((a, b) => a.at - b.at || Number(a.detail!.seq) - Number(b.detail!.seq)).map((r) => r.detail!);
    };
    /** The rows an automation's actions wrote, as "action automation", sorted (rows of one change share their time). */
    const actionRows = async (projectId: string) => (await audit(projectId)).filter((r) => r.detail.automation !== undefined && r.action !== 'automation.run')
      .map((r) => `${r.action} ${String(r.detail.automation)}`).sort();

    it('project.created opens a question with a note for the applicant, in the creation, at version 0', async () => {
      const projectId = await newProject();
      const threads = await db!.store.inquiries.listThreads(projectId);
      assert.deepEqual(threads.map((t) => [t.subject, t.status]), [['Welcome', 'AwaitingResponse']]);
      const notes = await db!.store.inquiries.listNotes(threads[0]!.id);
      assert.deepEqual(notes.map((n) => [n.text, n.visibleToApplicant]), [['Tell us about your roof.', true]]);
      assert.equal((await project(projectId)).version, 0);
      const rows = await audit(projectId);
      assert.deepEqual(rows.map((r) => r.action).sort(), ['automation.run', 'automation.run', 'inquiry.thread.open', 'project.create']);
      assert.deepEqual(await actionRows(projectId), ['inquiry.thread.open welcome']);
      const applicantId = (await db!.store.accounts.findUserByEmail(applicant.email))!.id;
      assert.ok(rows.every((r) => r.actorId === applicantId), 'recorded on behalf of the triggering user');
      // The question is a staff note (inquiry.note_added by staff) in turn: staff-noted waits for it, but its condition is not met.
      assert.deepEqual((await runs(projectId)).map((r) => [r.automation, r.trigger, r.depth, r.outcome]), [
        ['welcome', 'project.created', 1, 'ran'], ['staff-noted', 'inquiry.note_added staff', 2, 'skipped'],
      ]);
    });

    it('a submission over 10 kW runs the chain in order: move, assign least-loaded, flag, move on, mail; one version bump; depth 4 skipped', async () => {
      const projectId = await submitted({ Size: '12.5', Note: 'roof' });
      const p = await project(projectId);
      assert.equal(p.statusId, statusOf('Review'));
      assert.equal(p.version, 2, 'created (0), draft (1), submission with its automations (2)');
      assert.ok(engineerIds.includes(p.assigneeId!));
      assert.equal(await value(projectId, 'Big'), 'true');
      assert.equal(await value(projectId, 'Label'), 'big: 12.5');
      const history = (await db!.store.projects.getHistory(projectId)).map((h) => h.statusId);
      assert.deepEqual(new Set(history), new Set([statusOf('Unsubmitted'), statusOf('Submitted'), statusOf('Engineering'), statusOf('Review')]));
      const detail = (await runs(projectId)).map((r) => [r.automation, r.trigger, r.depth, r.outcome]);
      assert.deepEqual(detail, [
        ['welcome', 'project.created', 1, 'ran'],
        ['staff-noted', 'inquiry.note_added staff', 2, 'skipped'],
        ['draft-saved', 'form.saved Application', 1, 'partly ran'],
        ['big-to-engineering', 'form.submitted Application', 1, 'ran'],
        ['left-submitted', 'status.left Submitted', 2, 'ran'],
        ['flag-big', 'status.entered Engineering', 2, 'ran'],
        ['big-to-review', 'field.changed Big', 3, 'ran'],
        ['review-mail', 'status.entered Review', 4, 'skipped'],
        ['deep', 'status.entered Review', 4, 'skipped'],
      ]);
      const skipped = (await runs(projectId)).find((r) => r.automation === 'deep')!;
      assert.match(String(skipped.reason), /deeper than 3/);
      // Every action of the chain is audited as the automation, and its events say so.
      assert.deepEqual(await actionRows(projectId), [
        'automation.event big-to-review', 'automation.event left-submitted', 'inquiry.thread.open welcome',
        'project.assignee.set big-to-engineering', 'project.field.set flag-big', 'project.field.set flag-big',
        'project.status.set big-to-engineering', 'project.status.set big-to-review',
      ]);
    });

    it('the condition decides: a small system stays Submitted, and the run is recorded as skipped', async () => {
      const projectId = await submitted({ Size: '6' });
      assert.equal((await project(projectId)).statusId, statusOf('Submitted'));
      const run = (await runs(projectId)).find((r) => r.automation === 'big-to-engineering')!;
      assert.deepEqual([run.outcome, run.reason], ['skipped', 'the condition is not met']);
    });

    it('leastLoaded assigns the engineer with the fewest open projects', async () => {
      const loads = async () => Promise.all(engineerIds.map(async (id) => (await db!.store.projects.countOpenAssigned(model.program.id, [id], [statusOf('Approved')])).get(id) ?? 0));
      const before = await loads();
      const projectId = await submitted({ Size: '11' });
      const chosen = (await project(projectId)).assigneeId!;
      assert.equal(before[engineerIds.indexOf(chosen)], Math.min(...before));
    });

    it("attachment.uploaded sets a field; attachment.reviewed (Rejected) mails the role's holders", async () => {
      const projectId = await newProject();
      const up = await uploadPlan(projectId);
      assert.equal(up.statusCode, 200, up.body);
      assert.equal(await value(projectId, 'Note'), 'plan in');
      const mails = async () => (await db!.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.subject.startsWith('Plan rejected'));
      const before = (await mails()).length;
      await ok(call(admin, 'POST', `Projects/${projectId}/Attachments/Plan/Metadata`, `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Reject" Note="blurry"/>`));
      const sent = (await mails()).slice(0, (await mails()).length - before);
      assert.deepEqual(sent.map((m) => m.to).sort(), ENGINEERS.map((e) => e.email).sort());
    });

    it('sendMail to the owner goes through the mail queue with the placeholders filled in', async () => {
      const projectId = await newProject();
      await ok(draft(projectId, { Size: '3' }));
      await ok(submit(projectId));
      // Staff move it to Review themselves: status.entered Review at depth 1 mails the owner.
      await ok(call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="Review"/>`));
      const number = (await project(projectId)).number!;
      const mail = (await db!.store.mail.listMail()).find((m) => m.subject === `${number} in review`);
      assert.ok(mail, 'a mail was queued');
      assert.equal(mail.to, applicant.email);
      assert.match(mail.text, new RegExp(`Your project ${number} is now Review: http://apas.test/MvcProjects/LandingPage\\?`));
    });

    it("an automation that cannot act is skipped and recorded; the person's change commits", async () => {
      // form.saved: Note refuses the value (maxLength 12), so that action and the rest of its automation are skipped.
      // (Conditions see the project's data, not a draft's unsubmitted changes: the draft's Size is not read.)
      const projectId = await newProject();
      await ok(draft(projectId, { Size: '150' }));
      const run = (await runs(projectId)).find((r) => r.automation === 'draft-saved')!;
      assert.equal(run.outcome, 'partly ran');
      assert.deepEqual((run.actions as { do: string; outcome: string; reason: string }[]).map((a) => [a.do, a.outcome]), [['setField', 'skipped'], ['emitEvent', 'skipped']]);
      assert.match((run.actions as { reason: string }[])[0]!.reason, /refuses the value: Note allows at most 12 characters/);
      assert.match((run.actions as { reason: string }[])[1]!.reason, /an earlier action could not run/);
      const drafted = await db!.store.projects.getDraft(projectId, model.forms[0]!.id);
      assert.deepEqual(drafted.map((v) => v.value), ['150'], 'the draft was saved');
      assert.equal(await value(projectId, 'Note'), null);
    });

    it('inquiry.note_added by staff and by the applicant: a move the workflow does not allow is skipped, the reply kept', async () => {
      const projectId = await newProject();
      const [thread] = await db!.store.inquiries.listThreads(projectId);
      // The applicant's reply (on the project page) triggers applicant-replied: Unsubmitted cannot move to Approved.
      const reply = await postReplyWith({ app: app! }, basic(applicant), { ProgramId: model.program.id, ProjectId: projectId, ThreadId: thread!.id, Text: 'Flat roof.' });
      assert.ok(reply.statusCode < 400, reply.body);
      assert.equal((await db!.store.inquiries.listNotes(thread!.id)).length, 2, 'the reply was kept');
      assert.equal((await project(projectId)).statusId, statusOf('Unsubmitted'));
      const run = (await runs(projectId)).find((r) => r.automation === 'applicant-replied')!;
      assert.deepEqual((run.actions as { reason: string }[]).map((a) => a.reason), ['the workflow has no transition from "Unsubmitted" to "Approved"']);
      // A staff note on a project in Review assigns the named engineer.
      const inReview = await submitted({ Size: '2' });
      await ok(call(admin, 'POST', `Projects/${inReview}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="Review"/>`));
      await ok(call(admin, 'POST', `Projects/${inReview}/InquiryNotes`, `<SetInquiryNoteRequest xmlns="${NS}" Subject="Q" VisibleToApplicant="false"><Text>internal</Text></SetInquiryNoteRequest>`));
      assert.equal((await project(inReview)).assigneeId, engineerIds[1]);
    });
    it('the review page lists what the automations did, with the reasons of skips', async () => {
      const projectId = await submitted({ Size: '5' });
      const page = await app!.inject({
        method: 'GET', url: `/MvcProjects/Programs/${model.program.id}/Projects/${projectId}/Review`, headers: { authorization: basic(admin) },
      });
      assert.equal(page.statusCode, 200, page.body);
      const section = /<section aria-labelledby="automations-title">([\s\S]*?)<\/section>/.exec(page.body)?.[1] ?? '';
      assert.match(section, /Large systems go to engineering review<\/td><td>form.submitted Application<\/td><td>skipped<\/td><td>the condition is not met/);
      assert.match(section, /Leaving Submitted<\/td><td>status.left Submitted \(chain link 2\)|Welcome question<\/td><td>project.created<\/td><td>ran<\/td><td>openInquiry: done/);
    });

    it('the demo program: an application above 10 kW AC goes to Engineering Review, assigned to the least-loaded plan reviewer', async () => {
      const demo = '/services/v2/Programs/RES-SOLAR';
      const send = (method: 'GET' | 'POST', path: string, body?: string, type = 'application/xml') => {
        clock.advance();
        return app!.inject({ method, url: `${demo}/${path}`, payload: body, headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, ...(body !== undefined ? { 'content-type': type } : {}) } });
      };
      const created = await send('POST', 'NewProject');
      const projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
      const upload = await app!.inject({
        method: 'POST', url: `${demo}/Projects/${projectId}/Forms/Application/Attachments/SitePlan`, payload: TINY_PDF,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="plan.pdf"' },
      });
      assert.equal(upload.statusCode, 200, upload.body);
      const drafted = await send('POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest(DEMO_APPLICATION));
      assert.equal(drafted.statusCode, 200, drafted.body);
      const done = await send('POST', `Projects/${projectId}/Forms/Application/Draft/Submit`);
      assert.equal(done.statusCode, 200, done.body);
      const program = (await db!.store.programs.findProgram('RES-SOLAR', (await db!.store.accounts.findAgency(DEMO_AGENCY.customId))!.id))!;
      const demoModel = await db!.store.programs.loadProgramModel(program);
      const p = (await db!.store.projects.getProject(program.id, projectId))!;
      assert.equal(p.statusId, demoModel.statuses.find((s) => s.customId === 'EngineeringReview')!.id);
      assert.match(done.body, /CurrentStatus [^>]*Name="Engineering Review"/, 'the submission answers with the status its automations left');
      assert.equal(p.assigneeId, (await db!.store.accounts.findUserByEmail(who('plan reviewer').email))!.id);
      // ApplicantAnswered: the applicant's answer to a question mails the assignee.
      clock.advance();
      const asked = await app!.inject({
        method: 'POST', url: `${demo}/Projects/${projectId}/InquiryNotes`, payload: `<SetInquiryNoteRequest xmlns="${NS}" Subject="Roof" VisibleToApplicant="true"><Text>Which roof?</Text></SetInquiryNoteRequest>`,
        headers: { authorization: basic(admin), 'x-apikey': admin.apiKey, 'content-type': 'application/xml' },
      });
      assert.equal(asked.statusCode, 200, asked.body);
      const threadId = /ThreadId="([^"]+)"/.exec(asked.body)![1]!;
      const reply = await postReplyWith({ app: app! }, basic(applicant), { ProgramId: program.id, ProjectId: projectId, ThreadId: threadId, Text: 'The south one.' });
      assert.ok(reply.statusCode < 400, reply.body);
      const mail = (await db!.store.mail.listMail()).find((m) => m.kind === 'automation' && m.subject === `${program.name}: the applicant answered on project ${p.number}`);
      assert.equal(mail?.to, who('plan reviewer').email);
    });
    it('roundRobin hands projects to the role\'s holders in turn', async () => {
      const assigned: string[] = [];
      for (let i = 0; i < 3; i++) {
        const projectId = await newProject();
        const up = await uploadPlan(projectId);
        assert.equal(up.statusCode, 200, up.body);
        await ok(call(admin, 'POST', `Projects/${projectId}/Attachments/Plan/Metadata`, `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve"/>`));
        assigned.push((await project(projectId)).assigneeId!);
      }
      assert.notEqual(assigned[0], assigned[1]);
      assert.equal(assigned[0], assigned[2]);
      assert.deepEqual(new Set(assigned), new Set(engineerIds));
    });

    it('the change feed carries the automations\' events with Automation, and automation.custom with its EventName', async () => {
      const projectId = await submitted({ Size: '20' });
      const res = await app!.inject({ method: 'GET', url: `/services/v2/Events?after=0&limit=1000&program=${model.program.id}`, headers: { authorization: basic(admin), 'x-apikey': admin.apiKey } });
      assert.equal(res.statusCode, 200, res.body);
      const mine = [...res.body.matchAll(/<Event [^>]*\/>/g)].map((m) => m[0]).filter((e) => e.includes(`ProjectId="${projectId}"`));
      const typed = (e: string) => `${/Type="([^"]+)"/.exec(e)![1]} ${/Automation="([^"]+)"/.exec(e)?.[1] ?? '-'}${/EventName="([^"]+)"/.exec(e) ? ` ${/EventName="([^"]+)"/.exec(e)![1]}` : ''}`;
      const seen = mine.map(typed);
      for (const expected of [
        'project.submitted -', 'project.status_changed big-to-engineering', 'project.assignee_changed big-to-engineering',
        'automation.custom left-submitted left-submitted', 'project.status_changed big-to-review', 'automation.custom big-to-review flagged',
      ]) assert.ok(seen.includes(expected), `${expected} in ${seen.join(', ')}`);
      assert.ok(mine.every((e) => e.includes(`Actor="${applicant.email}"`)), 'the events name the person whose change triggered them');
    });

    it('a refused request runs no automation and changes nothing', async () => {
      const projectId = await newProject();
      const state = async () => ({ project: await project(projectId), runs: await runs(projectId), history: await db!.store.projects.getHistory(projectId) });
      const before = await state();
      // Size must be a number: the save (a form.saved trigger) is refused, and nothing of it or of its automations stays.
      const refused = await draft(projectId, { Size: 'twelve' });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(await state(), before);
      // A move the workflow does not allow (a status.entered trigger) is refused alike.
      const move = await call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="Review"/>`);
      assert.equal(move.statusCode, 409, move.body);
      assert.deepEqual(await state(), before);
    });
  });
}
