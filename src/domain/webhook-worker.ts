import type { Clock } from '../model/clock.ts';
import { isoTimestamp } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { Store } from '../store/store.ts';
import type { ClaimedDelivery, DeliveryPatch } from '../store/webhook-queries.ts';
import type { WorkLog } from './background-work.ts';
import { nextAttemptAt } from './webhook-retry.ts';
import { signedHeaders, type WebhookAnswer, type WebhookSender } from './webhook-sender.ts';

/** What the delivery worker needs; tests pass a clock they move, a fixed random source and a sender they watch. */
export interface WebhookWorkerDeps {
  store: Pick<Store, 'transaction'>;
  clock: Clock;
  ids: IdGenerator;
  /** A number in [0, 1): the jitter of retries. */
  random: () => number;
  sender: WebhookSender;
  /** How long one attempt may take; a claim's lease is this plus a margin. */
  timeoutMs: number;
  /** A subscription whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
  /** Deliveries claimed (and sent in parallel) per round. */
  batch: number;
  /** Where each failed attempt is logged at warn, with the delivery's id and the cause. */
  log?: WorkLog;
}

/**
 * How long a claim is leased: twice the attempt's timeout plus 5 s, ample to send and record it; a crashed
 * instance's claims are taken over that long after they were made.
 */
export function leaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 5_000;
}

/** The most characters of an attempt's error kept in the delivery log. */
const MAX_ERROR_CHARS = 300;

/**
 * Sends due webhook deliveries: claims a batch under a lease (one instance at a time per delivery; a crashed
 * instance's leases run out and are taken over), posts each with Standard Webhooks signatures, and records the
 * answer: 2xx delivers, anything else schedules a retry with backoff and jitter, or gives up after the retry window.
 */
export class WebhookWorker {
  readonly #deps: WebhookWorkerDeps;
  /** This worker's name on its leases. */
  readonly owner: string;

  constructor(deps: WebhookWorkerDeps) {
    this.#deps = deps;
    this.owner = deps.ids.next();
  }

  /**
   * One round: sends what is due now. True when more may be due at once: the batch was full, or a delivery went
   * through, so the next delivery of its project is due now.
   */
  async deliverDue(): Promise<boolean> {
    const { store, clock, timeoutMs, batch } = this.#deps;
    const now = clock.now();
    const claimed = await store.transaction((tx) => tx.webhooks.claimDue(this.owner, now, now + leaseMs(timeoutMs), batch));
    const delivered = await Promise.all(claimed.map((c) => this.#attempt(c)));
    return claimed.length === batch || delivered.some(Boolean);
  }

  async #attempt(c: ClaimedDelivery): Promise<boolean> {
    const { clock, sender } = this.#deps;
    const d = c.delivery;
    const answer = await sender.post({ url: c.url, headers: signedHeaders(c.secret, d.eventId, clock.now(), d.payload), body: d.payload });
    return this.#record(c, answer);
  }

  // Records the attempt; true when it delivered.
  async #record(c: ClaimedDelivery, answer: WebhookAnswer): Promise<boolean> {
    const { store, clock, random, disableAfterMs } = this.#deps;
    const d = c.delivery;
    const at = clock.now();
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const attempts = d.attempts + 1;
    const first = d.firstAttemptAt ?? at;
    const error = ok ? null : (answer.error ?? `HTTP ${answer.status}`).slice(0, MAX_ERROR_CHARS);
    const patch: DeliveryPatch = { attempts, firstAttemptAt: first, lastAttemptAt: at, lastStatusCode: answer.status, lastError: error };
    if (ok) Object.assign(patch, { status: 'delivered', deliveredAt: at });
    else {
      const next = nextAttemptAt(attempts, first, at, random);
      Object.assign(patch, next === null ? { status: 'failed' } : { nextAttemptAt: next });
      this.#deps.log?.warn({
        deliveryId: d.id, subscriptionId: d.subscriptionId, eventId: d.eventId, attempts, statusCode: answer.status, error,
        nextAttemptAt: next === null ? null : isoTimestamp(next),
      }, next === null ? `webhook delivery ${d.id} failed for the last time; it is marked failed` : `webhook delivery ${d.id} failed; it is retried later`);
    }
    await store.transaction(async (tx) => {
      // A lease that ran out belongs to the instance that took the delivery over; its attempt is the one recorded.
      if (!(await tx.webhooks.finishAttempt(d.id, this.owner, patch))) return;
      const s = await tx.webhooks.noteAttempt(d.subscriptionId, ok, at);
      if (!s || ok || !s.enabled || s.failingSince === null || at - s.failingSince < disableAfterMs) return;
      const reason = `Every delivery attempt failed since ${isoTimestamp(s.failingSince)} (${s.consecutiveFailures} attempts; the last: ${error}).`;
      await tx.webhooks.updateSubscription(s.id, { enabled: false, disabledReason: reason, disabledAt: at, updatedAt: at });
      await tx.audit.write({ action: 'webhook.disable', actorId: null, agencyId: s.agencyId, programId: s.programId, detail: { subscriptionId: s.id, reason } }, at, this.#deps.ids.next());
    });
    return ok;
  }
}
