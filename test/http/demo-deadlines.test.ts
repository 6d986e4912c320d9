import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fireDueDeadlines } from '../../src/domain/deadlines/deadline-poller.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { formatDueDate } from '../../src/domain/calendar/format-due-date.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DIALECTS } from '../support/databases.ts';
import { basicAuth, demoApi, demoUser } from '../support/demo-api.ts';
import { NS } from '../support/http-harness.ts';
import { postReplyWith } from './inquiry-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

// The demo program's deadlines driven by its automations (programs/residential-solar.yaml; docs/programs.md,
// "Automations" and "Calendar and deadlines"): a question the applicant sees starts the answer deadlines, the answer
// meets them, an unanswered one reminds the owner after 7 business days and withdraws the project after 20; the
// inspection deadline runs while the project waits for its inspection. Passing deadlines fire through the poller.

for (const dialect of DIALECTS) {
  describe(`the demo's deadlines and the automations that start, meet and act on them [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const { ok, clock, submitted } = demo;
    const [admin, applicant] = [demoUser('admin'), demoUser('applicant')];

    async function ask(projectId: string, visible: boolean): Promise<string> {
      const body = `<SetInquiryNoteRequest xmlns="${NS}" Subject="Roof" VisibleToApplicant="${visible}"><Text>Which roof?</Text></SetInquiryNoteRequest>`;
      return /ThreadId="([^"]+)"/.exec(await ok(demo.call(admin, 'POST', `Projects/${projectId}/InquiryNotes`, body)))![1]!;
    }
    /** The applicant's answer on the project page (the web form, with its CSRF token). */
    async function answer(projectId: string, threadId: string): Promise<void> {
      clock.advance();
      const reply = await postReplyWith(demo, basicAuth(applicant), { ProgramId: demo.model.program.id, ProjectId: projectId, ThreadId: threadId, Text: 'The south one.' });
      assert.ok(reply.statusCode < 400, reply.body);
    }
    const deadlines = async (projectId: string) => Object.fromEntries(
      (await demo.db.store.deadlines.listProjectDeadlines(projectId)).map((d) => [d.deadlineId, d.state]),
    );
    const dueAt = async (projectId: string, deadlineId: string) => (await demo.db.store.deadlines.listProjectDeadlines(projectId)).find((d) => d.deadlineId === deadlineId)!.dueAt;
    const statusOf = async (projectId: string) => {
      const p = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;
      return demo.model.statuses.find((s) => s.id === p.statusId)!.customId;
    };
    const fire = () => fireDueDeadlines({ store: demo.db.store, clock, ids: new RandomIdGenerator(), reactions: changeReactions() });

    it('a question the applicant sees starts the three answer deadlines (an internal note none); the answer meets them', async () => {
      const projectId = await submitted();
      await ask(projectId, false);
      assert.deepEqual(await deadlines(projectId), {}, 'an internal note starts nothing');
      const threadId = await ask(projectId, true);
      assert.deepEqual(await deadlines(projectId), { AnswerDue: 'running', AnswerReminder: 'running', AnswerWithdraw: 'running' });
      const started = (await demo.db.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'deadline.started');
      assert.deepEqual(started.map((e) => [(e.data as { deadlineId?: string }).deadlineId, (e.data as { automation?: string }).automation]), [
        ['AnswerDue', 'QuestionAsked'], ['AnswerReminder', 'QuestionAsked'], ['AnswerWithdraw', 'QuestionAsked'],
      ]);
      // The question's mail to the applicant says by when to answer: the deadlines they are shown (not the reminder).
      while ((await consumeOutbox(demo.db.store, mailNotifier({ ids: new RandomIdGenerator(), publicUrl: 'http://apas.test' }))) > 0);
      const rows = await demo.db.store.deadlines.listProjectDeadlines(projectId);
      const day = (id: string) => formatDueDate(rows.find((d) => d.deadlineId === id)!.dueDate);
      const question = (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'question' && m.to === applicant.email).at(-1)!;
      assert.match(question.text, new RegExp(`\\.\\nAnswer due by ${day('AnswerDue')}\\.\\nWithdrawal without an answer by ${day('AnswerWithdraw')}\\.\\nRead and answer it`));
      await answer(projectId, threadId);
      assert.deepEqual(await deadlines(projectId), { AnswerDue: 'satisfied', AnswerReminder: 'cancelled', AnswerWithdraw: 'cancelled' });
    });

    it('unanswered: after 7 business days the owner is reminded, after 20 the project is withdrawn, each once', async () => {
      const projectId = await submitted();
      await ask(projectId, true);
      const number = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.number;
      const reminders = async () => (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.subject.includes(`please answer our question about project ${number}`));
      clock.time = await dueAt(projectId, 'AnswerReminder');
      await fire();
      await fire();
      assert.equal((await deadlines(projectId)).AnswerReminder, 'passed');
      assert.deepEqual((await reminders()).map((m) => m.to), [applicant.email], 'one reminder, to the owner');
      assert.equal(await statusOf(projectId), 'ApplicationReview');
      clock.time = await dueAt(projectId, 'AnswerWithdraw');
      await fire();
      assert.deepEqual(await deadlines(projectId), { AnswerDue: 'passed', AnswerReminder: 'passed', AnswerWithdraw: 'passed' });
      assert.equal(await statusOf(projectId), 'Withdrawn');
      assert.equal((await reminders()).length, 1);
    });

    it('the inspection deadline runs from InspectionPending until the project leaves it', async () => {
      const projectId = await submitted();
      for (const to of ['ApprovedForInstallation', 'InspectionPending']) {
        await ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="${to}"/>`));
      }
      assert.deepEqual(await deadlines(projectId), { InspectionDue: 'running' });
      // Its start tells the applicant by when (InspectionScheduled); its being met tells integrations (InspectionOnTime).
      const number = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.number!;
      const scheduled = (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.subject.includes(`your inspection for project ${number}`));
      assert.deepEqual(scheduled.map((m) => m.to), [applicant.email]);
      const due = (await demo.db.store.deadlines.listProjectDeadlines(projectId))[0]!.dueDate;
      assert.match(scheduled[0]!.text, new RegExp(`\\nInspection due by ${formatDueDate(due)}\\.\\n`));
      const custom = async () => (await demo.db.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'automation.custom').map((e) => (e.data as { name?: string }).name);
      assert.deepEqual(await custom(), ['application-started']);
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="PermissionToOperate"/>`));
      assert.deepEqual(await deadlines(projectId), { InspectionDue: 'satisfied' });
      assert.deepEqual(await custom(), ['application-started', 'inspection-on-time']);
    });
  });
}
