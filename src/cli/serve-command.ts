import { parseArgs } from 'node:util';
import type pino from 'pino';
import { type Config, loadConfig } from '../config.ts';
import { type BackgroundWork, startBackgroundWork } from '../domain/background-work.ts';
import { eventTasks } from '../domain/event-tasks.ts';
import { IdempotencyService } from '../domain/idempotency-service.ts';
import type { Mailer } from '../domain/mailer.ts';
import { smtpMailer } from '../domain/smtp-mailer.ts';
import { systemClock } from '../model/clock.ts';
import { RandomIdGenerator } from '../model/ids.ts';
import { API_BASE, buildApp } from '../http/app.ts';
import { createLogger } from '../http/logger.ts';
import { deliveryPayload } from '../http/webhook-payload.ts';
import { pruneWebhookLog } from '../domain/webhook-log-retention.ts';
import { createBlobStore, orphanGraceMs } from '../store/create-blob-store.ts';
import { openDatabase } from '../store/database.ts';
import { createKyselyStore } from '../store/kysely-store.ts';
import { startOrphanSweeps } from '../store/orphan-sweeper.ts';
import type { Store } from '../store/store.ts';

const SWEEP_INTERVAL_MS = 3_600_000;

function describeDatabase(config: Config): string {
  return config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
}

async function seedDemoIfAsked(demo: boolean, store: Store, log: pino.Logger): Promise<void> {
  if (!demo) return;
  const { seedDemo, formatDemoCredentials } = await import('../domain/demo.ts');
  const result = await seedDemo({ store, clock: systemClock, ids: new RandomIdGenerator() });
  log.info({ demo: result.created ? 'created' : 'already present' }, 'demo data ready');
  process.stderr.write(`\n${formatDemoCredentials()}\n\n`);
}

/** The SMTP mailer of the configuration, or null (said in the log) when APAS_SMTP_URL is not set. */
function configuredMailer(config: Config, log: pino.Logger): Mailer | null {
  if (config.mail.smtpUrl === null) {
    log.info('mail is off (APAS_SMTP_URL is not set): no notification or account mails are sent');
    return null;
  }
  log.info({ smtp: new URL(config.mail.smtpUrl).host, from: config.mail.from }, 'mail is on');
  return smtpMailer(config.mail.smtpUrl, config.mail.from);
}

/** `apas serve [--demo]`: migrates the database, optionally seeds the demo, and serves until SIGINT/SIGTERM. */
export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { demo: { type: 'boolean', default: false } }, strict: true });
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const opened = await openDatabase(config.database, config.pgPoolSize);
  const store = createKyselyStore(opened);
  await seedDemoIfAsked(values.demo ?? false, store, log);
  const blobs = createBlobStore(config, store);
  // Files stored by an upload whose transaction never committed (a crash in between) belong to nothing: swept at
  // start, and every hour while the instance runs; so are idempotency keys past their 24 hours (already ignored), and
  // events past the feed's retention.
  const keys = new IdempotencyService({ store, clock: systemClock });
  const sweeps = startOrphanSweeps(blobs, (key) => store.attachments.isBlobReferenced(key), orphanGraceMs(config), SWEEP_INTERVAL_MS, log, [
    { what: 'expired idempotency keys', sweep: () => keys.sweepExpired() },
    { what: 'events past their retention', sweep: () => store.transaction((tx) => tx.events.pruneEvents(systemClock.now() - config.eventRetentionDays * 86_400_000)) },
    { what: 'webhook deliveries past their retention', sweep: () => pruneWebhookLog(store, systemClock.now(), config.webhooks.logRetentionDays) },
  ]);
  await sweeps.first;
  const mailer = configuredMailer(config, log);
  let work: BackgroundWork | null = null;
  const app = await buildApp({ config, store, logger: log, blobs, onChange: () => work?.wake() });
  // The outbox's consumers inside the service (notification mails, webhooks) run in rounds until shutdown, and at once after a change here.
  work = startBackgroundWork(eventTasks({
    store, clock: systemClock, ids: new RandomIdGenerator(), publicUrl: config.publicUrl, mailer, mailIntervalMs: config.mail.intervalMs,
    webhooks: { ...config.webhooks, payload: deliveryPayload },
  }), log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await work?.stop();
    mailer?.close();
    await sweeps.stop();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
  const files = config.blobStore === 'local' ? `directory ${config.blobDir}` : 'the database';
  log.info({ api: `${config.publicUrl}${API_BASE}`, database: describeDatabase(config), uploads: files }, 'apas is serving');
  return new Promise<number>(() => {});
}
