import { type Clock, isoTimestamp } from '../../model/clock.ts';
import type { IdempotencyKeyRecord, StoredAnswer } from '../../model/records.ts';
import { MAX_WRITE_TRANSACTION_MS, type Store, type StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';

/** How long a key is kept: a request with a key taken longer ago than this is a new request, and the old key is swept. */
export const KEY_LIFETIME_MS = 24 * 3_600_000;

/**
 * How long after its change a key may still wait for its answer. The answer is stored right after the commit, before
 * it is sent; a key that has none this long after belongs to a request whose answer was lost (the process stopped, or
 * the store failed), and a retry is told so instead of being asked to try again.
 */
export const ANSWER_GRACE_MS = 2 * MAX_WRITE_TRANSACTION_MS;

/** The largest answer kept for replays; the four operations that honour keys answer with a few kilobytes. */
export const MAX_STORED_ANSWER_BYTES = 1024 * 1024;

/** What the idempotency service needs: its repository and the time. */
export interface IdempotencyDeps { store: Pick<Store, 'idempotency'>; clock: Clock }

/**
 * Idempotency keys of creates and submits (draft-ietf-httpapi-idempotency-key-header): a key is taken by the change
 * its first request made (claimIdempotencyKey, inside the change's transaction), that request's answer is stored,
 * and a retry with the key gets that answer again, without a second change. Keys are per user and kept 24 hours.
 */
export class IdempotencyService {
  readonly #deps: IdempotencyDeps;

  constructor(deps: IdempotencyDeps) {
    this.#deps = deps;
  }

  /**
   * Decides a request with a key before it is carried out: null when the key is free (never taken by this user, or
   * expired), so the request goes ahead; the stored answer when the key was taken by the same request (a retry).
   * Throws IDEMPOTENCY_KEY_REUSED when it was taken by another request, and IDEMPOTENCY_KEY_IN_USE when the same
   * request has no answer (yet). `fingerprint` is asked for only when the key was taken (an upload's is read then).
   */
  async check(userId: string, key: string, fingerprint: () => Promise<string | null>): Promise<StoredAnswer | null> {
    const now = this.#deps.clock.now();
    const held = await this.#deps.store.idempotency.findIdempotencyKey(userId, key);
    if (!held || held.createdAt <= now - KEY_LIFETIME_MS) return null;
    if ((await fingerprint()) !== held.fingerprint) throw keyReused(held);
    if (held.answer) return held.answer;
    throw now - held.createdAt < ANSWER_GRACE_MS ? keyInUse(key) : answerLost(held);
  }

  /**
   * Stores the answer of the request that took the key, before the answer is sent; false when the key is not that
   * request's (it made no change) or already has one.
   */
  async saveAnswer(userId: string, key: string, requestId: string, answer: StoredAnswer): Promise<boolean> {
    return this.#deps.store.idempotency.saveIdempotentAnswer({ userId, key, requestId }, answer);
  }

  /** Deletes the keys older than KEY_LIFETIME_MS (they are ignored already); returns how many. */
  async sweepExpired(): Promise<number> {
    return this.#deps.store.idempotency.deleteExpiredIdempotencyKeys(this.#deps.clock.now() - KEY_LIFETIME_MS);
  }
}

/**
 * Takes the request's Idempotency-Key, if it sent one, at the change's time (`at` is asked only then) in the change's
 * transaction: the key and
 * the change commit together or not at all, so a request that changes nothing leaves its key free, and of two
 * requests with one key only one can commit (the key's primary key decides; on PostgreSQL the second waits for the
 * first's transaction). The loser is refused: 422 when it was another request, else 409.
 */
export async function claimIdempotencyKey(tx: StoreWriter, caller: Caller, at: () => number): Promise<void> {
  const claim = caller.idempotency;
  if (!claim) return;
  const now = at();
  const fingerprint = claim.fingerprint();
  const row = { userId: caller.user.id, key: claim.key, fingerprint, requestId: claim.requestId, createdAt: now };
  if (await tx.idempotency.claimIdempotencyKey(row, now - KEY_LIFETIME_MS)) return;
  const held = await tx.idempotency.findIdempotencyKey(caller.user.id, claim.key);
  // The key was taken a moment ago (by a request this one raced): its answer is stored right after its commit.
  throw held && held.fingerprint !== fingerprint ? keyReused(held) : keyInUse(claim.key);
}

function keyReused(held: IdempotencyKeyRecord): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_REUSED',
    `Idempotency-Key "${held.key}" was used at ${isoTimestamp(held.createdAt)} for another request (another operation, URL, body or headers that shape it); nothing was changed. Send each new request with a new key.`);
}

function keyInUse(key: string): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_IN_USE',
    `A request with Idempotency-Key "${key}" is still being carried out; nothing was changed. Send the request again in a moment to get its answer.`,
    { headers: { 'Retry-After': '1' } });
}

function answerLost(held: IdempotencyKeyRecord): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_IN_USE',
    `The request with Idempotency-Key "${held.key}" (request ${held.requestId}) made its change at ${isoTimestamp(held.createdAt)}, but its answer was not kept; nothing was changed now. Read the project to see the result, and send a new request with a new key.`);
}
