import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { UserWithSecret } from '../../model/records.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { formatSessionToken, hashTokenSecret, newSessionToken, parseSessionToken, tokenMatches } from './mfa.ts';

/** The checks of a sign-in that the authentication service owns, with its lockout rules. */
export interface SignInChecks {
  /**
   * The active user whose password this is; throws INVALID_CREDENTIALS or SIGN_IN_LOCKED (and counts the failure).
   * `device`: the browser's known-device cookie, which exempts it from the account-wide throttle.
   */
  checkPassword(email: string, password: string, address: string, device?: string): Promise<UserWithSecret>;
  /** A new known-device cookie value for a user who just signed in. */
  knownDevice(user: UserWithSecret): string;
  /** True for a user enrolled in MFA. */
  hasMfa(userId: string): Promise<boolean>;
  /** Accepts a current TOTP code of the user once; throws MFA_INVALID or SIGN_IN_LOCKED (and counts the failure). */
  checkCode(user: UserWithSecret, code: string, address: string, device?: string): Promise<void>;
  /** The caller a signed-in user acts as, with the grants they have now. */
  callerOf(user: UserWithSecret, mfaVerified: boolean): Promise<Caller>;
}

/** How long sessions last: unused for `idleMs`, or `maxMs` after sign-in, they end; the MFA step must follow within `mfaStepMs`. */
export interface WebSessionPolicy { idleMs: number; maxMs: number; mfaStepMs: number }

/** The defaults: 30 minutes idle, 12 hours at most, 5 minutes for the code step. */
export const DEFAULT_WEB_SESSION_POLICY: WebSessionPolicy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000, mfaStepMs: 5 * 60_000 };

// A session is written back as used at most this often (a tenth of the idle time when that is shorter), so page views
// do not each cost a write.
const TOUCH_EVERY_MS = 60_000;

/**
 * How often a session's last use is written back, and so how far the stored time may lag behind the real last use.
 * The idle check allows for that lag: a session used within its idle time never ends early, and ends at most this
 * much later than the idle time after its last use.
 */
export function touchInterval(policy: WebSessionPolicy): number {
  return Math.min(TOUCH_EVERY_MS, Math.floor(policy.idleMs / 10));
}

/** A started session: the cookie's value, whether the MFA code step is still due, and the browser's new known-device cookie. */
export interface StartedSession { cookie: string; mfaDue: boolean; expiresAt: number; knownDevice: string }

/** What a cookie says: the signed-in caller, a sign-in whose MFA step is due, or nobody. */
export type SessionState = { kind: 'signed-in'; caller: Caller; sessionId: string } | { kind: 'mfa-due'; sessionId: string } | { kind: 'none' };

/**
 * Sessions of the web application: a sign-in with e-mail and password (and, for users enrolled in MFA, a TOTP code
 * in a second step) starts one; the browser's cookie carries its id and a random secret, of which only a hash is kept.
 * A disabled user, a changed password or a revoked grant takes effect at once, since every request reads the user.
 */
export class WebSessionService {
  constructor(
    private readonly deps: { store: Pick<Store, 'sessions' | 'accounts'>; clock: Clock; ids: IdGenerator },
    private readonly checks: SignInChecks,
    private readonly policy: WebSessionPolicy = DEFAULT_WEB_SESSION_POLICY,
  ) {}

  /** Checks the password (with the API's lockout rules) and starts a session; `mfaDue` when a code must follow. */
  async signIn(email: string, password: string, address: string, device?: string): Promise<StartedSession> {
    const user = await this.checks.checkPassword(email, password, address, device);
    const mfaDue = await this.checks.hasMfa(user.id);
    const now = this.deps.clock.now();
    const parts = newSessionToken(this.deps.ids);
    const expiresAt = now + (mfaDue ? this.policy.mfaStepMs : this.policy.maxMs);
    await this.deps.store.sessions.insertBrowserSession({
      id: parts.id, userId: user.id, secretHash: hashTokenSecret(parts.secret), createdAt: now, lastSeenAt: now, expiresAt, mfaPending: mfaDue,
    });
    if (!mfaDue) await this.deps.store.sessions.recordSignIn(user.id, now);
    return { cookie: formatSessionToken(parts), mfaDue, expiresAt, knownDevice: this.checks.knownDevice(user) };
  }

  /**
   * Starts a full session for a user an identity provider has just signed in (single sign-on): no password and no code
   * step here, the provider did both; bounded like every other session.
   */
  async startSignedOn(userId: string): Promise<{ cookie: string; expiresAt: number }> {
    const now = this.deps.clock.now();
    const parts = newSessionToken(this.deps.ids);
    const expiresAt = now + this.policy.maxMs;
    await this.deps.store.sessions.insertBrowserSession({
      id: parts.id, userId, secretHash: hashTokenSecret(parts.secret), createdAt: now, lastSeenAt: now, expiresAt, mfaPending: false,
    });
    return { cookie: formatSessionToken(parts), expiresAt };
  }

  /** The MFA step of a pending sign-in: a current code completes it; the session then lasts its full time. */
  async completeMfa(cookie: string | undefined, code: string, address: string, device?: string): Promise<void> {
    const found = await this.#find(cookie);
    if (!found || !found.row.mfaPending) throw new ApiError('AUTHENTICATION_REQUIRED', 'Your sign-in has expired; sign in again.');
    await this.checks.checkCode(found.user, code, address, device);
    const now = this.deps.clock.now();
    if (!(await this.deps.store.sessions.completeBrowserSessionMfa(found.row.id, now))) {
      throw new ApiError('AUTHENTICATION_REQUIRED', 'Your sign-in has expired; sign in again.');
    }
    await this.deps.store.sessions.recordSignIn(found.user.id, now);
  }

  /** Who a cookie signs in, if anyone: the session must be live, its user active, and its MFA step done. */
  async resume(cookie: string | undefined): Promise<SessionState> {
    const found = await this.#find(cookie);
    if (!found) return { kind: 'none' };
    if (found.row.mfaPending) return { kind: 'mfa-due', sessionId: found.row.id };
    const now = this.deps.clock.now();
    if (now - found.row.lastSeenAt >= touchInterval(this.policy)) await this.deps.store.sessions.touchBrowserSession(found.row.id, now);
    return { kind: 'signed-in', caller: await this.checks.callerOf(found.user, await this.checks.hasMfa(found.user.id)), sessionId: found.row.id };
  }

  /** Ends the session of a cookie, if it has one. */
  async signOut(cookie: string | undefined): Promise<void> {
    const parts = cookie === undefined ? null : parseSessionToken(cookie);
    const row = parts ? await this.deps.store.sessions.getBrowserSession(parts.id) : null;
    if (parts && row && tokenMatches(parts.secret, row.secretHash)) await this.deps.store.sessions.deleteBrowserSession(row.id);
  }

  async #find(cookie: string | undefined) {
    const parts = cookie === undefined ? null : parseSessionToken(cookie);
    const row = parts ? await this.deps.store.sessions.getBrowserSession(parts.id) : null;
    if (!parts || !row || !tokenMatches(parts.secret, row.secretHash)) return null;
    const now = this.deps.clock.now();
    // lastSeenAt may be up to one touch interval older than the session's real last use (see touchInterval).
    if (row.expiresAt <= now || now - row.lastSeenAt >= this.policy.idleMs + touchInterval(this.policy)) return null;
    const user = await this.deps.store.accounts.findUserById(row.userId);
    if (!user || user.disabled) return null;
    return { row, user };
  }
}
