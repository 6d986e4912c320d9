import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { mailNotifier, MAIL_CONSUMER } from '../mail/mail-notifier.ts';
import { DEFAULT_MAIL_POLICY, sendDueMail } from '../mail/mail-sender.ts';
import type { Mailer } from '../mail/mailer.ts';
import { consumeOutbox, type OutboxConsumer } from '../events/outbox-consumer.ts';
import { type WebhookTaskSettings, webhookTask } from '../webhooks/webhook-tasks.ts';
import { deadlineTask, systemCaller } from '../deadlines/deadline-poller.ts';
import { scheduleTask } from '../automations/schedule-runner.ts';
import { deadlineMarksTask } from '../queue/deadline-marks-task.ts';
import { dashboardZonesTask } from '../dashboards/dashboard-zones-task.ts';
import { DEFAULT_GENERATION_POLICY, documentGenerationTask, type GenerationPolicy, type StoredDocument } from '../documents/document-generation-task.ts';
import { mailDocumentFiles } from '../documents/mail-document-files.ts';
import type { DocumentRenderer, SignedPdfMaker } from '../../model/document.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import { envelopeFinisherTask } from '../signing/envelope-finisher.ts';
import { reminderTask } from '../signing/envelope-reminders.ts';
import { SigningService } from '../signing/signing-service.ts';
import { type CallPolicy, connectionCallsTask } from '../connections/connection-calls.ts';
import { type ConnectionClient, HttpConnectionClient } from '../connections/connection-client.ts';

/** Events read from the outbox per round of a consumer. */
export const OUTBOX_BATCH = 100;

/**
 * What the background work of the outbox needs; `mailer` null when no SMTP server is configured; `reactions`, those of
 * the change step, for the service's own changes (deadlines firing, daily schedules).
 */
export interface EventTaskDeps extends ReactingDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  publicUrl: string;
  mailer: Mailer | null;
  /** How often the outbox is read and the mail queue drained (ms). */
  mailIntervalMs: number;
  /** Webhook fan-out and deliveries; left out, no webhook is sent (and their cursor does not move). */
  webhooks?: WebhookTaskSettings;
  /** Where each failed mail or webhook attempt is logged (at warn, with its id and cause); `serve` passes its log. */
  log?: WorkLog;
  /** How often due deadlines are fired (ms; DEADLINE_POLL_MS when left out). */
  deadlineIntervalMs?: number;
  /**
   * Generating the program's documents: the renderer, where files are kept, and how long a claim on a request lasts
   * (DEFAULT_GENERATION_POLICY's when left out); left out, requests wait queued.
   */
  documents?: { renderer: DocumentRenderer; blobs: BlobStore; leaseMs?: number };
  /**
   * E-signature envelopes' background work (src/domain/signing): reminders to signers on working days, and, given a
   * maker, the signed PDFs of envelopes everyone signed. Left out, neither runs.
   */
  signing?: SigningTaskSettings;
  /**
   * Connections' calls (src/domain/connections): the address rules (the webhooks' APAS_WEBHOOK_ALLOW_INSECURE), and the
   * seams tests replace. Left out, the calls callConnection actions ask for wait queued.
   */
  connections?: { allowInsecure: boolean; client?: ConnectionClient; policy?: CallPolicy };
}

/** What the signing tasks need besides the common deps: the files, and the maker of signed PDFs (null: none yet). */
export interface SigningTaskSettings { blobs: BlobStore; maker: SignedPdfMaker | null }

/** A round of one outbox consumer; true when the batch was full. */
export function consumerTask(store: Store, consumer: OutboxConsumer, intervalMs: number): BackgroundTask {
  return { what: `outbox consumer ${consumer.name}`, intervalMs, run: async () => (await consumeOutbox(store, consumer, OUTBOX_BATCH)) === OUTBOX_BATCH };
}

/** With mail off the mail cursor still follows the outbox, so that turning mail on later does not mail old events. */
const skipMail: OutboxConsumer = { name: MAIL_CONSUMER, handle: async () => {} };

/**
 * Every task of the service's own outbox consumers, in one list that `serve` starts (and wakes after each change)
 * and tests can start too: notification mails (queued from events, then sent, account mails too) and webhooks
 * (deliveries made from events, then sent), the deadline poller, the automations' daily schedules and the queue's deadline marks. Other consumers add their tasks here.
 */
export function eventTasks(deps: EventTaskDeps): BackgroundTask[] {
  const webhooks = deps.webhooks ? [webhookTask(deps, deps.webhooks)] : [];
  const signing = deps.signing ? new SigningService({ ...deps, maxNumbersPerRequest: 1, mailOn: deps.mailer !== null, blobs: deps.signing.blobs }) : null;
  const documents = deps.documents ? [documentGenerationTask({ ...deps, ...deps.documents, ...(signing ? { onStored: sendForSigning(signing) } : {}) }, generationPolicy(deps.documents.leaseMs))] : [];
  const connections = deps.connections
    ? [connectionCallsTask({ ...deps, client: deps.connections.client ?? new HttpConnectionClient({ allowInsecure: deps.connections.allowInsecure }) }, deps.connections.policy)] : [];
  return [...mailTasks(deps), ...webhooks, ...documents, deadlineTask(deps, deps.deadlineIntervalMs), scheduleTask(deps), deadlineMarksTask(deps), dashboardZonesTask(deps), ...signingTasks(deps, signing), ...connections];
}

/** The generation policy with the configured lease (APAS_DOCUMENT_LEASE_MS). */
function generationPolicy(leaseMs: number | undefined): GenerationPolicy {
  return leaseMs === undefined ? DEFAULT_GENERATION_POLICY : { ...DEFAULT_GENERATION_POLICY, leaseMs };
}

/** A generated document whose template names signers goes out in an envelope, in the change that stored it (once per request). */
function sendForSigning(signing: SigningService): (stored: StoredDocument) => Promise<void> {
  return async ({ tx, ctx, project, template, version, now }) => {
    if (template.signers.length === 0) return;
    await signing.startEnvelopeIn(tx, { caller: systemCaller(ctx.program), ctx, project, now }, { templateId: template.customId, attachmentId: version.definitionId, version: version.version });
  };
}

function signingTasks(deps: EventTaskDeps, signing: SigningService | null): BackgroundTask[] {
  if (!deps.signing || !signing) return [];
  const { blobs, maker } = deps.signing;
  const finisher = maker === null ? [] : [envelopeFinisherTask({ ...deps, blobs, maker })];
  return [reminderTask({ ...deps, signing }), ...finisher];
}

function mailTasks(deps: EventTaskDeps): BackgroundTask[] {
  const { store, clock, ids, publicUrl, mailer, mailIntervalMs, log } = deps;
  if (!mailer) return [consumerTask(store, skipMail, mailIntervalMs)];
  const notifier = mailNotifier({ ids, publicUrl });
  // A sendMail action's `attach`: the generated documents, read from where the files are kept.
  const files = deps.documents ? mailDocumentFiles(store, deps.documents.blobs) : undefined;
  // One task queues, then sends, so a round woken by a change mails about it in the same round.
  return [{
    what: 'notification mail', intervalMs: mailIntervalMs,
    run: async () => {
      const full = (await consumeOutbox(store, notifier, OUTBOX_BATCH)) === OUTBOX_BATCH;
      return (await sendDueMail({ store, clock, mailer, log, files }, DEFAULT_MAIL_POLICY)) || full;
    },
  }];
}
