import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { generateDueDocuments } from '../../src/domain/documents/document-generation-task.ts';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { FakeRenderer, template, withDocuments } from '../support/document-fixtures.ts';
import { assertAccessible, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { submitApplication } from './staff-fixtures.ts';

// Generating a document from the review page in a real browser: the plan reviewer (privilege generateDocuments)
// presses "Generate document" (a plain form, no script), sees it being generated, and, once the background work has
// rendered it, generated with a link to its version; the page stays free of serious axe findings.

const PLAN_REVIEWER = DEMO_CREDENTIALS.find((c) => c.grant === 'Reviewer')!;

/** A completion letter kept in the demo's SignedCertificate definition (until §1's import makes each document its own). */
const letters = (model: ProgramModel) => {
  const definition = model.forms.flatMap((f) => f.attachments).find((a) => a.customId === 'SignedCertificate');
  // The demo's other program, its incentive claims (which the review page's related projects read), has no such definition.
  return definition ? [{ ...template('CompletionLetter', definition.id, true), name: 'Completion letter' }] : [];
};

describe('web: generating a document on the review page', () => {
  let server: WebServer;
  let browser: Browser;
  let project: { projectId: string; number: string };
  before(async () => {
    server = await startWebServer('sqlite', {}, (store) => withDocuments(store, letters, null));
    browser = await launchBrowser();
    project = await submitApplication(server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the plan reviewer asks for a document with the Generate document button and sees it generated', async () => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, server.baseUrl, PLAN_REVIEWER, `/MvcProjects/Programs/${server.programId}/Projects/${project.projectId}/Review`);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    assert.match(await page.locator('#document-CompletionLetter').innerText(), /Not generated/);
    await page.getByRole('button', { name: 'Generate document Completion letter' }).click();
    await page.getByText('The document was asked for').waitFor();
    assert.match(await page.locator('#document-CompletionLetter').innerText(), /Being generated/);
    await assertAccessible(page);

    const store = withDocuments(server.store, letters, null);
    await generateDueDocuments({
      store, clock: systemClock, ids: new RandomIdGenerator(), reactions: changeReactions(), renderer: new FakeRenderer(), blobs: new DatabaseBlobStore(server.store, systemClock),
    });
    await page.reload();
    assert.match(await page.locator('#document-CompletionLetter').innerText(), /Generated .*\(version 1\)/s);
    await page.getByRole('link', { name: 'version 1' }).waitFor();
    await assertAccessible(page);
    await page.context().close();
  });
});
