import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { assertAccessible, launchBrowser, SignedInPages, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// Related projects in a real browser: a reviewer who may make claims creates the incentive claim from the review
// page's button (a plain form); the review page and the applicant's project pages list the relation both ways; the
// plan reviewer, who may not read claims, sees neither the button nor the claim. Staff link a project by its number
// and remove the link again (plain forms); a successor is fixed.

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

    // The plan reviewer reads the interconnection but not claims: no row, no button, no trace of the claim (only the
    // form that links a project of a program they work in).
    const other = await pages.as(browser, server.baseUrl, PLAN_REVIEWER);
    await other.goto(`${server.baseUrl}${reviewPath}`);
    await other.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await other.locator('tbody.relations tr').count(), 0);
    assert.equal(await other.getByRole('button', { name: /Create Incentive claim/ }).count(), 0);
    assert.equal((await other.getByLabel('Its program').locator('option').allInnerTexts()).includes('Solar Incentive Claim'), false);
    assert.equal((await other.content()).includes(relation.toProjectId), false);
  });

  it('staff link another project by its number with a plain form, see a refusal beside the number, and remove the link again', async () => {
    const project = await submitApplication(server);
    const other = await submitApplication(server);
    const review = await pages.as(browser, server.baseUrl, REVIEWER);
    await review.goto(`${server.baseUrl}/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`);
    await review.getByRole('heading', { name: 'Related projects' }).waitFor();
    const link = async (number: string, kind: string) => {
      await review.getByLabel('Its program').selectOption('RES-SOLAR');
      await review.getByLabel('Its project number').fill(number);
      await review.getByLabel('It is this project\'s').selectOption(kind);
      await review.getByRole('button', { name: 'Link project' }).click();
    };
    // A number no project has: the page comes back with the refusal beside the number, and nothing is related.
    await link('PV-NOPE-1', 'link');
    await review.locator('.usa-error-message, .usa-alert--error').first().waitFor();
    assert.match(await review.locator('.usa-alert--error').innerText(), /not found/);
    assert.deepEqual(await server.store.relations.listProjectRelations(project.projectId), []);
    await assertAccessible(review);

    await link(other.number, 'link');
    await review.getByText('The project was linked.').waitFor();
    assert.match(await review.locator('tbody.relations tr').innerText(), new RegExp(`Linked\\s+${other.number}`));
    const [row] = await server.store.relations.listProjectRelations(project.projectId);
    assert.deepEqual([row?.kind, row?.toProjectId], ['link', other.projectId]);
    await assertAccessible(review);

    await review.getByRole('button', { name: `Remove the link to ${other.number}` }).click();
    await review.getByText('The link was removed.').waitFor();
    assert.deepEqual(await server.store.relations.listProjectRelations(project.projectId), []);
    assert.equal(await review.locator('tbody.relations').count(), 0);

    // A successor is fixed: listed without a remove button.
    await link(other.number, 'successor');
    await review.getByText('The project was linked.').waitFor();
    assert.match(await review.locator('tbody.relations tr').innerText(), new RegExp(`Successor\\s+${other.number}[\\s\\S]*Fixed`));
    assert.equal(await review.getByRole('button', { name: /Remove the link/ }).count(), 0);
  });
});
