import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The demo program's rules on the applicant's form page, decided by the server on each save (docs/programs.md):
// the battery capacity appears once there is a battery, a validation across fields is shown beside its field,
// calculated fields show their values and cannot be typed into, and a field hidden again keeps its draft value.

async function draftValue(server: WebServer, projectId: string, customId: string): Promise<string | null | undefined> {
  const model = await server.store.programs.loadProgramModel((await server.store.programs.findProgram(server.programId))!);
  const form = model.forms.find((f) => f.customId === 'Application')!;
  const field = model.fields.find((f) => f.customId === customId)!;
  return (await server.store.projects.getDraft(projectId, form.id)).find((v) => v.fieldId === field.id)?.value;
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save draft' }).click();
}

describe('web: the form page follows the program rules', () => {
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

  it('shows, hides, checks and calculates fields as the applicant saves', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Interconnection Application' }).waitFor();
    const projectId = /\/Projects\/([^/]+)\/Forms\//.exec(page.url())![1]!;
    // No battery chosen yet: its capacity is not asked for.
    assert.equal(await page.getByLabel('Battery capacity (kWh)').count(), 0);

    await page.getByLabel('System size (kW DC)').fill('7.6');
    await page.getByLabel('Inverter output (kW AC)').fill('10');
    await page.getByRole('group', { name: 'Includes battery storage' }).getByLabel('Yes').check();
    await save(page);
    const summary = page.getByRole('alert');
    const message = 'The inverter output (kW AC) can be at most 1.25 times the system size (kW DC).';
    const link = summary.getByRole('link', { name: message });
    await link.waitFor();
    assert.equal(await page.getByLabel('Inverter output (kW AC)').getAttribute('id'), (await link.getAttribute('href'))!.slice(1));
    assert.equal(await draftValue(server, projectId, 'SystemSizeKwDc'), undefined, 'nothing was saved');
    // The rules decide the refused page over what was typed: "Yes" to a battery already asks for its capacity.
    await page.getByLabel('Battery capacity (kWh) (required)').waitFor();
    await assertAccessible(page);

    await page.getByLabel('Inverter output (kW AC)').fill('6');
    await save(page);
    await page.getByText('Your draft was saved.').waitFor();
    // With a battery, its capacity is asked for and required; the calculated fields show what the server computed.
    await page.getByLabel('Battery capacity (kWh) (required)').waitFor();
    const ratio = page.locator('.usa-form-group.read-only', { hasText: 'DC/AC ratio' });
    assert.match((await ratio.textContent())!, /DC\/AC ratio \(calculated\)\s*1\.27/);
    assert.match((await page.locator('.usa-form-group.read-only', { hasText: 'Incentive estimate' }).textContent())!, /2400/);
    assert.equal(await page.getByLabel('DC/AC ratio').count(), 0, 'a calculated field has no input');
    await assertAccessible(page);
    await screenshot(page, 'form-rules');

    await page.getByLabel('Battery capacity (kWh) (required)').fill('13.5');
    await save(page);
    await page.getByText('Your draft was saved.').waitFor();
    await page.getByRole('group', { name: /Includes battery storage/ }).getByLabel('No').check();
    await save(page);
    await page.getByText('Your draft was saved.').waitFor();
    assert.equal(await page.getByLabel(/Battery capacity/).count(), 0, 'hidden again');
    assert.equal(await draftValue(server, projectId, 'BatteryCapacityKwh'), '13.5', 'the draft keeps the hidden value');
    assert.match((await page.locator('.usa-form-group.read-only', { hasText: 'Incentive estimate' }).textContent())!, /1900/);
    await context.close();
  });
});
