import { parseArgs } from 'node:util';
import type pino from 'pino';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { type BackgroundWork, startBackgroundWork } from '../domain/events/background-work.ts';
import { eventTasks } from '../domain/wiring/event-tasks.ts';
import { DEFAULT_CALL_POLICY } from '../domain/connections/connection-calls.ts';
import { createDocumentRenderer } from '../domain/documents/document-renderer.ts';
import { createSignedPdfMaker } from '../domain/documents/signed-pdf-maker.ts';
import { changeReactions } from '../domain/wiring/change-reactions.ts';
import { IdempotencyService } from '../domain/projects/idempotency-service.ts';
import type { Mailer } from '../domain/mail/mailer.ts';
import { smtpMailer } from '../domain/mail/smtp-mailer.ts';
import { systemClock } from '../model/clock.ts';
import { RandomIdGenerator } from '../model/ids.ts';
import { API_BASE, buildApp } from '../http/app.ts';
import { buildMetricsApp } from '../http/metrics-app.ts';
import { createLogger } from '../http/logger.ts';
import { deliveryPayload } from '../http/webhook-payload.ts';
import { pruneWebhookLog } from '../domain/webhooks/webhook-log-retention.ts';
import { createBlobStore, orphanGraceMs, s3Settings } from '../store/create-blob-store.ts';
import { LocalBlobStore } from '../store/local-blob-store.ts';
import { S3BlobStore } from '../store/s3-blob-store.ts';
import { createKyselyStore } from '../store/kysely-store.ts';
import { defaultSecretKeyFile, keyFileToMake, openSecretBox } from '../store/open-secret-box.ts';
import { lazySecretBox, type SecretBox } from '../store/secret-box.ts';
import { startOrphanSweeps } from '../store/orphan-sweeper.ts';
import type { Store } from '../store/store.ts';
import { checkBlobStore, listenFailure, openWithRetry, StartupFailure } from './startup-failure.ts';
import { applyHeapGrowth } from './heap-growth.ts';
import { makeDemoSigningP12, openSigningCertificate, type SigningCertificate } from './signing-certificate.ts';

const SWEEP_INTERVAL_MS = 3_600_000;
/** How long shutdown waits for the database connections to close before the process exits anyway. */
const CLOSE_DATABASE_MS = 5_000;

function describeDatabase(config: Config): string {
  return config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
}

async function seedDemoIfAsked(demo: boolean, store: Store, config: Config, log: pino.Logger): Promise<void> {
  if (!demo) return;
  const { seedDemo, seedDemoLists, formatDemoCredentials } = await import('../domain/programs/demo.ts');
  const { seedDemoProjects } = await import('../domain/wiring/demo-projects.ts');
  const { programCheckers } = await import('../domain/wiring/program-checkers.ts');
  const deps = { store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() };
  const result = await seedDemo(deps);
  // The demo's list of approved inverters (10,000 rows), once: a list an operator loaded since is kept.
  const lists = await seedDemoLists(deps);
  // Its sample applications and incentive claims, those missing only: a demo project changed since is kept.
  const projects = await seedDemoProjects({ ...deps, publicUrl: config.publicUrl, maxNumbersPerRequest: config.maxNumbersPerRequest });
  log.info({ demo: result.created ? 'created' : 'already present', lists, projects: projects.length }, 'demo data ready');
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
  // Garbage is collected once the old generation is 1.4 times the live heap, not 4 times: docs/operations.md, "Memory".
  const growth = applyHeapGrowth(config.heapGrowthPercent);
  log.info({ heapGrowthPercent: growth }, growth === null ? 'heap growth: V8\'s own' : `heap growth: ${growth} % over the live heap`);
  // What has been started so far, stopped again (last first) when a later step of the start-up fails.
  const started: (() => Promise<unknown> | unknown)[] = [];
  try {
    await serve(config, log, values.demo ?? false, started);
    return await new Promise<number>(() => {});
  } catch (error) {
    if (!(error instanceof StartupFailure)) throw error;
    // One line an operator can act on, in the log's JSON like every other line: the setting, the place, the reason.
    log.fatal({ setting: error.setting, path: error.where }, error.message);
    for (const stop of started.reverse()) await Promise.resolve().then(stop).catch(() => {});
    return 1;
  }
}

