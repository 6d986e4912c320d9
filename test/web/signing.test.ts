import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { systemClock } from '../../src/model/clock.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { AGENCY, generateAndSend, lastToken, OWNER, signingParts, template } from '../http/signing-fixtures.ts';
import { submitApplication } from './staff-fixtures.ts';

// Signing in a real browser (plain forms, no script): the applicant opens the mailed link without signing in, reads
// the document inline, consents, types a name and signs; the link then opens nothing; the agency's signer (a holder
// of the role) signs signed in; the review page and the applicant's project page show where the envelope stands, and
// staff void another envelope with the review page's form. axe finds nothing serious on any of these pages.

describe('web: signing a document', () => {
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function sendAgreement(projectId: string): Promise<string> {
    const program = await server.store.programs.findProgram(server.programId);
    assert.ok(program);
    const model = await server.store.programs.loadProgramModel(program);
    const sitePlan = model.forms.flatMap((f) => f.attachments).find((a) => a.customId === 'SitePlan')!;
    const { signing, blobs } = signingParts({ store: server.store, clock: systemClock }, server.baseUrl);
    return generateAndSend({ store: server.store, clock: systemClock }, signing, blobs, projectId, { ...template([OWNER, AGENCY]), attachmentId: sitePlan.id }, server.programId);
  }

  it('the applicant signs by link, the agency signs signed in; a used link opens nothing', async () => {
    const { projectId } = await submitApplication(server);
    const envelopeId = await sendAgreement(projectId);
    const link = `${server.baseUrl}/MvcProjects/Sign?token=${await lastToken(server, DEMO.applicant.email)}`;

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(link);
    await visitor.getByRole('heading', { name: 'Interconnection agreement', level: 1 }).waitFor();
    assert.equal(await visitor.locator('iframe[title^="The document to sign"]').count(), 1);
    const pdf = await visitor.request.get(await visitor.getByRole('link', { name: 'Open the document (PDF)' }).getAttribute('href').then((h) => new URL(h!, server.baseUrl).href));
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    assert.match(pdf.headers()['content-disposition'] ?? '', /^inline/);
    await visitor.getByText('You have the right to sign on paper instead', { exact: false }).waitFor();
    await assertAccessible(visitor);
    await visitor.getByLabel('I have read the disclosure and agree to sign electronically').check();
    await visitor.getByLabel('Type your full name as your signature').fill('Alex Applicant');
    await screenshot(visitor, 'signing');
    await visitor.getByRole('button', { name: 'Sign', exact: true }).click();
    await visitor.getByText('Thank you: you signed the document.').waitFor();
    await assertAccessible(visitor);
    let signers = await server.store.envelopes.listSigners([envelopeId]);
    assert.deepEqual(signers.map((s) => [s.state, s.typedName]), [['signed', 'Alex Applicant'], ['notified', null]]);

    // The link was used: opening it again shows the refusal, not the forms.
    const again = await visitor.goto(link);
    assert.equal(again?.status(), 403);
    assert.equal(await visitor.getByRole('button', { name: 'Sign', exact: true }).count(), 0);
    await visitor.context().close();

    // The agency's signer signs signed in, from the review page's link.
    const reviewer = await (await browser.newContext()).newPage();
    await signIn(reviewer, server.baseUrl, DEMO.reviewer, `/MvcProjects/Programs/${server.programId}/Projects/${projectId}/Review`);
    await reviewer.getByRole('heading', { name: 'Documents to sign' }).waitFor();
    await reviewer.getByRole('link', { name: 'Open the signing page of Interconnection agreement' }).click();
    await reviewer.getByRole('heading', { name: 'Sign as Agency signer' }).waitFor();
    await reviewer.getByRole('button', { name: 'Sign', exact: true }).click();
    // The browser keeps the form from posting without consent and a name (required), as the server would refuse it.
    assert.equal((await server.store.envelopes.listSigners([envelopeId]))[1]!.state, 'viewed');
    await reviewer.getByLabel('I have read the disclosure and agree to sign electronically').check();
    await reviewer.getByLabel('Type your full name as your signature').fill('Riley Reviewer');
    await reviewer.getByRole('button', { name: 'Sign', exact: true }).click();
    await reviewer.getByText('Thank you: you signed the document.').waitFor();
    signers = await server.store.envelopes.listSigners([envelopeId]);
    assert.deepEqual(signers.map((s) => s.state), ['signed', 'signed']);
    await reviewer.goto(`${server.baseUrl}/MvcProjects/Programs/${server.programId}/Projects/${projectId}/Review`);
    await reviewer.getByText('Signed by everyone; the signed PDF is being made').waitFor();
    await screenshot(reviewer, 'review-envelopes');
    await assertAccessible(reviewer);
    await reviewer.context().close();

    // The applicant's project page shows the envelope and its signers.
    const mine = await (await browser.newContext()).newPage();
    await signIn(mine, server.baseUrl, DEMO.applicant, `/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${projectId}`);
    await mine.getByRole('heading', { name: 'Documents to sign' }).waitFor();
    assert.match(await mine.locator('article.envelope').innerText(), /Agency signer\s+Riley Reviewer\s+Signed/);
    await mine.context().close();
  });

  it('staff void an envelope with the review page\'s form; its link then opens nothing', async () => {
    const { projectId } = await submitApplication(server);
    const envelopeId = await sendAgreement(projectId);
    const token = await lastToken(server, DEMO.applicant.email);
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, server.baseUrl, DEMO.admin, `/MvcProjects/Programs/${server.programId}/Projects/${projectId}/Review`);
    await admin.getByRole('button', { name: 'Resend the link to Applicant' }).click();
    await admin.getByText('The signer was sent a new link').waitFor();
    // Mail is off on this server: the new link went nowhere, but the old one is dead.
    assert.equal((await server.store.envelopes.listSteps(envelopeId)).at(-1)?.action, 'resent');
    assert.equal((await fetch(`${server.baseUrl}/MvcProjects/Sign?token=${token}`)).status, 403);
    await admin.getByLabel('Reason for voiding (optional)').fill('Wrong address');
    await admin.getByRole('button', { name: 'Void Interconnection agreement' }).click();
    await admin.getByText('The envelope was voided').waitFor();
    await assertAccessible(admin);
    assert.equal((await server.store.envelopes.findEnvelope(envelopeId))?.state, 'voided');
    const signing = await fetch(`${server.baseUrl}/MvcProjects/Sign?EnvelopeId=${envelopeId}`, { headers: { authorization: `Basic ${Buffer.from(`${DEMO.applicant.email}:${DEMO.applicant.password}`).toString('base64')}` } });
    assert.equal(signing.status, 200);
    assert.match(await signing.text(), /Voided/);
    await admin.context().close();
  });
});
