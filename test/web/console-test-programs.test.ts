import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { TEST_PROGRAMS_PATH } from '../../src/web/console/test-program-pages.tsx';
import { assertAccessible, DEMO, launchBrowser, SignedInPages, screenshot, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Test programs area in a real browser: the demo admin makes a test copy of the solar program, the
// applicant (granted the copy separately) starts an application in it under the Test program banner, the reviewer is
// refused the area, and the admin resets the copy. Every page axe clean, no script needed.

describe('Test programs in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  const pages = new SignedInPages();
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
  });
  after(async () => {
    await pages.close();
    await browser?.close();
    await server?.close();
  });

  const as = (who: { email: string; password: string }): Promise<Page> => pages.as(browser, server.baseUrl, who);

  it('an admin makes a test copy, an applicant uses it under the banner, the admin resets it', async () => {
    const admin = await as(DEMO.admin);
    await admin.goto(`${server.baseUrl}/MvcProjects/Console`);
    await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Test programs' }).click();
    assert.equal(await admin.getByRole('heading', { level: 1 }).textContent(), 'Test programs');
    await assertAccessible(admin);
    await admin.getByRole('button', { name: 'Create a test copy of Residential Solar Interconnection' }).click();
    assert.equal(await admin.getByRole('heading', { level: 1 }).textContent(), 'Residential Solar Interconnection (test)');
    assert.match(await admin.getByRole('status').textContent() ?? '', /The test copy was created/);
    assert.match(await admin.getByRole('region', { name: 'About this test copy' }).textContent() ?? '', /TESTSOLAR-/);
    await assertAccessible(admin);
    await screenshot(admin, 'console-test-program');
    const testUrl = admin.url().split('?')[0]!;
    const test = (await server.store.programs.findProgram('RES-SOLAR-test'))!;
    assert.equal(test.testOf, server.programId);

    // The applicant is granted the test copy separately (as the People area or `apas grant` does).
    const applicantUser = (await server.store.accounts.findUserByEmail(DEMO.applicant.email))!;
    await server.store.transaction((tx) => tx.accounts.setGrant({ userId: applicantUser.id, programId: test.id, role: 'applicant', sensitive: false }));
    const applicant = await as(DEMO.applicant);
    await applicant.goto(`${server.baseUrl}/MvcProjects/`);
    await applicant.getByRole('button', { name: 'Start an application for Residential Solar Interconnection (test)' }).click();
    await applicant.waitForLoadState('domcontentloaded');
    assert.match(await applicant.getByRole('region', { name: 'Test program' }).textContent() ?? '', /test copy of a program/);
    await assertAccessible(applicant);
    assert.equal((await server.store.projects.listProjects({ programId: test.id, limit: 10, offset: 0 })).length, 1);
    assert.equal((await server.store.projects.listProjects({ programId: server.programId, limit: 10, offset: 0 })).length, 0);

    // A reviewer administers nothing: the area is refused, with nothing to click.
    const reviewer = await as(DEMO.reviewer);
    assert.equal((await reviewer.goto(`${server.baseUrl}${TEST_PROGRAMS_PATH}`))?.status(), 403);

    // Reset: refused by the browser until the box is ticked; then the copy is empty again.
    await admin.goto(testUrl);
    await admin.getByLabel('Delete every project of Residential Solar Interconnection (test)').check();
    await admin.getByRole('button', { name: 'Reset the test copy' }).click();
    assert.match(await admin.getByRole('status').textContent() ?? '', /was reset/);
    await assertAccessible(admin);
    assert.equal((await server.store.projects.listProjects({ programId: test.id, limit: 10, offset: 0 })).length, 0);
  });
});
