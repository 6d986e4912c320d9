import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';

// One application from start to a new status, in the browser only, with each person in their own browser session:
// the applicant applies, the reviewer finds it in the queue and takes it, the admin reviews the site plan and asks a
// question, the applicant answers it, the admin moves the project on and the applicant sees the new status.
// (Reviewing files, asking questions and moving the status are admin operations in the reference; editors assign.)

/** The project id in a project page's address. */
function projectIdOf(url: string): string {
  return new URL(url).searchParams.get('ProjectId')!;
}

describe('web: a whole application cycle across applicant, reviewer and admin', () => {
  let server: WebServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  async function as(who: { email: string; password: string }, next = '/MvcProjects/'): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server.baseUrl, who, next);
    return page;
  }

  it('goes from a new application to Approved for Installation, seen by the applicant', async () => {
    // The applicant: start, fill in every field type, meet a validation error and fix it, upload, submit.
    const applicant = await as(DEMO.applicant);
    await applicant.getByRole('button', { name: 'Start an application for Residential Solar Interconnection' }).click();
    await applicant.getByRole('heading', { level: 1, name: 'Interconnection Application' }).waitFor();
    await applicant.getByLabel('Customer name').fill('Sam Sunshine');
    await applicant.getByLabel('Customer e-mail').fill('sam@example.org');
    await applicant.getByLabel('Service address').fill('7 Ray Road, Springfield');
    await applicant.getByLabel('Utility account number').fill('5550-1234');
    await applicant.getByLabel('Service type').selectOption({ label: 'Single-phase 120/240 V' });
    await applicant.getByLabel('System size (kW DC)').fill('123');
    await applicant.getByLabel('Inverter output (kW AC)').fill('5');
    await applicant.getByLabel('Number of modules').fill('14');
    await applicant.getByLabel('Inverter manufacturer').selectOption({ label: 'SMA Solar Technology' });
    await applicant.getByLabel('Mounting type').selectOption('Ground');
    await applicant.getByRole('group', { name: 'Includes battery storage' }).getByLabel('Yes').check();
    await applicant.getByLabel('Installer company').fill('Sunny Installs');
    await applicant.getByLabel('Planned installation date').fill('2026-06-15');
    await applicant.getByRole('button', { name: 'Save draft' }).click();
    await applicant.getByRole('alert').getByRole('link', { name: /System size \(kW DC\)/ }).waitFor();
    await applicant.getByLabel('System size (kW DC)').fill('8.2');
    await applicant.getByRole('button', { name: 'Save draft' }).click();
    await applicant.getByText('Your draft was saved.').waitFor();
    // The battery's capacity is asked for once the saved draft has a battery (the program's visibleIf rule).
    await applicant.getByLabel('Battery capacity (kWh)').fill('13.5');
    await applicant.getByRole('button', { name: 'Save draft' }).click();
    await applicant.getByText('Your draft was saved.').waitFor();
    await applicant.getByLabel('File for Site plan').setInputFiles({ name: 'site-plan.pdf', mimeType: 'application/pdf', buffer: TINY_PDF });
    await applicant.getByRole('button', { name: 'Upload Site plan' }).click();
    await applicant.getByText('Your draft was saved and the file was uploaded.').waitFor();
    await applicant.getByRole('button', { name: 'Submit Interconnection Application' }).click();
    await applicant.getByRole('heading', { name: 'Your application was submitted' }).waitFor();
    const number = (await applicant.getByRole('heading', { level: 1 }).textContent())!;
    assert.match(number, /^SOLAR-\d{5}$/);
    const projectPage = applicant.url();

    // The reviewer: finds it in the work queue by number and by a data field, opens it, takes it.
    const queue = `/Projects/ProjectList?ProgramId=${server.programId}`;
    const reviewer = await as(DEMO.reviewer, queue);
    await reviewer.getByLabel('Project number').fill(number);
    await reviewer.getByRole('button', { name: 'Apply filters' }).click();
    await reviewer.getByRole('link', { name: number }).waitFor();
    await reviewer.getByRole('link', { name: 'Clear filters' }).click();
    await reviewer.getByLabel('Field').selectOption({ label: 'Inverter manufacturer' });
    await reviewer.getByLabel('Comparison').selectOption({ label: 'equals' });
    await reviewer.getByLabel('Value').fill('SMA');
    await reviewer.getByRole('button', { name: 'Apply filters' }).click();
    await reviewer.getByRole('link', { name: number }).click();
    await reviewer.getByRole('heading', { name: `Review ${number}` }).waitFor();
    await reviewer.getByLabel("Assignee's e-mail address").fill(DEMO.reviewer.email);
    await reviewer.getByRole('button', { name: 'Assign', exact: true }).click();
    await reviewer.getByText(`${DEMO.reviewer.name} (${DEMO.reviewer.email})`).first().waitFor();

    // The admin: approves the site plan and asks the applicant a question.
    const admin = await as(DEMO.admin, reviewer.url().replace(server.baseUrl, '').split('?')[0]);
    await admin.getByLabel('Note on Site plan').fill('Setbacks are shown.');
    await admin.getByRole('button', { name: 'Approve Site plan' }).click();
    await admin.getByText('Approved', { exact: true }).first().waitFor();
    assert.deepEqual((await server.store.attachments.listActiveAttachments(projectIdOf(projectPage))).map((a) => a.approvalStatus), ['Approved']);
    await admin.getByLabel('Subject').fill('Battery location');
    await admin.getByLabel('First note').fill('Where will the battery be installed?');
    // A question for the applicant: notes are internal unless ticked.
    await admin.locator('#thread-visible').check();
    await admin.getByRole('button', { name: 'Start thread' }).click();
    await admin.getByText('Where will the battery be installed?').waitFor();

    // The applicant: sees the question and the approval on the project page, and answers.
    await applicant.goto(projectPage);
    await applicant.getByText('Where will the battery be installed?').waitFor();
    await applicant.getByText('Approved', { exact: true }).first().waitFor();
    await applicant.getByLabel(/Your reply to/).fill('In the garage, next to the panel.');
    await applicant.getByRole('button', { name: 'Send reply' }).click();
    await applicant.getByText('In the garage, next to the panel.').waitFor();

    // The admin: sees the answer and moves the project along the workflow.
    await admin.reload();
    await admin.getByText('In the garage, next to the panel.').waitFor();
    await admin.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await admin.getByRole('button', { name: 'Change status' }).click();
    await admin.getByText('The status was changed.').waitFor();

    // The applicant: sees the new status on the project page and on My projects.
    await applicant.goto(projectPage);
    await applicant.getByText('Approved for Installation').first().waitFor();
    await applicant.getByRole('link', { name: 'My projects' }).click();
    await applicant.getByRole('row', { name: new RegExp(number) }).getByText('Approved for Installation').waitFor();
    const stored = (await server.store.projects.findProjectsByNumbers(server.programId, [number]))[0]!;
    const status = (await server.store.programs.loadProgramModel((await server.store.programs.findProgram(server.programId))!)).statuses.find((s) => s.id === stored.statusId)!;
    assert.equal(status.name, 'Approved for Installation');
  });
});
