import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { formatDueDate } from '../../src/web/format-time.ts';
import { assertAccessible, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// Deadlines in a real browser: the plan reviewer starts the demo's answer deadline and its hidden reminder on the
// review page (plain forms, no script), sees state and due date; the applicant's project page shows "Answer due by
// <day>" and not the hidden one; the work queue shows the deadline due first; satisfying it takes it off the
// applicant's page.

const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.grant === 'Reviewer')!;
const APPLICANT = DEMO_CREDENTIALS.find((c) => c.role === 'applicant')!;

describe('web: deadlines on the review page and the applicant\'s project page', () => {
  let server: WebServer;
  let browser: Browser;
  let project: { projectId: string; number: string };
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    project = await submitApplication(server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('staff start and satisfy deadlines with the review page\'s forms; the applicant sees the ones shown to them', async () => {
    const review = await (await browser.newContext()).newPage();
    await signIn(review, server.baseUrl, PLAN_REVIEWER, `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`);
    await review.getByRole('heading', { name: 'Deadlines' }).waitFor();
    await review.getByRole('button', { name: 'Start Answer due' }).click();
    await review.getByText('The deadline was changed.').waitFor();
    await review.getByRole('button', { name: 'Start Answer reminder' }).click();
    await review.getByText('The deadline was changed.').waitFor();
    const rows = await server.store.deadlines.listProjectDeadlines(project.projectId);
    const answer = rows.find((r) => r.deadlineId === 'AnswerDue')!;
    assert.equal(answer.state, 'running');
    const row = review.locator('#deadline-AnswerDue');
    assert.match(await row.innerText(), new RegExp(`Running\\s+by ${formatDueDate(answer.dueDate)}`));
    await review.getByRole('button', { name: 'Satisfy Answer due' }).waitFor();
    await assertAccessible(review);

    // The work queue's row shows the running deadline due first: the 7-day reminder, before the 10-day answer.
    const reminder = rows.find((r) => r.deadlineId === 'AnswerReminder')!;
    const queue = await review.context().newPage();
    await queue.goto(`${server.baseUrl}/Projects/ProjectList?ProgramId=${server.programId}`);
    const queueRow = queue.getByRole('row').filter({ hasText: project.number });
    assert.match(await queueRow.innerText(), new RegExp(`Answer reminder by ${formatDueDate(reminder.dueDate)}`));
    await queue.close();

    const mine = await (await browser.newContext()).newPage();
    await signIn(mine, server.baseUrl, APPLICANT, `/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${project.projectId}`);
    await mine.getByRole('heading', { name: 'Deadlines' }).waitFor();
    assert.deepEqual(await mine.locator('ul.deadlines li').allInnerTexts(), [`Answer due by ${formatDueDate(answer.dueDate)}`]);
    await assertAccessible(mine);

    await review.getByRole('button', { name: 'Satisfy Answer due' }).click();
    await review.getByText('The deadline was changed.').waitFor();
    assert.match(await review.locator('#deadline-AnswerDue').innerText(), /Satisfied/);
    assert.equal((await server.store.deadlines.listProjectDeadlines(project.projectId)).find((r) => r.deadlineId === 'AnswerDue')?.state, 'satisfied');
    await mine.reload();
    assert.equal(await mine.getByRole('heading', { name: 'Deadlines' }).count(), 0, 'no running deadline is shown to the applicant any more');
    await review.context().close();
    await mine.context().close();
  });
});
