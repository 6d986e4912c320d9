import { SIGN_IN_BUCKET_PREFIX } from '../../store/counter-queries.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Clock } from '../../model/clock.ts';

/**
 * Whom a failed sign-in counts against besides its client address (see docs/architecture.md, Failed sign-ins):
 * `user`, the user name, for API requests whose key is that user's own, so that only the key's holder can lock the
 * name; `web`, the user name from this address only, for web sign-ins, which have no key, and besides the account
 * (throttled, never locked) or, from a browser the user signed in with before (`device`, the id of its verified
 * known-device cookie), that browser; `address`, nothing else, for API requests whose key is not the named user's.
 */
export type SignInSubject = { kind: 'user'; userName: string } | { kind: 'web'; userName: string; device?: string | null } | { kind: 'address' };

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
  /**
   * Web sign-ins of one account from browsers it has not signed in with before, across all addresses: after this
   * many failures in a window, one attempt per slot is checked, the slot growing from `accountFirstSlowMs` doubling to
   * `accountMaxSlowMs`; the others are refused unchecked. A known browser is not throttled (it locks on its own).
   */
  accountSlowAfter: number;
  accountFirstSlowMs: number;
  accountMaxSlowMs: number;
}

/** The default policy (see docs/interface.md, Authentication). */
export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = {
  windowMs: 15 * 60_000, slowAfter: 3, stepDelayMs: 500, maxDelayMs: 4000, lockUserAfter: 10, lockAddressAfter: 50,
  accountSlowAfter: 5, accountFirstSlowMs: 1000, accountMaxSlowMs: 120_000,
};

