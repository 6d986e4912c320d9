import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import { formatSessionToken, hashTokenSecret, newSessionToken, newTotpSecret, otpauthUri, totpStep } from './mfa.ts';

/** How long a session token lives when the request does not say, and the longest it may live. */
export const SESSION_TOKEN_MINUTES = { default: 60, max: 720 } as const;

/** A new session token as CreateMfaSessionToken answers it; the token text is shown this once only. */
export interface SessionTokenView { tokenId: string; token: string; expiresAt: number }

/** Enrols users in TOTP (administration) and issues and deletes MFA session tokens (API). */
export class MfaService {
  /** `actorId` is recorded in the audit rows of enrolments and resets (null for the command line). */
  constructor(private readonly deps: { store: Pick<Store, 'accounts' | 'mfa' | 'transaction'>; clock: Clock; ids: IdGenerator; actorId?: string | null }) {}

  /**
   * Enrols a user (replacing an earlier enrolment) and returns the otpauth:// URI to show once. The user's sessions
   * end: they were signed in without this factor (and a web session would otherwise count as verified by it).
   */
  async enrol(email: string, issuer = 'apas'): Promise<string> {
    const { store, clock, ids } = this.deps;
    const user = await store.accounts.findUserByEmail(email);
    if (!user) throw new ApiError('UNKNOWN_USER', `No user has the e-mail address "${email}".`);
    const secret = newTotpSecret();
    const now = clock.now();
    await store.transaction(async (tx) => {
      await tx.mfa.saveMfa(user.id, secret, now);
      await tx.accountTokens.endUserSessions(user.id, 'sessions', now);
      await tx.audit.write({ action: 'user.mfa.enrol', actorId: this.deps.actorId ?? null, agencyId: user.agencyId, detail: { userId: user.id } }, now, ids.next());
    });
    return otpauthUri(secret, user.email, issuer);
  }

  /** Ends a user's enrolment and every session of the user (web pages, MFA session token, landing-page cookie). */
  async disable(email: string): Promise<void> {
    const { store, clock, ids } = this.deps;
    const user = await store.accounts.findUserByEmail(email);
    if (!user) throw new ApiError('UNKNOWN_USER', `No user has the e-mail address "${email}".`);
    const now = clock.now();
    await store.transaction(async (tx) => {
      if (!(await tx.mfa.deleteMfa(user.id))) throw new ApiError('NOT_FOUND', `${email} is not enrolled in multi-factor authentication.`);
      await tx.accountTokens.endUserSessions(user.id, 'sessions', now);
      await tx.audit.write({ action: 'user.mfa.disable', actorId: this.deps.actorId ?? null, agencyId: user.agencyId, detail: { userId: user.id } }, now, ids.next());
    });
  }

  /**
   * Enrols the signed-in caller with a secret the enrolment page showed them (as a QR code and as text), once they
   * type a current code of it: so nobody ends up enrolled with a secret their app does not hold. Refused when the
   * caller is enrolled already (only an admin's reset ends an enrolment). Ends the caller's sessions, as enrol() does.
   */
  async enrolSelf(caller: Caller, secret: string, code: string): Promise<void> {
    if (!/^[A-Z2-7]{32}$/.test(secret)) throw new ApiError('INVALID_REQUEST', 'The enrolment form is incomplete; open the page again.');
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    const step = totpStep(secret, code.trim(), now);
    if (step === null) throw new ApiError('INVALID_PARAMETER', 'The code is not the current one of this secret; type the 6 digits your app shows now.');
    await store.transaction(async (tx) => {
      if (await tx.mfa.getMfa(caller.user.id)) throw new ApiError('CONFLICT', 'You are enrolled in multi-factor authentication already; an admin can reset it.');
      await tx.mfa.saveMfa(caller.user.id, secret, now);
      await tx.mfa.claimTotpStep(caller.user.id, step);
      await tx.accountTokens.endUserSessions(caller.user.id, 'sessions', now);
      await tx.audit.write({ action: 'user.mfa.enrol', actorId: caller.user.id, agencyId: caller.user.agencyId, detail: { userId: caller.user.id } }, now, ids.next());
    });
  }

  /** True when a user is enrolled. */
  async enrolled(userId: string): Promise<boolean> {
    return (await this.deps.store.mfa.getMfa(userId)) !== null;
  }

  /** CreateMfaSessionToken: needs a TOTP on this very request; deletes the caller's earlier token. */
  async createSessionToken(caller: Caller, minutes: number | null): Promise<SessionTokenView> {
    if (!(await this.deps.store.mfa.getMfa(caller.user.id))) {
      throw new ApiError('FORBIDDEN', 'This account is not enrolled in multi-factor authentication, so it has no session tokens.');
    }
    if (caller.mfaMethod !== 'totp') throw new ApiError('MFA_REQUIRED', 'Creating an MFA session token needs a current code in X-Mfa-Totp; a session token cannot create another.');
    const lifetime = minutes ?? SESSION_TOKEN_MINUTES.default;
    if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > SESSION_TOKEN_MINUTES.max) {
      throw new ApiError('INVALID_REQUEST', `ExpiresAfterMinutes must be a whole number from 1 to ${SESSION_TOKEN_MINUTES.max}.`);
    }
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    const parts = newSessionToken(ids);
    const expiresAt = now + lifetime * 60_000;
    await store.transaction(async (tx) => {
      await tx.mfa.replaceSessionToken({ id: parts.id, userId: caller.user.id, tokenHash: hashTokenSecret(parts.secret), createdAt: now, expiresAt });
      await tx.audit.write({ action: 'user.mfa.session_token.create', actorId: caller.user.id, agencyId: caller.user.agencyId, detail: { tokenId: parts.id, expiresAt }, requestId: caller.requestId }, now, ids.next());
    });
    return { tokenId: parts.id, token: formatSessionToken(parts), expiresAt };
  }

  /** DeleteMfaSessionToken: deletes one of the caller's own tokens (the one authenticating this request included). */
  async deleteSessionToken(caller: Caller, tokenId: string): Promise<void> {
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    await store.transaction(async (tx) => {
      if (!(await tx.mfa.deleteSessionToken(caller.user.id, tokenId))) throw new ApiError('NOT_FOUND', `You have no MFA session token "${tokenId}".`);
      await tx.audit.write({ action: 'user.mfa.session_token.delete', actorId: caller.user.id, agencyId: caller.user.agencyId, detail: { tokenId }, requestId: caller.requestId }, now, ids.next());
    });
  }
}
