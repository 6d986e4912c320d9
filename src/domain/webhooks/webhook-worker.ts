import type { Clock } from '../../model/clock.ts';
import { isoTimestamp } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { WebhookSubscription } from '../../model/webhook.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import type { ClaimedDelivery, ClaimPolicy, DeliveryPatch } from '../../store/webhook-queries.ts';
import type { TaskHooks, WorkLog } from '../events/background-work.ts';
import { backoffWait, MAX_RETRY_AFTER_MS, nextAttemptAt, RETRY_WINDOW_MS } from './webhook-retry.ts';
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
  /** Deliveries claimed per round. */
  batch: number;
  /** Where each failed attempt is logged at warn, with the delivery's id and the cause. */
  log?: WorkLog;
  /**
   * Why a self-service subscription's delivery may not be sent now (null: it may), asked before each of its attempts:
   * a project handed to someone else, or the agency turning self-service webhooks off, stops what was still pending.
   */
  refusal?: (c: ClaimedDelivery) => Promise<string | null>;
}

/**
 * How deliveries are shared between subscriptions: at most 4 of one subscription in flight at once (1 while its
 * last attempt failed), and an event that keeps failing while its receiver takes others holds back its project's
 * later events for at most an hour from its first attempt (docs/interface.md, "Webhooks").
 */
export const CLAIM_POLICY: ClaimPolicy = { perSubscription: 4, whileFailing: 1, holdMs: 3_600_000 };

/** Failed attempts in a row after which a subscription backs off as a whole (is paused). */
export const PAUSE_AFTER_FAILURES = 3;

