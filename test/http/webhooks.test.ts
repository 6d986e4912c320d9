import assert from 'node:assert/strict';
import { afterEach, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { IDS } from '../support/fixtures.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { attr, attrs, authHeaders, type HttpHarness, NS, startHttp, TestClock } from '../support/http-harness.ts';
import { addNote, setThreadStatus } from './inquiry-helpers.ts';
import { COMPLETE, createProject, PROGRAM, projectPath, setDraft, submitPath } from './http-helpers.ts';
import { assigneeRequest, statusRequest, urls } from './workflow-helpers.ts';
import { manualWorker, type Receiver, startReceiver, subscribe, until, verified, WEBHOOKS } from './webhook-helpers.ts';

// CreateWebhookSubscription   POST   …/Programs/{ProgramId}/Webhooks
// GetWebhookSubscriptions     GET    …/Programs/{ProgramId}/Webhooks
// GetWebhookSubscription      GET    …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// SetWebhookSubscription      POST   …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// DeleteWebhookSubscription   DELETE …/Programs/{ProgramId}/Webhooks/{SubscriptionId}
// GetWebhookDeliveries        GET    …/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries
// RedeliverWebhookDelivery    POST   …/Programs/{ProgramId}/Webhooks/{SubscriptionId}/Deliveries/{DeliveryId}/Redeliver

/** Test receivers listen on 127.0.0.1 over http, which only this setting allows. */
export const INSECURE = { APAS_WEBHOOK_ALLOW_INSECURE: 'true', APAS_WEBHOOK_TIMEOUT_MS: '1000' } as const;

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

forEachDialect('webhooks', ({ open, dialect }) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function harness(env: Record<string, string> = INSECURE, clock = new TestClock(), background = false): Promise<{ h: HttpHarness; db: TestStore }> {
    const db = await open();
    const h = await startHttp(db, env, clock, false, background);
    cleanups.push(() => h.close());
    return { h, db };
  }

  async function receiver(port = 0): Promise<Receiver> {
    const r = await startReceiver(port);
    cleanups.push(() => r.close());
    return r;
  }

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
});

