import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { WorkLog } from '../../src/domain/events/background-work.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { MailQueueService } from '../../src/domain/mail/mail-queue-service.ts';
import { DEFAULT_MAIL_POLICY, sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import type { Mailer } from '../../src/domain/mail/mailer.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { WF } from '../support/workflow-fixtures.ts';
import { createSubmitted } from './http-helpers.ts';
import { subscribe, webhookSettings } from './webhook-helpers.ts';
import { setStatus, sharedWorkflowHarness } from './workflow-helpers.ts';

// Background work that fails is not silent: each failed mail or webhook attempt is logged at warn with its id and
// cause, and /metrics shows the backlogs (pending, failing, failed, oldest), read from the database when scraped.

/** A log that keeps what it was told. */
function keptLog(): WorkLog & { lines: { fields: Record<string, unknown>; message: string }[] } {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { lines, warn: (fields, message) => lines.push({ fields: fields as Record<string, unknown>, message }) };
}

const refusing: Mailer = { send: async () => Promise.reject(new Error('550 5.1.1 mailbox unavailable')), close: () => {} };

/** The value of one metric line of a /metrics answer. */
function metric(body: string, name: string): number {
  const line = body.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `no ${name} in\n${body}`);
  return Number(line.slice(name.length + 1));
}

async function scrape(h: HttpHarness): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200, res.body);
  return res.body;
}

