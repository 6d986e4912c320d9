import type { Store } from '../store/store.ts';
import type { Clock } from '../model/clock.ts';

/** The outcome of counting one request against a throughput limit. */
export interface RateDecision { allowed: boolean; limit: number; remaining: number; resetSeconds: number }

/** Counts requests per bucket (an API key) in fixed windows. */
export interface RateLimiter {
  hit(bucket: string): Promise<RateDecision>;
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
}

/** Counts in the database, so that every instance on one PostgreSQL shares each key's limit. */
export class StoreRateLimiter implements RateLimiter {
  #lastSweep = 0;
  constructor(private readonly store: Pick<Store, 'counters'>, private readonly max: number, private readonly windowMs: number, private readonly clock: Clock) {}

  async hit(bucket: string): Promise<RateDecision> {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    const count = await this.store.counters.countRequest(bucket, windowStart);
    if (windowStart !== this.#lastSweep) {
      // Once per window and instance, old windows are dropped so the table stays small.
      this.#lastSweep = windowStart;
      await this.store.counters.sweepRequestCounts(windowStart);
    }
    return decide(count, this.max, windowStart, this.windowMs, now);
  }
}
