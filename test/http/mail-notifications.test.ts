import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BackgroundWork, startBackgroundWork } from '../../src/domain/events/background-work.ts';
import { eventTasks } from '../../src/domain/wiring/event-tasks.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createSubmitted, ownerRequest, projectPath, send } from './http-helpers.ts';
import { addNote } from './inquiry-helpers.ts';
import { assigneeRequest, setStatus, sharedWorkflowHarness, statusRequest, urls } from './workflow-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

const HOSTILE_PROGRAM = 'Solar <script>alert("p")</script> & Co';
const HOSTILE_STATUS = 'Approved <img src=x onerror=alert(1)>';
const FROM = 'APAS <noreply@apas.test>';

/** Renames the workflow program and its final status to names with markup, so the HTML mails must escape them. */
async function hostileNames(h: HttpHarness, notifications: Parameters<typeof withTemplates>[1] = null): Promise<void> {
  await withTemplates(h, notifications);
}

async function withTemplates(h: HttpHarness, notifications: Record<string, { subject: string; text: string }> | null): Promise<void> {
  const rows = workflowProgramRows(h.clock.advance());
  rows.program = { ...rows.program, name: HOSTILE_PROGRAM, notifications };
  rows.statuses = rows.statuses.map((s) => (s.id === WF.approved ? { ...s, name: HOSTILE_STATUS } : s));
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

/** One pass of what the background work does: queue mails from the outbox, then send what is due. */
async function deliver(h: HttpHarness, smtp: SmtpCapture): Promise<void> {
  const ids = new RandomIdGenerator();
  while ((await consumeOutbox(h.store, mailNotifier({ ids, publicUrl: h.config.publicUrl }))) > 0);
  const mailer = smtpMailer(smtp.url, FROM);
  try {
    await sendDueMail({ store: h.store, clock: h.clock, mailer });
  } finally {
    mailer.close();
  }
}

/** The path and query of an absolute link of the service, for app.inject. */
function localPath(link: string): string {
  const url = new URL(link);
  assert.equal(url.origin, 'http://apas.test');
  return `${url.pathname}${url.search}`;
}

/** The first landing-page link of a mail's text. */
function linkOf(text: string): string {
  const m = /http:\/\/apas\.test\/MvcProjects\/LandingPage\?\S+/.exec(text);
  assert.ok(m, `no landing-page link in\n${text}`);
  return m[0];
}

forEachDialect('notification mails', ({ dialect }) => {
  describe('from the outbox to the applicant and staff mailboxes', () => {
    const harness = sharedWorkflowHarness(dialect);
    let smtp: SmtpCapture;
    before(async () => {
      smtp = await startSmtpCapture();
    });
    after(async () => {
      await smtp.stop();
    });

    it('mails the applicant a status change and a question, and the assignee their assignment, through the background work', async () => {
      const h = harness();
      await hostileNames(h);
      const work: BackgroundWork = startBackgroundWork(eventTasks({
        store: h.store, clock: h.clock, ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl,
        mailer: smtpMailer(smtp.url, FROM), mailIntervalMs: 20, reactions: changeReactions(),
      }), { warn: (fields, message) => assert.fail(`${message} ${JSON.stringify(fields)}`) });
      try {
        const start = smtp.messages.length;
        const { projectId, number } = await createSubmitted(h, 'applicant');
        await setStatus(h, projectId, WF.approved);
        await addNote(h, projectId, { subject: 'Roof', text: 'Which roof?', visible: true });
        await addNote(h, projectId, { subject: 'Staff only', text: 'internal only', visible: false });
        h.clock.advance();
        const assigned = await h.request({ method: 'POST', url: urls.assignee(projectId), body: assigneeRequest(h.who.editor.email) });
        assert.equal(assigned.statusCode, 200, assigned.body);
        h.clock.advance();
        const self = await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'editor', body: assigneeRequest(h.who.editor.email) });
        assert.equal(self.statusCode, 200, self.body);
        await smtp.waitFor(start + 3);
        await new Promise((r) => setTimeout(r, 200));

        const applicant = smtp.mailbox(h.who.applicant.email);
        // The applicant's own submission (a status change too) is not mailed to them, nor is an internal note.
        assert.deepEqual(applicant.map((m) => m.subject), [
          `${HOSTILE_PROGRAM}: project ${number} is now ${HOSTILE_STATUS}`,
          `${HOSTILE_PROGRAM}: a question about project ${number}`,
        ]);
        const editor = smtp.mailbox(h.who.editor.email);
        assert.deepEqual(editor.map((m) => m.subject), [`${HOSTILE_PROGRAM}: project ${number} was assigned to you`]);
        assert.equal(smtp.messages.length, start + 3, 'nothing else was mailed (no internal note, no self-assignment)');
        for (const mail of [...applicant, ...editor]) {
          assert.equal(mail.from, 'noreply@apas.test');
          assert.ok(mail.text.includes(HOSTILE_PROGRAM), 'the text part carries the names as they are');
          assert.ok(!mail.html.includes('<script>') && !mail.html.includes('<img'), `markup of names is escaped:\n${mail.html}`);
          assert.ok(mail.html.includes('Solar &#60;script&#62;alert(&#34;p&#34;)&#60;/script&#62; &#38; Co'), mail.html);
          const link = linkOf(mail.text);
          assert.ok(mail.html.includes(`<a href="${link.replaceAll('&', '&#38;')}">`), 'the HTML part links to the same page');
          assert.equal(new URL(link).searchParams.get('ProjectId'), projectId);
        }
        assert.ok(applicant[0]!.html.includes('Approved &#60;img src=x onerror=alert(1)&#62;'));

        // The link opens the project's landing page once signed in (and only then).
        const path = localPath(linkOf(applicant[0]!.text));
        const anonymous = await h.app.inject({ method: 'GET', url: path });
        assert.notEqual(anonymous.statusCode, 200);
        const page = await h.app.inject({ method: 'GET', url: path, headers: { authorization: `Basic ${Buffer.from(`${h.who.applicant.email}:${h.who.applicant.password}`).toString('base64')}` } });
        assert.equal(page.statusCode, 200, page.body);
        assert.ok(page.body.includes(number), 'the landing page shows the project');
        const queued = await h.store.mail.listMail();
        assert.ok(queued.every((m) => m.status === 'sent' && m.attempts === 1));
      } finally {
        await work.stop();
      }
    });

    it('a refused request queues no mail', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      await deliver(h, smtp);
      const before = { mail: await h.store.mail.listMail(), sent: smtp.messages.length };
      h.clock.advance();
      const refused = await send(h, 'applicant', { method: 'POST', url: urls.status(projectId), body: statusRequest(WF.approved) });
      assert.equal(refused.statusCode, 403, refused.body);
      const wrongAssignee = await send(h, 'admin', { method: 'POST', url: urls.assignee(projectId), body: assigneeRequest('nobody@example.org') });
      assert.ok(wrongAssignee.statusCode >= 400 && wrongAssignee.statusCode < 500, wrongAssignee.body);
      await deliver(h, smtp);
      assert.deepEqual(await h.store.mail.listMail(), before.mail);
      assert.equal(smtp.messages.length, before.sent);
    });

    it('while the mail server is down messages wait (the request succeeds); they go out once it is back', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      await deliver(h, smtp);
      const start = smtp.messages.length;
      await smtp.stop();
      try {
        await setStatus(h, projectId, WF.approved);
        await deliver(h, smtp);
        let [waiting] = await h.store.mail.listMail('pending');
        assert.ok(waiting, 'the message is queued');
        assert.equal(waiting.attempts, 1);
        assert.match(waiting.lastError ?? '', /ECONNREFUSED|connect/i);
        assert.ok(waiting.nextAttemptAt > h.clock.now(), 'the next attempt waits');
        // Not due yet: another round does not try again.
        await deliver(h, smtp);
        [waiting] = await h.store.mail.listMail('pending');
        assert.equal(waiting?.attempts, 1);
        h.clock.advance(10 * 60_000);
        await deliver(h, smtp);
        [waiting] = await h.store.mail.listMail('pending');
        assert.equal(waiting?.attempts, 2, 'retried when due, failed again');
      } finally {
        await smtp.start();
      }
      assert.equal(smtp.messages.length, start);
      h.clock.advance(60 * 60_000);
      await deliver(h, smtp);
      await smtp.waitFor(start + 1);
      assert.match(smtp.messages.at(-1)!.subject, new RegExp(`${number} is now`));
      assert.deepEqual(await h.store.mail.listMail('pending'), []);
      const sent = (await h.store.mail.listMail('sent')).at(-1)!;
      assert.equal(sent.attempts, 3);
    });

    it('with mail off the mail cursor follows the outbox without queueing, so turning mail on later mails nothing old', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      await setStatus(h, projectId, WF.approved);
      const before = await h.store.mail.listMail();
      const [off] = eventTasks({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl, mailer: null, mailIntervalMs: 1000, reactions: changeReactions() });
      while (await off!.run());
      assert.equal(await h.store.events.readCursor('mail'), await h.store.events.lastSequence());
      assert.deepEqual(await h.store.mail.listMail(), before);
      await deliver(h, smtp);
      assert.deepEqual(await h.store.mail.listMail(), before);
    });

    it('mails the owner as of the change: after a handover the previous owner still gets the mails of changes before it', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      await deliver(h, smtp);
      const start = smtp.messages.length;
      // Changes while the applicant owns the project, then the handover, all before the mail round runs.
      await setStatus(h, projectId, IDS.draft);
      await addNote(h, projectId, { subject: 'Roof', text: 'Which roof?', visible: true });
      h.clock.advance();
      const handover = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Owner`, body: ownerRequest(h.who.otherApplicant.email) });
      assert.equal(handover.statusCode, 200, handover.body);
      // A change after the handover is the new owner's.
      await setStatus(h, projectId, IDS.submitted);
      await deliver(h, smtp);
      await smtp.waitFor(start + 3);
      await new Promise((r) => setTimeout(r, 100));
      const mails = smtp.messages.slice(start);
      // The program's name depends on the tests before (a shared harness), so only what follows it is compared.
      const subjects = (email: string) => mails.filter((m) => m.to.toLowerCase() === email.toLowerCase()).map((m) => m.subject.replace(/^.*: /, ''));
      assert.deepEqual(subjects(h.who.applicant.email), [`project ${number} is now Draft`, `a question about project ${number}`],
        'the owner at the time of each change is mailed about it');
      assert.deepEqual(subjects(h.who.otherApplicant.email), [`project ${number} is now Submitted`], 'the new owner hears only of changes since the handover');
      assert.equal(mails.length, 3);
    });

    it("a program's own templates are used, with every placeholder filled in and escaped in HTML", async () => {
      const h = harness();
      await withTemplates(h, {
        statusChanged: { subject: '[{{programName}}] {{projectNumber}} → {{status}}', text: 'Dear applicant,\n{{projectNumber}} is {{status}} <b>now</b>.\nOpen: {{link}}' },
      });
      const { projectId, number } = await createSubmitted(h, 'applicant');
      const start = smtp.messages.length;
      await setStatus(h, projectId, WF.approved);
      await addNote(h, projectId, { subject: 'Q', text: 'Why?', visible: true });
      await deliver(h, smtp);
      await smtp.waitFor(start + 2);
      const [status, question] = smtp.messages.slice(start);
      assert.equal(status!.subject, `[${HOSTILE_PROGRAM}] ${number} → ${HOSTILE_STATUS}`);
      assert.equal(status!.text.trim(), `Dear applicant,\n${number} is ${HOSTILE_STATUS} <b>now</b>.\nOpen: ${linkOf(status!.text)}`);
      assert.ok(status!.html.includes('&#60;b&#62;now&#60;/b&#62;'), 'the template\'s own text is escaped too');
      assert.ok(!status!.html.includes('<b>') && !status!.html.includes('<img'));
      // Kinds the program does not word use the default.
      assert.equal(question!.subject, `${HOSTILE_PROGRAM}: a question about project ${number}`);
      assert.equal(new URL(linkOf(status!.text)).searchParams.get('ProgramId'), IDS.program);
    });
  });
});
