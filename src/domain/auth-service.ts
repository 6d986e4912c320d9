import type { Store, UserWithSecret } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { Caller } from './caller.ts';
import type { Clock } from './clock.ts';
import { parseSessionToken, tokenMatches, totpStep } from './mfa.ts';
import { digest, parseApiKey, verifySecret } from './secrets.ts';
import type { SignInGuard } from './sign-in-guard.ts';

/** What a request presented: Basic credentials, API key, second factor, and where it came from. */
export interface PresentedCredentials {
  authorization: string | undefined;
  apiKey: string | undefined;
  /** X-Mfa-Totp: a current 6-digit code. */
  totp?: string | undefined;
  /** X-Mfa-Session-Token: a token from CreateMfaSessionToken. */
  sessionToken?: string | undefined;
  clientAddress: string;
}

interface Verified { passwordHash: string; keyHash: string }
type SecondFactor = Pick<Caller, 'mfaVerified' | 'mfaMethod' | 'mfaSessionTokenId'>;

const MAX_CACHE = 10_000;
// A fixed argon2id hash verified when the user does not exist, so that a miss costs as long as a hit.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$Oz1dAbjFbdYt+Ei6yEYAKA$wo5UWHX1e6sIKsz/wzc6GR4FD1RDjWbORamYRPwhuEM';
const BAD_CREDENTIALS = 'The user name, password or API key is not valid.';
/** The longest user name (an e-mail address) a Basic header may carry. */
const MAX_USER_NAME = 320;

/** Splits a Basic Authorization header into user name and password; null when it is not one, or names no possible account. */
export function parseBasic(header: string | undefined): { email: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  const email = text.slice(0, colon);
  // No account can have such a name (e-mail addresses are at most 320 characters); refusing it here keeps
  // arbitrary text out of the database, where the sign-in guard would otherwise record it.
  if (email.length > MAX_USER_NAME || /\p{Cc}/u.test(email)) return null;
  return { email, password: text.slice(colon + 1) };
}

/**
 * Checks Basic credentials plus X-ApiKey, then the second factor of users enrolled in MFA. Verified
 * password/key combinations are remembered by their digest so that a request costs no password hash; every
 * request still reads the user and key rows, so a changed password, a disabled user or a revoked key takes
 * effect at once, on every instance. Failed sign-ins are slowed down and locked out by the SignInGuard.
 */
export class AuthService {
  readonly #verified = new Map<string, Verified>();

  constructor(private readonly store: Store, private readonly clock: Clock, private readonly guard: SignInGuard) {}

