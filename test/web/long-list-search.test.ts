import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadListRows } from '../../src/domain/lists/list-load.ts';
import { seedDemoLists } from '../../src/domain/programs/demo.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { formPagePath } from '../../src/web/web-paths.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';

// A field choosing from a long list (the demo's 10,000 approved inverters), in a browser with JavaScript switched off:
// Search posts the page back with the matches and what was typed, saving nothing; the chosen row is then saved
// (docs/web.md, "Form pages").

const PROGRAM = {
  customId: 'EQUIPWEB', name: 'Equipment registration', numberPrefix: 'EW',
  customLists: [{
    customId: 'Inverters', name: 'Approved inverters', rows: 'csv', key: 'ModelNumber', label: 'Description',
    columns: [{ name: 'Manufacturer' }, { name: 'ModelNumber' }, { name: 'Description' }, { name: 'RatedKwAc', type: 'number' }],
  }],
  fields: [
    { customId: 'Inverter', name: 'Inverter', type: 'choice', list: 'Inverters' }, { customId: 'Installer', name: 'Installer', type: 'text' },
    { customId: 'InverterKw', name: 'Inverter output (kW AC)', type: 'calculated', resultType: 'number', formula: 'lists.Inverters[Inverter].RatedKwAc' },
  ],
  statuses: [{ customId: 'Unsubmitted', name: 'Unsubmitted', initial: true, next: ['Done'] }, { customId: 'Done', name: 'Done' }],
  forms: [{ customId: 'Register', name: 'Registration', availableIn: ['Unsubmitted'], leadsTo: 'Done', fields: ['Inverter', 'Installer', 'InverterKw'] }],
};

describe('web: choosing from a long list', () => {
  let server: WebServer;
  let browser: Browser;
  let url = '';
  let projectId = '';
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    const deps = { store: server.store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() };
    const { programId } = await importProgram(deps, 'demo', validateProgramFile(PROGRAM));
    await seedDemoLists(deps);
    // The demo's sample file, loaded into this program's list too.
    const csv = (await import('node:fs')).readFileSync(new URL('../../programs/approved-inverters.csv', import.meta.url), 'utf8');
    await loadListRows(deps, { programRef: 'EQUIPWEB', listRef: 'Inverters' }, csv);
    const auth = `Basic ${Buffer.from(`${DEMO.admin.email}:${DEMO.admin.password}`).toString('base64')}`;
    const created = await server.app.inject({ method: 'POST', url: '/services/v2/Programs/EQUIPWEB/NewProject', headers: { authorization: auth, 'x-apikey': DEMO.admin.apiKey } });
    projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
    const model = await server.store.programs.loadProgramModel((await server.store.programs.findProgram(programId))!);
    url = `${server.baseUrl}${formPagePath(programId, projectId, model.forms[0]!.id)}`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches on the server, keeps what was typed, and saves the row chosen, with JavaScript off', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page: Page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin);
    await page.goto(url);
    await page.getByLabel('Installer').fill('Bright Solar LLC');
    await page.getByLabel('Search Approved inverters (10000 rows)').fill('sunny boy 7.7 208');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/rows? match(es)? "sunny boy 7.7 208"|The first 50 rows matching "sunny boy 7.7 208"/).waitFor();
    assert.equal(await page.getByLabel('Installer').inputValue(), 'Bright Solar LLC', 'what was typed is kept');
    const select = page.getByRole('combobox', { name: 'Inverter' });
    const options = await select.locator('option').allTextContents();
    assert.ok(options.length > 1 && options.slice(1).every((o) => /SMA America SB7\.[07]-1SP-208-[^:]*: Sunny Boy string inverter, 7(\.7)? kW AC, 208 V/.test(o)), options.join('\n'));
    await screenshot(page, 'long-list-search');
    await select.selectOption({ value: 'SB7.7-1SP-208-US' });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Inverter' }).inputValue(), 'SB7.7-1SP-208-US');
    await page.getByText('7.7', { exact: true }).waitFor();
    await context.close();
    // axe runs in the page, so it needs script: the same page in a context that has it.
    const checked = await browser.newContext();
    const again = await checked.newPage();
    again.setDefaultTimeout(20_000);
    await signIn(again, server.baseUrl, DEMO.admin);
    await again.goto(url);
    await again.getByLabel('Search Approved inverters (10000 rows)').waitFor();
    await assertAccessible(again);
    await checked.close();
  });
});