// Where the keys of the secrets at rest come from, for a start-up failure's line.
function secretsSetting(config: Config): string {
  return config.secretKeys.keys !== null ? 'APAS_SECRET_KEYS' : 'APAS_SECRET_KEY_FILE';
}

function secretsWhere(config: Config): string {
  if (config.secretKeys.keys !== null) return 'the environment';
  return config.secretKeys.file ?? defaultSecretKeyFile(config.database) ?? 'unset';
}

function secretBoxOf(config: Config, log: pino.Logger, mayMakeKeyFile = true): SecretBox {
  try {
    return openSecretBox(config, (line) => log.warn(line), mayMakeKeyFile);
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupFailure(secretsSetting(config), secretsWhere(config), error.message);
    throw error;
  }
}

/**
 * The sealer of signed PDFs (docs/operations.md, "The signing certificate"), checked before anything starts; with
 * --demo, the demo's self-signed certificate is made first when none is configured or there.
 */
async function signingCertificate(config: Config, log: pino.Logger, demo: boolean): Promise<SigningCertificate | null> {
  if (demo) {
    const { DEMO_AGENCY } = await import('../domain/programs/demo.ts');
    const made = makeDemoSigningP12(config, DEMO_AGENCY.name, systemClock.now());
    if (made !== null) log.info({ file: made }, 'made the demo\'s self-signed signing certificate');
  }
  const signing = openSigningCertificate(config, systemClock.now(), (line) => log.warn(line));
  if (signing === null) log.info('no signing certificate (APAS_SIGNING_P12 is not set): signed PDFs cannot be sealed');
  else log.info({ file: signing.file, certificate: signing.subject, validUntil: signing.notAfter.toISOString() }, 'signed PDFs are sealed');
  return signing;
}

/** Who the certificate names as its holder (its organization, else its common name): the signature page's "Sealed by". */
function holderOf(subject: string): string {
  const part = (key: string) => subject.split(', ').find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1);
  return part('O') ?? part('CN') ?? subject;
}

