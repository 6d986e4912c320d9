import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/cli-context.ts';
import { IDS, seedProgram } from '../support/fixtures.ts';
import { type TestEnv, testEnv } from './test-store.ts';

let env: TestEnv;

before(async () => {
  env = await testEnv();
  await seedProgram(env.store);
});
after(async () => {
  await env.cleanup();
});

/** Runs `apas …` in this process against the test database; returns the exit code and what it printed. */
async function apas(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => '', stdinIsTty: false,
    env: { DATABASE_URL: env.file, ...extra }, cwd: env.dir,
  };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('apas webhook: create prints the secret once; list, disable, enable, deliveries, redeliver and delete', async () => {
  const refused = await apas(['webhook', 'create', '--program', IDS.program, '--url', 'http://127.0.0.1:9/hook']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /https/);
  assert.equal((await env.store.webhooks.listSubscriptions(IDS.program)).length, 0, 'a refused create stores nothing');
  assert.equal((await apas(['webhook', 'create', '--program', IDS.program, '--url', 'https://x.example/', '--types', 'project.nope'])).code, 2);

  const insecure = { APAS_WEBHOOK_ALLOW_INSECURE: 'true' };
  const created = await apas(['webhook', 'create', '--program', 'solar', '--agency', 'acme', '--url', 'http://127.0.0.1:9/hook', '--types', 'project.created,project.submitted'], insecure);
  assert.equal(created.code, 0, created.err);
  const m = /^subscription_id=([0-9A-Z]{12})\nsecret=(whsec_[A-Za-z0-9+/=]+)$/.exec(created.out);
  assert.ok(m, created.out);
  const [, id, secret] = m;
  assert.match(created.err, /shown only once/);
  const stored = (await env.store.webhooks.listSubscriptions(IDS.program))[0]!;
  assert.deepEqual([stored.id, stored.secret, stored.eventTypes, stored.createdBy], [id, secret, ['project.created', 'project.submitted'], null]);

  const listed = await apas(['webhook', 'list', '--program', IDS.program]);
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, new RegExp(`^${id}  http://127.0.0.1:9/hook  project.created,project.submitted  enabled$`));
  assert.ok(!listed.out.includes(secret!), 'list never shows the secret');

  assert.match((await apas(['webhook', 'disable', id!, '--program', IDS.program])).out, /disabled .*Disabled by the operator/);
  assert.equal((await env.store.webhooks.findSubscription(IDS.program, id!))!.enabled, false);
  assert.match((await apas(['webhook', 'enable', id!, '--program', IDS.program])).out, /enabled$/);

  await env.store.transaction((tx) => tx.webhooks.insertDeliveries([{
    id: 'DELIVERY0001', subscriptionId: id!, eventId: 'EVENT0000001', eventSeq: 1, eventType: 'project.created', projectId: 'PROJECT00001', payload: '{}',
    status: 'failed', attempts: 11, createdAt: 1, nextAttemptAt: 1, firstAttemptAt: 1, lastAttemptAt: 2, lastStatusCode: 500, lastError: 'HTTP 500', deliveredAt: null, redeliveryOf: null,
  }]));
  const log = await apas(['webhook', 'deliveries', id!, '--program', IDS.program]);
  assert.match(log.out, /^DELIVERY0001 {2}project.created {2}EVENT0000001 {2}failed {5}attempts=11 {2}last 1970-01-01T00:00:00.002\+00:00 500$/);
  const again = await apas(['webhook', 'redeliver', id!, 'DELIVERY0001', '--program', IDS.program]);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /Queued delivery [0-9A-Z]{12} \(event EVENT0000001\)/);
  assert.deepEqual((await env.store.webhooks.listAllDeliveries(id!)).map((d) => [d.status, d.redeliveryOf]), [['failed', null], ['pending', 'DELIVERY0001']]);
  assert.equal((await apas(['webhook', 'redeliver', id!, 'NOSUCHDELIVR', '--program', IDS.program])).code, 1);

  assert.match((await apas(['webhook', 'delete', id!, '--program', IDS.program])).out, /Deleted webhook subscription/);
  assert.equal((await env.store.webhooks.listSubscriptions(IDS.program)).length, 0);
  assert.equal((await apas(['webhook', 'list', '--program', 'NOSUCHPROGRM'])).code, 1);
  const actions = (await env.store.audit.list({ limit: 100 })).filter((a) => a.action.startsWith('webhook.'));
  assert.deepEqual(new Set(actions.map((a) => a.action)), new Set(['webhook.create', 'webhook.update', 'webhook.redeliver', 'webhook.delete']));
  assert.ok(actions.every((a) => a.actorId === null && !JSON.stringify(a).includes(secret!)));
});

