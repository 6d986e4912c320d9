import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { projectPagePath } from '../../src/web/web-paths.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness } from '../support/http-harness.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createSubmitted } from './http-helpers.ts';
import { csrfFrom, webGet } from './web-page-helpers.ts';
import { assigneeRequest, setStatus, sharedWorkflowHarness, urls } from './workflow-helpers.ts';

// The mails a project's owner was sent about it, on the project page (applicant) and the review page (staff): read
// from the mail queue, only the owner's and only about that project, with date, kind, subject and whether it went out;
// never a mail's text, and never a link's secret.

const review = (projectId: string) => `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review`;

/** The rows of the page's mail table as [kind, subject, state] (the When cell left out). */
function mailRows(html: string): string[][] {
  const section = /<section aria-labelledby="mails-title">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
  return [...section.matchAll(/<tr><td><time[^>]*>[^<]*<\/time><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1]!, m[2]!, m[3]!]);
}

async function bulkMail(h: HttpHarness, projectIds: string[]): Promise<void> {
  const pair = await csrfFrom(h, 'admin');
  const body = new URLSearchParams({ _csrf: pair.token, ProgramId: IDS.program, BulkKey: randomUUID(), Action: 'mail', Template: 'nudge' });
  for (const id of projectIds) body.append('ProjectId', id);
  h.clock.advance();
  const res = await h.app.inject({
    method: 'POST', url: '/Projects/ProjectList/Bulk', payload: body.toString(),
    headers: { authorization: authHeaders(h.who.admin).authorization!, 'content-type': 'application/x-www-form-urlencoded', cookie: pair.cookie },
  });
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
}

forEachDialect('Mails to the owner on the project and review pages', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);
  before(async () => {
    const rows = workflowProgramRows(Date.now());
    rows.program = { ...rows.program, mailTemplates: [{ customId: 'nudge', subject: 'About {{projectNumber}}', text: 'Project {{projectNumber}}: {{link}}' }] };
    await harness().store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
  });

  it('lists the bulk message and the status mail of the owner, on both pages, and nothing of other projects or people', async () => {
    const h = harness();
    const mine = await createSubmitted(h, 'applicant');
    const quiet = await createSubmitted(h, 'applicant');
    const theirs = await createSubmitted(h, 'otherApplicant');
    await bulkMail(h, [mine.projectId, theirs.projectId]);
    await setStatus(h, mine.projectId, WF.approved);
    // Assigning mails the assignee about the project: that mail is not the owner's.
    const assigned = await h.request({ method: 'POST', url: urls.assignee(mine.projectId), as: 'admin', body: assigneeRequest(h.who.editor.email) });
    assert.equal(assigned.statusCode, 200, assigned.body);
    while ((await consumeOutbox(h.store, mailNotifier({ ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl }))) > 0);
    assert.ok((await h.store.mail.listMail()).some((m) => m.kind === 'assigned' && m.to === h.who.editor.email));

    const page = await webGet(h, projectPagePath(IDS.program, mine.projectId), 'applicant');
    assert.equal(page.statusCode, 200, page.body.slice(0, 300));
    assert.match(page.body, /<h2 id="mails-title">Mails sent to you<\/h2>/);
    const rows = mailRows(page.body);
    assert.deepEqual(rows.map((r) => r[0]).sort(), ['Message from the agency', 'Status change']);
    assert.deepEqual(rows.find((r) => r[0] === 'Message from the agency'), ['Message from the agency', `About ${mine.number}`, 'Waiting to be sent']);
    assert.ok(!page.body.includes(theirs.number), 'another owner\'s mail about another project');
    assert.doesNotMatch(page.body, /Project [^<]*: http/, 'never a mail\'s text');

    const staff = await webGet(h, review(mine.projectId), 'admin');
    assert.equal(staff.statusCode, 200, staff.body.slice(0, 300));
    assert.match(staff.body, new RegExp(`<h2 id="mails-title">Mails sent to the applicant \\(User ${h.who.applicant.id}\\)</h2>`));
    assert.deepEqual(mailRows(staff.body), rows);

    const none = await webGet(h, projectPagePath(IDS.program, quiet.projectId), 'applicant');
    assert.match(none.body, /No mails about this project yet\./);
    assert.equal((await webGet(h, projectPagePath(IDS.program, mine.projectId), 'otherApplicant')).statusCode, 404);
  });

  it('shows whether each mail went out, and never the secret of a link in a subject', async () => {
    const h = harness();
    const mine = await createSubmitted(h, 'applicant');
    const at = h.clock.now();
    await h.store.transaction(async (tx) => {
      await tx.mail.enqueueMail({
        id: 'MAILSECRET01', kind: 'automation', eventId: null, to: h.who.applicant.email, subject: 'Open http://x.test/a?token=s3cr3t-value now',
        text: 'body', html: '<p>body</p>', createdAt: at, projectId: mine.projectId, toUserId: h.who.applicant.id,
      });
      await tx.mail.markMailSent('MAILSECRET01', at + 1, 1);
    });
    const rows = mailRows((await webGet(h, review(mine.projectId), 'admin')).body);
    assert.deepEqual(rows, [['Automatic message', 'Open http://x.test/a?token=[redacted] now', 'Sent']]);
    assert.ok(!(await webGet(h, projectPagePath(IDS.program, mine.projectId), 'applicant')).body.includes('s3cr3t'));
  });
});
