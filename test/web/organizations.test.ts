import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import { assertAccessible, DEMO, launchBrowser, SignedInPages, screenshot, startWebServer, type WebServer } from '../support/browser.ts';

// An installer company in a real browser: the demo applicant creates an organization, sets its defaults and invites a
// second installer, who accepts the link (shown to the admin, as mail is off); one starts an application for the
// organization (prefilled with its defaults), the other opens it from the home page and saves the form; after the
// admin removes the second installer, the same session finds neither the project nor the organization, and the
// admin, now the last, cannot remove themselves.

const SECOND = { email: 'sam.second@example.org', password: 'second-installer-password-1' };

function inviteLink(text: string): string {
  const m = /(http:\/\/\S+\/MvcProjects\/Organizations\/Accept\?token=\S+)/.exec(text);
  assert.ok(m, text);
  return m[1]!;
}

describe('Organizations in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  const pages = new SignedInPages();
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
    const agency = (await server.store.accounts.findAgency('demo'))!;
    const passwordHash = await hashSecret(SECOND.password);
    await server.store.transaction(async (tx) => {
      await tx.accounts.insertUser({ id: 'SECONDINSTLR', agencyId: agency.id, email: SECOND.email, name: 'Sam Second', agencyAdmin: false, disabled: false }, passwordHash, Date.now());
      await tx.accounts.setGrant({ userId: 'SECONDINSTLR', programId: server.programId, role: 'applicant', sensitive: false });
    });
  });
  after(async () => {
    await pages.close();
    await browser?.close();
    await server?.close();
  });

  const as = (who: { email: string; password: string }): Promise<Page> => pages.as(browser, server.baseUrl, who);

  it('two installers work on one project; invite, accept and remove', async () => {
    const first = await as(DEMO.applicant);
    await first.goto(`${server.baseUrl}/MvcProjects/Organizations`);
    await assertAccessible(first);
    await first.getByLabel('Organization name').fill('Sunny Installers');
    await first.getByRole('button', { name: 'Create organization' }).click();
    assert.equal(await first.getByRole('heading', { level: 1 }).textContent(), 'Sunny Installers');
    const orgUrl = first.url().split('?')[0]!;
    await first.getByLabel('Installer name').fill('Sunny Installers LLC');
    await first.getByLabel('Licence number').fill('LIC-4242');
    await first.getByRole('button', { name: 'Save defaults' }).click();
    await first.getByLabel('E-mail address').fill(SECOND.email);
    await first.getByRole('button', { name: 'Send invitation' }).click();
    await assertAccessible(first);
    await screenshot(first, 'organization');

    // Mail is off on this server: the inviting admin is shown the one-use link (no mail is queued), and the
    // invitation waits in the list until it is accepted.
    assert.equal((await server.store.mail.listMail()).filter((m) => m.kind === 'organization.invite').length, 0);
    const link = inviteLink(await first.getByLabel('Invitation link').inputValue());
    assert.match(await first.getByRole('table', { name: 'Invitations waiting to be accepted' }).textContent() ?? '', /sam\.second@example\.org/);
    const second = await as(SECOND);
    await second.goto(link);
    await assertAccessible(second);
    await second.getByRole('button', { name: 'Join Sunny Installers' }).click();
    assert.match(await second.locator('tbody').textContent() ?? '', /sam\.second@example\.org/);
    // Used once: the same link does not work again.
    assert.equal((await second.goto(link))?.status(), 400);

    // The first installer starts an application for the organization; its defaults are prefilled.
    await first.goto(`${server.baseUrl}/MvcProjects/`);
    // The solar program's form (the demo's incentive claims have one too).
    const start = first.locator('form', { has: first.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }) });
    await start.getByLabel('For').selectOption({ label: 'Sunny Installers' });
    await start.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    assert.equal(await first.getByLabel('Installer company').inputValue(), 'Sunny Installers LLC');
    assert.equal(await first.getByLabel('Installer license number').inputValue(), 'LIC-4242');
    const formUrl = first.url();
    const projectId = new URL(formUrl).searchParams.get('ProjectId') ?? /\/Projects\/([^/?]+)/.exec(formUrl)?.[1];
    assert.ok(projectId, formUrl);
    const stored = (await server.store.projects.listProjects({ programId: server.programId, limit: 1000, offset: 0 })).find((p) => p.id === projectId);
    assert.equal(stored?.organizationId !== null && stored?.organizationId !== undefined, true);

    // The second installer finds it on the home page, opens it and saves the form.
    await second.goto(`${server.baseUrl}/MvcProjects/`);
    await second.getByRole('link', { name: 'Draft' }).first().click();
    await second.goto(formUrl);
    await second.getByLabel('Customer name').fill('Jordan Rivers');
    await second.getByRole('button', { name: 'Save draft' }).click();
    await first.goto(formUrl);
    assert.equal(await first.getByLabel('Customer name').inputValue(), 'Jordan Rivers');

    // Removed: the second installer's session keeps working but sees neither the project nor the organization.
    await first.goto(orgUrl);
    assert.match(await first.locator('body').textContent() ?? '', /No invitations are waiting to be accepted\./, 'accepted, so no longer pending');
    await first.getByRole('button', { name: 'Remove Sam Second' }).click();
    assert.doesNotMatch(await first.locator('tbody').textContent() ?? '', /sam\.second/);
    // The last admin cannot be removed: the page says so (not "someone else changed this"), and nothing changes.
    await first.getByRole('button', { name: 'Remove Alex Applicant' }).click();
    assert.match(await first.getByRole('alert').textContent() ?? '', /Alex Applicant \(applicant@demo\.apas\.local\) is the last admin of Sunny Installers and cannot be removed/);
    await assertAccessible(first);
    assert.match(await first.locator('tbody').first().textContent() ?? '', /applicant@demo\.apas\.local/);
    const gone = await second.goto(formUrl);
    assert.equal(gone?.status(), 404);
    assert.equal((await second.goto(orgUrl))?.status(), 404);
    const home = await second.goto(`${server.baseUrl}/MvcProjects/`);
    assert.equal(home?.status(), 200);
    assert.doesNotMatch(await second.locator('body').textContent() ?? '', /Jordan Rivers/);
  });
});