test('apas webhook rotate-secret prints a new secret once; redeliver-failed queues the failed deliveries since a time', async () => {
  const insecure = { APAS_WEBHOOK_ALLOW_INSECURE: 'true' };
  const created = await apas(['webhook', 'create', '--program', IDS.program, '--url', 'http://127.0.0.1:9/hook'], insecure);
  const [, id, old] = /^subscription_id=(\S+)\nsecret=(\S+)$/.exec(created.out)!;
  assert.equal((await apas(['webhook', 'rotate-secret', id!, '--program', IDS.program, '--grace-hours', '200'])).code, 1, 'more than a week is refused');
  assert.equal((await apas(['webhook', 'rotate-secret', id!, '--program', IDS.program, '--grace-hours', 'soon'])).code, 2);
  assert.equal((await env.store.webhooks.findSubscription(IDS.program, id!))!.secret, old, 'refused rotations change nothing');
  const rotated = await apas(['webhook', 'rotate-secret', id!, '--program', IDS.program, '--grace-hours', '2']);
  assert.equal(rotated.code, 0, rotated.err);
  const [, fresh] = /^secret=(whsec_\S+)$/.exec(rotated.out)!;
  assert.match(rotated.err, /signed with the old secret too until/);
  const stored = (await env.store.webhooks.findSubscription(IDS.program, id!))!;
  assert.deepEqual([stored.secret, stored.previousSecret], [fresh, old]);

  await env.store.transaction((tx) => tx.webhooks.insertDeliveries(['OLDFAILED001', 'NEWFAILED001'].map((did, i) => ({
    id: did, subscriptionId: id!, eventId: `EVENT000000${i}`, eventSeq: i + 1, eventType: 'project.created' as const, projectId: 'PROJECT00001', payload: '{}',
    status: 'failed' as const, attempts: 11, createdAt: i === 0 ? Date.parse('2026-01-01T00:00:00Z') : Date.parse('2026-03-01T00:00:00Z'), nextAttemptAt: 1,
    firstAttemptAt: 1, lastAttemptAt: 2, lastStatusCode: 500, lastError: 'HTTP 500', deliveredAt: null, redeliveryOf: null,
  }))));
  assert.equal((await apas(['webhook', 'redeliver-failed', id!, '--program', IDS.program, '--since', '2026-02-01'])).code, 2, 'a date without a time is refused');
  const again = await apas(['webhook', 'redeliver-failed', id!, '--program', IDS.program, '--since', '2026-02-01T00:00:00Z']);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /^[0-9A-Z]{12} {2}project.created {2}EVENT0000001 {2}redelivers NEWFAILED001$/);
  assert.match(again.err, /Queued 1 failed deliveries again/);
  const actions = (await env.store.audit.list({ limit: 100 })).filter((a) => a.detail?.subscriptionId === id);
  assert.ok(actions.some((a) => a.action === 'webhook.rotate_secret') && actions.some((a) => a.action === 'webhook.redeliver_failed'));
  assert.ok(actions.every((a) => !JSON.stringify(a).includes(fresh!) && !JSON.stringify(a).includes(old!)));
});

test('apas webhook test queues a signed webhook.test delivery to an enabled subscription only', async () => {
  const created = await apas(['webhook', 'create', '--program', IDS.program, '--url', 'http://127.0.0.1:9/hook', '--types', 'project.submitted'], { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });
  const [, id] = /^subscription_id=(\S+)\n/.exec(created.out)!;
  const queued = await apas(['webhook', 'test', id!, '--program', IDS.program]);
  assert.equal(queued.code, 0, queued.err);
  assert.match(queued.out, /^Queued test delivery [0-9A-Z]{12} \(webhook-id [0-9A-Z]{12}\)/);
  const [d] = await env.store.webhooks.listAllDeliveries(id!);
  assert.equal(d?.eventType, 'webhook.test');
  assert.equal(d?.status, 'pending');
  const body = JSON.parse(d!.payload) as { type: string; data: Record<string, unknown> };
  assert.equal(body.type, 'webhook.test');
  assert.deepEqual({ ...body.data, EventId: undefined }, { EventId: undefined, Type: 'webhook.test', Test: true, ProgramId: IDS.program, SubscriptionId: id, SentBy: null });
  assert.equal(body.data.EventId, d?.eventId, 'the body names the id sent as webhook-id');
  await apas(['webhook', 'disable', id!, '--program', IDS.program]);
  const refused = await apas(['webhook', 'test', id!, '--program', IDS.program]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /disabled; enable it to send a test event/);
  assert.equal((await env.store.webhooks.listAllDeliveries(id!)).length, 1, 'a refused test queues nothing');
});