/** The most attempts one instance has in flight at once, over all subscriptions. */
export const MAX_IN_FLIGHT = 100;

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
 * Sends due webhook deliveries: claims them under a lease (one instance at a time per delivery; a crashed
 * instance's leases run out and are taken over), posts each with Standard Webhooks signatures, and records the
 * answer: 2xx delivers, anything else schedules a retry with backoff and jitter, or gives up after the retry window.
 * Attempts run on their own: a round claims and starts them and returns, so a receiver that is slow to answer holds
 * up its own subscription's deliveries only; each attempt that ends wakes the next round.
 */
export class WebhookWorker {
  readonly #deps: WebhookWorkerDeps;
  readonly #inFlight = new Set<Promise<void>>();
  #hooks: TaskHooks | null = null;
  /** This worker's name on its leases. */
  readonly owner: string;

  constructor(deps: WebhookWorkerDeps) {
    this.#deps = deps;
    this.owner = deps.ids.next();
  }

  /** Runs attempts in the background: each that ends wakes the next round, and a failure to record one is logged. */
  attach(hooks: TaskHooks): void {
    this.#hooks = hooks;
  }

  /** Attempts now in flight in this instance. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Claims what is due now and starts its attempts without waiting for them; true when the claim was full. */
  async startDue(): Promise<boolean> {
    return (await this.#start()).full;
  }

  /** Resolves once every attempt started so far has ended and been recorded. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * One round, waiting for its attempts (the command line and tests). True when more may be due at once: the claim
   * was full, or a delivery went through, so the next delivery of its project is due now.
   */
  async deliverDue(): Promise<boolean> {
    const { full, attempts } = await this.#start();
    const delivered = await Promise.all(attempts);
    return full || delivered.some(Boolean);
  }

  async #start(): Promise<{ full: boolean; attempts: Promise<boolean>[] }> {
    const { store, clock, timeoutMs, batch } = this.#deps;
    const room = Math.min(batch, MAX_IN_FLIGHT - this.#inFlight.size);
    if (room <= 0) return { full: false, attempts: [] };
    const now = clock.now();
    const claimed = await store.transaction((tx) => tx.webhooks.claimDue(this.owner, now, now + leaseMs(timeoutMs), room, CLAIM_POLICY));
    return { full: claimed.length === room, attempts: claimed.map((c) => this.#launch(c)) };
  }

  // Starts an attempt and tracks it; the returned promise is the attempt's own (it rejects when recording failed).
  #launch(c: ClaimedDelivery): Promise<boolean> {
    const attempt = this.#attempt(c);
    const tracked: Promise<void> = attempt.then(
      () => this.#hooks?.wake(),
      (error: unknown) => this.#hooks?.warn({ err: error, deliveryId: c.delivery.id }, 'recording a webhook delivery attempt failed; it is tried again once its lease runs out'),
    ).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
    return attempt;
  }

  async #attempt(c: ClaimedDelivery): Promise<boolean> {
    const { clock, sender, refusal } = this.#deps;
    const d = c.delivery;
    const refused = c.ownerId !== null && refusal ? await refusal(c) : null;
    if (refused !== null) return this.#withhold(c, refused);
    const answer = await sender.post({ url: c.url, headers: signedHeaders(c.secrets, d.eventId, clock.now(), d.payload), body: d.payload });
    return this.#record(c, answer);
  }

  // A self-service delivery its owner may no longer be sent ends as failed without being sent; the receiver did
  // nothing wrong, so the subscription's run of failures and backoff are left alone.
  async #withhold(c: ClaimedDelivery, reason: string): Promise<boolean> {
    const at = this.#deps.clock.now();
    await this.#deps.store.transaction((tx) => tx.webhooks.finishAttempt(c.delivery.id, this.owner, {
      status: 'failed', lastAttemptAt: at, lastStatusCode: null, lastError: `Not sent: ${reason}.`.slice(0, MAX_ERROR_CHARS),
    }));
    return false;
  }

  // Records the attempt; true when it delivered.
  async #record(c: ClaimedDelivery, answer: WebhookAnswer): Promise<boolean> {
    const { store, clock, random } = this.#deps;
    const d = c.delivery;
    const at = clock.now();
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const attempts = d.attempts + 1;
    const first = d.firstAttemptAt ?? at;
    const error = ok ? null : (answer.error ?? `HTTP ${answer.status}`).slice(0, MAX_ERROR_CHARS);
    // 429 Too Many Requests and 503 Service Unavailable may say when to come back (RFC 9110 §10.2.3, RFC 6585 §4).
    const retryAfter = (answer.status === 429 || answer.status === 503) && typeof answer.retryAfterMs === 'number'
      ? Math.min(answer.retryAfterMs, MAX_RETRY_AFTER_MS) : null;
    let next = ok ? null : nextAttemptAt(attempts, first, at, random);
    if (next !== null && retryAfter !== null) next = Math.min(Math.max(next, at + retryAfter), first + RETRY_WINDOW_MS);
    const patch: DeliveryPatch = { attempts, firstAttemptAt: first, lastAttemptAt: at, lastStatusCode: answer.status, lastError: error };
    if (ok) Object.assign(patch, { status: 'delivered', deliveredAt: at });
    else {
      Object.assign(patch, next === null ? { status: 'failed' } : { nextAttemptAt: next });
      this.#deps.log?.warn({
        deliveryId: d.id, subscriptionId: d.subscriptionId, eventId: d.eventId, attempts, statusCode: answer.status, error,
        nextAttemptAt: next === null ? null : isoTimestamp(next),
      }, next === null ? `webhook delivery ${d.id} failed for the last time; it is marked failed` : `webhook delivery ${d.id} failed; it is retried later`);
    }
    await store.transaction(async (tx) => {
      // A lease that ran out belongs to the instance that took the delivery over; its attempt is the one recorded.
      if (!(await tx.webhooks.finishAttempt(d.id, this.owner, patch))) return;
      if (ok) {
        await tx.webhooks.noteSuccess(d.subscriptionId, at);
        return;
      }
      const s = await tx.webhooks.noteFailure(d.subscriptionId, at);
      if (!s?.enabled) return;
      const reason = this.#disableReason(s, answer, error, at);
      if (reason !== null) {
        await tx.webhooks.updateSubscription(s.id, { enabled: false, disabledReason: reason, disabledAt: at, updatedAt: at });
        await tx.audit.write({ action: 'webhook.disable', actorId: null, agencyId: s.agencyId, programId: s.programId, detail: { subscriptionId: s.id, reason } }, at, this.#deps.ids.next());
        return;
      }
      await this.#backOff(tx, s, retryAfter, next === null ? null : first + RETRY_WINDOW_MS, at);
    });
    return ok;
  }

  // Why a failed attempt disables its subscription: 410 Gone (Standard Webhooks: the receiver asks to stop), or a
  // run of failures as long as the setting; null when it does not.
  #disableReason(s: WebhookSubscription, answer: WebhookAnswer, error: string | null, at: number): string | null {
    if (answer.status === 410) return 'The receiver answered 410 Gone: it asks for no more deliveries (Standard Webhooks).';
    if (s.failingSince === null || at - s.failingSince < this.#deps.disableAfterMs) return null;
    return `Every delivery attempt failed since ${isoTimestamp(s.failingSince)} (${s.consecutiveFailures} attempts; the last: ${error}).`;
  }

  // After several failures in a row, or when the receiver asked with Retry-After, nothing is sent to the subscription
  // for a while: the wait grows with the run of failures (faster than one delivery's, as every attempt of the
  // subscription counts). Never past the end of the failed delivery's retry window, so its last attempt is kept.
  async #backOff(tx: StoreWriter, s: WebhookSubscription, retryAfter: number | null, windowEnd: number | null, at: number): Promise<void> {
    if (retryAfter === null && s.consecutiveFailures < PAUSE_AFTER_FAILURES) return;
    const wait = retryAfter ?? backoffWait(s.consecutiveFailures - PAUSE_AFTER_FAILURES + 1, this.#deps.random);
    await tx.webhooks.updateSubscription(s.id, { pausedUntil: Math.min(at + wait, windowEnd ?? Number.POSITIVE_INFINITY) });
  }
}
