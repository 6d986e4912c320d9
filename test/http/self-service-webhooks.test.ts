import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SelfServicePolicyService } from '../../src/domain/administration/self-service-policy-service.ts';
import type { Caller } from '../../src/domain/caller.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { OwnWebhookService } from '../../src/domain/webhooks/own-webhook-service.ts';
import { webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attrs, type HttpHarness, TestClock, type Who } from '../support/http-harness.ts';
import { createProject, ownerRequest, PROGRAM, projectPath, setDraft } from './http-helpers.ts';
import { removeFromA, seedOrganizations } from '../support/organization-access.ts';
import { addNote } from './inquiry-helpers.ts';
import { INSECURE, manualWorker, subscribe, verified, WEBHOOKS, webhookSettings, webhookTestBed } from './webhook-helpers.ts';

// Self-service webhooks (src/domain/webhooks/own-webhook-service.ts, owner-access.ts): a user's subscription is sent
// only events of projects its owner can read when the event is fanned out and again when it is sent; a project handed
// to someone else stops, internal notes stay with staff, and the agency turning self-service webhooks off stops the
// subscription at once, pending deliveries included. The agency's own subscriptions are untouched by all of it.

/** The caller `who` is for the services, with the grants and organizations the store has now. */
async function callerOf(h: HttpHarness, who: Who): Promise<Caller> {
  const user = (await h.store.accounts.findUserById(h.who[who].id))!;
  const { passwordHash: _hash, ...plain } = user;
  return { user: plain, apiKeyId: '', grants: await h.store.accounts.listGrants(user.id), organizationIds: await h.store.organizations.organizationIdsOf(user.id) };
}

function services(h: HttpHarness) {
  const deps = { store: h.store, clock: h.clock, ids: new RandomIdGenerator() };
  return { policy: new SelfServicePolicyService(deps), webhooks: new OwnWebhookService({ ...deps, policy: { allowInsecure: true } }) };
}