async function serve(config: Config, log: pino.Logger, demo: boolean, started: (() => Promise<unknown> | unknown)[]): Promise<void> {
  // The documents' sealer (issue 32), checked here at start: a bad certificate stops the start, not the first signing.
  const signing = await signingCertificate(config, log, demo);
  // Checked before the database: an upload directory that cannot be written would otherwise pass /readyz and fail every upload.
  if (config.blobStore === 'local') await checkBlobStore(config, new LocalBlobStore(config.blobDir));
  if (config.blobStore === 's3') await checkBlobStore(config, new S3BlobStore(s3Settings(config)));
  // Configured keys are checked before the database is opened; a key file to be made, only after (below).
  let secrets = keyFileToMake(config) === null ? secretBoxOf(config, log) : null;
  const opened = await openWithRetry(config, log);
  const store = createKyselyStore(opened, { secrets: secrets ?? lazySecretBox(() => secrets as SecretBox) });
  started.push(() => store.close());
  // A key is made only for a database that holds no sealed value yet (a new installation): for one restored without
  // its key file, a new key would open nothing, and the file would stand where the right one belongs.
  secrets ??= secretBoxOf(config, log, !(await store.sealedValuesExist()));
  const sealed = await store.resealSecrets('legacy');
  if (sealed.missingKeys.length > 0) {
    throw new StartupFailure(secretsSetting(config), secretsWhere(config), `The database holds secrets sealed with the key(s) ${sealed.missingKeys.join(', ')}, which the configured keys do not include: restore the key file that belongs to this database, or, if it is lost, run "apas secrets drop-unreadable". See docs/operations.md, "Restoring without the key".`);
  }
  if (sealed.resealed > 0) log.info({ sealed: sealed.resealed }, 'sealed secrets stored before encryption at rest');
  await seedDemoIfAsked(demo, store, config, log);
  const blobs = createBlobStore(config, store);
  // Files stored by an upload whose transaction never committed (a crash in between) belong to nothing: swept at
  // start, and every hour while the instance runs; so are idempotency keys past their 24 hours (already ignored),
  // events past the feed's retention, and sent mail past APAS_MAIL_RETENTION_DAYS.
  const keys = new IdempotencyService({ store, clock: systemClock });
  const sweeps = startOrphanSweeps(blobs, (key) => store.attachments.isBlobReferenced(key), orphanGraceMs(config), SWEEP_INTERVAL_MS, log, [
    { what: 'expired idempotency keys', sweep: () => keys.sweepExpired() },
    { what: 'events past their retention', sweep: () => store.transaction((tx) => tx.events.pruneEvents(systemClock.now() - config.eventRetentionDays * 86_400_000)) },
    { what: 'sent mail past its retention', sweep: () => store.transaction((tx) => tx.mail.pruneMail(systemClock.now() - config.mail.retentionDays * 86_400_000)) },
    { what: 'webhook deliveries past their retention', sweep: () => pruneWebhookLog(store, systemClock.now(), config.webhooks.logRetentionDays) },
  ]);
  // The first sweep runs beside serving: it lists every stored file (seconds at a million projects' uploads), and
  // the grace period keeps it from files whose upload is still in flight.
  started.push(() => sweeps.stop());
  const mailer = configuredMailer(config, log);
  started.push(() => mailer?.close());
  let work: BackgroundWork | null = null;
  const app = await buildApp({ config, store, logger: log, blobs, onChange: () => work?.wake() });
  started.push(() => app.close());
  // The outbox's consumers inside the service (notification mails, webhooks) run in rounds until shutdown, and at once after a change here.
  work = startBackgroundWork(eventTasks({
    store, clock: systemClock, ids: new RandomIdGenerator(), publicUrl: config.publicUrl, mailer, mailIntervalMs: config.mail.intervalMs, deadlineIntervalMs: config.deadlineIntervalMs,
    webhooks: { ...config.webhooks, payload: deliveryPayload }, log, reactions: changeReactions(),
    documents: { renderer: createDocumentRenderer({ store }), blobs, leaseMs: config.documentLeaseMs },
    // The maker of signed PDFs (signature page, certificate of completion, PAdES seal); without a certificate, envelopes everyone signed wait.
    signing: { blobs, maker: signing === null ? null : createSignedPdfMaker(signing.sealer, { agencyName: holderOf(signing.subject) }) },
    // Connections to the agency's own systems follow the webhooks' address rules.
    connections: { allowInsecure: config.webhooks.allowInsecure, policy: { ...DEFAULT_CALL_POLICY, leaseMs: config.connectionLeaseMs } },
  }), log);
  // A first round at once: what a crashed instance left (a document request whose claim ran out, an envelope everyone
  // signed, events not yet mailed) is taken up at start, not only after each task's interval.
  work.wake();
  started.push(() => work?.stop());
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await work?.stop();
    mailer?.close();
    await sweeps.stop();
    // A database that stopped answering would hold the goodbye of every connection forever: exit regardless.
    await Promise.race([store.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_DATABASE_MS).unref())]);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    throw listenFailure(config, error);
  }
  if (config.metrics !== null) {
    const metricsApp = buildMetricsApp(store, blobs, app.metricsRegistry);
    started.push(() => metricsApp.close());
    try {
      await metricsApp.listen({ host: config.metrics.host, port: config.metrics.port });
    } catch (error) {
      throw listenFailure(config, error, 'APAS_METRICS_PORT', config.metrics);
    }
    log.info({ metrics: `http://${config.metrics.host}:${config.metrics.port}/metrics` }, 'metrics and health probes on their own port');
  }
  const files = config.blobStore === 'local' ? `directory ${config.blobDir}` : config.blobStore === 's3' ? `bucket s3://${config.s3?.bucket}/${config.s3?.prefix}` : 'the database';
  log.info({ api: `${config.publicUrl}${API_BASE}`, database: describeDatabase(config), uploads: files }, 'apas is serving');
}
