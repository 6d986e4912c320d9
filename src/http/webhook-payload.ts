import type { EventView } from '../domain/events/event-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { eventValue } from '../wire/documents/events.ts';

/** A webhook delivery's body: the event's type and time, and the event exactly as GetEvents shows it in JSON. */
export function deliveryPayload(view: EventView): string {
  return JSON.stringify({ type: view.type, timestamp: isoTimestamp(view.at), data: eventValue(view) });
}
