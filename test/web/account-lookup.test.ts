import assert from 'node:assert/strict';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startUtilityService } from '../../examples/utility-service.ts';
import { assertAccessible, DEMO, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The demo's account lookup (README, "The demo's account lookup") in a real browser: without a billing system
// configured the account number is saved and marked not verified beside the field; with the sample utility service
// set as the connection's address, a known account is verified and fills in the customer's name and address.

describe('web: the demo\'s account lookup', () => {
  let server: WebServer;
  let browser: Browser;
  let utility: http.Server;
  before(async () => {
    utility = await startUtilityService(0);
    server = await startWebServer('sqlite', { APAS_WEBHOOK_ALLOW_INSECURE: '1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    utility?.close();
  });

  it('keeps an unverified number with the reason, then verifies one and fills in the name and address', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Interconnection Application' }).waitFor();
    await page.getByLabel('Utility account number').fill('ACCT-1001');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    const account = page.getByLabel('Utility account number');
    const hint = async () => page.locator(`#${(await account.getAttribute('aria-describedby'))!.split(' ')[0]}`).textContent();
    assert.match((await hint()) ?? '', /Not verified: the utility's billing system is not available here \(no address is set for it\)\. The value is kept as entered/);
    assert.equal(await page.getByLabel('Customer name').inputValue(), '');
    await assertAccessible(page);

    const program = (await server.store.programs.findProgram(server.programId))!;
    await server.store.transaction(async (tx) => {
      await tx.connections.allowHost(program.agencyId, '127.0.0.1');
      await tx.connections.saveSettings({
        programId: program.id, connectionId: 'accountLookup', url: `http://127.0.0.1:${(utility.address() as AddressInfo).port}/accounts/lookup`, auth: { kind: 'none' }, updatedAt: Date.now(),
      }, null);
    });
    await account.fill('ACCT-1002');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.match((await hint()) ?? '', /Verified with the utility's billing system\./);
    assert.equal(await page.getByLabel('Customer name').inputValue(), 'Robin Rivera');
    assert.equal(await page.getByLabel('Service address').inputValue(), '22 Elm Street, Springfield');
    await assertAccessible(page);
    await context.close();
  });
});
