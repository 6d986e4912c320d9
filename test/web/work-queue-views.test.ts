import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { submitApplication } from './staff-fixtures.ts';
import { projectPagePath } from '../../src/web/web-paths.ts';

/** The demo's plan reviewer: the program's Reviewer role, which assigns (and so may share a view). */
const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.role === 'plan reviewer')!;
const NS = 'http://service.powerclerk.com/api/v1/';
const CUSTOMER = 'Quinn Queue';

// The work queue as a reviewer works it, without script: choose columns, narrow by a data field, read the count,
// save the view and share it, open it again, and narrow to the projects that need attention.

async function api(server: WebServer, who: { email: string; password: string; apiKey?: string }, path: string, body: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/services/v2/Programs/RES-SOLAR${path}`, {
    method: 'POST', body,
    headers: { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey ?? '', 'content-type': 'application/xml' },
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return text;
}

/** The table's header cells and, per row, its cells' text. */
async function table(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const t = page.getByRole('table', { name: /Projects of/ });
  const headers = (await t.locator('thead th').allTextContents()).map((s) => s.trim());
  const body = t.locator('tbody tr');
  const rows: string[][] = [];
  for (let i = 0; i < (await body.count()); i++) rows.push((await body.nth(i).locator('td').allTextContents()).map((s) => s.trim()));
  return { headers, rows };
}

describe('web: work queue columns, count, saved views and needs attention', () => {
  let server: WebServer;
  let browser: Browser;
  let made: { projectId: string; number: string }[] = [];
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    made = [];
    for (let i = 0; i < 3; i++) made.push(await submitApplication(server, { CustomerName: CUSTOMER }));
    // The applicant answers a question on the first project: it needs attention (Applicant answered).
    const asked = await api(server, DEMO.admin, `/Projects/${made[0]!.projectId}/InquiryNotes`,
      `<SetInquiryNoteRequest xmlns="${NS}" Subject="Roof pitch" VisibleToApplicant="true"><Text>What is the roof pitch?</Text></SetInquiryNoteRequest>`);
    assert.match(asked, /ThreadId="/);
    // The applicant answers on the project page (applicants write notes through the web, not the API).
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant, projectPagePath(server.programId, made[0]!.projectId));
    await page.getByLabel(/Your reply to/).fill('About 30 degrees.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('About 30 degrees.', { exact: true }).waitFor();
    await context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('chooses columns, counts, saves and shares a view, opens it again, and narrows to what needs attention', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, PLAN_REVIEWER, `/Projects/ProjectList?ProgramId=${server.programId}`);
    await page.getByRole('heading', { name: 'Work queue' }).waitFor();

    // Columns and a data filter, applied by the form's own button.
    const filters = page.getByRole('form', { name: 'Filter projects' });
    await filters.getByLabel('Field', { exact: true }).selectOption({ label: 'Customer name' });
    await filters.getByLabel('Value').fill(CUSTOMER);
    await filters.getByText('Columns (6 shown)').click();
    await filters.getByLabel('Submitted column').uncheck();
    await filters.getByLabel('Customer name column').check();
    await filters.getByLabel('Days in status column').check();
    await filters.getByLabel('Needs attention column').check();
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('3 projects match these filters.').waitFor();
    const chosen = await table(page);
    // In the order the queue offers them (the project number first; the bulk checkbox last).
    assert.deepEqual(chosen.headers.slice(0, 9), ['Project', 'Applicant', 'Status', 'Assignee', 'Last change', 'Next deadline', 'Days in status', 'Needs attention', 'Customer name']);
    assert.ok(!chosen.headers.includes('Submitted'));
    const cell = (r: string[], header: string) => r[chosen.headers.indexOf(header)]!;
    assert.deepEqual(chosen.rows.map((r) => r[0]).sort(), made.map((m) => m.number).sort());
    for (const r of chosen.rows) assert.equal(cell(r, 'Customer name'), CUSTOMER);
    const attention = new Map(chosen.rows.map((r) => [r[0]!, cell(r, 'Needs attention')]));
    assert.match(attention.get(made[0]!.number)!, /Applicant answered/);
    assert.doesNotMatch(attention.get(made[1]!.number)!, /Applicant answered/);

    // Saved and shared; the answer opens the saved view.
    await page.getByLabel('View name').fill('Quinn, to review');
    await page.getByLabel("Share with the program's staff").check();
    await page.getByRole('button', { name: 'Save as a new view' }).click();
    await page.getByText('3 projects match these filters.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Quinn, to review' }).getAttribute('aria-current'), 'page');

    // Cleared, then opened again from the list: the same columns, filter and count.
    await page.getByRole('link', { name: 'Clear filters' }).click();
    assert.ok(!(await table(page)).headers.includes('Customer name'));
    await page.getByRole('link', { name: 'Quinn, to review' }).click();
    await page.getByText('3 projects match these filters.').waitFor();
    assert.deepEqual((await table(page)).headers, chosen.headers);

    // Needs attention: the counts link to the filter; narrowed within the view, one project is left.
    assert.match(await page.locator('#attention-reply').innerText(), /^[1-9]\d*$/);
    await filters.getByLabel('Needs attention', { exact: true }).selectOption({ label: 'Applicant answered' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 project matches these filters.').waitFor();
    assert.deepEqual((await table(page)).rows.map((r) => r[0]), [made[0]!.number]);
    await screenshot(page, 'work-queue-columns');
    await context.close();

    // Another staff member of the program sees the shared view and opens it.
    const other = await browser.newContext();
    const admin = await other.newPage();
    await signIn(admin, server.baseUrl, DEMO.admin, `/Projects/ProjectList?ProgramId=${server.programId}`);
    await admin.getByRole('link', { name: 'Quinn, to review' }).click();
    await admin.getByText('3 projects match these filters.').waitFor();
    assert.deepEqual((await table(admin)).headers, chosen.headers);
    // Not theirs to delete: no delete button for it.
    assert.equal(await admin.getByRole('button', { name: 'Delete view Quinn, to review' }).count(), 0);
    await assertAccessible(admin);
    await other.close();
  });
});
