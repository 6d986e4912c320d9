import type { StoredEvent } from '../../model/event.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { WebhookDelivery, WebhookSubscription } from '../../model/webhook.ts';
import type { StoreWriter } from '../../store/store.ts';
import { type EventView, eventViews } from '../events/event-service.ts';
import type { OutboxConsumer } from '../events/outbox-consumer.ts';

/** The name of the fan-out's outbox cursor. */
export const WEBHOOK_CONSUMER = 'webhooks';

/** Makes the body of a delivery from the event (src/http/event-tasks.ts: the event as GetEvents shows it in JSON). */
export type DeliveryPayload = (view: EventView) => string;

// A subscription gets the events of its program and types that committed after it was made.
function wants(s: WebhookSubscription, e: StoredEvent): boolean {
  return s.programId === e.programId && e.at >= s.createdAt && (s.eventTypes.length === 0 || s.eventTypes.includes(e.type));
}

/**
 * The outbox consumer that turns events into deliveries: one per event and enabled subscription of its program
 * whose types match. Staff-only events (internal notes) go to webhooks too, since only admins make subscriptions.
 * The body is made now, so every attempt and redelivery sends the same bytes.
 */
export function webhookFanOut(deps: { ids: IdGenerator; clock: { now(): number }; payload: DeliveryPayload }): OutboxConsumer {
  return {
    name: WEBHOOK_CONSUMER,
    handle: async (tx: StoreWriter, events: readonly StoredEvent[]) => {
      const subscriptions = await tx.webhooks.enabledSubscriptions([...new Set(events.map((e) => e.programId))]);
      const wanted = events.filter((e) => subscriptions.some((s) => wants(s, e)));
      if (wanted.length === 0) return;
      const views = await eventViews(tx.accounts, wanted);
      const now = deps.clock.now();
      const deliveries: WebhookDelivery[] = [];
      wanted.forEach((event, i) => {
        const payload = deps.payload(views[i] as EventView);
        for (const s of subscriptions.filter((sub) => wants(sub, event))) {
          deliveries.push({
            id: deps.ids.next(), subscriptionId: s.id, eventId: event.id, eventSeq: event.seq, eventType: event.type, projectId: event.projectId,
            payload, status: 'pending', attempts: 0, createdAt: now, nextAttemptAt: now, firstAttemptAt: null, lastAttemptAt: null,
            lastStatusCode: null, lastError: null, deliveredAt: null, redeliveryOf: null,
          });
        }
      });
      await tx.webhooks.insertDeliveries(deliveries);
    },
  };
}
