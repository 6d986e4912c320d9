import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import { consumeOutbox, type OutboxConsumer } from '../events/outbox-consumer.ts';
import { type DeliveryPayload, webhookFanOut } from './webhook-fan-out.ts';
import { HttpWebhookSender, type WebhookSender } from './webhook-sender.ts';
import { WebhookWorker } from './webhook-worker.ts';
import { ownerRefusal } from './owner-access.ts';

/** The webhook settings of the background work (APAS_WEBHOOK_*), and the seams tests replace. */
export interface WebhookTaskSettings {
  /** Makes a delivery's body from an event (src/http/webhook-payload.ts). */
  payload: DeliveryPayload;
  allowInsecure: boolean;
  timeoutMs: number;
  intervalMs: number;
  disableAfterHours: number;
  /** The retries' jitter; Math.random when left out. */
  random?: () => number;
  /** How deliveries are posted; over HTTP(S) under the network policy when left out. */
  sender?: WebhookSender;
}

/** What the webhook work needs besides its settings; `log` takes each failed attempt (the background work's log). */
export interface WebhookTaskDeps { store: Store; clock: Clock; ids: IdGenerator; log?: WorkLog }

/** Events fanned out per round, and deliveries sent (in parallel) per round. */
const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;

/** The webhook fan-out (an outbox consumer) and delivery worker of one instance. */
export function webhookWorkers(deps: WebhookTaskDeps, settings: WebhookTaskSettings): { fanOut: OutboxConsumer; worker: WebhookWorker } {
  const { store, clock, ids } = deps;
  const sender = settings.sender ?? new HttpWebhookSender({ allowInsecure: settings.allowInsecure }, settings.timeoutMs);
  const worker = new WebhookWorker({
    store, clock, ids, random: settings.random ?? Math.random, sender, timeoutMs: settings.timeoutMs,
    disableAfterMs: settings.disableAfterHours * 3_600_000, batch: DELIVERY_BATCH, log: deps.log,
    // Staff-only events were kept from owners who are not staff when the delivery was made; what is checked again is
    // the owner's access now.
    refusal: (c) => ownerRefusal(store, { ownerId: c.ownerId as string, programId: c.programId, projectId: c.delivery.projectId, audience: 'all' }),
  });
  return { fanOut: webhookFanOut({ ids, clock, payload: settings.payload }), worker };
}

/**
 * The webhooks' background task: fan-out first, then sending, so deliveries made by a round go out in the same round.
 * A round does not wait for its attempts: a slow receiver delays no other subscription.
 */
export function webhookTask(deps: WebhookTaskDeps, settings: WebhookTaskSettings): BackgroundTask {
  const { fanOut, worker } = webhookWorkers(deps, settings);
  return {
    what: 'webhook deliveries',
    intervalMs: settings.intervalMs,
    run: async () => {
      const fanned = await consumeOutbox(deps.store, fanOut, FAN_OUT_BATCH);
      const full = await worker.startDue();
      return fanned === FAN_OUT_BATCH || full;
    },
    // Attempts end after their round; each wakes the task, since the next event of its project may now be due.
    attach: (hooks) => worker.attach(hooks),
    settled: () => worker.settled(),
  };
}
