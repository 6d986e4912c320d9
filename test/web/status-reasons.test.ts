import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// The review page's status form with a reason and a message, in a real browser and without script: the demo's
// rejection needs a reason, so a move without one is refused beside the form (keeping what was typed) and changes
// nothing; with one, the reason and message show in the history, for staff and for the applicant.

describe('web: status change with a reason', () => {
  let server: WebServer;
  let browser: Browser;
  let project: { projectId: string; number: string };
  let reviewUrl = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    project = await submitApplication(server);
    reviewUrl = `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const state = async () => ({
    project: await server.store.projects.getProject(server.programId, project.projectId),
    history: await server.store.projects.getHistory(project.projectId),
  });

  it('refuses a rejection without a reason, keeping the typed message, then rejects with one and shows it', async () => {
    const page: Page = await (await browser.newContext()).newPage();
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    await signIn(page, server.baseUrl, DEMO.admin, reviewUrl);
    await page.getByRole('heading', { name: `Review ${project.number}` }).waitFor();
    await page.getByText('A move to “Application Rejected” needs a reason.', { exact: false }).waitFor();
    const groups = await page.locator('#review-reason optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')));
    assert.deepEqual(groups, ['Approved for Installation', 'Application Rejected'], 'reasons grouped by the status that lists them');

    const before = await state();
    const message = 'The roof plan shows 14 kW AC.\nThe program takes up to 10 kW AC. <b>Sorry</b>';
    await page.getByLabel('Move to status').selectOption({ label: 'Application Rejected' });
    await page.getByLabel('Message (optional)').fill(message);
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('A move to "Application Rejected" needs a reason (ReasonId)').first().waitFor();
    assert.deepEqual(await state(), before, 'the refused move changed nothing');
    assert.equal(await page.getByLabel('Message (optional)').inputValue(), message, 'the typed message is kept');
    assert.equal(await page.getByLabel('Move to status').locator('option:checked').textContent(), 'Application Rejected');

    await page.getByLabel('Reason').selectOption({ label: 'System larger than the program allows' });
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('The status was changed.').waitFor();
    const history = await server.store.projects.getHistory(project.projectId);
    assert.deepEqual([history[0]!.reasonId, history[0]!.message], ['OverSize', message], 'the browser\'s CRLF is kept as LF');
    const row = page.locator('section[aria-labelledby="history-title"] tbody tr').first();
    await row.getByText('System larger than the program allows').waitFor();
    assert.equal(await row.locator('.reason-message').textContent(), message);
    assert.equal(dialogs, 0, 'no script ran');
    await assertAccessible(page);
    await screenshot(page, 'review-status-reason');
    await page.context().close();

    // The applicant reads why on the project page.
    const applicant = await (await browser.newContext()).newPage();
    await signIn(applicant, server.baseUrl, DEMO.applicant, `/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${project.projectId}`);
    const line = applicant.locator('tbody.history tr').first();
    await line.getByText('Application Rejected').waitFor();
    await line.getByText('System larger than the program allows').waitFor();
    assert.equal(await line.locator('.reason-message').textContent(), message);
    await assertAccessible(applicant);
    await applicant.context().close();
  });
});
