import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ApiClient, demoIdentity, NS, xmlAttr } from './api-client.ts';
import { AttachmentNeeds, PROGRAM_PATH } from './demo-steps.ts';
import { createFaultDatabase, type FaultDialect } from './fault-database.ts';
import { seededRandom } from './seeded-random.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { openSqlReader } from './sql-reader.ts';
import { WriteJournal } from './write-journal.ts';
import { runWriteLoad } from './write-load.ts';

/** How a webhook crash run goes. */
export interface WebhookCrashOptions {
  dialect: FaultDialect;
  kills: number;
  workers?: number;
  seed: number;
  /** How long, after the last restart, every committed event may take to arrive. Default 60 s. */
  settleMs?: number;
  /**
   * How long the receiver is down (answers 503) from the subscription on, in the first cycle's load, and longer
   * until it has refused a delivery (30 s at most); what it refused must arrive after it is back. Default 1.5 s.
   */
  receiverDownMs?: number;
  log?: (line: string) => void;
}

/** The outcome: `problems` is empty when every committed event arrived, verified, in order per project. */
export interface WebhookCrashReport {
  dialect: FaultDialect;
  seed: number;
  events: number;
  received: number;
  duplicates: number;
  /** Deliveries the receiver refused while it was down. */
  refusedWhileDown: number;
  problems: string[];
  ms: number;
}

// Short attempts and leases, so a killed instance's claims are taken over within seconds.
export const WEBHOOK_ENV = { APAS_WEBHOOK_ALLOW_INSECURE: 'true', APAS_WEBHOOK_TIMEOUT_MS: '1000', APAS_WEBHOOK_INTERVAL_MS: '100' };

/**
 * The test's webhook receiver. It is down (answers 503) until `downUntil`, and past it until it has refused a delivery
 * (a loaded machine may deliver nothing in the first moments), but never past `downAtMost`.
 */
export interface Receiver { url: string; ids: string[]; bad: string[]; downUntil: number; downAtMost: number; refused: number; close(): Promise<void> }