forEachDialect('Self-service webhooks', ({ dialect }) => {
  const bed = webhookTestBed(dialect);

  it('are refused while the agency has them off, and sent only events of projects the owner can read', async () => {
    const { h } = await bed.harness(INSECURE, new TestClock(Date.now()));
    const receiver = await bed.receiver();
    const agencyHook = await bed.receiver();
    const { policy, webhooks } = services(h);
    const applicant = await callerOf(h, 'applicant');

    await assert.rejects(webhooks.create(applicant, 'solar', receiver.url), { code: 'FORBIDDEN' });
    assert.deepEqual(await h.store.webhooks.listOwnedSubscriptions(applicant.user.id), []);
    await policy.set({ operator: true }, { ownWebhooks: true }, IDS.agency);
    // The same SSRF rules as the agency's subscriptions (this harness allows plain http, not other schemes).
    await assert.rejects(webhooks.create(applicant, 'solar', 'ftp://example.org/hook'), { code: 'INVALID_REQUEST' });
    const made = await webhooks.create(applicant, 'solar', receiver.url);
    const agency = await subscribe(h, agencyHook.url);
    // The agency's list shows its own subscriptions only.
    assert.deepEqual(attrs((await h.request({ method: 'GET', url: WEBHOOKS })).body, 'WebhookSubscription', 'SubscriptionId'), [agency.id]);

    const mine = await createProject(h, 'applicant');
    const theirs = await createProject(h, 'otherApplicant');
    await addNote(h, mine, { subject: 'Staff', text: 'Internal only', visible: false }, 'admin');
    const worker = manualWorker(h);
    await worker.round();
    const got = receiver.received.map((r) => verified(made.secret, r));
    assert.deepEqual(got.map((p) => [p.type, p.data.ProjectId]), [['project.created', mine]], 'neither the other project nor the internal note');
    assert.equal(agencyHook.received.filter((r) => r.body.includes(theirs)).length > 0, true, 'the agency\'s subscription gets every project');
    assert.equal(agencyHook.received.some((r) => verified(agency.secret, r).type === 'inquiry.note_added'), true);

    // Handed to someone else: what was pending is not sent, and nothing more is made for it.
    await setDraft(h, mine, { name: 'Pending when handed over' });
    const { fanOut, worker: sender } = webhookWorkers({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }, webhookSettings(h, 0.5));
    while ((await consumeOutbox(h.store, fanOut)) > 0);
    h.clock.advance();
    const moved = await h.request({ method: 'POST', url: `${projectPath(mine)}/Owner`, as: 'admin', body: ownerRequest(h.who.otherApplicant.email) });
    assert.equal(moved.statusCode, 200, moved.body);
    while (await sender.deliverDue());
    await setDraft(h, mine, { name: 'Theirs now' }, 'otherApplicant');
    await worker.round();
    assert.equal(receiver.received.length, 1, 'nothing of the handed-over project is sent');
    const log = await h.store.webhooks.listAllDeliveries(made.subscription.id);
    assert.deepEqual(log.map((d) => [d.eventType, d.status]), [['project.created', 'delivered'], ['project.draft_saved', 'failed']]);
    assert.equal(log[1]!.lastError, 'Not sent: its owner cannot read the project.');
    assert.equal(log[1]!.attempts, 0);
    const after = (await h.store.webhooks.listOwnedSubscriptions(applicant.user.id))[0]!;
    assert.equal(after.consecutiveFailures, 0, 'a withheld delivery is no failure of the receiver');
  });

  it('stop at once, pending deliveries included, when the agency turns them off', async () => {
    const { h } = await bed.harness(INSECURE, new TestClock(Date.now()));
    const receiver = await bed.receiver();
    const { policy, webhooks } = services(h);
    await policy.set({ operator: true }, { ownWebhooks: true }, IDS.agency);
    const applicant = await callerOf(h, 'applicant');
    const made = await webhooks.create(applicant, 'solar', receiver.url);
    const project = await createProject(h, 'applicant');
    const { fanOut, worker } = webhookWorkers({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }, webhookSettings(h, 0.5));
    while ((await consumeOutbox(h.store, fanOut)) > 0);
    await policy.set({ operator: true }, { ownWebhooks: false }, IDS.agency);
    while (await worker.deliverDue());
    await setDraft(h, project, { name: 'While off' });
    await manualWorker(h).round();
    assert.equal(receiver.received.length, 0);
    const log = await h.store.webhooks.listAllDeliveries(made.subscription.id);
    assert.deepEqual(log.map((d) => [d.eventType, d.status, d.lastError]), [['project.created', 'failed', 'Not sent: the agency turned self-service webhooks off.']]);
    // The user may still delete it; another user cannot, and cannot see its log.
    const other = await callerOf(h, 'otherApplicant');
    await assert.rejects(webhooks.deliveries(other, made.subscription.id), { code: 'NOT_FOUND' });
    await assert.rejects(webhooks.delete(other, made.subscription.id), { code: 'NOT_FOUND' });
    assert.equal((await h.store.webhooks.listOwnedSubscriptions(applicant.user.id)).length, 1);
    await webhooks.delete(applicant, made.subscription.id);
    assert.deepEqual(await h.store.webhooks.listOwnedSubscriptions(applicant.user.id), []);
  });

  it('are changed by their owner only: kinds of event, disable and enable again, a new secret with a grace period', async () => {
    const { h } = await bed.harness(INSECURE, new TestClock(Date.now()));
    const receiver = await bed.receiver();
    const { policy, webhooks } = services(h);
    await policy.set({ operator: true }, { ownWebhooks: true }, IDS.agency);
    const applicant = await callerOf(h, 'applicant');
    const other = await callerOf(h, 'otherApplicant');
    const made = await webhooks.create(applicant, 'solar', receiver.url);
    const id = made.subscription.id;
    const stored = async () => (await h.store.webhooks.findOwnedSubscription(applicant.user.id, id))!;

    // Nobody else changes it, and a refusal changes nothing.
    const before = await stored();
    await assert.rejects(webhooks.update(other, id, { enabled: false }), { code: 'NOT_FOUND' });
    await assert.rejects(webhooks.rotateSecret(other, id, 0), { code: 'NOT_FOUND' });
    await assert.rejects(webhooks.update(applicant, id, { eventTypes: ['project.created', 'no.such'] }), { code: 'INVALID_PARAMETER' });
    await assert.rejects(webhooks.rotateSecret(applicant, id, 1000), { code: 'INVALID_PARAMETER' });
    assert.deepEqual(await stored(), before);

    // Only project.submitted is sent now: creating a project sends nothing.
    assert.deepEqual((await webhooks.update(applicant, id, { eventTypes: ['project.submitted', 'project.submitted'] })).eventTypes, ['project.submitted']);
    await createProject(h, 'applicant');
    await manualWorker(h).round();
    assert.equal(receiver.received.length, 0);

    // Disabled by the user, then enabled again: not while the agency has self-service off.
    h.clock.advance();
    assert.equal((await webhooks.update(applicant, id, { enabled: false })).enabled, false);
    assert.match((await stored()).disabledReason ?? '', /Disabled by/);
    await policy.set({ operator: true }, { ownWebhooks: false }, IDS.agency);
    await assert.rejects(webhooks.update(applicant, id, { enabled: true }), { code: 'FORBIDDEN' });
    assert.equal((await stored()).enabled, false);
    await policy.set({ operator: true }, { ownWebhooks: true }, IDS.agency);
    const enabled = await webhooks.update(applicant, id, { enabled: true });
    assert.deepEqual([enabled.enabled, enabled.disabledReason], [true, null]);

    // A new secret: the old one signs too for the grace period, then not at all.
    const rotated = await webhooks.rotateSecret(applicant, id, 24);
    assert.notEqual(rotated.secret, made.secret);
    const after = await stored();
    assert.deepEqual([after.secret, after.previousSecret, after.previousSecretUntil], [rotated.secret, made.secret, h.clock.now() + 24 * 3_600_000]);
    assert.equal(rotated.subscription.previousSecretUntil, h.clock.now() + 24 * 3_600_000);
    const atOnce = await webhooks.rotateSecret(applicant, id, 0);
    assert.deepEqual([(await stored()).previousSecret, atOnce.subscription.previousSecretUntil], [null, null]);
    const audit = await h.store.audit.list({});
    assert.deepEqual(audit.filter((a) => a.action.startsWith('webhook.own.') && a.action !== 'webhook.own.create').map((a) => a.action).sort(), [
      'webhook.own.rotate_secret', 'webhook.own.rotate_secret', 'webhook.own.update', 'webhook.own.update', 'webhook.own.update',
    ]);
  });

  it('follow organization membership: a member gets the organization\'s projects until removed', async () => {
    const { h } = await bed.harness(INSECURE, new TestClock(Date.now()));
    const { policy, webhooks } = services(h);
    await policy.set({ operator: true }, { ownWebhooks: true }, IDS.agency);
    const world = await seedOrganizations(h.store, { admin: h.who.applicant.id, member: h.who.otherApplicant.id });
    const memberHook = await bed.receiver();
    const removedHook = await bed.receiver();
    const member = await webhooks.create(await callerOf(h, 'otherApplicant'), 'solar', memberHook.url);
    const removedUser = (await h.store.accounts.findUserById(world.ids.removed.id))!;
    const { passwordHash: _hash, ...plain } = removedUser;
    const removedCaller: Caller = { user: plain, apiKeyId: '', grants: await h.store.accounts.listGrants(plain.id), organizationIds: [world.orgA] };
    const removed = await webhooks.create(removedCaller, 'solar', removedHook.url);

    h.clock.advance();
    const started = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`, as: 'applicant' });
    assert.equal(started.statusCode, 200, started.body);
    const project = /ProjectId="([^"]+)"/.exec(started.body)![1]!;
    const worker = manualWorker(h);
    await worker.round();
    assert.ok(memberHook.received.some((r) => verified(member.secret, r).data.ProjectId === project));
    assert.ok(removedHook.received.some((r) => verified(removed.secret, r).data.ProjectId === project));

    await removeFromA(h.store, world);
    const [memberBefore, removedBefore] = [memberHook.received.length, removedHook.received.length];
    await setDraft(h, project, { name: 'After the removal' });
    await worker.round();
    assert.ok(memberHook.received.length > memberBefore, 'a member still gets the organization\'s project');
    assert.equal(removedHook.received.length, removedBefore, 'a removed member gets nothing more of it');
  });
});