/** Told when an account starts being throttled (once per window): the user is to hear of it. */
export type ThrottleNotice = (userName: string) => Promise<void>;

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
    /** The count of the account (web sign-ins from unknown browsers) with it, 0 for other subjects. */
    readonly accountCount = 0,
  ) {}

  /** The check failed: the failure stays counted, and the answer is slowed down. */
  async fail(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.guard.accountFailed(this.subject, this.accountCount);
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
    private readonly policy: SignInPolicy = DEFAULT_SIGN_IN_POLICY, private readonly notice: ThrottleNotice = async () => {},
  ) {}

  #window(): number {
    const now = this.clock.now();
    return now - (now % this.policy.windowMs);
  }

  // The subject's bucket (none for ADDRESS_ONLY), then the address's, and for web sign-ins the account's or the known browser's.
  #buckets(subject: SignInSubject, address: string): { own: string | null; ip: string; wide: string | null } {
    const ip = `${SIGN_IN_BUCKET_PREFIX}ip:${address}`;
    if (subject.kind === 'address') return { own: null, ip, wide: null };
    const name = subject.userName.trim().toLowerCase();
    if (subject.kind === 'user') return { own: `${SIGN_IN_BUCKET_PREFIX}user:${name}`, ip, wide: null };
    const wide = subject.device ? `${SIGN_IN_BUCKET_PREFIX}device:${subject.device}` : `${SIGN_IN_BUCKET_PREFIX}account:${name}`;
    return { own: `${SIGN_IN_BUCKET_PREFIX}web:${address}:${name}`, ip, wide };
  }

  /**
   * The account-wide throttle of web sign-ins from unknown browsers: with `count` failures (this attempt included)
   * past `accountSlowAfter`, an attempt is checked only once the delay after the previous checked one has passed, the
   * delay doubling with every further failure; else SIGN_IN_LOCKED. A known browser's own count locks like a name's.
   */
  async #throttle(subject: SignInSubject, count: number): Promise<void> {
    if (subject.kind !== 'web') return;
    if (subject.device) {
      if (count > this.policy.lockUserAfter) throw this.#locked(this.#window());
      return;
    }
    const beyond = count - this.policy.accountSlowAfter;
    if (beyond <= 0) return;
    const delayMs = Math.min(this.policy.accountMaxSlowMs, this.policy.accountFirstSlowMs * 2 ** Math.min(30, beyond - 1));
    const window = this.#window();
    const at = this.clock.now() - window;
    const name = subject.userName.trim().toLowerCase();
    const bucket = `${SIGN_IN_BUCKET_PREFIX}turn:${name}`;
    if (!(await this.store.counters.claimTurn(bucket, window, at, at + delayMs))) {
      const next = await this.store.counters.peekRequestCount(bucket, window);
      const retry = Math.max(1, Math.ceil((next - at) / 1000));
      throw new ApiError('SIGN_IN_LOCKED', `This account had many failed sign-ins; try again in ${retry} s, or sign in from a browser you signed in with before.`, {
        headers: { 'Retry-After': String(retry) },
      });
    }
  }

  /** A failed check of a web sign-in from an unknown browser: the user hears of it when the throttle starts. */
  async accountFailed(subject: SignInSubject, accountCount: number): Promise<void> {
    if (subject.kind !== 'web' || subject.device || accountCount !== this.policy.accountSlowAfter) return;
    // A failing notice (the database busy) must not change the sign-in's answer.
    await this.notice(subject.userName.trim().toLowerCase()).catch(() => {});
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
    const { own, ip, wide } = this.#buckets(subject, address);
    const [u, a, w] = await Promise.all([
      own === null ? 0 : this.store.counters.peekRequestCount(own, window), this.store.counters.peekRequestCount(ip, window),
      wide === null ? 0 : this.store.counters.peekRequestCount(wide, window),
    ]);
    if (u >= this.policy.lockUserAfter || a >= this.policy.lockAddressAfter) throw this.#locked(window);
    // Remembered credentials pass the throttle only in a free slot too: else the right password would be told apart
    // from wrong ones, which are refused unchecked. (Only web sign-ins are throttled; an API request skips the await.)
    if (subject.kind === 'web') await this.#throttle(subject, w + 1);
  }

  /**
   * Starts an expensive or guessable check (a password or key hash, a TOTP code): counts it as a failure at once, in
   * one atomic statement per bucket, and throws SIGN_IN_LOCKED (taking the count back) when that passes a lock limit.
   * However many guesses arrive at once, at most the limit of them are ever checked per window.
   */
  async begin(subject: SignInSubject, address: string): Promise<SignInAttempt> {
    const window = this.#window();
    const { own, ip, wide } = this.#buckets(subject, address);
    const [u, a, w] = await Promise.all([this.#count(own, window), this.store.counters.countRequest(ip, window), this.#count(wide, window)]);
    try {
      if (u > this.policy.lockUserAfter || a > this.policy.lockAddressAfter) throw this.#locked(window);
      await this.#throttle(subject, w);
    } catch (error) {
      // Refused without a check: not a failure of its own, so the counts stay where they were.
      await this.uncount(subject, address, window);
      throw error;
    }
    return new SignInAttempt(this, subject, address, window, u, subject.kind === 'web' && !subject.device ? w : 0);
  }

  /** Counts a failure of a check that was not begun (a cheap one, such as a session token) and slows the answer down. */
  async failed(subject: SignInSubject, address: string): Promise<void> {
    const window = this.#window();
    const { own, ip, wide } = this.#buckets(subject, address);
    const [u] = await Promise.all([this.#count(own, window), this.store.counters.countRequest(ip, window), this.#count(wide, window)]);
    await this.slowDown(u);
  }

  /** Takes back one count of the subject and address in a window. */
  async uncount(subject: SignInSubject, address: string, window: number): Promise<void> {
    const { own, ip, wide } = this.#buckets(subject, address);
    await Promise.all([
      own === null ? undefined : this.store.counters.uncountRequest(own, window), this.store.counters.uncountRequest(ip, window),
      wide === null ? undefined : this.store.counters.uncountRequest(wide, window),
    ]);
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