  /** The caller behind the credentials; throws AUTHENTICATION_REQUIRED, INVALID_CREDENTIALS, SIGN_IN_LOCKED or MFA_*. */
  async authenticate(p: PresentedCredentials): Promise<Caller> {
    const basic = parseBasic(p.authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your user name and password with HTTP Basic authentication.');
    if (!p.apiKey) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your API key in the X-ApiKey header.');
    await this.guard.check(basic.email, p.clientAddress);
    const checked = await this.#checkPasswordAndKey(basic.email, basic.password, p.apiKey);
    if (!checked) return this.#refuse(basic.email, p.clientAddress, BAD_CREDENTIALS);
    const factor = await this.#secondFactor(checked.user, p.totp, p.sessionToken, basic.email, p.clientAddress);
    return this.#caller(checked.user, checked.keyId, factor);
  }

  /**
   * Checks a password alone (web pages, which have no API key). A user enrolled in MFA appends the current
   * 6-digit code to the password, as with most one-time-password sign-ins that have only one field.
   */
  async authenticatePassword(authorization: string | undefined, clientAddress: string): Promise<Caller> {
    const basic = parseBasic(authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Sign in with your user name and password.');
    await this.guard.check(basic.email, clientAddress);
    const user = await this.store.findUserByEmail(basic.email);
    const enrolment = user ? await this.store.getMfa(user.id) : null;
    const code = enrolment ? basic.password.slice(-6) : undefined;
    const password = enrolment ? basic.password.slice(0, -6) : basic.password;
    const ok = await this.#passwordMatches(user, basic.email, password);
    if (!user || user.disabled || !ok) return this.#refuse(basic.email, clientAddress, 'The user name or password is not valid.');
    const factor = await this.#secondFactor(user, code, undefined, basic.email, clientAddress);
    return this.#caller(user, '', factor);
  }

  async #checkPasswordAndKey(email: string, password: string, apiKey: string): Promise<{ user: UserWithSecret; keyId: string } | null> {
    const key = parseApiKey(apiKey);
    const [user, keyRow] = await Promise.all([this.store.findUserByEmail(email), key ? this.store.findApiKey(key.id) : Promise.resolve(null)]);
    const usable = user && !user.disabled && key && keyRow && keyRow.revokedAt === null && keyRow.userId === user.id;
    const cacheKey = digest(`${email.toLowerCase()}\u0000${password}\u0000${apiKey}`);
    const cached = this.#verified.get(cacheKey);
    if (usable && cached && cached.passwordHash === user.passwordHash && cached.keyHash === keyRow.secretHash) return { user, keyId: keyRow.id };
    const passwordOk = await verifySecret(user?.passwordHash ?? DUMMY_HASH, password);
    // The key is checked even when the user is unknown, so timing tells nothing about which part was wrong.
    let keyOk = false;
    if (usable) keyOk = await verifySecret(keyRow.secretHash, key.secret);
    else await verifySecret(DUMMY_HASH, key?.secret ?? '');
    if (!usable || !passwordOk || !keyOk) return null;
    this.#remember(cacheKey, { passwordHash: user.passwordHash, keyHash: keyRow.secretHash });
    return { user, keyId: keyRow.id };
  }

  async #passwordMatches(user: UserWithSecret | null, email: string, password: string): Promise<boolean> {
    const cacheKey = digest(`web\u0000${email.toLowerCase()}\u0000${password}`);
    const cached = this.#verified.get(cacheKey);
    if (user && cached && cached.passwordHash === user.passwordHash) return true;
    const ok = await verifySecret(user?.passwordHash ?? DUMMY_HASH, password);
    if (ok && user) this.#remember(cacheKey, { passwordHash: user.passwordHash, keyHash: '' });
    return ok;
  }

  // Enrolled users prove a second factor on every request: a TOTP code (good once) or a live session token.
  async #secondFactor(user: UserWithSecret, totp: string | undefined, sessionToken: string | undefined, email: string, address: string): Promise<SecondFactor> {
    const enrolment = await this.store.getMfa(user.id);
    if (!enrolment) return { mfaVerified: false };
    const now = this.clock.now();
    if (totp) {
      const step = totpStep(enrolment.secret, totp.trim(), now);
      if (step === null || !(await this.store.claimTotpStep(user.id, step))) {
        return this.#refuse(email, address, 'The one-time code is wrong, expired or already used.', 'MFA_INVALID');
      }
      return { mfaVerified: true, mfaMethod: 'totp' };
    }
    if (sessionToken) {
      const parts = parseSessionToken(sessionToken);
      const row = parts ? await this.store.getSessionToken(parts.id) : null;
      if (!parts || !row || row.userId !== user.id || row.expiresAt <= now || !tokenMatches(parts.secret, row.tokenHash)) {
        return this.#refuse(email, address, 'The MFA session token is not valid or has expired.', 'MFA_INVALID');
      }
      return { mfaVerified: true, mfaMethod: 'session', mfaSessionTokenId: row.id };
    }
    throw new ApiError('MFA_REQUIRED', 'This account uses multi-factor authentication: send a current code in X-Mfa-Totp or a session token in X-Mfa-Session-Token.');
  }

  async #refuse(email: string, address: string, message: string, code: 'INVALID_CREDENTIALS' | 'MFA_INVALID' = 'INVALID_CREDENTIALS'): Promise<never> {
    await this.guard.failed(email, address);
    throw new ApiError(code, message);
  }

  #remember(cacheKey: string, entry: Verified): void {
    // Oldest-first eviction keeps memory bounded however many distinct credentials arrive.
    if (this.#verified.size >= MAX_CACHE) this.#verified.delete(this.#verified.keys().next().value as string);
    this.#verified.set(cacheKey, entry);
  }

  async #caller(user: UserWithSecret, apiKeyId: string, factor: SecondFactor): Promise<Caller> {
    const grants = await this.store.listGrants(user.id);
    const { id, agencyId, email, name, agencyAdmin, disabled } = user;
    return { user: { id, agencyId, email, name, agencyAdmin, disabled }, apiKeyId, grants, ...factor };
  }
}
