import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { submitApplication } from './staff-fixtures.ts';

/** The demo's plan reviewer: the program's Reviewer role, which assigns and moves along the review transitions. */
const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.role === 'plan reviewer')!;

// Bulk actions of the work queue in a real browser without script: tick projects, assign them, move their status;
// the result page lists per project what was done and what was refused, and why.

/** The result table's rows as [project, outcome, what happened]. */
async function resultRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table', { name: 'What the bulk action did to each project' }).locator('tbody tr');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push((await rows.nth(i).locator('td').allTextContents()).map((t) => t.trim()));
  return out;
}

describe('web: bulk actions', () => {
  let server: WebServer;
  let browser: Browser;
  let made: { projectId: string; number: string }[] = [];
  let queue = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    made = [await submitApplication(server), await submitApplication(server), await submitApplication(server)];
    queue = `/Projects/ProjectList?ProgramId=${server.programId}`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('assigns the ticked projects, then moves their status and shows the one the workflow refuses', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, PLAN_REVIEWER, queue);
    await page.getByRole('heading', { name: 'Bulk actions' }).waitFor();

    for (const m of made) await page.getByLabel(`Select ${m.number}`).check();
    await page.getByLabel('Assign to').selectOption(DEMO.reviewer.email);
    await page.getByRole('button', { name: 'Assign the projects' }).click();
    // The assignee by name, as the rows name them.
    await page.getByRole('heading', { name: 'Bulk action: Assign to Riley Reviewer' }).waitFor();
    const assigned = await resultRows(page);
    // In the queue's order (last change, newest first), as the rows were ticked.
    assert.deepEqual(assigned.map((r) => r.slice(0, 2)), [...made].reverse().map((m) => [m.number, 'Done']));
    for (const r of assigned) assert.match(r[2]!, /^Assigned to Riley Reviewer \(was /);

    // One project moves first, so that the bulk move finds it where the workflow allows no move to the same status.
    await page.getByRole('link', { name: 'Back to the work queue' }).click();
    await page.getByLabel(`Select ${made[1]!.number}`).check();
    await page.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await page.getByRole('button', { name: 'Move the projects' }).click();
    await page.getByText('1 done, 0 unchanged, 0 refused.').waitFor();

    await page.getByRole('link', { name: 'Back to the work queue' }).click();
    for (const m of made) await page.getByLabel(`Select ${m.number}`).check();
    await page.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await page.getByLabel('Message (optional)').fill('Checked together');
    await page.getByRole('button', { name: 'Move the projects' }).click();
    await page.getByRole('heading', { name: 'Bulk action: Move to Approved for Installation' }).waitFor();
    const moved = new Map((await resultRows(page)).map((r) => [r[0]!, r.slice(1)]));
    assert.deepEqual(moved.get(made[0]!.number), ['Done', 'Moved from Application Review to Approved for Installation']);
    assert.deepEqual(moved.get(made[2]!.number), ['Done', 'Moved from Application Review to Approved for Installation']);
    assert.equal(moved.get(made[1]!.number)![0], 'Refused');
    assert.match(moved.get(made[1]!.number)![1]!, /cannot move to "Approved for Installation"/);
    await page.getByText('2 done, 0 unchanged, 1 refused.').waitFor();
    const result = page.url();
    await context.close();

    // axe runs as a script, so the pages are checked in a browser that runs one (the pages themselves have none).
    const checking = await browser.newContext();
    const check = await checking.newPage();
    await signIn(check, server.baseUrl, PLAN_REVIEWER, queue);
    await check.getByRole('heading', { name: 'Bulk actions' }).waitFor();
    await assertAccessible(check);
    await check.goto(result);
    assert.equal((await resultRows(check)).length, 3, 'the stored result, shown again');
    await assertAccessible(check);
    await screenshot(check, 'bulk-action-result');
    for (const [i, m] of made.entries()) {
      const project = await server.store.projects.getProject(server.programId, m.projectId);
      assert.equal(project?.statusId !== undefined && (await server.store.projects.getHistory(m.projectId)).filter((h) => h.message === 'Checked together').length, i === 1 ? 0 : 1);
    }
    await checking.close();
  });
});
