import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';

// A table field on the web form, in a browser with JavaScript switched off: "Add row" and "Remove" are submit buttons
// that save the draft and show the form again with the row added or removed, every cell has its own label, and the
// submitted table shows on the project page (docs/web.md, "Table fields").

async function draftRows(server: WebServer, projectId: string, customId: string): Promise<unknown> {
  const program = (await server.store.programs.findProgram(server.programId))!;
  const model = await server.store.programs.loadProgramModel(program);
  const form = model.forms.find((f) => f.customId === 'Application')!;
  const field = model.fields.find((f) => f.customId === customId)!;
  const value = (await server.store.projects.getDraft(projectId, form.id)).find((v) => v.fieldId === field.id)?.value;
  return value == null ? value : JSON.parse(value);
}

describe('web: table fields', () => {
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

  async function startApplication(page: Page): Promise<string> {
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Interconnection Application' }).waitFor();
    return /\/Projects\/([^/]+)\/Forms\//.exec(page.url())![1]!;
  }

  it('adds rows, removes one, keeps what was typed and submits the table, with JavaScript off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page: Page = await context.newPage();
    const projectId = await startApplication(page);
    const inverters = page.getByRole('table', { name: 'Inverters' });
    await inverters.getByText('No rows yet.').waitFor();

    // A field typed before pressing "Add row" is saved with it: the button saves the draft.
    await page.getByLabel('Customer name').fill('Jordan Rivera');
    await page.getByRole('button', { name: 'Add row to Inverters' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.match(page.url(), /#field-/, 'the page comes back at the table');
    assert.equal(await page.getByLabel('Customer name').inputValue(), 'Jordan Rivera');
    await inverters.getByLabel('Manufacturer, row 1').selectOption({ label: 'SMA Solar Technology' });
    await inverters.getByLabel('Model, row 1').fill('SB5.0');
    await inverters.getByLabel('Quantity, row 1').fill('1');
    await page.getByRole('button', { name: 'Add row to Inverters' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.deepEqual(await draftRows(server, projectId, 'Inverters'), [{ Make: 'SMA', Model: 'SB5.0', Quantity: '1' }, {}]);
    await inverters.getByLabel('Manufacturer, row 2').selectOption({ label: 'Enphase Energy' });
    await inverters.getByLabel('Model, row 2').fill('IQ8PLUS');
    await inverters.getByLabel('Quantity, row 2').fill('12');
    // "Remove" of row 1 saves the rest: row 2 moves up with what was typed in it.
    await page.getByRole('button', { name: 'Remove row 1 of Inverters' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.deepEqual(await draftRows(server, projectId, 'Inverters'), [{ Make: 'ENPHASE', Model: 'IQ8PLUS', Quantity: '12' }]);
    assert.equal(await inverters.getByLabel('Model, row 1').inputValue(), 'IQ8PLUS');
    assert.equal(await inverters.getByLabel('Model, row 2').count(), 0);

    // The rest of the application, then submit.
    await page.getByLabel('Customer e-mail').fill('jordan@example.org');
    await page.getByLabel('Service address').fill('12 Sunny Lane, Springfield');
    await page.getByLabel('Utility account number').fill('8832-1190-4471');
    await page.getByLabel('Service type').selectOption({ label: 'Single-phase 120/240 V' });
    await page.getByLabel('System size (kW DC)').fill('7.6');
    await page.getByLabel('Inverter output (kW AC)').fill('6.0');
    await page.getByLabel('Number of modules').fill('19');
    await page.getByLabel('Inverter manufacturer').selectOption({ label: 'Enphase Energy' });
    await page.getByLabel('Mounting type').selectOption('Roof');
    await page.getByRole('group', { name: 'Includes battery storage' }).getByLabel('No').check();
    await page.getByLabel('Installer company').fill('Bright Roofs Solar LLC');
    await page.getByLabel('File for Site plan').setInputFiles({ name: 'site-plan.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await page.getByRole('button', { name: 'Submit Interconnection Application' }).click();
    await page.getByText('Manufacturer: Enphase Energy, Model: IQ8PLUS, Quantity: 12').waitFor();
    await context.close();
  });

  // axe runs its checks as a script in the page, so this part runs with JavaScript on (the pages have none of their own:
  // their Content-Security-Policy allows no script).
  it('a cell that does not fit: nothing saved, the message names row and column, the summary links to the cell', async () => {
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    const projectId = await startApplication(page);
    const inverters = page.getByRole('table', { name: 'Inverters' });
    await page.getByRole('button', { name: 'Add row to Inverters' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    await inverters.getByLabel('Manufacturer, row 1').selectOption({ label: 'Enphase Energy' });
    await inverters.getByLabel('Model, row 1').fill('IQ8PLUS');
    await inverters.getByLabel('Quantity, row 1').fill('0');
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Save draft' }).click();
    const link = page.getByRole('alert').getByRole('link', { name: 'Inverters, row 1, Quantity must be between 1 and 500.' });
    await link.waitFor();
    assert.equal(await inverters.getByLabel('Quantity, row 1').getAttribute('id'), (await link.getAttribute('href'))!.slice(1));
    assert.equal(await inverters.getByLabel('Quantity, row 1').getAttribute('aria-invalid'), 'true');
    assert.equal(await inverters.getByLabel('Model, row 1').inputValue(), 'IQ8PLUS', 'what was typed is shown again');
    assert.deepEqual(await draftRows(server, projectId, 'Inverters'), [{}], 'nothing was saved');
    await assertAccessible(page);
    await screenshot(page, 'form-table-error');
    // On a phone's width the table scrolls sideways in its own box; the page does not.
    await page.setViewportSize({ width: 360, height: 800 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no horizontal scrolling at 360 px');
    await context.close();
  });
});
