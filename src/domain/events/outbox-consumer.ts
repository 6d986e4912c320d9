import type { StoredEvent } from '../../model/event.ts';
import type { Store, StoreWriter } from '../../store/store.ts';

/** A reader of the outbox inside the service (webhook fan-out, mail): its cursor's name and what it does with events. */
export interface OutboxConsumer {
  /** The name its cursor is kept under in `event_cursors`. */
  readonly name: string;
  /** Turns a batch of events into its own rows (deliveries, messages), in the transaction that moves its cursor. */
  handle(tx: StoreWriter, events: readonly StoredEvent[]): Promise<void>;
}

/**
 * Reads the next batch of events after `consumer`'s cursor and hands them to it, in one transaction that also moves
 * the cursor: a batch is handled exactly once, or (when anything fails) not at all and read again next time. The
 * cursor row is locked, so with several instances one at a time handles the consumer's events, in order.
 * Returns how many events were handled.
 */
export async function consumeOutbox(store: Pick<Store, 'transaction'>, consumer: OutboxConsumer, batch = 100): Promise<number> {
  return store.transaction(async (tx) => {
    const after = await tx.events.lockCursor(consumer.name);
    const events = await tx.events.listAfter(after, batch);
    if (events.length === 0) return 0;
    await consumer.handle(tx, events);
    await tx.events.moveCursor(consumer.name, (events.at(-1) as StoredEvent).seq);
    return events.length;
  });
}
