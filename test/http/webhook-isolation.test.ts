import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { WebhookSender } from '../../src/domain/webhooks/webhook-sender.ts';
import { HttpWebhookSender } from '../../src/domain/webhooks/webhook-sender.ts';
import { forEachDialect, } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, type HttpHarness, TestClock } from '../support/http-harness.ts';
import { createProject, setDraft } from './http-helpers.ts';
import { INSECURE, manualWorker, subscribe, until, WEBHOOKS, webhookTestBed } from './webhook-helpers.ts';

// Issue 19, item 21: one slow or failing receiver must not hold up other subscriptions, and a receiver's own
// signals (Retry-After, 410 Gone, recovery) steer its subscription's backoff.


forEachDialect('webhook isolation', ({ dialect }) => {
  const bed = webhookTestBed(dialect);
  const harness = async (env: Record<string, string> = INSECURE, clock = new TestClock(), background = false) => (await bed.harness(env, clock, background)).h;
  const receiver = bed.receiver;

  const deliveries = (h: HttpHarness, id: string) => h.store.webhooks.listAllDeliveries(id);

  it('a receiver that never answers does not delay another subscription\'s deliveries', async () => {
    const h = await harness({ ...INSECURE, APAS_WEBHOOK_TIMEOUT_MS: '5000', APAS_WEBHOOK_INTERVAL_MS: '3600000' }, new TestClock(Date.now()), true);
    const hanging = await receiver();
    hanging.answer = () => 'hang';
    const healthy = await receiver();
    // The hanging one first, so its deliveries come first in every claim.
    await subscribe(h, hanging.url, ['project.created']);
    await subscribe(h, healthy.url, ['project.created']);
    const created: number[] = [];
    for (let i = 0; i < 4; i++) {
      created.push(Date.now());
      await createProject(h);
      await until(() => healthy.received.length === i + 1, 10_000, `delivery ${i + 1} to the healthy receiver`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delays = healthy.received.map((g, i) => g.at - created[i]!);
    assert.ok(delays.every((ms) => ms < 2_000), `every delivery to the healthy receiver within 2 s (the other's attempts take 5 s) of its change: ${delays.join(', ')} ms`);
    assert.ok(hanging.received.length >= 1, 'the hanging receiver was tried');
  });

  it('no more than 4 deliveries of one subscription are in flight at once, and other subscriptions get theirs in the same round', async () => {
    const h = await harness();
    const busy = await receiver();
    busy.delayMs = 100;
    const other = await receiver();
    await subscribe(h, busy.url, ['project.created']);
    await subscribe(h, other.url, ['project.created']);
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const base = new HttpWebhookSender({ allowInsecure: true }, 2000);
    const watching: WebhookSender = {
      post: async (request) => {
        inFlight.set(request.url, (inFlight.get(request.url) ?? 0) + 1);
        most.set(request.url, Math.max(most.get(request.url) ?? 0, inFlight.get(request.url)!));
        try {
          return await base.post(request);
        } finally {
          inFlight.set(request.url, inFlight.get(request.url)! - 1);
        }
      },
    };
    for (let i = 0; i < 10; i++) await createProject(h);
    await manualWorker(h, h.store, 0.5, watching).round();
    assert.equal(busy.received.length, 10);
    assert.equal(other.received.length, 10);
    assert.equal(most.get(busy.url), 4, 'at most 4 at once per subscription');
  });

  it('honours Retry-After on 429 and 503: nothing is sent to the subscription before it', async () => {
    const h = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    r.answer = (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '120' } } : n === 1 ? { status: 503, headers: { 'retry-after': '300' } } : 200);
    const w = manualWorker(h, h.store, 0.5);
    await createProject(h);
    const t0 = h.clock.now();
    await w.round();
    const [d] = await deliveries(h, id);
    assert.deepEqual([d!.lastStatusCode, d!.nextAttemptAt - t0], [429, 120_000], 'the retry waits for Retry-After, not the 2.5 s of its backoff');
    h.clock.time = t0 + 10_000;
    await createProject(h);
    h.clock.time = t0 + 119_000;
    await w.round();
    assert.equal(r.received.length, 1, 'the subscription is paused: not even another project\'s delivery is sent');
    h.clock.time = t0 + 120_000;
    await w.round();
    const second = (await deliveries(h, id))[1]!;
    assert.deepEqual([second.attempts, second.lastStatusCode, second.nextAttemptAt - h.clock.now()], [1, 503, 300_000], 'the oldest due delivery went; 503 with Retry-After');
    assert.equal(r.received.length, 2, 'one attempt at a time while failing, and paused again');
    h.clock.time += 299_000;
    await w.round();
    assert.equal(r.received.length, 2);
    h.clock.time += 1_000;
    await w.round();
    assert.deepEqual((await deliveries(h, id)).map((x) => x.status), ['delivered', 'delivered']);
    assert.equal(r.received.length, 4);
    const sub = await h.store.webhooks.findSubscription(IDS.program, id);
    assert.deepEqual([sub!.consecutiveFailures, sub!.pausedUntil], [0, null], 'a success ends the backoff');
  });

  it('disables a subscription whose receiver answers 410 Gone, with the reason and an audit row', async () => {
    const h = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created']);
    r.answer = () => 410;
    const w = manualWorker(h, h.store, 0.5);
    await createProject(h);
    await w.round();
    const sub = await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}`, as: 'admin' });
    assert.equal(attr(sub.body, 'WebhookSubscription', 'Enabled'), 'false');
    assert.match(attr(sub.body, 'WebhookSubscription', 'DisabledReason') ?? '', /410 Gone/);
    assert.equal((await h.store.audit.list({ action: 'webhook.disable' })).length, 1);
    await createProject(h);
    h.clock.advance(3_600_000);
    await w.round();
    assert.equal(r.received.length, 1, 'nothing more is sent');
  });

  it('backs off a failing subscription as a whole: 4 attempts at once, then one at a time after a growing pause', async () => {
    const h = await harness();
    const r = await receiver();
    r.answer = () => 500;
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h, h.store, 0.9);
    for (let i = 0; i < 10; i++) await createProject(h);
    await w.round();
    assert.equal(r.received.length, 4, 'the first round: 4 at once, then the subscription pauses');
    const pauses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const paused = (await h.store.webhooks.findSubscription(IDS.program, id))!.pausedUntil;
      assert.ok(paused !== null && paused > h.clock.now(), 'paused');
      pauses.push(paused - h.clock.now());
      const before: number = r.received.length;
      h.clock.time = paused - 1;
      await w.round();
      assert.equal(r.received.length, before, 'nothing while paused');
      h.clock.time = paused;
      await w.round();
      assert.equal(r.received.length, before + 1, `probe ${i + 1}: one attempt`);
    }
    assert.ok(pauses[7]! > 10 * pauses[0]!, `the pauses grow: ${pauses.join(', ')} ms`);
  });

  it('once a receiver recovers, the deliveries that waited for their own retries are sent at once', async () => {
    const h = await harness();
    const r = await receiver();
    r.answer = () => 500;
    const { id } = await subscribe(h, r.url, ['project.created']);
    const w = manualWorker(h, h.store, 0.9);
    await createProject(h);
    await w.round();
    for (let i = 0; i < 5; i++) {
      h.clock.time = (await deliveries(h, id))[0]!.nextAttemptAt;
      await w.round();
    }
    const [waiting] = await deliveries(h, id);
    assert.deepEqual([waiting!.status, waiting!.attempts], ['pending', 6]);
    assert.ok(waiting!.nextAttemptAt - h.clock.now() > 3_000_000, 'its next retry is most of an hour away');
    r.answer = () => 200;
    h.clock.time = Math.max(h.clock.now(), (await h.store.webhooks.findSubscription(IDS.program, id))!.pausedUntil ?? 0);
    await createProject(h);
    await w.round();
    assert.deepEqual((await deliveries(h, id)).map((d) => d.status), ['delivered', 'delivered'], 'the new event\'s 2xx made the waiting one due');
    assert.ok((await deliveries(h, id))[0]!.deliveredAt! < waiting!.nextAttemptAt);
    const sub = (await h.store.webhooks.findSubscription(IDS.program, id))!;
    assert.deepEqual([sub.consecutiveFailures, sub.pausedUntil], [0, null]);
  });

  it('an event its receiver keeps refusing holds back its project\'s later events for an hour at most', async () => {
    const h = await harness();
    const r = await receiver();
    const { id } = await subscribe(h, r.url, ['project.created', 'project.draft_saved']);
    const poison = await createProject(h);
    r.answer = (_n, got) => (JSON.parse(got.body).data.ProjectId === poison && JSON.parse(got.body).type === 'project.created' ? 500 : 200);
    await setDraft(h, poison, { kw: '1' });
    await createProject(h);
    const w = manualWorker(h, h.store, 0.5);
    const t0 = h.clock.now();
    await w.round();
    const state = async () => (await deliveries(h, id)).map((d) => `${d.projectId === poison ? 'poison' : 'other'} ${d.eventType} ${d.status}`);
    assert.deepEqual(await state(), ['poison project.created pending', 'poison project.draft_saved pending', 'other project.created delivered']);
    for (const at of [10 * 60_000, 40 * 60_000, 3_600_000 - 1]) {
      h.clock.time = t0 + at;
      await w.round();
      assert.equal((await state())[1], 'poison project.draft_saved pending', `still held back after ${at} ms`);
    }
    // Three failures in a row paused the subscription for a few seconds (no other event came meanwhile).
    h.clock.time = t0 + 3_600_000 + 10_000;
    await w.round();
    assert.deepEqual(await state(), ['poison project.created pending', 'poison project.draft_saved delivered', 'other project.created delivered'],
      'after an hour the later event goes out; the refused one goes on being retried');
  });

  it('while every attempt fails (the receiver is down) order per project is kept however long it lasts', async () => {
    const h = await harness();
    const r = await receiver();
    r.answer = () => 503;
    const { id } = await subscribe(h, r.url, ['project.created', 'project.draft_saved']);
    const p = await createProject(h);
    await setDraft(h, p, { kw: '1' });
    const w = manualWorker(h, h.store, 0.5);
    const t0 = h.clock.now();
    await w.round();
    for (let t = 0; t <= 3 * 3_600_000; t += 10 * 60_000) {
      h.clock.time = t0 + t;
      await w.round();
    }
    assert.ok(r.received.every((g) => JSON.parse(g.body).type === 'project.created'), 'only the first event was tried');
    r.answer = () => 200;
    h.clock.time = (await deliveries(h, id))[0]!.nextAttemptAt;
    await w.round();
    const types = r.received.filter((_g, i) => i >= r.received.length - 2).map((g) => JSON.parse(g.body).type);
    assert.deepEqual(types, ['project.created', 'project.draft_saved']);
    assert.deepEqual((await deliveries(h, id)).map((d) => d.status), ['delivered', 'delivered']);
  });
});
