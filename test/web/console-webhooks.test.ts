import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { deliveryPayload } from '../../src/http/webhook-payload.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { type Receiver, startReceiver, verified } from '../http/webhook-helpers.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Webhooks area in a real browser: the demo's agency admin subscribes a receiver this test starts,
// copies the secret shown once, presses "Send a test event", and the signed webhook.test delivery arrives through the
// normal delivery path (the worker's round), verifies with that secret, and is listed as delivered in the log.

describe('Console: webhooks in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  let receiver: Receiver;
  before(async () => {
    server = await startWebServer('sqlite', { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });
    browser = await launchBrowser();
    receiver = await startReceiver();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  async function admin(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin);
    return page;
  }

  it('subscribes a receiver, sends a signed test event and shows it in the delivery log', async () => {
    const page = await admin();
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Webhooks?ProgramId=${server.programId}`);
    await assertAccessible(page);
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('project.submitted').check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    assert.match(secret, /^whsec_/);
    await assertAccessible(page);
    await page.getByRole('link', { name: receiver.url }).click();
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    assert.match(await page.getByRole('status').textContent() ?? '', /test event was queued/);
    assert.match(await page.getByRole('table', { name: 'Deliveries, newest first' }).textContent() ?? '', /webhook\.test.*pending/s);

    // The worker of a running server sends it: here one round of the same worker, over HTTP to the receiver.
    const { worker } = webhookWorkers({ store: server.store, clock: systemClock, ids: new RandomIdGenerator() }, {
      payload: deliveryPayload, allowInsecure: true, timeoutMs: 10_000, intervalMs: 1000, disableAfterHours: 72,
    });
    await worker.deliverDue();
    assert.equal(receiver.received.length, 1);
    const body = verified(secret, receiver.received[0]!);
    assert.equal(body.type, 'webhook.test');
    assert.equal(body.data.Test, true);
    assert.equal(body.data.ProgramId, server.programId);
    assert.equal(body.data.SentBy, DEMO.admin.email);
    assert.equal(receiver.received[0]!.headers['webhook-id'], body.data.EventId);

    await page.goto(page.url().replace(/&notice=\w+/, ''));
    const log = await page.getByRole('table', { name: 'Deliveries, newest first' }).textContent() ?? '';
    assert.match(log, /webhook\.test.*delivered.*HTTP 200/s);
    await assertAccessible(page);
    await screenshot(page, 'console-webhooks');
  });
});
