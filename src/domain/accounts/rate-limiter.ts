import type { Store } from '../../store/store.ts';
import type { Clock } from '../../model/clock.ts';
import { ApiError } from '../api-error.ts';

/** The outcome of counting one request against a throughput limit. */
export interface RateDecision { allowed: boolean; limit: number; remaining: number; resetSeconds: number }

/** Counts requests per bucket (an API key) in fixed windows. */
export interface RateLimiter {
  hit(bucket: string): Promise<RateDecision>;
  /** Shares what is still only counted here, and stops; before the store closes. */
  close(): Promise<void>;
}

/**
 * Counts one request of an API key against its throughput limit: returns the RateLimit-* headers its answer carries,
 * or throws RATE_LIMITED (with them and Retry-After) when the key has used up its window.
 */
export async function admitKey(limiter: RateLimiter, keyId: string): Promise<Record<string, string>> {
  const decision = await limiter.hit(`key:${keyId}`);
  const headers = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) {
    throw new ApiError('RATE_LIMITED', `This API key has used its ${decision.limit} requests of the current window; retry after ${decision.resetSeconds} s.`, {
      headers: { ...headers, 'Retry-After': String(decision.resetSeconds) },
    });
  }
  return headers;
}

function decide(count: number, max: number, windowStart: number, windowMs: number, now: number): RateDecision {
  return {
    allowed: count <= max,
    limit: max,
    remaining: Math.max(0, max - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
}

/** Counts in this process's memory: right for one instance, fastest for the embedded SQLite set-up. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #counts = new Map<string, { windowStart: number; count: number }>();
  constructor(private readonly max: number, private readonly windowMs: number, private readonly clock: Clock) {}

  async hit(bucket: string): Promise<RateDecision> {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    let entry = this.#counts.get(bucket);
    if (!entry || entry.windowStart !== windowStart) {
      if (this.#counts.size > 100_000) this.#counts.clear();
      entry = { windowStart, count: 0 };
      this.#counts.set(bucket, entry);
    }
    entry.count += 1;
    return decide(entry.count, this.max, windowStart, this.windowMs, now);
  }

  async close(): Promise<void> {}
}

/**
 * Counts in memory and shares the counts among instances through the database without a write per request: a key's
 * first request in a window on this instance reads the shared count, and every `flushMs` each instance adds what it
 * counted since (one upsert per key) and learns the total. An instance thus sees the others' requests up to `flushMs`
 * late, so the instances together may let through up to what each receives in `flushMs` beyond the limit.
 */
export class SharedRateLimiter implements RateLimiter {
  readonly #buckets = new Map<string, { windowStart: number; shared: number; pending: number; ready: Promise<void> }>();
  #timer: NodeJS.Timeout | undefined;
  #lastSweep = 0;
  #closed = false;

  constructor(
    private readonly store: Pick<Store, 'counters'>, private readonly max: number, private readonly windowMs: number, private readonly clock: Clock,
    private readonly flushMs = 1000,
  ) {}

  async hit(bucket: string): Promise<RateDecision> {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    let entry = this.#buckets.get(bucket);
    if (!entry || entry.windowStart !== windowStart) {
      if (entry && entry.pending > 0) await this.#flushOne(bucket, entry);
      const created = { windowStart, shared: 0, pending: 0, ready: Promise.resolve() };
      // Without the shared count (the database not answering) the key starts from this instance's own counts.
      created.ready = this.store.counters.peekRequestCount(bucket, windowStart).then((n) => {
        created.shared = n;
      }, () => {});
      entry = created;
      this.#buckets.set(bucket, entry);
    }
    entry.pending += 1;
    await entry.ready;
    this.#schedule();
    return decide(entry.shared + entry.pending, this.max, windowStart, this.windowMs, now);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Adds every count not yet shared to the database and learns the totals; also run every `flushMs`. */
  async flush(): Promise<void> {
    const now = this.clock.now();
    const current = now - (now % this.windowMs);
    for (const [bucket, entry] of this.#buckets) {
      if (entry.pending > 0) await this.#flushOne(bucket, entry);
      if (entry.windowStart < current) this.#buckets.delete(bucket);
    }
    if (current !== this.#lastSweep) {
      // Once per window and instance, old windows are dropped so the table stays small.
      this.#lastSweep = current;
      await this.store.counters.sweepRequestCounts(current).catch(() => {});
    }
  }

  async #flushOne(bucket: string, entry: { windowStart: number; shared: number; pending: number }): Promise<void> {
    const sent = entry.pending;
    entry.pending -= sent;
    try {
      entry.shared = await this.store.counters.countRequest(bucket, entry.windowStart, sent);
    } catch {
      // Not lost: counted again with the next flush.
      entry.pending += sent;
    }
  }

  #schedule(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.flushMs);
    this.#timer.unref();
  }
}
