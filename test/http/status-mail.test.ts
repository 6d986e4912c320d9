import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ApiError } from '../../src/domain/api-error.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { renderNamedMail } from '../../src/domain/workflow/named-mail.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { type HttpHarness, NS } from '../support/http-harness.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createSubmitted } from './http-helpers.ts';
import { setStatus, sharedWorkflowHarness, urls } from './workflow-helpers.ts';

// The mail of a move into a status: the status's own template when it has one (with the move's reason and message),
// else the program's statusChanged wording; and the program's named templates, rendered for a project by customId.

const RETURNED = {
  subject: '{{programName}}: {{projectNumber}} needs corrections ({{reason}})',
  text: 'Your project {{projectNumber}} went back to {{status}}.\nReason: {{reason}}\n{{message}}\n{{link}}\n',
};
const PROGRAM_WORDING = { subject: 'Now {{status}}: {{projectNumber}}', text: 'Status {{status}}. Reason "{{reason}}". Message "{{message}}".' };
const NAMED = [{ customId: 'Reminder', subject: 'Reminder: {{projectNumber}} is {{status}}', text: 'Please look at {{link}} in {{programName}}. {{reason}}|{{message}}' }];

async function seed(h: HttpHarness): Promise<void> {
  const rows = workflowProgramRows(Date.now());
  rows.program = { ...rows.program, notifications: { statusChanged: PROGRAM_WORDING }, mailTemplates: NAMED };
  rows.statuses[0] = { ...rows.statuses[0]!, reasons: [{ customId: 'Unsigned', name: 'Not signed <yet>' }], reasonRequired: true, mailTemplate: RETURNED };
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

/** Queues the mails of every event so far, and gives those about one project (newest last). */
async function mailsAbout(h: HttpHarness, projectId: string) {
  while ((await consumeOutbox(h.store, mailNotifier({ ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl }))) > 0);
  const events = new Set((await h.store.events.listProjectEvents(projectId)).map((e) => e.id));
  return (await h.store.mail.listMail()).filter((m) => m.eventId !== null && events.has(m.eventId)).sort((a, b) => a.createdAt - b.createdAt);
}

forEachDialect('status mail templates', ({ dialect }) => {
  describe('the mail of a status move, and named templates', () => {
    const harness = sharedWorkflowHarness(dialect);
    before(async () => {
      await seed(harness());
    });

    it('uses the status\'s own template with the reason\'s name and the message, escaped in HTML', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      h.clock.advance();
      const body = `<SetProjectStatusRequest xmlns="${NS}" StatusId="draft" ReasonId="Unsigned"><Message>Sign page 2 &lt;b&gt;today&lt;/b&gt;.</Message></SetProjectStatusRequest>`;
      const res = await h.request({ method: 'POST', url: urls.status(projectId), body });
      assert.equal(res.statusCode, 200, res.body);
      const mails = await mailsAbout(h, projectId);
      const mail = mails.at(-1)!;
      assert.equal(mail.to, h.who.applicant.email);
      assert.equal(mail.subject, `Solar Interconnection: ${number} needs corrections (Not signed <yet>)`);
      assert.match(mail.text, new RegExp(`^Your project ${number} went back to Draft\\.\\nReason: Not signed <yet>\\nSign page 2 <b>today</b>\\.\\nhttp://apas\\.test/`));
      assert.match(mail.html, /Reason: Not signed &#60;yet&#62;\nSign page 2 &#60;b&#62;today&#60;\/b&#62;\./);
    });

    it('uses the program\'s wording for a status without a template, with empty reason and message', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      await setStatus(h, projectId, WF.approved);
      const mail = (await mailsAbout(h, projectId)).at(-1)!;
      assert.equal(mail.subject, `Now Approved: ${number}`);
      assert.equal(mail.text, 'Status Approved. Reason "". Message "".');
    });

    it('renders a named template for a project by customId, and names the templates when one is unknown', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      const program = (await h.store.programs.findProgram(IDS.program))!;
      const project = (await h.store.projects.getProject(IDS.program, projectId))!;
      const mail = await renderNamedMail(h.store, program, project, 'Reminder', { publicUrl: h.config.publicUrl, reasonId: 'Unsigned', message: 'hi' });
      assert.equal(mail.subject, `Reminder: ${number} is Submitted`);
      // The reason is named by the project's current status's list, which for Submitted has none: its key stands.
      assert.equal(mail.text, `Please look at http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId} in Solar Interconnection. Unsigned|hi`);
      assert.match(mail.html, /<a href="http:\/\/apas\.test\/MvcProjects\/LandingPage\?ProgramId=[^"]+&#38;ProjectId=/);
      const inTx = await h.store.transaction((tx) => renderNamedMail(tx, program, project, 'Reminder', { publicUrl: h.config.publicUrl }));
      assert.equal(inTx.text.endsWith('|'), true, 'no reason or message: empty');
      await assert.rejects(renderNamedMail(h.store, program, project, 'Nope', { publicUrl: h.config.publicUrl }),
        (e: ApiError) => e.code === 'NOT_FOUND' && /has no mail template "Nope"; its templates are Reminder/.test(e.message));
    });
  });
});
