import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { assertAccessible, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// The demo program's own Reviewer role in a real browser: the plan reviewer sees the review actions its privileges
// allow (files, questions, assigning, the review decisions) and none of the admin's (export, hand-over, other moves).

const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.grant === 'Reviewer')!;

describe('web: the plan reviewer (a role of the program file)', () => {
  let server: WebServer;
  let browser: Browser;
  let project: { projectId: string; number: string };
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    project = await submitApplication(server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is offered the review actions but not the admin-only ones, approves the site plan and decides along its transitions', async () => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, server.baseUrl, PLAN_REVIEWER, `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`);
    await page.getByRole('heading', { name: `Review ${project.number}` }).waitFor();
    await page.getByText('Plan reviewer', { exact: true }).waitFor();

    // What its privileges allow is offered; what they do not is not shown at all.
    await page.getByRole('button', { name: 'Approve Site plan' }).waitFor();
    await page.getByRole('button', { name: 'Start thread' }).waitFor();
    await page.getByRole('button', { name: 'Assign', exact: true }).waitFor();
    const options = await page.getByLabel('Move to status').locator('option').allTextContents();
    assert.deepEqual(options.sort(), ['Application Rejected', 'Approved for Installation'], 'its transitions, not Withdrawn');
    assert.equal(await page.getByRole('button', { name: 'Change owner' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Export this project (XML)' }).count(), 0);
    await assertAccessible(page);

    await page.getByLabel('Note on Site plan').fill('Setbacks shown.');
    await page.getByRole('button', { name: 'Approve Site plan' }).click();
    await page.getByText('The file review was saved.').waitFor();
    const file = await server.store.attachments.listActiveAttachments(project.projectId);
    assert.equal(file[0]?.approvalStatus, 'Approved');

    await page.getByLabel('Move to status').selectOption({ label: 'Approved for Installation' });
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('The status was changed.').waitFor();
    // From Approved for Installation the workflow goes on, but not by this role's hand.
    await page.getByText('Your role does not move projects on from “Approved for Installation”.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Change status' }).count(), 0);
    await page.context().close();
  });
});
