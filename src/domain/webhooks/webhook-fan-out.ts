import type { StoredEvent } from '../../model/event.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { WebhookDelivery, WebhookSubscription } from '../../model/webhook.ts';
import type { StoreWriter } from '../../store/store.ts';
import { type EventView, eventViews } from '../events/event-service.ts';
import type { OutboxConsumer } from '../events/outbox-consumer.ts';
import { ownerRefusal } from './owner-access.ts';

/** The name of the fan-out's outbox cursor. */
export const WEBHOOK_CONSUMER = 'webhooks';

/** Makes the body of a delivery from the event (src/http/event-tasks.ts: the event as GetEvents shows it in JSON). */
export type DeliveryPayload = (view: EventView) => string;

// A subscription gets the events of its program and types that committed after it was made.
function wants(s: WebhookSubscription, e: StoredEvent): boolean {
  return s.programId === e.programId && e.at >= s.createdAt && (s.eventTypes.length === 0 || s.eventTypes.includes(e.type));
}

// The self-service subscriptions among `subscriptions` that may not be sent `event`: their owner cannot read its project
// now (or the agency turned self-service webhooks off). Each owner and project is decided once per batch.
async function refusedOwners(tx: StoreWriter, subscriptions: readonly WebhookSubscription[], event: StoredEvent, memo: Map<string, boolean>): Promise<Set<string>> {
  const refused = new Set<string>();
  for (const s of subscriptions) {
    if (s.ownerId === null) continue;
    const key = `${s.ownerId}\u0000${event.projectId}\u0000${event.audience}`;
    let ok = memo.get(key);
    if (ok === undefined) {
      ok = (await ownerRefusal(tx, { ownerId: s.ownerId, programId: event.programId, projectId: event.projectId, audience: event.audience })) === null;
      memo.set(key, ok);
    }
    if (!ok) refused.add(s.id);
  }
  return refused;
}

/**
 * The outbox consumer that turns events into deliveries: one per event and enabled subscription of its program
 * whose types match. Staff-only events (internal notes) go to the agency's subscriptions too, since only admins make
 * those; a user's self-service subscription gets only the events of projects its owner can read (ownerRefusal), and
 * the worker checks that again before each attempt. The body is made now, so every attempt and redelivery sends the
 * same bytes.
 */
export function webhookFanOut(deps: { ids: IdGenerator; clock: { now(): number }; payload: DeliveryPayload }): OutboxConsumer {
  return {
    name: WEBHOOK_CONSUMER,
    handle: async (tx: StoreWriter, events: readonly StoredEvent[]) => {
      const subscriptions = await tx.webhooks.enabledSubscriptions([...new Set(events.map((e) => e.programId))]);
      const memo = new Map<string, boolean>();
      const targets: { event: StoredEvent; to: WebhookSubscription[] }[] = [];
      for (const event of events) {
        const matching = subscriptions.filter((s) => wants(s, event));
        const refused = await refusedOwners(tx, matching, event, memo);
        const to = matching.filter((s) => !refused.has(s.id));
        if (to.length > 0) targets.push({ event, to });
      }
      if (targets.length === 0) return;
      const views = await eventViews(tx.accounts, targets.map((t) => t.event));
      const now = deps.clock.now();
      const deliveries: WebhookDelivery[] = [];
      targets.forEach(({ event, to }, i) => {
        const payload = deps.payload(views[i] as EventView);
        for (const s of to) {
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
