import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

const TITLES = [
  'Projects by status now', 'Submissions per week, last 26 weeks', 'Cycle time from submission to each status, by month',
  'Time in the current status', 'Deadlines met and missed, by month', 'Workload and throughput per person',
];

describe('web: dashboard', () => {
  let server: WebServer;
  let browser: Browser;
  let dashboard = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    await submitApplication(server);
    await submitApplication(server);
    dashboard = `/Projects/Dashboard?ProgramId=${server.programId}`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows each chart as an image named by its title, with its data table, without script and within the CSP', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await signIn(page, server.baseUrl, DEMO.reviewer, dashboard);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    for (const title of TITLES) {
      const chart = page.getByRole('img', { name: title });
      assert.equal(await chart.count(), 1, title);
      assert.ok((await chart.getAttribute('aria-describedby'))?.length, `${title} has a description`);
      assert.equal(await page.getByRole('table', { name: `${title}: the data` }).count(), 1);
      assert.equal(await page.getByRole('link', { name: `Download “${title}” as CSV` }).count(), 1);
    }
    const statusRows = await page.getByRole('table', { name: 'Projects by status now: the data' }).locator('tbody tr').allTextContents();
    assert.ok(statusRows.includes('Application Review2'), statusRows.join(' | '));
    assert.deepEqual(refused, [], 'the CSP refused nothing (the SVG has no style attribute)');
    await context.close();

    // The same page with the axe check (which needs script in the browser, not in the page).
    const checked = await browser.newContext();
    const again = await checked.newPage();
    await signIn(again, server.baseUrl, DEMO.reviewer, dashboard);
    await again.getByRole('img', { name: TITLES[0] }).waitFor();
    await assertAccessible(again);
    await screenshot(again, 'dashboard');
    await checked.close();
  });
});
