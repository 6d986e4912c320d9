import type { Config } from '../config.ts';
import type { BackgroundTask } from '../domain/background-work.ts';
import type { EventView } from '../domain/event-service.ts';
import { consumeOutbox } from '../domain/outbox-consumer.ts';
import { webhookFanOut } from '../domain/webhook-fan-out.ts';
import { HttpWebhookSender, type WebhookSender } from '../domain/webhook-sender.ts';
import { WebhookWorker } from '../domain/webhook-worker.ts';
import { type Clock, isoTimestamp } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { Store } from '../store/store.ts';
import { eventValue } from '../wire/documents/events.ts';

/** What the background work of the outbox's consumers is built from; tests swap the clock, randomness and sender. */
export interface EventTaskDeps {
  config: Config;
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  random?: () => number;
  /** How webhooks are posted; over HTTP(S) under the configured network policy when left out. */
  webhookSender?: WebhookSender;
}

/** Events fanned out to deliveries per round, and deliveries sent (in parallel) per round. */
const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;

/** A delivery's body: the event's type and time, and the event exactly as GetEvents shows it in JSON. */
export function deliveryPayload(view: EventView): string {
  return JSON.stringify({ type: view.type, timestamp: isoTimestamp(view.at), data: eventValue(view) });
}

/** The webhook fan-out and delivery worker of one instance, built from its settings. */
export function webhookWorkers(deps: EventTaskDeps): { fanOut: ReturnType<typeof webhookFanOut>; worker: WebhookWorker } {
  const { config, store, clock, ids } = deps;
  const sender = deps.webhookSender ?? new HttpWebhookSender({ allowInsecure: config.webhooks.allowInsecure }, config.webhooks.timeoutMs);
  const worker = new WebhookWorker({
    store, clock, ids, random: deps.random ?? Math.random, sender, timeoutMs: config.webhooks.timeoutMs,
    disableAfterMs: config.webhooks.disableAfterHours * 3_600_000, batch: DELIVERY_BATCH,
  });
  return { fanOut: webhookFanOut({ ids, clock, payload: deliveryPayload }), worker };
}

/**
 * Every background task that reads the outbox, in one list so each feature adds its own here. Webhooks are one
 * task: fan-out first, then sending, so deliveries made by a round go out in the same round.
 */
export function eventTasks(deps: EventTaskDeps): BackgroundTask[] {
  const { fanOut, worker } = webhookWorkers(deps);
  return [{
    what: 'webhook deliveries',
    intervalMs: deps.config.webhooks.intervalMs,
    run: async () => {
      const fanned = await consumeOutbox(deps.store, fanOut, FAN_OUT_BATCH);
      const more = await worker.deliverDue();
      return fanned === FAN_OUT_BATCH || more;
    },
  }];
}
