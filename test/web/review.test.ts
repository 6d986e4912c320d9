import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { addReader, HOSTILE, READER, submitApplication } from './staff-fixtures.ts';

// The staff review page in a real browser: assigning, reviewing the file, asking the applicant, moving the workflow.

describe('web: project review', () => {
  let server: WebServer;
  let browser: Browser;
  let project: { projectId: string; number: string };
  let reviewUrl = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    await addReader(server);
    project = await submitApplication(server);
    reviewUrl = `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(who: { email: string; password: string }): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, server.baseUrl, who, reviewUrl);
    await page.getByRole('heading', { name: `Review ${project.number}` }).waitFor();
    return page;
  }

  it('lets the reviewer (an editor) take the project; reviewing files and inquiries are not offered to an editor', async () => {
    const page = await open(DEMO.reviewer);
    await page.getByLabel("Assignee's e-mail address").fill(DEMO.reviewer.email);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByText('The assignee was changed.').waitFor();
    await page.getByText(`${DEMO.reviewer.name} (${DEMO.reviewer.email})`).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Approve/ }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Start thread' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Change status' }).count(), 0);
    await assertAccessible(page);
    await page.context().close();
  });

  it('lets an admin approve the site plan with a note, ask the applicant a question and move the project on', async () => {
    const page = await open(DEMO.admin);
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    // The file name holds markup: shown as text, never as an element.
    await page.getByRole('link', { name: HOSTILE.fileName, exact: true }).waitFor();
    assert.equal(await page.locator('main img').count(), 0);
    await page.getByLabel('Note on Site plan').fill('<b>Setbacks</b> shown.');
    await page.getByRole('button', { name: 'Approve Site plan' }).click();
    await page.getByText('The file review was saved.').waitFor();
    await page.getByText('<b>Setbacks</b> shown.', { exact: true }).first().waitFor();

    await page.getByLabel('Subject').fill('Roof age');
    await page.getByLabel('First note').fill('How old is the roof? <script>alert(1)</script>');
    // A note is internal unless ticked, the first of a thread as every later one; the form says so.
    const visible = page.locator('#thread-visible');
    assert.equal(await visible.isChecked(), false);
    await page.getByText('Left unticked, the note is internal: only staff see it.').first().waitFor();
    await visible.check();
    await page.getByRole('button', { name: 'Start thread' }).click();
    await page.getByText('The thread was started.').waitFor();
    await page.getByText('How old is the roof? <script>alert(1)</script>').waitFor();
    await page.locator('.note-meta').getByText('Visible to the applicant').waitFor();
    await page.locator('.thread .usa-tag').getByText('Awaiting the applicant’s response').waitFor();
    assert.equal(await page.locator('input[id^="note-visible-"]').first().isChecked(), false, 'a later note starts internal too');

    await page.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('The status was changed.').waitFor();
    const options = await page.getByLabel('Move to status').locator('option').allTextContents();
    assert.deepEqual(options.sort(), ['Inspection Pending', 'Withdrawn'], 'only the transitions the workflow allows next');
    assert.equal(dialogs, 0, 'no script ran');
    await assertAccessible(page);
    await screenshot(page, 'review');
    await page.context().close();

    // The question reached the applicant's project page.
    const applicant = await (await browser.newContext()).newPage();
    await signIn(applicant, server.baseUrl, DEMO.applicant, `/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${project.projectId}`);
    await applicant.getByText('How old is the roof? <script>alert(1)</script>').waitFor();
    await applicant.context().close();
  });

  it('offers a reader no action, and the server refuses a reader\'s post anyway', async () => {
    const page = await open(READER);
    assert.deepEqual(await page.getByRole('button').allTextContents(), ['Sign out']);
    await assertAccessible(page);
    await screenshot(page, 'review-reader');
    const token = await page.locator('input[name=_csrf]').first().inputValue();
    const res = await page.context().request.post(`${server.baseUrl}${reviewUrl}/Assignee`, { form: { _csrf: token, Email: READER.email }, maxRedirects: 0 });
    assert.equal(res.status(), 403);
    await page.reload();
    await page.getByText(`${DEMO.reviewer.name} (${DEMO.reviewer.email})`).waitFor();
    await page.context().close();
  });

  it('refuses a post without the CSRF token (a cross-site form)', async () => {
    const page = await open(DEMO.admin);
    const res = await page.context().request.post(`${server.baseUrl}${reviewUrl}/Assignee`, { form: { Email: '' }, maxRedirects: 0 });
    assert.equal(res.status(), 403);
    await page.reload();
    await page.getByText(`${DEMO.reviewer.name} (${DEMO.reviewer.email})`).waitFor();
    await page.context().close();
  });
});