/** A receiver that verifies every delivery with standardwebhooks, as a real one would; never down while `downAtMost` is 0. */
export async function startReceiver(secret: () => string): Promise<Receiver> {
  const r: Receiver = { url: '', ids: [], bad: [], downUntil: 0, downAtMost: 0, refused: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const now = Date.now();
      if (now < r.downAtMost && (now < r.downUntil || r.refused === 0)) {
        r.refused++;
        res.writeHead(503).end();
        return;
      }
      try {
        new Webhook(secret()).verify(body, req.headers as Record<string, string>);
        r.ids.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      } catch (error) {
        r.bad.push(`${req.headers['webhook-id']}: ${(error as Error).message}`);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

/** Subscribes `url` to the demo program's events as the admin of `server`; the subscription's secret. */
export async function subscribe(server: ServerProcess, url: string): Promise<string> {
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const answer = await admin.send('POST', `${PROGRAM_PATH}/Webhooks`, { body: `<CreateWebhookSubscriptionRequest xmlns="${NS}" Url="${url}"/>` });
  const secret = xmlAttr(answer.body, 'CreateWebhookSubscriptionResponse', 'Secret');
  if (answer.status !== 200 || !secret) throw new Error(`CreateWebhookSubscription answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return secret;
}

/** Every event in the database since the subscription was made (the demo's own come before), in sequence order, and the projects that exist. */
export async function committedEvents(config: Parameters<typeof openSqlReader>[0]): Promise<{ events: { id: string; project_id: string }[]; projects: Set<string> }> {
  const reader = await openSqlReader(config);
  try {
    const events = await reader.all<{ id: string; project_id: string }>(
      'select id, project_id from events where at >= (select min(created_at) from webhook_subscriptions) order by seq',
    );
    const projects = new Set((await reader.all<{ id: string }>('select id from projects')).map((p) => p.id));
    return { events, projects };
  } finally {
    await reader.close();
  }
}

/**
 * Subscribes a receiver (down, answering 503, for the first moments of the load), puts the server under write load
 * and kills it with SIGKILL `kills` times. After the last restart every committed event must reach the
 * receiver at least once, verified with standardwebhooks, first arrivals in sequence order per project; every event
 * must belong to a project that exists (a rolled-back change leaves none), and every acknowledged create has one.
 */
export async function runWebhookCrashCycles(options: WebhookCrashOptions): Promise<WebhookCrashReport> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const report: WebhookCrashReport = { dialect: options.dialect, seed: options.seed, events: 0, received: 0, duplicates: 0, refusedWhileDown: 0, problems: [], ms: 0 };
  const db = await createFaultDatabase(options.dialect);
  const journal = new WriteJournal();
  const needs = new AttachmentNeeds();
  let secret = '';
  const receiver = await startReceiver(() => secret);
  let server: ServerProcess | undefined;
  try {
    for (let index = 1; index <= options.kills + 1; index++) {
      server = await startServer({ databaseUrl: db.url, name: `${options.dialect} webhook server ${index}`, env: WEBHOOK_ENV });
      if (index === 1) {
        secret = await subscribe(server, receiver.url);
        receiver.downUntil = Date.now() + (options.receiverDownMs ?? 1_500);
        receiver.downAtMost = Date.now() + 30_000;
      }
      if (index > options.kills) break;
      const victim = server;
      const delay = Math.round(200 + random() * 1300);
      let kill: Promise<void> | undefined;
      await runWriteLoad({
        clients: [new ApiClient(server.origin, demoIdentity('applicant'), 20_000)], workers: options.workers ?? 4, journal, needs, random,
        until: Date.now() + 60_000, tokenPrefix: `W${index}w`,
        onFirstSubmission: () => {
          kill = new Promise((resolve) => setTimeout(resolve, delay)).then(() => victim.kill9());
        },
      });
      await (kill ?? victim.kill9());
      log(`${options.dialect} kill ${index}/${options.kills} after ${delay} ms; ${receiver.ids.length} deliveries received so far`);
    }
    const { events, projects } = await committedEvents(db.config);
    report.events = events.length;
    const deadline = Date.now() + (options.settleMs ?? 60_000);
    const missing = () => events.filter((e) => !receiver.ids.includes(e.id));
    while (missing().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    report.received = receiver.ids.length;
    report.duplicates = receiver.ids.length - new Set(receiver.ids).size;
    report.refusedWhileDown = receiver.refused;
    if (receiver.refused === 0) report.problems.push('the receiver refused nothing while it was down: the run did not test a receiver that is away');
    const lost = missing();
    if (lost.length > 0) report.problems.push(`${lost.length} of ${events.length} committed events never arrived, e.g. ${lost.slice(0, 5).map((e) => e.id).join(', ')}`);
    report.problems.push(...receiver.bad.slice(0, 10).map((b) => `a delivery failed verification: ${b}`));
    for (const e of events) if (!projects.has(e.project_id)) report.problems.push(`event ${e.id} belongs to project ${e.project_id}, which does not exist`);
    const created = new Set(events.map((e) => e.project_id));
    for (const r of journal.all()) if (r.kind === 'create' && r.outcome === 'acked' && !created.has(r.projectId)) report.problems.push(`acknowledged project ${r.projectId} has no event`);
    const firstArrival = new Map<string, number>();
    for (const [i, id] of receiver.ids.entries()) if (!firstArrival.has(id)) firstArrival.set(id, i);
    const lastByProject = new Map<string, number>();
    for (const e of events) {
      const at = firstArrival.get(e.id);
      if (at === undefined) continue;
      if ((lastByProject.get(e.project_id) ?? -1) > at) report.problems.push(`event ${e.id} of project ${e.project_id} first arrived before an earlier event of its project`);
      lastByProject.set(e.project_id, at);
    }
  } finally {
    await server?.kill9();
    await receiver.close();
    await db.drop();
    report.ms = Date.now() - started;
  }
  report.problems = report.problems.slice(0, 40);
  return report;
}