forEachDialect('failed background work', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect, { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });

  it('logs each failed mail at warn with its id and cause, and /metrics counts the mail backlog', async () => {
    const h = harness();
    const ids = new RandomIdGenerator();
    const empty = await scrape(h);
    assert.equal(metric(empty, 'apas_backlog_read_ok'), 1);
    for (const name of ['apas_mail_pending', 'apas_mail_failing', 'apas_mail_failed', 'apas_mail_oldest_pending_age_seconds']) assert.equal(metric(empty, name), 0, name);

    const { projectId } = await createSubmitted(h, 'applicant');
    await setStatus(h, projectId, WF.approved);
    while ((await consumeOutbox(h.store, mailNotifier({ ids, publicUrl: h.config.publicUrl }))) > 0);
    const [queued] = await h.store.mail.listMail('pending');
    assert.ok(queued);
    h.clock.advance(90_000);
    let body = await scrape(h);
    assert.equal(metric(body, 'apas_mail_pending'), 1);
    assert.equal(metric(body, 'apas_mail_failing'), 0);
    assert.equal(metric(body, 'apas_mail_oldest_pending_age_seconds'), 90);

    const log = keptLog();
    await sendDueMail({ store: h.store, clock: h.clock, mailer: refusing, log });
    assert.deepEqual(log.lines.map((l) => [l.fields.mailId, l.fields.attempts, l.fields.error]), [[queued.id, 1, '550 5.1.1 mailbox unavailable']]);
    assert.match(log.lines[0]!.message, new RegExp(`mail ${queued.id} failed; it is retried later`));
    assert.ok(!JSON.stringify(log.lines).includes(h.who.applicant.email), 'the recipient\'s address is not logged');
    body = await scrape(h);
    assert.deepEqual([metric(body, 'apas_mail_pending'), metric(body, 'apas_mail_failing'), metric(body, 'apas_mail_failed')], [1, 1, 0]);

    // The last attempt gives up: logged as such, and counted as failed, no longer pending.
    h.clock.advance(3_600_000);
    await sendDueMail({ store: h.store, clock: h.clock, mailer: refusing, log }, { ...DEFAULT_MAIL_POLICY, maxAttempts: 2 });
    assert.equal(log.lines.length, 2);
    assert.equal(log.lines[1]!.fields.nextAttemptAt, null);
    assert.match(log.lines[1]!.message, /failed for the last time/);
    body = await scrape(h);
    assert.deepEqual([metric(body, 'apas_mail_pending'), metric(body, 'apas_mail_failing'), metric(body, 'apas_mail_failed')], [0, 0, 1]);
    assert.equal(metric(body, 'apas_mail_oldest_pending_age_seconds'), 0);
  });

  it('logs each failed webhook attempt at warn with the delivery id and cause, and /metrics counts the deliveries', async () => {
    const h = harness();
    await subscribe(h, 'http://127.0.0.1:9/hook', ['project.status_changed']);
    const log = keptLog();
    const sender = { post: async () => ({ status: 503, error: null }) };
    const { fanOut, worker } = webhookWorkers({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), log }, webhookSettings(h, 0.5, sender));
    const { projectId } = await createSubmitted(h, 'applicant');
    await setStatus(h, projectId, WF.approved);
    while ((await consumeOutbox(h.store, fanOut)) > 0);
    let body = await scrape(h);
    const pending = metric(body, 'apas_webhook_deliveries_pending');
    assert.ok(pending >= 1, body);
    assert.equal(metric(body, 'apas_webhook_deliveries_failing'), 0);
    h.clock.advance(5_000);
    assert.ok(metric(await scrape(h), 'apas_webhook_oldest_pending_age_seconds') >= 5);

    await worker.deliverDue();
    assert.ok(log.lines.length >= 1, 'a failed attempt is logged');
    for (const line of log.lines) {
      assert.equal(typeof line.fields.deliveryId, 'string');
      assert.equal(line.fields.statusCode, 503);
      assert.equal(line.fields.error, 'HTTP 503');
      assert.match(line.message, new RegExp(`webhook delivery ${String(line.fields.deliveryId)} failed; it is retried later`));
    }
    body = await scrape(h);
    assert.equal(metric(body, 'apas_webhook_deliveries_failing'), log.lines.length);
    assert.equal(metric(body, 'apas_webhook_deliveries_pending'), pending);
  });

  it('a failed mail can be queued again (one by id, or all failed): due at once with fresh attempts, audited; a refused retry changes nothing', async () => {
    const h = harness();
    const ids = new RandomIdGenerator();
    const service = new MailQueueService({ store: h.store, clock: h.clock, ids });
    const { projectId } = await createSubmitted(h, 'applicant');
    await setStatus(h, projectId, WF.approved);
    while ((await consumeOutbox(h.store, mailNotifier({ ids, publicUrl: h.config.publicUrl }))) > 0);
    await sendDueMail({ store: h.store, clock: h.clock, mailer: refusing }, { ...DEFAULT_MAIL_POLICY, maxAttempts: 1 });
    const failed = await h.store.mail.listMail('failed');
    assert.ok(failed.length >= 1);
    const one = failed.at(-1)!;

    const before = { mail: await h.store.mail.listMail(), audit: await h.store.audit.list({ action: 'mail.retry' }) };
    await assert.rejects(service.retry('NOSUCHMAIL00'), { code: 'NOT_FOUND' });
    assert.deepEqual({ mail: await h.store.mail.listMail(), audit: await h.store.audit.list({ action: 'mail.retry' }) }, before);

    h.clock.advance();
    assert.deepEqual(await service.retry(one.id), [one.id]);
    const again = (await h.store.mail.listMail()).find((m) => m.id === one.id)!;
    assert.equal(again.status, 'pending');
    assert.equal(again.attempts, 0);
    assert.equal(again.nextAttemptAt, h.clock.now());
    assert.equal(again.lastError, '550 5.1.1 mailbox unavailable', 'the last error stays until the next attempt');
    const [audit] = await h.store.audit.list({ action: 'mail.retry' });
    assert.deepEqual(audit?.detail, { count: 1, mailIds: [one.id] });

    // It goes out with the next round.
    const sentTo: string[] = [];
    await sendDueMail({ store: h.store, clock: h.clock, mailer: { send: async (m) => void sentTo.push(m.to), close: () => {} } });
    assert.ok(sentTo.includes(h.who.applicant.email));
    assert.equal((await h.store.mail.listMail('sent')).find((m) => m.id === one.id)?.attempts, 1);
    // A mail that went out is not sent again by a retry.
    const afterSend = { mail: await h.store.mail.listMail(), audit: await h.store.audit.list({ action: 'mail.retry' }) };
    await assert.rejects(service.retry(one.id), { code: 'CONFLICT' });
    assert.deepEqual({ mail: await h.store.mail.listMail(), audit: await h.store.audit.list({ action: 'mail.retry' }) }, afterSend);

    // --all-failed: every failed mail, and nothing when none has failed.
    const rest = (await h.store.mail.listMail('failed')).map((m) => m.id);
    assert.deepEqual((await service.retry(null)).sort(), rest.sort());
    assert.deepEqual(await h.store.mail.listMail('failed'), []);
    assert.deepEqual(await service.retry(null), []);
    const listed = await service.list('pending', 1000);
    assert.ok(listed.every((m) => m.status === 'pending' && !('text' in m) && !('html' in m)), 'listings never carry the text (which may hold a live link)');
    await assert.rejects(service.list('lost', 10), { code: 'INVALID_PARAMETER' });
  });
});
