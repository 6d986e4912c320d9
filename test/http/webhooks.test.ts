import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { IDS } from '../support/fixtures.ts';
import { forEachDialect, } from '../support/databases.ts';
import { assertError, assertValidXml, attr, attrs, authHeaders, type HttpHarness, NS, TestClock } from '../support/http-harness.ts';
import { addNote, setThreadStatus } from './inquiry-helpers.ts';
import { COMPLETE, createProject, projectPath, setDraft, submitPath } from './http-helpers.ts';
import { assigneeRequest, statusRequest, urls } from './workflow-helpers.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { RETRY_CAPS_MS, RETRY_WINDOW_MS } from '../../src/domain/webhooks/webhook-retry.ts';
import { HttpWebhookSender, type WebhookSender } from '../../src/domain/webhooks/webhook-sender.ts';
import { webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { CLAIM_POLICY } from '../../src/domain/webhooks/webhook-worker.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { type Answer, manualWorker, subscribe, until, verified, WEBHOOKS, webhookSettings, webhookTestBed, INSECURE } from './webhook-helpers.ts';

// CreateWebhookSubscription   POST   …/Programs/{ProgramId}/Webhooks
// GetWebhookSubscriptions     GET    …/Programs/{ProgramId}/Webhooks
// GetWebhookSubscription      GET    …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// SetWebhookSubscription      POST   …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// DeleteWebhookSubscription   DELETE …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// GetWebhookDeliveries        GET    …/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries
// RedeliverWebhookDelivery    POST   …/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries/{DeliveryId}/Redeliver

/** Test receivers listen on 127.0.0.1 over http, which only this setting allows. */

const PNG = Buffer.from('\x89PNG\r\n\x1a\nwebhook-test-image', 'latin1');

/** The events GetEvents shows the admin for the fixture program, as JSON. */
async function feed(h: HttpHarness): Promise<Record<string, unknown>[]> {
  const res = await h.app.inject({ method: 'GET', url: `/services/v2/Events?program=solar&limit=1000`, headers: { ...authHeaders(h.who.admin), accept: 'application/json' } });
  assert.equal(res.statusCode, 200, res.body);
  return (JSON.parse(res.body) as { Event: Record<string, unknown>[] }).Event;
}

function ok(res: LightMyRequestResponse): void {
  assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode}: ${res.body}`);
}

/** The applicant's cycle (create, draft, upload, submit) and a staff review (status, assignee, attachment review, notes). */
async function applicantCycleAndReview(h: HttpHarness): Promise<string> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] }, 'applicant');
  h.clock.advance();
  ok(await h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: PNG,
    headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="roof.png"' },
  }));
  h.clock.advance();
  ok(await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' }));
  h.clock.advance();
  ok(await h.request({ method: 'POST', url: urls.status(projectId), as: 'programAdmin', body: statusRequest('draft') }));
  h.clock.advance();
  ok(await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(h.who.editor.email) }));
  h.clock.advance();
  ok(await h.request({
    method: 'POST', url: `${projectPath(projectId)}/Attachments/photo/Metadata`, as: 'programAdmin',
    body: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="approve"/>`,
  }));
  const { threadId } = await addNote(h, projectId, { subject: 'Roof', text: 'Which roof is it?', visible: true }, 'programAdmin');
  await addNote(h, projectId, { threadId, text: 'internal: check the permit', visible: false }, 'programAdmin');
  await setThreadStatus(h, projectId, threadId, 'Resolved', 'programAdmin');
  return projectId;
}

