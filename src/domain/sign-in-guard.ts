import type { Store } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { Clock } from './clock.ts';

/** The lockout policy: counts of failed sign-ins per user name and per client address in fixed windows. */
export interface SignInPolicy {
  windowMs: number;
  /** Failures of one user name after which each further failure is answered more slowly. */
  slowAfter: number;
  /** Extra delay per failure beyond slowAfter, and its cap. */
  stepDelayMs: number;
  maxDelayMs: number;
  /** Failures of one user name in a window after which it is locked until the window ends. */
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

/** Slows down and then locks out repeated failed sign-ins, per user name and per client address. */
export class SignInGuard {
  constructor(
    private readonly store: Store, private readonly clock: Clock, private readonly sleep: Sleeper,
    private readonly policy: SignInPolicy = DEFAULT_SIGN_IN_POLICY,
  ) {}

  #window(): number {
    const now = this.clock.now();
    return now - (now % this.policy.windowMs);
  }

  #buckets(userName: string, address: string): [string, string] {
    return [`signin:user:${userName.trim().toLowerCase()}`, `signin:ip:${address}`];
  }

  /** Throws SIGN_IN_LOCKED while the user name or address is locked; the same for names that do not exist. */
  async check(userName: string, address: string): Promise<void> {
    const window = this.#window();
    const [user, ip] = this.#buckets(userName, address);
    const [u, a] = await Promise.all([this.store.peekRequestCount(user, window), this.store.peekRequestCount(ip, window)]);
    if (u >= this.policy.lockUserAfter || a >= this.policy.lockAddressAfter) {
      const retry = Math.ceil((window + this.policy.windowMs - this.clock.now()) / 1000);
      throw new ApiError('SIGN_IN_LOCKED', `Too many failed sign-ins; try again in ${retry} s.`, { headers: { 'Retry-After': String(retry) } });
    }
  }

  /** Counts a failed sign-in and waits longer the more there were, so guessing gets slow well before the lock. */
  async failed(userName: string, address: string): Promise<void> {
    const window = this.#window();
    const [user, ip] = this.#buckets(userName, address);
    const [u] = await Promise.all([this.store.countRequest(user, window), this.store.countRequest(ip, window)]);
    const extra = u - this.policy.slowAfter;
    if (extra > 0) await this.sleep(Math.min(this.policy.maxDelayMs, extra * this.policy.stepDelayMs));
  }
}
