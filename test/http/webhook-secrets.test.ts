import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { pruneWebhookLog } from '../../src/domain/webhooks/webhook-log-retention.ts';
import { forEachDialect, } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, type HttpHarness, NS, TestClock } from '../support/http-harness.ts';
import { createProject } from './http-helpers.ts';
import { createRequest, INSECURE, manualWorker, subscribe, verified, WEBHOOKS, webhookTestBed } from './webhook-helpers.ts';

// Issue 19, item 22: secret rotation with a grace period, bulk redelivery of failed deliveries, retention of the
// delivery log, URLs with CR/LF refused, and errors that do not tell what an internal name resolves to.

const HOUR = 3_600_000;

forEachDialect('webhook secrets, redelivery and retention', ({ dialect }) => {
  const bed = webhookTestBed(dialect);
  const harness = async (env: Record<string, string> = INSECURE, clock = new TestClock()) => (await bed.harness(env, clock)).h;
  const receiver = () => bed.receiver();

  const rotate = (h: HttpHarness, id: string, attrsText = '', as: 'admin' | 'programAdmin' | 'editor' | 'applicant' = 'admin') =>
    h.request({ method: 'POST', url: `${WEBHOOKS}/${id}/RotateSecret`, as, body: `<RotateWebhookSecretRequest xmlns="${NS}"${attrsText}/>` });

  it('rotates a secret: during the grace period deliveries carry a signature with each secret, then only the new one', async () => {
    const h = await harness(INSECURE, new TestClock(Date.now()));
    const r = await receiver();
    const { id, secret: old } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h);
    const before = await h.store.webhooks.findSubscription(IDS.program, id);
    for (const [text, who, status, code] of [[' GraceHours="169"', 'admin', 400, 'INVALID_REQUEST'], [' GraceHours="-1"', 'admin', 400, 'INVALID_REQUEST'],
      ['', 'editor', 403, 'FORBIDDEN'], ['', 'applicant', 403, 'FORBIDDEN']] as const) {
      assertError(h, await rotate(h, id, text, who), status, code);
    }
    assert.deepEqual(await h.store.webhooks.findSubscription(IDS.program, id), before, 'a refused rotation changes nothing');
    assertError(h, await rotate(h, 'NOSUCHSUBSCR'), 404, 'NOT_FOUND');

    const res = await rotate(h, id, ' GraceHours="24"', 'programAdmin');
    assertValidXml(h, res, 'RotateWebhookSecretResponse');
    const fresh = attr(res.body, 'RotateWebhookSecretResponse', 'Secret')!;
    assert.match(fresh, /^whsec_[A-Za-z0-9+/=]{44}$/);
    assert.notEqual(fresh, old);
    const until = h.clock.now() + 24 * HOUR;
    assert.equal(Date.parse(attr(res.body, 'WebhookSubscription', 'PreviousSecretExpiresTimestamp')!), until);
    const shown = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}`, as: 'admin' });
    assert.equal(Date.parse(attr(shown.body, 'WebhookSubscription', 'PreviousSecretExpiresTimestamp')!), until);
    assert.ok(!shown.body.includes(fresh) && !shown.body.includes(old), 'no other answer shows a secret');

    await createProject(h);
    await w.round();
    const during = r.received[0]!;
    assert.equal(during.headers['webhook-signature']!.split(' ').length, 2, `two signatures: ${during.headers['webhook-signature']}`);
    assert.ok(during.headers['webhook-signature']!.split(' ').every((s) => s.startsWith('v1,')));
    assert.equal(verified(old, during).type, 'project.created', 'a receiver still on the old secret accepts it');
    assert.equal(verified(fresh, during).type, 'project.created', 'and one on the new secret');

    h.clock.time = until;
    await createProject(h);
    await w.round();
    const after = r.received[1]!;
    const signature = after.headers['webhook-signature']!;
    const expected = new Webhook(fresh).sign(after.headers['webhook-id']!, new Date(Number(after.headers['webhook-timestamp']) * 1000), after.body);
    assert.equal(signature, expected, 'after the grace period only the new secret signs');
    const audit = await h.store.audit.list({ action: 'webhook.rotate_secret' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.detail?.graceHours, 24);
    assert.ok(!JSON.stringify(audit).includes(fresh) && !JSON.stringify(audit).includes(old), 'the audit row holds no secret');
    // GraceHours="0": the old secret stops at once.
    const now = await rotate(h, id, ' GraceHours="0"');
    assert.equal(now.statusCode, 200, now.body);
    assert.equal(attr(now.body, 'WebhookSubscription', 'PreviousSecretExpiresTimestamp'), undefined);
    const stored = (await h.store.webhooks.findSubscription(IDS.program, id))!;
    assert.deepEqual([stored.secret, stored.previousSecret, stored.previousSecretUntil], [attr(now.body, 'RotateWebhookSecretResponse', 'Secret'), null, null]);
  });

  it('redelivers every failed delivery since a time, once, through the API', async () => {
    const h = await harness();
    const r = await receiver();
    r.answer = () => 500;
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h, h.store, 0.999);
    await createProject(h);
    await w.round();
    h.clock.advance(HOUR);
    const since = h.clock.now();
    await createProject(h);
    await createProject(h);
    await w.round();
    for (let i = 0; i < 200 && (await h.store.webhooks.listAllDeliveries(id)).some((d) => d.status === 'pending'); i++) {
      const due = Math.min(...(await h.store.webhooks.listAllDeliveries(id)).filter((d) => d.status === 'pending').map((d) => d.nextAttemptAt));
      h.clock.time = Math.max(due, (await h.store.webhooks.findSubscription(IDS.program, id))!.pausedUntil ?? 0, h.clock.now());
      await w.round();
    }
    const failed = await h.store.webhooks.listAllDeliveries(id);
    assert.deepEqual(failed.map((d) => d.status), ['failed', 'failed', 'failed']);
    const url = `${WEBHOOKS}/${id}/Deliveries/Redeliver`;
    const body = (at: string) => `<RedeliverWebhookDeliveriesRequest xmlns="${NS}" Since="${at}"/>`;
    const state = await h.store.webhooks.listAllDeliveries(id);
    assertError(h, await h.request({ method: 'POST', url, as: 'admin', body: body('yesterday') }), 400, 'INVALID_REQUEST');
    assertError(h, await h.request({ method: 'POST', url, as: 'editor', body: body(new Date(since).toISOString()) }), 403, 'FORBIDDEN');
    assert.deepEqual(await h.store.webhooks.listAllDeliveries(id), state, 'refused: nothing queued');

    r.answer = () => 200;
    const res = await h.request({ method: 'POST', url, as: 'programAdmin', body: body(new Date(since).toISOString()) });
    assertValidXml(h, res, 'WebhookDeliveriesResponse');
    assert.deepEqual(new Set(attrs(res.body, 'WebhookDelivery', 'RedeliveryOf')), new Set([failed[1]!.id, failed[2]!.id]), 'the two failed since then');
    assert.deepEqual(attrs(res.body, 'WebhookDelivery', 'Status'), ['pending', 'pending']);
    const again = await h.request({ method: 'POST', url, as: 'admin', body: body(new Date(since).toISOString()) });
    assert.equal(attrs(again.body, 'WebhookDelivery', 'DeliveryId').length, 0, 'a failed delivery already sent again is not queued twice');
    await w.round();
    assert.deepEqual((await h.store.webhooks.listAllDeliveries(id)).map((d) => d.status).sort(), ['delivered', 'delivered', 'failed', 'failed', 'failed']);
    const audit = await h.store.audit.list({ action: 'webhook.redeliver_failed' });
    assert.deepEqual(audit.map((a) => a.detail?.count).sort(), [0, 2], 'newest first: the second queued nothing');
  });

  it('prunes delivered and failed deliveries older than the retention; pending ones stay', async () => {
    const h = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h);
    await createProject(h);
    await w.round();
    r.answer = () => 500;
    await createProject(h);
    await w.round();
    h.clock.advance(10 * 24 * HOUR);
    await createProject(h);
    await w.round();
    assert.deepEqual((await h.store.webhooks.listAllDeliveries(id)).map((d) => d.status), ['delivered', 'failed', 'pending']);
    assert.equal(await pruneWebhookLog(h.store, h.clock.now(), 11), 0, 'within 11 days: kept');
    assert.equal(await pruneWebhookLog(h.store, h.clock.now(), 9), 2, 'older than 9 days: the delivered and the failed one');
    assert.deepEqual((await h.store.webhooks.listAllDeliveries(id)).map((d) => d.status), ['pending']);
    await h.store.transaction((tx) => tx.webhooks.updateSubscription(id, { enabled: false }));
    h.clock.advance(400 * 24 * HOUR);
    assert.equal(await pruneWebhookLog(h.store, h.clock.now(), 1), 0, 'a pending delivery is kept however old');
  });

  it('refuses a Url holding CR, LF or tab instead of rewriting it, and stores nothing', async () => {
    const h = await harness({ ...INSECURE });
    const r = await receiver();
    const { id } = await subscribe(h, r.url);
    const before = await h.store.webhooks.listSubscriptions(IDS.program);
    for (const bad of [`${r.url}&#13;&#10;X-Injected: 1`, `http://127.0.0.1:${r.port}/ho&#10;ok`, `http://127.0.0.1:${r.port}/a&#9;b`]) {
      // Written as XML character references, so the parsed Url holds the characters themselves.
      assertError(h, await h.request({ method: 'POST', url: WEBHOOKS, as: 'admin', body: `<CreateWebhookSubscriptionRequest xmlns="${NS}" Url="${bad}"/>` }), 400, 'INVALID_REQUEST');
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, as: 'admin', body: `<SetWebhookSubscriptionRequest xmlns="${NS}" Url="${bad}"/>` }), 400, 'INVALID_REQUEST');
    }
    const json = await h.request({ method: 'POST', url: WEBHOOKS, as: 'admin', body: JSON.stringify({ Url: `${r.url}\r\nX: 1` }), headers: { 'content-type': 'application/json', accept: 'application/json' } });
    assert.equal(json.statusCode, 400, json.body);
    assert.equal(JSON.parse(json.body).Code, 'INVALID_REQUEST');
    assert.match(json.body, /control characters/);
    assert.deepEqual(await h.store.webhooks.listSubscriptions(IDS.program), before);
  });

  it('does not tell what an internal host name resolves to', async () => {
    const h = await harness({});
    const res = await h.request({ method: 'POST', url: WEBHOOKS, as: 'admin', body: createRequest('https://localhost/hook') });
    assertError(h, res, 422, 'WEBHOOK_TARGET_NOT_ALLOWED');
    assert.match(res.body, /localhost resolves to a private, loopback/);
    assert.ok(!/127\.0\.0\.1|::1/.test(res.body), res.body);
  });
});
