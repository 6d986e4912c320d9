import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { IMPORT_PATH } from '../../src/web/console/import-pages.tsx';
import { assertAccessible, DEMO, launchBrowser, SignedInPages, screenshot, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Import projects area in a real browser, without script: the demo admin checks a file of two
// applications (one with a value out of range), reads each row's outcome and problem, imports it, and finds the
// project made, owned by the applicant, in Application Review; the reviewer is refused the area. Every page axe clean.

const HEADER = 'Application no.,CustomerName,CustomerEmail,ServiceAddress,UtilityAccountNumber,ServiceType,SystemSizeKwDc,SystemSizeKwAc,ModuleCount,InverterMake,MountingType,HasBattery,InstallerName,Owner,Status';
const FILE = [
  HEADER,
  `OLD-101,Ada Lovelace,ada@example.org,"1 Analytical Way, Springfield",ACC-1,1P-120-240,7.2,6,18,ENPHASE,Roof,false,Sunny Installers,${DEMO.applicant.email},Application Review`,
  `OLD-102,Charles Babbage,cb@example.org,2 Engine Road,ACC-2,1P-120-240,700,6,18,ENPHASE,Roof,false,Sunny Installers,${DEMO.applicant.email},Application Review`,
].join('\n');

describe('Import projects in the browser', () => {
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
  const choose = async (page: Page) => {
    await page.getByLabel('Program').selectOption({ label: 'Residential Solar Interconnection (RES-SOLAR)' });
    await page.getByLabel('Mapping (optional)').fill('Application no. = externalId');
    await page.getByLabel('CSV file').setInputFiles({ name: 'applications.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  };

  it('an admin checks a file, reads each row\'s problems, and imports it; a reviewer is refused', async () => {
    const admin = await as(DEMO.admin);
    await admin.goto(`${server.baseUrl}/MvcProjects/Console`);
    await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Import projects' }).click();
    assert.equal(await admin.getByRole('heading', { level: 1 }).textContent(), 'Import projects');
    await assertAccessible(admin);

    await choose(admin);
    await admin.getByRole('button', { name: 'Check the file' }).click();
    const report = admin.getByRole('region', { name: 'Import report' });
    assert.match(await report.textContent() ?? '', /Checked: nothing was kept.*2 rows: 1 would be created, 0 would be updated, 0 unchanged, 1 refused/s);
    const rows = admin.getByRole('table', { name: 'Each row of the file' }).getByRole('row');
    assert.match(await rows.nth(1).textContent() ?? '', /^2OLD-101Would be created/);
    assert.match(await rows.nth(2).textContent() ?? '', /^3OLD-102RefusedSystemSizeKwDc: /);
    await assertAccessible(admin);
    await screenshot(admin, 'console-import-check');
    assert.equal((await server.store.projects.listProjects({ programId: server.programId, limit: 10, offset: 0 })).length, 0);
    // The form keeps the program and the mapping; the file is chosen again.
    assert.equal(await admin.getByLabel('Mapping (optional)').inputValue(), 'Application no. = externalId');

    await choose(admin);
    await admin.getByRole('button', { name: 'Import', exact: true }).click();
    assert.match(await admin.getByRole('region', { name: 'Import report' }).textContent() ?? '', /Imported into Residential Solar Interconnection.*1 created/s);
    await assertAccessible(admin);
    const ids = await server.store.imports.findExternalIds(server.programId, ['OLD-101', 'OLD-102']);
    assert.deepEqual([...ids.keys()], ['OLD-101']);
    const project = (await server.store.projects.getProject(server.programId, ids.get('OLD-101')!))!;
    const applicant = (await server.store.accounts.findUserByEmail(DEMO.applicant.email))!;
    assert.equal(project.ownerId, applicant.id);
    assert.match(project.number ?? '', /^SOLAR-/);
    await admin.getByRole('link', { name: project.number! }).click();
    assert.match(await admin.getByRole('heading', { level: 1 }).textContent() ?? '', new RegExp(project.number!));

    const reviewer = await as(DEMO.reviewer);
    assert.equal((await reviewer.goto(`${server.baseUrl}${IMPORT_PATH}`))?.status(), 403);
  });
});
