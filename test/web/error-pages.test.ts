import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The error pages in a real browser: the site's layout (axe finds the main landmark), what happened in words, the way
// back that works, and no internal id; and the sign-in page offers no password reset while mail is off.

describe('web: error pages', () => {
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('answers an unknown page with a page in the layout that leads back to the start page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    const res = await page.goto(`${server.baseUrl}/MvcProjects/NoSuchPage`);
    assert.equal(res?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(await page.getByRole('main').count(), 1);
    assert.match(res?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    await assertAccessible(page);
    await screenshot(page, 'error-not-found');
    await page.getByRole('link', { name: 'Go to your start page' }).click();
    await page.getByRole('heading', { name: `Welcome, ${DEMO.applicant.name}` }).waitFor();
    await context.close();
  });

  it('answers a staff page opened by an applicant (403) in words, without the program’s internal id', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    const res = await page.goto(`${server.baseUrl}/Projects/ProjectList?ProgramId=${server.programId}`);
    assert.equal(res?.status(), 403);
    await page.getByRole('heading', { level: 1, name: 'You cannot use this page' }).waitFor();
    const text = await page.locator('main').innerText();
    assert.ok(!text.includes(server.programId), text);
    await assertAccessible(page);
    await screenshot(page, 'error-forbidden');
    await context.close();
  });

  it('offers no "Forgot your password?" link while mail is off, and says whom to ask', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/MvcProjects/SignIn`);
    assert.equal(await page.getByRole('link', { name: /Forgot your password/ }).count(), 0);
    await page.getByText("Forgot your password? Ask the agency's staff to set a new one for you.").waitFor();
    await assertAccessible(page);
    await context.close();
  });
});
