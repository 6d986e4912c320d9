import assert from 'node:assert/strict';
import http from 'node:http';
import { afterEach } from 'node:test';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type BackgroundWork, startBackgroundWork } from '../../src/domain/events/background-work.ts';
import { eventTasks } from '../../src/domain/wiring/event-tasks.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import type { WebhookSender } from '../../src/domain/webhooks/webhook-sender.ts';
import { type WebhookTaskSettings, webhookWorkers } from '../../src/domain/webhooks/webhook-tasks.ts';
import { deliveryPayload } from '../../src/http/webhook-payload.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { Store } from '../../src/store/store.ts';
import { openTestStore, type TestDialect, type TestStore } from '../support/databases.ts';
import { attr, type HttpHarness, NS, startHttp, TestClock, type Who } from '../support/http-harness.ts';
import { PROGRAM } from './http-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

/** One POST a receiver got: its headers and body as sent. */
export interface Received { headers: Record<string, string>; body: string; at: number }

/** What a receiver answers to its n-th request (0-based): a status code (with headers), or `hang` (never answers). */
export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

/** A tiny webhook receiver on 127.0.0.1. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides the answer of each request; 200 by default. */
  answer: (n: number, request: Received) => Answer;
  /** Milliseconds to wait before answering. */
  delayMs: number;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (on `port` when given, to come back up where it was). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '', port: 0, received: [], answer: () => 200, delayMs: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const n = receiver.received.length;
      receiver.received.push(got);
      const answer = receiver.answer(n, got);
      if (answer === 'hang') return;
      const [status, headers] = typeof answer === 'number' ? [answer, {}] : [answer.status, answer.headers];
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok'), receiver.delayMs);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

/** Verifies a received POST as a receiver would, with `standardwebhooks`; returns the parsed payload. */
export function verified(secret: string, r: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = { 'webhook-id': r.headers['webhook-id'] ?? '', 'webhook-timestamp': r.headers['webhook-timestamp'] ?? '', 'webhook-signature': r.headers['webhook-signature'] ?? '' };
  return new Webhook(secret).verify(r.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** The Webhooks path of the fixture program. */
export const WEBHOOKS = `${PROGRAM}/Webhooks`;

/** A CreateWebhookSubscriptionRequest body. */
export function createRequest(url: string, types: string[] = []): string {
  const list = types.length > 0 ? `<EventTypes>${types.map((t) => `<EventType>${t}</EventType>`).join('')}</EventTypes>` : '';
  return `<CreateWebhookSubscriptionRequest xmlns="${NS}" Url="${url.replace(/&/g, '&amp;')}">${list}</CreateWebhookSubscriptionRequest>`;
}

/** Subscribes `url` through CreateWebhookSubscription as `who`; returns the subscription's id and its secret. */
export async function subscribe(h: HttpHarness, url: string, types: string[] = [], who: Who = 'admin'): Promise<{ id: string; secret: string }> {
  const res = await h.request({ method: 'POST', url: WEBHOOKS, as: who, body: createRequest(url, types) });
  assert.equal(res.statusCode, 200, res.body);
  const id = attr(res.body, 'WebhookSubscription', 'SubscriptionId');
  const secret = attr(res.body, 'CreateWebhookSubscriptionResponse', 'Secret');
  assert.ok(id && secret, res.body);
  return { id, secret };
}

/** One instance's webhook work, run by hand: fan-out, then what is due. */
export interface ManualWorker {
  owner: string;
  /** Fans out the outbox and sends every due delivery (until a round claims nothing). */
  round(): Promise<void>;
}

/** The webhook settings of a harness's configuration, as `serve` passes them; jitter fixed at `random` when given. */
export function webhookSettings(h: HttpHarness, random?: number | (() => number), sender?: WebhookSender): WebhookTaskSettings {
  const jitter = typeof random === 'function' ? random : () => random as number;
  return { ...h.config.webhooks, payload: deliveryPayload, ...(random === undefined ? {} : { random: jitter }), ...(sender ? { sender } : {}) };
}

/** A webhook worker over `store` with the harness's clock and settings; jitter fixed at `random` (or drawn from it). */
export function manualWorker(h: HttpHarness, store: Store = h.store, random: number | (() => number) = 0.5, sender?: WebhookSender): ManualWorker {
  const { fanOut, worker } = webhookWorkers({ store, clock: h.clock, ids: new RandomIdGenerator() }, webhookSettings(h, random, sender));
  return {
    owner: worker.owner,
    round: async () => {
      while ((await consumeOutbox(store, fanOut)) > 0);
      while (await worker.deliverDue());
    },
  };
}

/** Waits until `check` holds, for at most `ms` of real time. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`${what} did not come true within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Webhooks to plain-http receivers on 127.0.0.1, with attempts that give up after ten seconds: on a machine loaded by
 * the whole suite a local exchange has taken over a second, and an attempt failed so changed what a test saw (a retry
 * of a delivery that did arrive, a delivery still pending). A test whose receiver hangs sets a shorter timeout.
 */
export const INSECURE = { APAS_WEBHOOK_ALLOW_INSECURE: 'true', APAS_WEBHOOK_TIMEOUT_MS: '10000' } as const;

/** Harnesses and receivers of one suite, each test's closed after it (in the reverse order they were made). */
export interface WebhookTestBed {
  /** A harness on a database of its own; with `background`, the outbox's work runs as `serve` runs it (woken by each change, no mail). */
  harness(env?: Record<string, string>, clock?: TestClock, background?: boolean): Promise<{ h: HttpHarness; db: TestStore }>;
  /** A receiver on 127.0.0.1 (on `port` when given). */
  receiver(port?: number): Promise<Receiver>;
}

/** Registers the test bed of a webhook suite on `dialect`; call it in the suite's body. */
export function webhookTestBed(dialect: TestDialect): WebhookTestBed {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    async harness(env = INSECURE, clock = new TestClock(), background = false) {
      // Closed by these cleanups, last: forEachDialect's afterEach runs before them, and would close the store under a
      // background round still settling the last delivery.
      const db = await openTestStore(dialect);
      cleanups.push(() => db.close());
      let work: BackgroundWork | undefined;
      const h = await startHttp(db, env, clock, false, background ? () => work?.wake() : undefined);
      cleanups.push(() => h.close());
      if (background) {
        const warnings: string[] = [];
        work = startBackgroundWork(eventTasks({
          store: db.store, clock, ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl, mailer: null, mailIntervalMs: 3_600_000, webhooks: webhookSettings(h), reactions: changeReactions(),
        }), { warn: (fields, message) => warnings.push(`${message} ${JSON.stringify(fields)}`) });
        const started = work;
        cleanups.push(async () => {
          await started.stop();
          assert.deepEqual(warnings, [], 'no background round failed');
        });
      }
      return { h, db };
    },
    async receiver(port = 0) {
      const r = await startReceiver(port);
      cleanups.push(() => r.close());
      return r;
    },
  };
}
