import { SIGN_IN_BUCKET_PREFIX } from '../store/counter-queries.ts';
import type { Store } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { Clock } from '../model/clock.ts';

/**
 * Whom a failed sign-in counts against besides its client address (see docs/architecture.md, Failed sign-ins):
 * `user`, the user name, for API requests whose key is that user's own, so that only the key's holder can lock the
 * name; `web`, the user name from this address only, for web sign-ins, which have no key; `address`, nothing else,
 * for API requests whose key is not the named user's.
 */
export type SignInSubject = { kind: 'user' | 'web'; userName: string } | { kind: 'address' };

/** The subject of an API request whose key is not the named user's: its failures count against the address only. */
export const ADDRESS_ONLY: SignInSubject = { kind: 'address' };

/** The lockout policy: counts of failed sign-ins per subject (see SignInSubject) and per client address in fixed windows. */
export interface SignInPolicy {
  windowMs: number;
  /** Failures of one user name (or, on the web, one name from one address) after which each further failure is answered more slowly. */
  slowAfter: number;
  /** Extra delay per failure beyond slowAfter, and its cap. */
  stepDelayMs: number;
  maxDelayMs: number;
  /** Failures of one user name (on the web: one name from one address) in a window after which it is locked until the window ends. */
  lockUserAfter: number;
  /** Failures from one client address in a window after which it is locked until the window ends. */
  lockAddressAfter: number;
}

/** The default policy (see docs/interface.md, Authentication). */
export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = {
  windowMs: 15 * 60_000, slowAfter: 3, stepDelayMs: 500, maxDelayMs: 4000, lockUserAfter: 10, lockAddressAfter: 50,
};

/** Waits; an interface so tests need not sleep. */
export type Sleeper = (ms: number) => Promise<void>;

/**
 * A sign-in check under way, from SignInGuard.begin. It was counted as a failure before the check ran, so that
 * concurrent guesses cannot all pass the lock; `settle` takes that count back unless the check failed.
 */
export class SignInAttempt {
  #done = false;

  constructor(
    private readonly guard: SignInGuard, readonly subject: SignInSubject, readonly address: string,
    /** The window the attempt was counted in, and the subject's count with it (0 for ADDRESS_ONLY). */
    readonly window: number, readonly userCount: number,
  ) {}

  /** The check failed: the failure stays counted, and the answer is slowed down. */
  async fail(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.guard.slowDown(this.userCount);
  }

  /** Ends an attempt that did not fail (it succeeded, or stopped for another reason): its count is taken back. */
  async settle(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.guard.uncount(this.subject, this.address, this.window);
  }
}

/** Slows down and then locks out repeated failed sign-ins, per subject (user name, or name and address) and per client address. */
export class SignInGuard {
  constructor(
    private readonly store: Pick<Store, 'counters'>, private readonly clock: Clock, private readonly sleep: Sleeper,
    private readonly policy: SignInPolicy = DEFAULT_SIGN_IN_POLICY,
  ) {}

  #window(): number {
    const now = this.clock.now();
    return now - (now % this.policy.windowMs);
  }

  // The subject's bucket (none for ADDRESS_ONLY), then the address's.
  #buckets(subject: SignInSubject, address: string): { own: string | null; ip: string } {
    const ip = `${SIGN_IN_BUCKET_PREFIX}ip:${address}`;
    if (subject.kind === 'address') return { own: null, ip };
    const name = subject.userName.trim().toLowerCase();
    return { own: subject.kind === 'user' ? `${SIGN_IN_BUCKET_PREFIX}user:${name}` : `${SIGN_IN_BUCKET_PREFIX}web:${address}:${name}`, ip };
  }

  #count(bucket: string | null, window: number): Promise<number> {
    return bucket === null ? Promise.resolve(0) : this.store.counters.countRequest(bucket, window);
  }

  #locked(window: number): ApiError {
    const retry = Math.ceil((window + this.policy.windowMs - this.clock.now()) / 1000);
    return new ApiError('SIGN_IN_LOCKED', `Too many failed sign-ins; try again in ${retry} s.`, { headers: { 'Retry-After': String(retry) } });
  }

  /** Throws SIGN_IN_LOCKED while the subject or address is locked; the same for names that do not exist. */
  async check(subject: SignInSubject, address: string): Promise<void> {
    const window = this.#window();
    const { own, ip } = this.#buckets(subject, address);
    const [u, a] = await Promise.all([own === null ? 0 : this.store.counters.peekRequestCount(own, window), this.store.counters.peekRequestCount(ip, window)]);
    if (u >= this.policy.lockUserAfter || a >= this.policy.lockAddressAfter) throw this.#locked(window);
  }

  /**
   * Starts an expensive or guessable check (a password or key hash, a TOTP code): counts it as a failure at once, in
   * one atomic statement per bucket, and throws SIGN_IN_LOCKED (taking the count back) when that passes a lock limit.
   * However many guesses arrive at once, at most the limit of them are ever checked per window.
   */
  async begin(subject: SignInSubject, address: string): Promise<SignInAttempt> {
    const window = this.#window();
    const { own, ip } = this.#buckets(subject, address);
    const [u, a] = await Promise.all([this.#count(own, window), this.store.counters.countRequest(ip, window)]);
    if (u > this.policy.lockUserAfter || a > this.policy.lockAddressAfter) {
      // Refused without a check: not a failure of its own, so the counts stay at the limit.
      await this.uncount(subject, address, window);
      throw this.#locked(window);
    }
    return new SignInAttempt(this, subject, address, window, u);
  }

  /** Counts a failure of a check that was not begun (a cheap one, such as a session token) and slows the answer down. */
  async failed(subject: SignInSubject, address: string): Promise<void> {
    const window = this.#window();
    const { own, ip } = this.#buckets(subject, address);
    const [u] = await Promise.all([this.#count(own, window), this.store.counters.countRequest(ip, window)]);
    await this.slowDown(u);
  }

  /** Takes back one count of the subject and address in a window. */
  async uncount(subject: SignInSubject, address: string, window: number): Promise<void> {
    const { own, ip } = this.#buckets(subject, address);
    await Promise.all([own === null ? undefined : this.store.counters.uncountRequest(own, window), this.store.counters.uncountRequest(ip, window)]);
  }

  /**
   * Waits longer the more failures the subject has in the window, so guessing gets slow well before the lock:
   * nothing up to `slowAfter`, then `stepDelayMs` more per failure, at most `maxDelayMs`.
   */
  async slowDown(userCount: number): Promise<void> {
    const extra = userCount - this.policy.slowAfter;
    if (extra > 0) await this.sleep(Math.min(this.policy.maxDelayMs, extra * this.policy.stepDelayMs));
  }
}
