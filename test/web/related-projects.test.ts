import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { assertAccessible, launchBrowser, SignedInPages, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// Related projects in a real browser: a reviewer who may make claims creates the incentive claim from the review
// page's button (a plain form); the review page and the applicant's project pages list the relation both ways; the
// plan reviewer, who may not read claims, sees neither the button nor the claim.

const REVIEWER = DEMO_CREDENTIALS.find((c) => c.role === 'reviewer')!;
const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.grant === 'Reviewer')!;
const APPLICANT = DEMO_CREDENTIALS.find((c) => c.role === 'applicant')!;

describe('web: related projects on the review page and the project pages', () => {
  let server: WebServer;
  let browser: Browser;
  const pages = new SignedInPages();
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await pages.close();
    await browser?.close();
    await server?.close();
  });

  it('staff create the claim with the review page\'s button; both ends list it; a reviewer without claims sees nothing of it', async () => {
    const project = await submitApplication(server);
    const reviewPath = `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`;
    const review = await pages.as(browser, server.baseUrl, REVIEWER);
    await review.goto(`${server.baseUrl}${reviewPath}`);
    await review.getByRole('heading', { name: 'Related projects' }).waitFor();
    await review.getByRole('button', { name: 'Create Incentive claim (Solar Incentive Claim)' }).click();
    await review.getByText('The related project was created.').waitFor();
    const [relation] = await server.store.relations.listProjectRelations(project.projectId);
    assert.ok(relation, 'the relation was stored');
    const row = review.locator('tbody.relations tr');
    assert.match(await row.innerText(), /Child \(Incentive claim\)\s+Unsubmitted project\s+Solar Incentive Claim\s+Unsubmitted/);
    await assertAccessible(review);

    // The applicant: the interconnection lists its claim; the claim lists its parent, which opens the interconnection.
    const mine = await pages.as(browser, server.baseUrl, APPLICANT);
    await mine.goto(`${server.baseUrl}/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${project.projectId}`);
    await mine.getByRole('link', { name: 'Unsubmitted project' }).click();
    await mine.waitForURL(new RegExp(`ProjectId=${relation.toProjectId}`));
    assert.match(await mine.locator('tbody.relations tr').innerText(), new RegExp(`Parent \\(Incentive claim\\)\\s+${project.number}\\s+Residential`));
    await assertAccessible(mine);

    // The plan reviewer reads the interconnection but not claims: no section, no button, no trace of the claim.
    const other = await pages.as(browser, server.baseUrl, PLAN_REVIEWER);
    await other.goto(`${server.baseUrl}${reviewPath}`);
    await other.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await other.getByRole('heading', { name: 'Related projects' }).count(), 0);
    assert.equal((await other.content()).includes(relation.toProjectId), false);
  });
});
