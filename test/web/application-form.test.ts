import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { systemClock } from '../../src/model/clock.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { signDemoAgreement } from '../support/demo-signing.ts';

// The applicant's way through an application in a real browser: start it from the home page, fill in every field
// type of the demo's Interconnection Application, meet a validation error and fix it, upload the site plan, submit.


/** The saved draft value of a field of the demo program's Application form, straight from the store. */
async function draftValue(server: WebServer, projectId: string, customId: string): Promise<string | null | undefined> {
  const program = (await server.store.programs.findProgram(server.programId))!;
  const model = await server.store.programs.loadProgramModel(program);
  const form = model.forms.find((f) => f.customId === 'Application')!;
  const field = model.fields.find((f) => f.customId === customId)!;
  return (await server.store.projects.getDraft(projectId, form.id)).find((v) => v.fieldId === field.id)?.value;
}

/** The project id in a form page's address. */
function projectIdOf(page: Page): string {
  return /\/Projects\/([^/]+)\/Forms\//.exec(page.url())![1]!;
}

describe('web: the application form', () => {
  let server: WebServer;
  let browser: Browser;
  /** The project the first test submits, for the next. */
  let submitted: { projectId: string; projectPage: string } | undefined;
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('takes an applicant from starting an application to its submission', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    await page.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Interconnection Application' }).waitFor();
    assert.match(await page.title(), /Interconnection Application · Residential Solar Interconnection · Demo Agency/);
    // The step indicator: the program's two forms an applicant sees, this one current, the other still to come.
    const steps = page.getByRole('region', { name: 'Forms of the application' }).getByRole('listitem');
    assert.deepEqual(await steps.allTextContents(), ['Interconnection Application', 'Completion Certificate not completed']);
    assert.equal(await steps.nth(0).getAttribute('aria-current'), 'step');
    const projectId = projectIdOf(page);
    await assertAccessible(page);

    // Every field type: text, a sensitive text, choices from custom lists, numbers, an integer, a boolean, a date.
    await page.getByLabel('Customer name').fill('Jordan Rivera');
    await page.getByLabel('Customer e-mail').fill('jordan@example.org');
    await page.getByLabel('Customer phone').fill('555-0100');
    await page.getByLabel('Service address').fill('12 Sunny Lane, Springfield');
    await page.getByLabel('Utility account number').fill('8832-1190-4471');
    await page.getByLabel('Service type').selectOption({ label: 'Single-phase 120/240 V' });
    await page.getByLabel('System size (kW DC)').fill('7.6');
    await page.getByLabel('Inverter output (kW AC)').fill('6.0');
    await page.getByLabel('Number of modules').fill('19.5');
    await page.getByLabel('Inverter manufacturer').selectOption({ label: 'Enphase Energy' });
    await page.getByLabel('Inverter model').fill('IQ8PLUS');
    await page.getByLabel('Mounting type').selectOption('Roof');
    await page.getByRole('group', { name: 'Includes battery storage' }).getByLabel('No').check();
    await page.getByLabel('Installer company').fill('Bright Roofs Solar LLC');
    await page.getByLabel('Planned installation date').fill('2026-05-01');

    // A whole number typed as 19.5: refused by the API's rules, shown beside the field and in the summary; nothing saved.
    await page.getByRole('button', { name: 'Save draft' }).click();
    const summary = page.getByRole('alert');
    await summary.getByRole('heading', { name: 'Your draft was not saved: correct these problems' }).waitFor();
    const link = summary.getByRole('link', { name: /Number of modules must be a whole number/ });
    const target = (await link.getAttribute('href'))!.slice(1);
    assert.equal(await page.getByLabel('Number of modules').getAttribute('id'), target, 'the summary links to the field');
    assert.equal(await page.getByLabel('Number of modules').getAttribute('aria-invalid'), 'true');
    await page.locator(`#${target}-error`).getByText('Number of modules must be a whole number').waitFor();
    assert.equal(await page.getByLabel('Number of modules').inputValue(), '19.5', 'what was typed is shown again');
    assert.equal(await page.getByLabel('Customer name').inputValue(), 'Jordan Rivera');
    assert.equal(await page.getByLabel('Utility account number').inputValue(), '8832-1190-4471');
    assert.equal(await draftValue(server, projectId, 'CustomerName'), undefined, 'nothing was saved');
    await assertAccessible(page);
    await screenshot(page, 'form-with-errors');

    await page.getByLabel('Number of modules').fill('19');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.equal(await draftValue(server, projectId, 'ModuleCount'), '19');
    assert.equal(await draftValue(server, projectId, 'HasBattery'), 'false');
    assert.equal(await draftValue(server, projectId, 'PlannedInstallDate'), '2026-05-01');
    // The sensitive value comes back masked; saving the page with the mask left in place keeps the real value.
    assert.equal(await page.getByLabel('Utility account number').inputValue(), '********');
    await page.getByLabel('Customer phone').fill('555-0101');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved.').waitFor();
    assert.equal(await draftValue(server, projectId, 'UtilityAccountNumber'), '8832-1190-4471');
    assert.equal(await draftValue(server, projectId, 'CustomerPhone'), '555-0101');

    // Submitting without the required site plan lists what is missing, linked to the file input.
    await page.getByRole('button', { name: 'Submit Interconnection Application' }).click();
    const missing = page.getByRole('alert').getByRole('link', { name: 'Site plan must be uploaded.' });
    await missing.waitFor();
    assert.equal(await page.getByLabel('File for Site plan').getAttribute('id'), (await missing.getAttribute('href'))!.slice(1));
    await assertAccessible(page);

    // Typed, not saved, then a file uploaded: the upload saves what was typed too, so nothing is lost.
    await page.getByLabel('Meter number').fill('M-778899');
    await page.getByLabel('File for Site plan').setInputFiles({ name: 'site-plan.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await page.getByRole('button', { name: 'Upload Site plan' }).click();
    await page.getByText('Your draft was saved and the file was uploaded.').waitFor();
    await page.getByRole('link', { name: 'site-plan.pdf', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Meter number').inputValue(), 'M-778899');
    assert.equal(await draftValue(server, projectId, 'MeterNumber'), 'M-778899');
    // A file of a type the definition does not take is refused beside its input in words, nothing is stored, and
    // what was typed before pressing Upload is kept (saved).
    await page.getByLabel('Installer license number').fill('C-46 123456');
    await page.getByLabel('File for Single-line diagram').setInputFiles({ name: 'diagram.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await page.getByRole('button', { name: 'Upload Single-line diagram' }).click();
    await page.getByRole('alert').getByRole('link', { name: 'This file is a text file; only PDF is accepted.' }).waitFor();
    assert.equal((await server.store.attachments.listActiveAttachments(projectId)).length, 1);
    assert.equal(await page.getByLabel('Installer license number').inputValue(), 'C-46 123456');
    assert.equal(await draftValue(server, projectId, 'InstallerLicense'), 'C-46 123456');
    await assertAccessible(page);
    await screenshot(page, 'form-refused-file');
    // Two files at once, with a field changed: one press keeps all three. Replacing the site plan makes version 2.
    await page.getByLabel('Customer phone').fill('555-0102');
    await page.getByLabel('Replace the file of Site plan').setInputFiles({ name: 'site-plan-v2.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await page.getByLabel('File for Single-line diagram').setInputFiles({ name: 'diagram.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Your draft was saved and 2 files were uploaded.').waitFor();
    await page.getByRole('link', { name: 'diagram.pdf', exact: true }).waitFor();
    assert.equal(await draftValue(server, projectId, 'CustomerPhone'), '555-0102');
    // No form on the page carries the CSRF token in its address.
    for (const action of await page.locator('form').evaluateAll((forms) => forms.map((f) => f.getAttribute('action') ?? ''))) assert.doesNotMatch(action, /_csrf/);
    await page.getByRole('link', { name: 'site-plan-v2.pdf', exact: true }).waitFor();
    assert.deepEqual((await server.store.attachments.listActiveAttachments(projectId)).map((a) => [a.fileName, a.version, a.approvalStatus]).sort(),
      [['diagram.pdf', 1, 'Pending'], ['site-plan-v2.pdf', 2, 'Pending']]);
    await assertAccessible(page);
    await screenshot(page, 'form');

    // On a phone's width the page needs no sideways scrolling.
    await page.setViewportSize({ width: 360, height: 800 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no horizontal scrolling at 360 px');
    await screenshot(page, 'form-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Submit Interconnection Application' }).click();
    await page.getByRole('heading', { name: 'Your application was submitted' }).waitFor();
    const number = (await page.getByRole('heading', { level: 1 }).textContent())!;
    assert.match(number, /^SOLAR-\d{5}$/);
    await page.getByText(`Project number ${number}, status Application Review.`).waitFor();
    await page.getByRole('heading', { name: 'What happens next' }).waitFor();
    const history = await page.locator('tbody.history tr td:first-child').allTextContents();
    assert.deepEqual(history, ['Application Review', 'Unsubmitted']);
    const data = page.locator('dl.submitted');
    await data.getByText('Jordan Rivera').waitFor();
    await data.getByText('********').waitFor();
    assert.equal(await data.getByText('8832-1190-4471').count(), 0, 'sensitive values stay masked');
    // Only forms there is something to do or see in are listed: the certificate opens after approval.
    assert.equal(await page.getByRole('link', { name: /Completion Certificate/ }).count(), 0);
    await assertAccessible(page);
    await screenshot(page, 'project');
    submitted = { projectId, projectPage: page.url() };

    // The file downloads with its name, as an attachment.
    const download = await page.request.get(new URL((await page.getByRole('link', { name: 'site-plan-v2.pdf', exact: true }).getAttribute('href'))!, server.baseUrl).toString());
    assert.equal(download.status(), 200);
    assert.match(download.headers()['content-disposition']!, /^attachment; filename="site-plan-v2.pdf"/);
    assert.equal(download.headers()['x-content-type-options'], 'nosniff');
    assert.deepEqual(await download.body(), TINY_PDF);

    // The form is closed now: the page shows the values without inputs.
    await page.getByRole('link', { name: 'Interconnection Application' }).click();
    await page.getByText('cannot be changed while the project is in status "Application Review"').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save draft' }).count(), 0);
    await assertAccessible(page);

    await page.getByRole('link', { name: 'My projects' }).click();
    const row = page.getByRole('row', { name: new RegExp(number) });
    await row.getByText('Application Review').waitFor();
    await assertAccessible(page);
    await screenshot(page, 'home');
    await context.close();
  });

  it('shows the application\'s Inverter model on the Completion Certificate and keeps it through typing, uploading and submitting', async () => {
    assert.ok(submitted, 'the first test submitted an application');
    const { projectId, projectPage } = submitted;
    const model = await server.store.programs.loadProgramModel((await server.store.programs.findProgram(server.programId))!);
    const inverterModel = model.fields.find((f) => f.customId === 'InverterModel')!.id;
    const review = `/MvcProjects/Programs/${server.programId}/Projects/${projectId}/Review`;
    // The admin approves the application for installation on the review page.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, server.baseUrl, DEMO.admin, review);
    await admin.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await admin.getByRole('button', { name: 'Change status' }).click();
    await admin.getByText('The status was changed.').waitFor();
    // The certificate waits for the interconnection agreement: the owner and a plan reviewer sign it first.
    await signDemoAgreement({ app: server.app, store: server.store, clock: systemClock, blobs: new DatabaseBlobStore(server.store, systemClock) }, projectId);

    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant, new URL(projectPage).pathname + new URL(projectPage).search);
    await page.getByRole('link', { name: 'Fill in Completion Certificate' }).click();
    await page.getByRole('heading', { level: 1, name: 'Completion Certificate' }).waitFor();
    const steps = page.getByRole('region', { name: 'Forms of the application' }).getByRole('listitem');
    assert.deepEqual(await steps.allTextContents(), ['Interconnection Application completed', 'Completion Certificate'], 'the submitted form is a completed step');
    assert.equal(await steps.nth(1).getAttribute('aria-current'), 'step');
    assert.deepEqual(await page.locator('legend').filter({ hasText: /^(Completion|System)$/ }).allTextContents(), ['Completion', 'System'], 'each group heading once');
    assert.equal(await page.getByLabel('Inverter model').inputValue(), 'IQ8PLUS', "the application's value");
    // Typed and then uploaded without saving: all kept, Inverter model untouched.
    await page.getByLabel('Installation completed on').fill('2026-05-20');
    await page.getByLabel('Module serial numbers').fill('SN-0001\nSN-0002');
    await page.getByLabel('Electrical permit number').fill('EP-2026-77');
    await page.getByLabel('File for Signed completion certificate').setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await page.getByRole('button', { name: 'Upload Signed completion certificate' }).click();
    await page.getByText('Your draft was saved and the file was uploaded.').waitFor();
    assert.equal(await page.getByLabel('Electrical permit number').inputValue(), 'EP-2026-77');
    assert.equal(await page.getByLabel('Module serial numbers').inputValue(), 'SN-0001\nSN-0002');
    assert.equal(await page.getByLabel('Inverter model').inputValue(), 'IQ8PLUS');
    await page.getByRole('link', { name: 'certificate.pdf', exact: true }).waitFor();
    await assertAccessible(page);
    await screenshot(page, 'certificate-form');
    await page.getByRole('button', { name: 'Submit Completion Certificate' }).click();
    await page.getByRole('heading', { name: 'Your application was submitted' }).waitFor();
    await page.getByText('status Inspection Pending').waitFor();
    // One value per project, read back from the store, the project page and the review page.
    assert.deepEqual((await server.store.projects.getValues(projectId, [inverterModel])).map((v) => v.value), ['IQ8PLUS']);
    assert.equal(await page.locator('dl.submitted').getByText('IQ8PLUS').count(), 2, 'under both forms');
    await admin.goto(`${server.baseUrl}${review}`);
    const row = admin.getByRole('row', { name: /^Inverter model/ });
    assert.deepEqual(await row.first().locator('td').allTextContents(), ['IQ8PLUS', 'IQ8PLUS']);
    assert.equal(await admin.getByText('(changed in draft)').count(), 0);
    await adminContext.close();
    await context.close();
  });
});
