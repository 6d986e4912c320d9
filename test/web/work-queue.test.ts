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
  let queue = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    await submitApplication(server);
    mine = await submitApplication(server, { InstallerName: HOSTILE.installer, SystemSizeKwDc: '42' });
    await submitApplication(server);
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
});
