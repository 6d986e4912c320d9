import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';

// My projects in a real browser on the demo: search by customer, address and number, the drafts filter, copying an
// application into a new draft, and deleting a draft after the confirmation page; no script needed for any of it.

const NS = 'http://service.powerclerk.com/api/v1/';

async function api(server: WebServer, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<string> {
  const who = DEMO.applicant;
  const res = await fetch(`${server.baseUrl}/services/v2/Programs/RES-SOLAR${path}`, {
    method, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    headers: {
      authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey,
      ...(typeof body === 'string' ? { 'content-type': 'application/xml' } : {}), ...headers,
    },
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return text;
}

const COMPLETE: Record<string, string> = {
  CustomerEmail: 'c@example.org', UtilityAccountNumber: '8832-1190-4471', ServiceType: '1P-120-240',
  SystemSizeKwDc: '7.6', SystemSizeKwAc: '6.0', ModuleCount: '19', InverterMake: 'ENPHASE', MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Roofs',
};

/** A project of the demo applicant: a draft for `customer` at `address`, submitted (site plan uploaded) when `submit`. */
async function project(server: WebServer, customer: string, address: string, submit: boolean): Promise<{ id: string; number: string | null }> {
  const id = /ProjectId="([^"]+)"/.exec(await api(server, 'POST', '/NewProject'))![1]!;
  const fields = Object.entries({ ...COMPLETE, CustomerName: customer, ServiceAddress: address }).map(([k, v]) => `<DataField DataFieldId="${k}" Value="${v}"/>`).join('');
  await api(server, 'POST', `/Projects/${id}/Forms/Application/Draft/Data`, `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields}</DataFields></Project></ProjectDataRequest>`);
  if (!submit) return { id, number: null };
  await api(server, 'POST', `/Projects/${id}/Forms/Application/Attachments/SitePlan`, TINY_PDF, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="plan.pdf"' });
  const answer = await api(server, 'POST', `/Projects/${id}/Forms/Application/Draft/Submit`);
  return { id, number: /ProjectNumber="([^"]+)"/.exec(answer)![1]! };
}

describe('web: My projects', () => {
  let server: WebServer;
  let browser: Browser;
  let submitted: { id: string; number: string | null };
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    submitted = await project(server, 'Robin Sunfield', '12 Sunny Lane', true);
    await project(server, 'Casey Draft', '9 Birch Road', false);
    for (let i = 0; i < 3; i++) await project(server, `Customer ${i}`, `${i} Elm Street`, false);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches by customer, address and number, tells drafts apart, copies an application and deletes a draft', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.getByRole('link', { name: 'Search and filter your applications in Residential Solar Interconnection' }).click();
    await page.getByRole('heading', { level: 1, name: 'My projects' }).waitFor();
    // The summary fields are columns; drafts carry their badge.
    for (const name of ['Customer name', 'Service address', 'Inverter output (kW AC)']) await page.getByRole('columnheader', { name }).waitFor();
    assert.equal(await page.getByText('Draft — not submitted').count(), 4);
    await assertAccessible(page);

    await page.getByLabel('Search', { exact: true }).fill('sunny lane');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 1);
    await rows.getByText('Robin Sunfield').waitFor();
    await page.getByLabel('Search', { exact: true }).fill('casey');
    await page.getByRole('button', { name: 'Search' }).click();
    assert.equal(await rows.count(), 1);
    await rows.getByText('9 Birch Road').waitFor();
    await page.getByLabel('Search', { exact: true }).fill(submitted.number!);
    await page.getByRole('button', { name: 'Search' }).click();
    assert.equal(await rows.count(), 1);
    await rows.getByRole('link', { name: submitted.number!, exact: true }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Show').selectOption('drafts');
    await page.getByRole('button', { name: 'Search' }).click();
    assert.equal(await rows.count(), 4);
    await assertAccessible(page);
    await screenshot(page, 'my-projects');

    // Copy the submitted application's form: a new draft with its customer, none of its files or its number.
    await page.getByRole('link', { name: 'Clear' }).click();
    await page.getByRole('row', { name: new RegExp(submitted.number!) }).getByRole('link', { name: /^Copy/ }).click();
    await page.getByRole('heading', { level: 1, name: `Copy ${submitted.number} to a new application` }).waitFor();
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Create the copy' }).click();
    await page.getByLabel(/Customer name/).waitFor();
    assert.equal(await page.getByLabel(/Customer name/).inputValue(), 'Robin Sunfield');
    assert.equal(await page.getByLabel(/Utility account number/).inputValue(), '', 'a sensitive field is typed again');
    const copyId = new URL(page.url()).pathname.split('/')[5]!;
    assert.notEqual(copyId, submitted.id);
    assert.deepEqual(await server.store.attachments.listActiveAttachments(copyId), []);
    assert.equal((await server.store.projects.getProject(server.programId, copyId))?.number, null);

    // Delete the copy from its project page, through the confirmation page.
    await page.goto(`${server.baseUrl}/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${copyId}`);
    await page.getByRole('link', { name: 'Delete this draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delete this draft?' }).waitFor();
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Delete the draft' }).click();
    await page.getByText('The draft was deleted.').waitFor();
    assert.equal(await server.store.projects.getProject(server.programId, copyId), null);
    // A submitted project offers withdrawal (the demo's Withdrawn status), not deletion.
    await page.goto(`${server.baseUrl}/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${submitted.id}`);
    await page.getByRole('link', { name: 'Withdraw this application' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Delete this draft' }).count(), 0);
    await context.close();
  });
});
