import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { deliveryPayload } from '../../src/http/webhook-payload.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { assertAccessible, DEMO, launchBrowser, SignedInPages, screenshot, startWebServer, type WebServer } from '../support/browser.ts';
import { type Receiver, startReceiver, verified } from '../http/webhook-helpers.ts';

// Self-service for an integrator in a real browser: the agency admin allows it in the console; the demo applicant
// makes an API key on the account page (which then acts as them: their own project yes, someone else's no) and a
// webhook, and receives a signed delivery for their own project and none for the admin's; revokes the key; and once
// the agency turns self-service off the page offers nothing, the POSTs are refused (read back: nothing made), and the
// existing subscription is sent nothing more.

const INSECURE = { APAS_WEBHOOK_ALLOW_INSECURE: 'true', APAS_WEBHOOK_TIMEOUT_MS: '10000' };
const PROGRAM_API = '/services/v2/Programs/RES-SOLAR';

describe('Self-service credentials and webhooks in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  let receiver: Receiver;
  const pages = new SignedInPages();
  before(async () => {
    server = await startWebServer('sqlite', INSECURE);
    browser = await launchBrowser();
    receiver = await startReceiver();
  });
  after(async () => {
    await pages.close();
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  const as = (who: { email: string; password: string }): Promise<Page> => pages.as(browser, server.baseUrl, who);

  // What the API answers a request with Basic credentials of `who` and the API key `key`.
  async function api(who: { email: string; password: string }, key: string, method: 'GET' | 'POST', path: string): Promise<{ status: number; body: string }> {
    const res = await fetch(`${server.baseUrl}${PROGRAM_API}/${path}`, {
      method, headers: { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': key },
    });
    return { status: res.status, body: await res.text() };
  }

  async function newProject(who: { email: string; password: string }, key: string): Promise<string> {
    const res = await api(who, key, 'POST', 'NewProject');
    assert.equal(res.status, 200, res.body);
    const id = /ProjectId="([^"]+)"/.exec(res.body)?.[1];
    assert.ok(id, res.body);
    return id;
  }

  // The webhook work of `serve`, run by hand: fan-out of the outbox, then every due delivery.
  async function round(): Promise<void> {
    const work = webhookWorkers({ store: server.store, clock: systemClock, ids: new RandomIdGenerator() }, { ...loadConfig(INSECURE).webhooks, payload: deliveryPayload });
    while ((await consumeOutbox(server.store, work.fanOut)) > 0);
    while (await work.worker.deliverDue());
  }

  async function setPolicy(admin: Page, credentials: boolean, webhooks: boolean): Promise<void> {
    await admin.goto(`${server.baseUrl}/MvcProjects/Console/SelfService`);
    await admin.getByLabel('Create and revoke their own API keys and OAuth clients').setChecked(credentials);
    await admin.getByLabel('Subscribe webhooks for the projects they can read').setChecked(webhooks);
    await admin.getByRole('button', { name: 'Save policy' }).click();
    await admin.getByText('The self-service policy was saved.').waitFor();
  }

  it('an applicant makes a key and a webhook, receives a signed delivery of their own project only, and is refused once the agency turns it off', async () => {
    const agency = (await server.store.accounts.findAgency('demo'))!;
    const applicant = (await server.store.accounts.findUserByEmail(DEMO.applicant.email))!;
    assert.deepEqual(await server.store.agencyPolicies.findPolicy(agency.id), { agencyId: agency.id, ownCredentials: false, ownWebhooks: false, updatedAt: null, updatedBy: null });

    const admin = await as(DEMO.admin);
    await admin.goto(`${server.baseUrl}/MvcProjects/Console/SelfService`);
    await assertAccessible(admin);
    await setPolicy(admin, true, true);
    await assertAccessible(admin);
    const on = await server.store.agencyPolicies.findPolicy(agency.id);
    assert.equal(on.ownCredentials, true);
    assert.equal(on.ownWebhooks, true);

    const page = await as(DEMO.applicant);
    await page.getByRole('link', { name: 'Your account' }).click();
    await assertAccessible(page);
    await page.getByLabel('Name of a new API key').fill('My integration');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = await page.getByLabel('Your new API key').inputValue();
    assert.match(key, /^apas_/);
    await assertAccessible(page);

    // The key acts as the applicant: a project of their own, and the admin's project is unknown to them.
    const own = await newProject(DEMO.applicant, key);
    const others = await newProject(DEMO.admin, DEMO.admin.apiKey);
    assert.equal((await api(DEMO.applicant, key, 'GET', `Projects/${own}/Forms/Application/Draft/Data`)).status, 200);
    assert.equal((await api(DEMO.applicant, key, 'GET', `Projects/${others}/Forms/Application/Draft/Data`)).status, 404);
    await round();

    await page.goto(`${server.baseUrl}/MvcProjects/Account`);
    await page.getByLabel('Program').selectOption({ label: 'Residential Solar Interconnection' });
    await page.getByLabel('Receiver address').fill(receiver.url);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const secret = await page.getByLabel('Its signing secret').inputValue();
    assert.match(secret, /^whsec_/);
    await assertAccessible(page);
    await screenshot(page, 'account-integrations');

    const mine = await newProject(DEMO.applicant, key);
    const adminsNext = await newProject(DEMO.admin, DEMO.admin.apiKey);
    await round();
    // Every event of the applicant's new project (created, and the demo's automation event), each signed with the
    // subscription's secret; none of the admin's project.
    const payloads = receiver.received.map((r) => verified(secret, r));
    assert.deepEqual(payloads.map((p) => p.type), ['project.created', 'automation.custom']);
    assert.deepEqual(new Set(payloads.map((p) => p.data.ProjectId)), new Set([mine]));
    assert.ok(!receiver.received.some((r) => r.body.includes(adminsNext) || r.body.includes(others)));
    const sent = receiver.received.length;

    // The delivery log on the account page is the applicant's own.
    await page.getByRole('link', { name: receiver.url }).click();
    assert.match(await page.getByRole('table', { name: 'Latest deliveries' }).textContent() ?? '', new RegExp(`project\\.created.*${mine}.*delivered`));
    await assertAccessible(page);
    // Its owner changes it on the same page: the kinds of event, off and on again, a new secret shown once.
    await page.getByLabel('project.submitted').check();
    await page.getByRole('button', { name: 'Save the kinds of event' }).click();
    await page.getByText('The kinds of event were saved.').waitFor();
    const hook = (await server.store.webhooks.listOwnedSubscriptions(applicant.id))[0]!;
    assert.deepEqual(hook.eventTypes, ['project.submitted']);
    await page.getByRole('button', { name: 'Disable this subscription' }).click();
    await page.getByText('nothing is sent to it until it is enabled again').waitFor();
    await page.getByRole('button', { name: 'Enable this subscription' }).click();
    await page.getByText('The subscription was enabled again.').waitFor();
    await page.getByLabel('Keep signing with the current secret too for').selectOption({ label: '3 days' });
    await page.getByRole('button', { name: 'Make a new signing secret' }).click();
    const newSecret = await page.getByLabel('The new signing secret').inputValue();
    assert.ok(newSecret !== secret && /^whsec_/.test(newSecret));
    const rotated = (await server.store.webhooks.listOwnedSubscriptions(applicant.id))[0]!;
    assert.deepEqual([rotated.secret, rotated.previousSecret, rotated.enabled], [newSecret, secret, true]);
    await assertAccessible(page);
    await screenshot(page, 'account-webhook');
    // A refusal comes back on the page of its form, nothing changed: the subscription's own page for its forms, the
    // account page for the account's; a subscription that is not there has no page to come back to (the error page).
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const badGrace = await page.request.post(`${server.baseUrl}/MvcProjects/Account/Webhooks/${rotated.id}/Rotate`, { form: { _csrf: csrf, GraceHours: 'soon' } });
    assert.equal(badGrace.status(), 400);
    assert.match(await badGrace.text(), /The grace period must be a whole number of hours[\s\S]*Make a new signing secret/);
    assert.equal((await server.store.webhooks.listOwnedSubscriptions(applicant.id))[0]!.secret, newSecret);
    const missing = await page.request.post(`${server.baseUrl}/MvcProjects/Account/Webhooks/NOSUCHHOOK00/Disable`, { form: { _csrf: csrf } });
    assert.equal(missing.status(), 404);
    assert.equal((await missing.text()).includes('Make a new signing secret'), false);
    const noName = await page.request.post(`${server.baseUrl}/MvcProjects/Account/Webhooks`, { form: { _csrf: csrf, ProgramId: 'not an id!', Url: receiver.url } });
    assert.equal(noName.status(), 400);
    assert.match(await noName.text(), /Choose a program\.[\s\S]*Create API key/);

    await page.goto(`${server.baseUrl}/MvcProjects/Account`);
    await page.getByRole('button', { name: /^Revoke My integration/ }).click();
    await page.getByText('The API key was revoked; it no longer works.').waitFor();
    assert.equal((await api(DEMO.applicant, key, 'GET', `Projects/${mine}/Forms/Application/Draft/Data`)).status, 401);

    // The agency turns it off: nothing is offered, the POSTs are refused and nothing is made, and the subscription is
    // sent nothing more.
    await setPolicy(admin, false, false);
    const off = await server.store.agencyPolicies.findPolicy(agency.id);
    assert.equal(off.ownCredentials || off.ownWebhooks, false);
    await page.goto(`${server.baseUrl}/MvcProjects/Account`);
    assert.equal(await page.getByRole('button', { name: 'Create API key' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Subscribe' }).count(), 0);
    await assertAccessible(page);
    const keysBefore = await server.store.accounts.listApiKeys(applicant.id);
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
    const refusedKey = await page.request.post(`${server.baseUrl}/MvcProjects/Account/ApiKeys`, { form: { _csrf: token, Name: 'Sneaky' } });
    assert.equal(refusedKey.status(), 403);
    const refusedHook = await page.request.post(`${server.baseUrl}/MvcProjects/Account/Webhooks`, { form: { _csrf: token, ProgramId: server.programId, Url: receiver.url } });
    assert.equal(refusedHook.status(), 403);
    assert.deepEqual(await server.store.accounts.listApiKeys(applicant.id), keysBefore);
    assert.equal((await server.store.webhooks.listOwnedSubscriptions(applicant.id)).length, 1);

    await newProject(DEMO.applicant, DEMO.applicant.apiKey);
    await round();
    assert.equal(receiver.received.length, sent, 'nothing is sent while the agency has self-service webhooks off');
  });
});
