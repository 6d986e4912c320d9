import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The sign-in page in a real browser: a form (not the browser's Basic prompt), a session cookie, sign-out.

describe('web: sign-in and sign-out', () => {
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

  it('sends a visitor to the sign-in page and back to the page asked for once signed in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${server.baseUrl}/MvcProjects/`);
    assert.equal(res?.status(), 200);
    assert.match(page.url(), /\/MvcProjects\/SignIn\?next=%2FMvcProjects%2F$/);
    await assertAccessible(page);
    await screenshot(page, 'sign-in');
    await signIn(page, server.baseUrl, DEMO.applicant);
    assert.match(page.url(), /\/MvcProjects\/$/);
    await page.getByRole('heading', { name: `Welcome, ${DEMO.applicant.name}` }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'apas_session');
    assert.ok(cookie, 'a session cookie was set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    await assertAccessible(page);
    await context.close();
  });

  it('shows a wrong password beside the form, keeps the e-mail typed, and signs nobody in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, { email: DEMO.applicant.email, password: 'not the password' });
    await page.getByRole('alert').getByText('The e-mail address or password is not right.').waitFor();
    assert.equal(await page.getByLabel('E-mail address').inputValue(), DEMO.applicant.email);
    assert.equal((await context.cookies()).some((c) => c.name === 'apas_session'), false);
    await assertAccessible(page);
    await context.close();
  });

  it('signs out: a page confirms it, the session ends and the pages ask for sign-in again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.reviewer);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'You are signed out' }).waitFor();
    await page.getByText('You have signed out. Your session has ended on this device.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0, 'nobody is shown as signed in');
    assert.equal((await context.cookies()).some((c) => c.name === 'apas_session'), false);
    await assertAccessible(page);
    await screenshot(page, 'signed-out');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${server.baseUrl}/MvcProjects/`);
    assert.match(page.url(), /\/MvcProjects\/SignIn/);
    await context.close();
  });

  it('shows a browser signed in already whose session it holds, and signs out to sign in as someone else', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The session someone else left (or planted) in this browser.
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.goto(`${server.baseUrl}/MvcProjects/SignIn`);
    await page.getByRole('heading', { level: 1, name: 'You are signed in already' }).waitFor();
    await page.getByText(`This browser is signed in as ${DEMO.applicant.name} (${DEMO.applicant.email}).`).waitFor();
    assert.equal(await page.getByRole('link', { name: `Continue as ${DEMO.applicant.name}` }).count(), 1);
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Sign out and sign in as someone else' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal((await context.cookies()).some((c) => c.name === 'apas_session'), false, 'the session ended');
    await page.getByLabel('E-mail address').fill(DEMO.reviewer.email);
    await page.getByLabel('Password').fill(DEMO.reviewer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('domcontentloaded');
    assert.match(page.url(), /\/MvcProjects\/$/);
    await page.getByText(`Signed in as ${DEMO.reviewer.name}`).waitFor();
    await context.close();
  });

  it('refuses a sign-in post from another site (no CSRF token) and starts no session', async () => {
    const res = await fetch(`${server.baseUrl}/MvcProjects/SignIn`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: DEMO.applicant.email, password: DEMO.applicant.password }).toString(),
    });
    assert.equal(res.status, 403);
    assert.equal((res.headers.get('set-cookie') ?? '').includes('apas_session'), false);
  });
});
