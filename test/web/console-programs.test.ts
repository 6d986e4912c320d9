import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_PROGRAM_PATH } from '../../src/domain/programs/demo.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The demo agency's admin in a real browser: uploads a changed demo program with a mistake (the page names its line),
// fixes it, reads the changes, publishes, finds the version in the history, downloads it (the very file uploaded) and
// the live file (what `program export` writes), and opens each kind of preview; axe finds nothing on any page.

const DEMO_TEXT = readFileSync(DEMO_PROGRAM_PATH, 'utf8');
const CHANGED = DEMO_TEXT.replace('name: Residential Solar Interconnection\n', 'name: Residential Solar Interconnection 2027\n');
const BROKEN = CHANGED.replace('numberDigits: 5\n', 'numberDigits: five\n');

async function downloaded(page: Page, link: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('Console: programs in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
    context = await browser.newContext({ acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin, '/MvcProjects/Console/Programs');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  it('upload with a mistake → its line; fixed → the changes → publish → history → downloads', async () => {
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Programs');
    await assertAccessible(page);
    await page.getByRole('link', { name: 'Residential Solar Interconnection' }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Residential Solar Interconnection');
    assert.match(await page.getByRole('region', { name: 'Live version' }).textContent() ?? '', /Version 1, .* by operator \(command line\)/);
    await assertAccessible(page);

    await page.getByLabel('Program file').setInputFiles({ name: 'residential-solar.yaml', mimeType: 'application/yaml', buffer: Buffer.from(BROKEN) });
    await page.getByRole('button', { name: 'Check the file', exact: true }).click();
    const alert = page.getByRole('alert');
    assert.match(await alert.textContent() ?? '', /residential-solar\.yaml is not a valid program \(1 problem\)/);
    assert.match(await alert.textContent() ?? '', /numberDigits \(line 11, column \d+\)/);
    await assertAccessible(page);

    await page.getByLabel('Program file').setInputFiles({ name: 'residential-solar.yaml', mimeType: 'application/yaml', buffer: Buffer.from(CHANGED) });
    await page.getByRole('button', { name: 'Check the file', exact: true }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Review residential-solar.yaml');
    const changes = await page.getByRole('region', { name: 'Changes' }).textContent();
    assert.match(changes ?? '', /^Program RES-SOLAR \(id \w+\) would be updated:\n {2}updated program RES-SOLAR \(name\)$/);
    await assertAccessible(page);
    await screenshot(page, 'console-programs-review');

    await page.getByRole('button', { name: 'Publish version 2' }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Residential Solar Interconnection 2027');
    assert.equal(await page.getByRole('status').first().textContent(), 'Version 2 was published.');
    const history = page.getByRole('table', { name: 'Published versions, newest first' });
    const newest = history.getByRole('row').nth(1);
    assert.match(await newest.textContent() ?? '', new RegExp(`Version 2.*${DEMO.admin.email.replace('.', '\\.')}`));
    await assertAccessible(page);
    await screenshot(page, 'console-programs-program');

    assert.equal(await downloaded(page, 'Download version 2'), CHANGED);
    assert.equal(await downloaded(page, 'Download version 1'), DEMO_TEXT);
    const live = await downloaded(page, 'Download the live program file');
    assert.equal(live, formatProgramFile(await exportProgram(server.store, 'demo', 'RES-SOLAR'), 'yaml'));
    assert.match(live, /name: Residential Solar Interconnection 2027/);

    await page.getByRole('link', { name: 'Version 2', exact: true }).click();
    assert.match(await page.getByRole('region', { name: 'Changes' }).textContent() ?? '', /updated program RES-SOLAR \(name\)/);
    await assertAccessible(page);
  });

  it('previews: a form with the real controls, the mails, a document and the calendar', async () => {
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Programs/${server.programId}`);
    await page.getByRole('link', { name: 'Form: Interconnection Application' }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Preview: Interconnection Application');
    assert.equal(await page.getByLabel('Customer name').isDisabled(), true);
    await assertAccessible(page);

    await page.goBack();
    await page.getByRole('link', { name: /^Mails/ }).click();
    assert.match(await page.getByRole('main').textContent() ?? '', /project SOLAR-00042/);
    await assertAccessible(page);

    await page.goBack();
    await page.getByRole('link', { name: 'Calendar: holidays and closures of the next 12 months' }).click();
    const days = page.getByRole('table');
    assert.match(await days.textContent() ?? '', /Public holiday/);
    await assertAccessible(page);

    await page.goBack();
    const href = await page.getByRole('link', { name: /^Document: Approval letter/ }).getAttribute('href');
    const pdf = await page.request.get(`${server.baseUrl}${href}`);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    assert.equal((await pdf.body()).subarray(0, 5).toString(), '%PDF-');
  });
});
