import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { systemClock } from '../../src/model/clock.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { agreementEnvelope, type DemoServer, runTask } from '../support/demo-signing.ts';
import { NS } from '../support/http-harness.ts';
import { submitApplication } from './staff-fixtures.ts';

// The demo's interconnection agreement signed in a real browser, as the README's walk-through tells it: the project is
// approved, the background task renders the agreement and sends it for signing; the applicant signs in, opens the
// signing page from the project page, consents, types the name and signs; the plan reviewer does the same from the
// review page; once the signed PDF is made, the project page shows the envelope completed. axe finds nothing serious
// on the signing page.

const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.role === 'plan reviewer')!;

describe('web: signing the demo\'s interconnection agreement', () => {
  let server: WebServer;
  let browser: Browser;
  let demo: DemoServer;
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    demo = { app: server.app, store: server.store, clock: systemClock, blobs: new DatabaseBlobStore(server.store, systemClock) };
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function approve(projectId: string): Promise<void> {
    const auth = `Basic ${Buffer.from(`${DEMO.admin.email}:${DEMO.admin.password}`).toString('base64')}`;
    const res = await fetch(`${server.baseUrl}/services/v2/Programs/RES-SOLAR/Projects/${projectId}/Status`, {
      method: 'POST', headers: { authorization: auth, 'x-apikey': DEMO.admin.apiKey, 'content-type': 'application/xml' },
      body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`,
    });
    assert.equal(res.status, 200, await res.text());
  }

  it('the applicant and then the plan reviewer sign on the pages; the project page shows the envelope completed', async () => {
    const { projectId } = await submitApplication(server);
    await approve(projectId);
    await runTask(demo, 'document generation');
    const envelope = await agreementEnvelope(server.store, projectId);
    const projectPage = `/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${projectId}`;

    // The applicant: from the project page to the signing page; reads, consents, types the name, signs.
    const applicant = await (await browser.newContext()).newPage();
    await signIn(applicant, server.baseUrl, DEMO.applicant, projectPage);
    await applicant.getByRole('heading', { name: 'Documents to sign' }).waitFor();
    assert.match(await applicant.locator('article.envelope').innerText(), /Out for signature/);
    await applicant.getByRole('link', { name: /^Open the signing page of Interconnection agreement/ }).click();
    await applicant.getByRole('heading', { name: 'Sign as Customer' }).waitFor();
    assert.equal(await applicant.locator('iframe[title^="The document to sign"]').count(), 1);
    await assertAccessible(applicant);
    await applicant.getByLabel('I have read the disclosure and agree to sign electronically').check();
    await applicant.getByLabel('Type your full name as your signature').fill('Alex Applicant');
    await screenshot(applicant, 'demo-agreement-signing');
    await applicant.getByRole('button', { name: 'Sign', exact: true }).click();
    await applicant.getByText('Thank you: you signed the document.').waitFor();
    await assertAccessible(applicant);
    assert.deepEqual((await server.store.envelopes.listSigners([envelope.id])).map((s) => [s.signerId, s.state, s.typedName]),
      [['Customer', 'signed', 'Alex Applicant'], ['Utility', 'notified', null]]);

    // The plan reviewer signs for the utility, from the review page.
    const reviewer = await (await browser.newContext()).newPage();
    await signIn(reviewer, server.baseUrl, PLAN_REVIEWER, `/MvcProjects/Programs/${server.programId}/Projects/${projectId}/Review`);
    await reviewer.getByRole('link', { name: /^Open the signing page of Interconnection agreement/ }).click();
    await reviewer.getByRole('heading', { name: 'Sign as Plan reviewer for the utility' }).waitFor();
    await assertAccessible(reviewer);
    await reviewer.getByLabel('I have read the disclosure and agree to sign electronically').check();
    await reviewer.getByLabel('Type your full name as your signature').fill(PLAN_REVIEWER.name);
    await reviewer.getByRole('button', { name: 'Sign', exact: true }).click();
    await reviewer.getByText('Thank you: you signed the document.').waitFor();
    await reviewer.context().close();

    // The service makes the signed PDF; the applicant's project page shows the envelope completed.
    await runTask(demo, 'envelope finisher');
    assert.equal((await agreementEnvelope(server.store, projectId)).state, 'completed');
    await applicant.goto(`${server.baseUrl}${projectPage}`);
    const shown = await applicant.locator('article.envelope').innerText();
    assert.match(shown, /Completed: signed by everyone/);
    assert.match(shown, /Plan reviewer for the utility\s+Parker Plan-Reviewer\s+Signed/);
    await assertAccessible(applicant);
    await applicant.context().close();
  });
});
