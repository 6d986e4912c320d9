import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { HOSTILE, submitApplication } from './staff-fixtures.ts';

// The staff work queue in a real browser: finding a submitted project by number and by a data field, without script.

describe('web: work queue', () => {
  let server: WebServer;
  let browser: Browser;
  let mine: { projectId: string; number: string };
  let first: { projectId: string; number: string };
  let third: { projectId: string; number: string };
  let queue = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    first = await submitApplication(server);
    mine = await submitApplication(server, { InstallerName: HOSTILE.installer, SystemSizeKwDc: '42' });
    third = await submitApplication(server);
    queue = `/Projects/ProjectList?ProgramId=${server.programId}`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lets a reviewer find a submitted project by its number and by a data field', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.reviewer, queue);
    await page.getByRole('heading', { name: 'Work queue' }).waitFor();
    assert.equal(await page.getByRole('row').count(), 4, 'a header row and three projects');
    await assertAccessible(page);
    await screenshot(page, 'work-queue');

    await page.getByLabel('Project number').fill(mine.number);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    assert.equal(await page.getByRole('row').count(), 2);
    await page.getByRole('link', { name: mine.number }).waitFor();
    assert.match(page.url(), new RegExp(`number=${mine.number}`), 'the filters are in the shareable URL');

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.getByLabel('Field').selectOption({ label: 'System size (kW DC)' });
    await page.getByLabel('Comparison').selectOption({ label: 'is more than' });
    await page.getByLabel('Value').fill('40');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    assert.equal(await page.getByRole('row').count(), 2);
    await page.getByRole('link', { name: mine.number }).click();
    await page.getByRole('heading', { name: `Review ${mine.number}` }).waitFor();
    await context.close();
  });

  it('explains a filter it cannot use in an error summary linked to the control', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.reviewer, queue);
    await page.getByLabel('Field').selectOption({ label: 'System size (kW DC)' });
    await page.getByLabel('Comparison').selectOption({ label: 'is more than' });
    await page.getByLabel('Value').fill('lots');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const link = page.getByRole('alert').getByRole('link', { name: /is a number field/ });
    await link.click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'filter-value');
    await assertAccessible(page);
    await context.close();
  });

  it('fits a phone, shows markup in values as text, and keeps focus visible for keyboard users', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    await signIn(page, server.baseUrl, DEMO.admin, `${queue}&number=${mine.number}`);
    await page.getByRole('link', { name: mine.number }).click();
    await page.getByText(HOSTILE.installer).first().waitFor();
    assert.equal(dialogs, 0, 'no script ran');
    await page.goto(`${server.baseUrl}${queue}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px on a phone`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.equal(outline, 'solid', 'the focused link is outlined');
    await assertAccessible(page);
    await screenshot(page, 'work-queue-phone');
    await context.close();
  });

  it('filters overdue projects and sorts by due date with the form alone, script disabled', async () => {
    // Deadline rows as the deadline service writes them (the queue only reads them): the first project's answer was
    // due an hour ago, mine's inspection is due in five days, the third has none.
    const now = Date.now();
    await server.store.transaction(async (tx) => {
      for (const [p, deadlineId, dueAt] of [[first, 'AnswerDue', now - 3_600_000], [mine, 'InspectionDue', now + 5 * 86_400_000]] as const) {
        await tx.deadlines.startProjectDeadline({
          id: `queue-${p.projectId}`, projectId: p.projectId, programId: server.programId, deadlineId, startedAt: now - 86_400_000,
          dueDate: new Date(dueAt).toISOString().slice(0, 10), dueAt, startedBy: null,
        });
      }
    });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.reviewer, queue);
    const projects = async () => page.locator('tbody tr td:first-child').allTextContents();
    await page.getByLabel('Order').selectOption({ label: 'Due date, soonest first' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    assert.deepEqual((await projects()).slice(0, 2), [first.number, mine.number], 'the running deadline due first first');
    assert.ok((await projects()).indexOf(third.number) > 1, 'a project without a running deadline after them');
    await page.getByLabel('Overdue only').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    assert.deepEqual(await projects(), [first.number]);
    assert.match(page.url(), /overdue=1/);
    assert.match(page.url(), /order=due-asc/, 'both in the shareable URL');
    assert.equal(await page.getByLabel('Overdue only').isChecked(), true, 'the form shows the filter applied');
    const url = page.url();
    await context.close();

    // The same page, with the axe check (which needs script in the browser, not in the page).
    const checked = await browser.newContext();
    const again = await checked.newPage();
    await signIn(again, server.baseUrl, DEMO.reviewer, url.slice(server.baseUrl.length));
    await again.getByRole('link', { name: first.number }).waitFor();
    await assertAccessible(again);
    await screenshot(again, 'work-queue-overdue');
    await checked.close();
  });

  // Last, since it adds projects: enough for three pages of 25.
  it('pages forward and back without script, and filters by a named assignee', async () => {
    const api = `${server.baseUrl}/services/v2/Programs/RES-SOLAR`;
    const as = (who: typeof DEMO.admin) => ({ authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey });
    for (let i = 0; i < 50; i++) assert.equal((await fetch(`${api}/NewProject`, { method: 'POST', headers: as(DEMO.applicant) })).status, 200);
    const assigned = await fetch(`${api}/Projects/${mine.projectId}/Assignee`, {
      method: 'POST', headers: { ...as(DEMO.admin), 'content-type': 'application/xml' },
      body: `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${DEMO.admin.email}</AssigneeEmail></SetAssigneeRequest>`,
    });
    assert.equal(assigned.status, 200, await assigned.text());

    // The pages run no script (the Content-Security-Policy allows none): paging is plain links.
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.reviewer, `${queue}&size=25&order=created-asc`);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const firstRows = await page.getByRole('row').allTextContents();
    assert.equal(firstRows.length, 26, 'a header row and 25 projects');
    assert.equal(await pager.getByRole('link', { name: 'Previous page' }).count(), 0, 'the first page has no previous page');
    await pager.getByRole('link', { name: 'Next page' }).click();
    const secondRows = await page.getByRole('row').allTextContents();
    assert.equal(secondRows.length, 26);
    assert.ok(!secondRows.slice(1).some((r) => firstRows.includes(r)), 'the second page holds other projects');
    await pager.getByRole('link', { name: 'Next page' }).click();
    const lastRows = await page.getByRole('row').allTextContents();
    assert.equal(lastRows.length, 1 + 53 - 50, 'the rest on the third page');
    assert.equal(await pager.getByRole('link', { name: 'Next page' }).count(), 0, 'the last page has no next page');
    await assertAccessible(page);
    await pager.getByRole('link', { name: 'Previous page' }).click();
    assert.deepEqual(await page.getByRole('row').allTextContents(), secondRows);
    await pager.getByRole('link', { name: 'Previous page' }).click();
    assert.deepEqual(await page.getByRole('row').allTextContents(), firstRows);
    assert.equal(await pager.getByRole('link', { name: 'Previous page' }).count(), 0, 'back at the first page');

    await page.getByLabel('Assignee', { exact: true }).selectOption({ label: `${DEMO.admin.name} (${DEMO.admin.email})` });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    assert.equal(await page.getByRole('row').count(), 2, 'a header row and the one project assigned to the admin');
    await page.getByRole('link', { name: mine.number }).waitFor();
    assert.equal(await page.getByRole('cell', { name: DEMO.admin.name }).count(), 1);
    assert.equal(await page.getByLabel('Assignee', { exact: true }).evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent), `${DEMO.admin.name} (${DEMO.admin.email})`);
    await assertAccessible(page);
    await context.close();
  });
});

