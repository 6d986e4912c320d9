import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Connections area in a real browser: the demo's agency admin opens the
// billing system connection of Residential Solar, is refused an http address (the alert names the field, the secret
// typed is not kept), then saves an https one with a secret header and sees it listed as set, the secret nowhere.

const SECRET = 'browser-secret-4Hq9';

describe('Console: connections in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
    const program = (await server.store.programs.findProgram(server.programId))!;
    await server.store.transaction((tx) => tx.connections.allowHost(program.agencyId, 'billing.example.com'));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('refuses an http address naming the field, then saves an https one with a secret header', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin);
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Connections`);
    await assertAccessible(page);
    await page.getByRole('link', { name: 'Change the utility\'s billing system of Residential Solar Interconnection', exact: true }).click();
    const fill = async (url: string) => {
      await page.getByLabel('Address (URL)').fill(url);
      await page.getByLabel('A secret header', { exact: true }).check();
      await page.getByLabel('Header name').fill('X-Api-Key');
      await page.getByLabel('Header secret').fill(SECRET);
      await page.getByRole('button', { name: 'Save connection' }).click();
    };
    await fill('http://billing.example.com/accounts');
    assert.match(await page.locator('.usa-alert--error').textContent() ?? '', /Address \(URL\): the connection cannot be set: the address must use https/);
    assert.equal(await page.getByLabel('Address (URL)').inputValue(), 'http://billing.example.com/accounts', 'the address is kept');
    assert.equal(await page.getByLabel('Header secret').inputValue(), '', 'the secret is not');
    await assertAccessible(page);
    assert.equal(await server.store.connections.findSettings(server.programId, 'accountLookup'), null, 'nothing was saved');

    await fill('https://billing.example.com/accounts');
    assert.match(await page.getByRole('status').textContent() ?? '', /The connection was saved/);
    const table = await page.getByRole('table', { name: 'Connections of Residential Solar Interconnection' }).textContent() ?? '';
    assert.match(table, /https:\/\/billing\.example\.com\/accounts\s*Secret header X-Api-Key, set on/);
    assert.ok(!(await page.content()).includes(SECRET));
    await assertAccessible(page);
    assert.deepEqual((await server.store.connections.findSettings(server.programId, 'accountLookup'))?.auth, { kind: 'header', name: 'X-Api-Key', value: SECRET });
    await screenshot(page, 'console-connections');
  });
});