forEachDialect('webhooks', ({ dialect }) => {
  const { harness, receiver } = webhookTestBed(dialect);

  it('DONE: a subscribed receiver verifies every event of the applicant cycle and a staff review with standardwebhooks, in feed order', async () => {
    // Close to the wall clock: a receiver refuses signatures whose timestamp is more than five minutes off.
    const { h } = await harness(INSECURE, new TestClock(Date.now()), true);
    const r = await receiver();
    const { secret } = await subscribe(h, r.url);
    const verifiedPayloads: ReturnType<typeof verified>[] = [];
    r.answer = (_n, got) => {
      verifiedPayloads.push(verified(secret, got));
      return 204;
    };
    const projectId = await applicantCycleAndReview(h);
    const events = await feed(h);
    const types = events.map((e) => e.Type);
    for (const t of ['project.created', 'project.draft_saved', 'attachment.uploaded', 'project.submitted', 'project.status_changed', 'project.assignee_changed',
      'attachment.reviewed', 'inquiry.note_added', 'inquiry.thread_status_changed']) assert.ok(types.includes(t), `the feed has ${t}: ${types.join(', ')}`);
    await until(() => r.received.length >= events.length, 15_000, `the receiver getting all ${events.length} events`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(r.received.length, events.length, 'each event is delivered once');
    assert.equal(verifiedPayloads.length, events.length, 'every delivery passed Webhook.verify');
    assert.deepEqual(r.received.map((g) => g.headers['webhook-id']), events.map((e) => e.EventId), 'in feed order, webhook-id = EventId');
    assert.deepEqual(verifiedPayloads.map((p) => p.data), events, 'each payload\'s data is the event exactly as GetEvents shows it');
    assert.deepEqual(verifiedPayloads.map((p) => p.type), types);
    assert.ok(verifiedPayloads.every((p, i) => p.timestamp === events[i]!.Timestamp));
    assert.ok(verifiedPayloads.some((p) => p.data.VisibleToApplicant === false), 'internal notes go to webhooks too');
    assert.ok(r.received.every((g) => g.headers['content-type'] === 'application/json'));
    assert.ok(events.every((e) => e.ProjectId === projectId));
    // A signature made with another secret is refused by the same verification.
    assert.throws(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, r.received[0]!));
    // The delivery log shows every one delivered, with the receiver's answer.
    const { id } = (await h.store.webhooks.listSubscriptions(IDS.program))[0]!;
    const log = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}/Deliveries`, as: 'programAdmin' });
    assert.equal(log.statusCode, 200, log.body);
    assert.deepEqual(new Set(attrs(log.body, 'WebhookDelivery', 'Status')), new Set(['delivered']));
    assert.deepEqual(new Set(attrs(log.body, 'WebhookDelivery', 'LastStatusCode')), new Set(['204']));
    assert.equal(attrs(log.body, 'WebhookDelivery', 'DeliveryId').length, events.length);
  });

  it('the app\'s background work is woken by each change it answers: delivered at once, not at the next interval', async () => {
    const { h } = await harness({ ...INSECURE, APAS_WEBHOOK_INTERVAL_MS: '3600000' }, new TestClock(Date.now()), true);
    const r = await receiver();
    await subscribe(h, r.url, ['project.created']);
    const started = Date.now();
    await createProject(h);
    await until(() => r.received.length === 1, 5_000, 'the delivery');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(JSON.parse(r.received[0]!.body).type, 'project.created');
  });

  /** The one subscription's deliveries as stored, in sending order. */
  async function deliveries(h: HttpHarness, id: string) {
    return h.store.webhooks.listAllDeliveries(id);
  }

  it('retries a delivery answered with 500 or not at all, with exponential backoff and jitter, until a 2xx', async () => {
    // The receiver hangs once: its attempt gives up after a second.
    const { h } = await harness({ ...INSECURE, APAS_WEBHOOK_TIMEOUT_MS: '1000' });
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    const plan: Answer[] = [500, 503, 'hang', 200];
    r.answer = (n) => plan[n] ?? 200;
    const w = manualWorker(h, h.store, 0.5);
    await createProject(h);
    const t0 = h.clock.now();
    await w.round();
    let [d] = await deliveries(h, id);
    assert.deepEqual([d!.status, d!.attempts, d!.lastStatusCode, d!.nextAttemptAt - t0], ['pending', 1, 500, 2_500], 'half of the first cap, 5 s');
    await w.round();
    assert.equal(r.received.length, 1, 'nothing is sent before it is due');
    h.clock.time = d!.nextAttemptAt;
    await w.round();
    [d] = await deliveries(h, id);
    assert.deepEqual([d!.attempts, d!.lastStatusCode, d!.nextAttemptAt - h.clock.now()], [2, 503, 15_000], 'half of the second cap, 30 s');
    h.clock.time = d!.nextAttemptAt;
    await w.round();
    [d] = await deliveries(h, id);
    assert.deepEqual([d!.attempts, d!.lastStatusCode, d!.lastError, d!.nextAttemptAt - h.clock.now()], [3, null, 'no answer within 1000 ms', 60_000]);
    h.clock.time = d!.nextAttemptAt;
    await w.round();
    [d] = await deliveries(h, id);
    assert.deepEqual([d!.status, d!.attempts, d!.lastStatusCode, d!.lastError, d!.deliveredAt], ['delivered', 4, 200, null, h.clock.now()]);
    assert.equal(r.received.length, 4);
    assert.equal(new Set(r.received.map((g) => g.body)).size, 1, 'every attempt sends the same body');
    assert.equal(new Set(r.received.map((g) => g.headers['webhook-id'])).size, 1, 'and the same webhook-id');
    const log = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}/Deliveries`, as: 'admin' });
    assertValidXml(h, log, 'WebhookDeliveriesResponse');
    assert.deepEqual([attr(log.body, 'WebhookDelivery', 'Status'), attr(log.body, 'WebhookDelivery', 'Attempts'), attr(log.body, 'WebhookDelivery', 'LastStatusCode')], ['delivered', '4', '200']);
    const sub = await h.store.webhooks.findSubscription(IDS.program, id);
    assert.deepEqual([sub!.consecutiveFailures, sub!.failingSince], [0, null], 'a success ends the run of failures');
  });

  it('gives up after retrying for 26 hours, with waits within the backoff caps, and logs the failure', async () => {
    const { h } = await harness();
    const r = await receiver();
    r.answer = () => 500;
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h, h.store, 0.999);
    await createProject(h);
    await w.round();
    const first = h.clock.now();
    const waits: number[] = [];
    for (let i = 0; i < 100; i++) {
      const [d] = await deliveries(h, id);
      if (d!.status !== 'pending') break;
      waits.push(d!.nextAttemptAt - h.clock.now());
      h.clock.time = d!.nextAttemptAt;
      await w.round();
    }
    const [d] = await deliveries(h, id);
    assert.equal(d!.status, 'failed');
    assert.equal(d!.lastAttemptAt! - first, RETRY_WINDOW_MS, 'the last attempt is made at the end of the window');
    assert.ok(RETRY_WINDOW_MS >= 24 * 3_600_000, 'retried for at least a day');
    for (const [i, wait] of waits.slice(0, -1).entries()) assert.ok(wait <= RETRY_CAPS_MS[Math.min(i, RETRY_CAPS_MS.length - 1)]!, `wait ${i} within its cap`);
    assert.ok(waits[0]! < waits[4]! && waits[4]! < waits[8]!, `the waits grow: ${waits.join(', ')}`);
    assert.equal(r.received.length, d!.attempts);
    assert.equal(d!.attempts, waits.length + 1);
    const log = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}/Deliveries`, as: 'admin' });
    assert.equal(attr(log.body, 'WebhookDelivery', 'Status'), 'failed');
    assert.equal(attr(log.body, 'WebhookDelivery', 'NextAttemptTimestamp'), undefined);
  });

  it('delivers in order per project: a later event waits while an earlier one of its project is pending; a receiver back up gets everything', async () => {
    const { h } = await harness();
    const down = await receiver();
    const port = down.port;
    await down.close();
    const { id } = await subscribe(h, `http://127.0.0.1:${port}/hook`, ['project.created', 'project.draft_saved']);
    const w = manualWorker(h, h.store, 0.5);
    const p1 = await createProject(h);
    await setDraft(h, p1, { kw: '1' });
    const p2 = await createProject(h);
    await setDraft(h, p2, { kw: '2' });
    await setDraft(h, p1, { kw: '3' });
    await w.round();
    const tried = await deliveries(h, id);
    assert.equal(tried.length, 5);
    assert.deepEqual(tried.map((d) => d.attempts), [1, 0, 1, 0, 0], 'only the first pending delivery of each project was tried');
    assert.match(tried[0]!.lastError ?? '', /ECONNREFUSED/);
    const up = await receiver(port);
    h.clock.advance(60_000);
    await w.round();
    const done = await deliveries(h, id);
    assert.deepEqual(done.map((d) => d.status), ['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
    const events = [...await h.store.events.listProjectEvents(p1), ...await h.store.events.listProjectEvents(p2)];
    const project = new Map(events.map((e) => [e.id, e.projectId]));
    const order = (projectId: string) => up.received.map((g) => g.headers['webhook-id']!).filter((eid) => project.get(eid) === projectId);
    assert.deepEqual(order(p1), events.filter((e) => e.projectId === p1).map((e) => e.id), 'project 1 in sequence order');
    assert.deepEqual(order(p2), events.filter((e) => e.projectId === p2).map((e) => e.id), 'project 2 in sequence order');
    assert.equal(up.received.length, 5);
  });

  it('disables a subscription whose every attempt failed for 72 hours, records why, and resumes its pending deliveries when enabled again', async () => {
    const { h } = await harness();
    const r = await receiver();
    r.answer = () => 500;
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h, h.store, 0.5);
    await createProject(h);
    await w.round();
    const failingSince = h.clock.now();
    h.clock.advance(RETRY_WINDOW_MS);
    await w.round();
    assert.equal((await deliveries(h, id))[0]!.status, 'failed');
    assert.equal((await h.store.webhooks.findSubscription(IDS.program, id))!.enabled, true, 'not yet: 26 hours');
    h.clock.time = failingSince + 72 * 3_600_000;
    await createProject(h);
    await w.round();
    const sub = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}`, as: 'admin' });
    assertValidXml(h, sub, 'WebhookSubscriptionResponse');
    assert.equal(attr(sub.body, 'WebhookSubscription', 'Enabled'), 'false');
    assert.match(attr(sub.body, 'WebhookSubscription', 'DisabledReason') ?? '', /failed since .* \(\d+ attempts; the last: HTTP 500\)/);
    assert.equal((await h.store.audit.list({ action: 'webhook.disable' })).length, 1);
    // Disabled: new events make no deliveries, and pending ones are not sent.
    const sent = r.received.length;
    await createProject(h);
    h.clock.advance(3_600_000);
    await w.round();
    assert.equal(r.received.length, sent);
    assert.equal((await deliveries(h, id)).length, 2);
    r.answer = () => 200;
    const enable = await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, as: 'admin', body: `<SetWebhookSubscriptionRequest xmlns="${NS}" Enabled="true"/>` });
    assert.equal(enable.statusCode, 200, enable.body);
    assert.equal(attr(enable.body, 'WebhookSubscription', 'DisabledReason'), undefined);
    await w.round();
    assert.deepEqual((await deliveries(h, id)).map((d) => d.status), ['failed', 'delivered'], 'the pending delivery went out at once');
  });

  it('redelivers a delivery as a new one with the same body and webhook-id', async () => {
    const { h } = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h);
    await createProject(h);
    await w.round();
    const [original] = await deliveries(h, id);
    assert.equal(original!.status, 'delivered');
    h.clock.advance();
    const res = await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}/Deliveries/${original!.id}/Redeliver`, as: 'programAdmin' });
    assertValidXml(h, res, 'WebhookDeliveryResponse');
    assert.deepEqual([attr(res.body, 'WebhookDelivery', 'RedeliveryOf'), attr(res.body, 'WebhookDelivery', 'Status'), attr(res.body, 'WebhookDelivery', 'EventId')],
      [original!.id, 'pending', original!.eventId]);
    await w.round();
    assert.equal(r.received.length, 2);
    assert.equal(r.received[1]!.body, r.received[0]!.body);
    assert.equal(r.received[1]!.headers['webhook-id'], r.received[0]!.headers['webhook-id']);
    assert.deepEqual((await deliveries(h, id)).map((d) => d.status), ['delivered', 'delivered']);
    assert.equal((await h.store.audit.list({ action: 'webhook.redeliver' })).length, 1);
    const before = await deliveries(h, id);
    assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}/Deliveries/NOSUCHDELIVRY/Redeliver`, as: 'admin' }), 404, 'NOT_FOUND');
    for (const who of ['editor', 'reader', 'applicant', 'outsider'] as const) {
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}/Deliveries/${original!.id}/Redeliver`, as: who }), 403, 'FORBIDDEN');
    }
    assert.deepEqual(await deliveries(h, id), before, 'refused redeliveries add nothing');
  });

  // Two stores of one SQLite file in one process would block each other's thread (busy_timeout waits synchronously).
  it('two instances never send the same delivery at once, and every event arrives once, in order per project', { skip: dialect === 'sqlite' && 'PostgreSQL only' }, async () => {
    const { h, db } = await harness();
    const r = await receiver();
    r.delayMs = 15;
    const { id } = await subscribe(h, r.url);
    const projects: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await createProject(h);
      projects.push(p);
      await setDraft(h, p, { kw: String(i + 1) });
    }
    const inFlight = new Map<string, number>();
    let overlaps = 0;
    const base = new HttpWebhookSender({ allowInsecure: true }, 2000);
    const watching: WebhookSender = {
      post: async (request) => {
        const key = request.headers['webhook-id']!;
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
        if (inFlight.get(key)! > 1) overlaps++;
        try {
          return await base.post(request);
        } finally {
          inFlight.set(key, inFlight.get(key)! - 1);
        }
      },
    };
    const other = await db.reopen();
    const a = manualWorker(h, h.store, 0.5, watching);
    const b = manualWorker(h, other, 0.5, watching);
    const total = (await h.store.events.listAfter(0, 1000)).length;
    const pending = async () => (await h.store.webhooks.listAllDeliveries(id)).filter((d) => d.status !== 'delivered').length;
    const loop = async (w: typeof a) => {
      for (let i = 0; i < 200 && (await h.store.webhooks.listAllDeliveries(id)).length < total || await pending() > 0; i++) await w.round();
    };
    await Promise.all([loop(a), loop(b)]);
    assert.equal(overlaps, 0, 'no delivery was in flight twice');
    const ids = r.received.map((g) => g.headers['webhook-id']!);
    assert.equal(ids.length, total, 'each event arrived once');
    assert.equal(new Set(ids).size, total);
    for (const p of projects) {
      const expected = (await h.store.events.listProjectEvents(p)).map((e) => e.id);
      assert.deepEqual(ids.filter((eid) => expected.includes(eid)), expected, `project ${p} in order`);
    }
  });

  it('takes over the lease of a crashed instance once it runs out; the crashed claim cannot record its attempt', async () => {
    const { h } = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h);
    await createProject(h);
    await consumeOutbox(h.store, webhookWorkers({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }, webhookSettings(h)).fanOut);
    const now = h.clock.now();
    const claimed = await h.store.transaction((tx) => tx.webhooks.claimDue('CRASHED', now, now + 61_000, 10, CLAIM_POLICY));
    assert.equal(claimed.length, 1);
    await w.round();
    assert.equal(r.received.length, 0, 'a live lease is respected');
    h.clock.advance(61_001);
    await w.round();
    assert.equal(r.received.length, 1, 'an expired lease is taken over');
    const late = await h.store.transaction((tx) => tx.webhooks.finishAttempt(claimed[0]!.delivery.id, 'CRASHED', { status: 'failed' }));
    assert.equal(late, false);
    assert.equal((await deliveries(h, id))[0]!.status, 'delivered');
  });
});

