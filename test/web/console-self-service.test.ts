import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, SignedInPages, screenshot, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Self-service area in a real browser: the agency admin finds it in the side navigation, turns a setting
// on with a plain form and sees it saved; a reviewer (no agency admin) is refused the page and its POST, with the
// policy read back unchanged.

const PAGE = '/MvcProjects/Console/SelfService';

describe('Console: Self-service', () => {
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

  it('an agency admin sets the policy; anyone else is refused and nothing changes', async () => {
    const agency = (await server.store.accounts.findAgency('demo'))!;
    const admin = await as(DEMO.admin);
    await admin.goto(`${server.baseUrl}/MvcProjects/Console`);
    await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Self-service' }).click();
    assert.match(await admin.getByText('Never set: both are off.').textContent() ?? '', /Never set/);
    await assertAccessible(admin);
    await admin.getByLabel('Subscribe webhooks for the projects they can read').check();
    await admin.getByRole('button', { name: 'Save policy' }).click();
    await admin.getByText('The self-service policy was saved.').waitFor();
    assert.match(await admin.getByRole('list', { name: 'Policy now' }).textContent() ?? '', /webhook subscriptions: allowed/);
    assert.equal(await admin.getByLabel('Create and revoke their own API keys and OAuth clients').isChecked(), false);
    await assertAccessible(admin);
    await screenshot(admin, 'console-self-service');
    const saved = await server.store.agencyPolicies.findPolicy(agency.id);
    assert.deepEqual([saved.ownCredentials, saved.ownWebhooks], [false, true]);

    const reviewer = await as(DEMO.reviewer);
    const refused = await reviewer.goto(`${server.baseUrl}${PAGE}`);
    assert.equal(refused?.status(), 403);
    await assertAccessible(reviewer);
    // A valid form token of the reviewer's session (the sign-out form's), so that only the policy check can refuse.
    await reviewer.goto(`${server.baseUrl}/MvcProjects/`);
    const token = await reviewer.locator('input[name="_csrf"]').first().inputValue();
    const post = await reviewer.request.post(`${server.baseUrl}${PAGE}`, { form: { _csrf: token, ownCredentials: 'on', ownWebhooks: 'on' } });
    assert.equal(post.status(), 403);
    assert.deepEqual(await server.store.agencyPolicies.findPolicy(agency.id), saved);
  });
});
