import type { Store } from '../../store/store.ts';
import type { SignInChecks } from './web-session-service.ts';
import type { ApiKeyRecord, OAuthClientRecord, UserWithSecret } from '../../model/records.ts';
import { isClientId, parseAccessToken } from './access-token.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import { formatSessionToken, hashTokenSecret, newSessionToken, parseSessionToken, tokenMatches, totpStep } from './mfa.ts';
import { OAuthError } from './oauth-error.ts';
import { knownDeviceOf, newKnownDevice } from './known-device.ts';
import { digest, parseApiKey, verifySecret } from './secrets.ts';
import { ADDRESS_ONLY, type SignInGuard, type SignInSubject } from './sign-in-guard.ts';

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

/** Client credentials as the OAuth token and revocation endpoints received them, with the request's X-ApiKey. */
export interface PresentedClient { clientId: string; clientSecret: string; apiKey: string | undefined; clientAddress: string }

/** A client that proved its secret and an API key of its user; the user may be disabled (the caller decides). */
export interface AuthenticatedClient { client: OAuthClientRecord; user: UserWithSecret; apiKeyId: string }

/**
 * Whether a user may sign in with a local password (src/domain/sign-on: an agency with single sign-on may turn local
 * passwords off for its staff); `label` names the provider to use instead.
 */
export interface PasswordPolicy {
  passwordAllowed(user: Pick<UserWithSecret, 'id' | 'agencyId' | 'agencyAdmin'>): Promise<{ allowed: true } | { allowed: false; label: string }>;
}

const ANY_PASSWORD: PasswordPolicy = { passwordAllowed: async () => ({ allowed: true }) };

/** How long a web session lasts from the sign-in with a TOTP code that started it. */
export const WEB_SESSION_MINUTES = 720;

/**
 * A sign-in on the web pages: the caller, and when it proved a TOTP code, a new web session whose `value` the
 * browser is to keep in a cookie until `expiresAt`.
 */
export interface WebSignIn { caller: Caller; newSession: { value: string; expiresAt: number } | null }

interface Verified { passwordHash: string; keyHash: string }
type SecondFactor = Pick<Caller, 'mfaVerified' | 'mfaMethod' | 'mfaSessionTokenId'>;

const MAX_CACHE = 10_000;
// A key's last use is recorded to the minute.
const MARK_EVERY_MS = 60_000;
// A fixed argon2id hash verified when the user does not exist, so that a miss costs as long as a hit.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$Oz1dAbjFbdYt+Ei6yEYAKA$wo5UWHX1e6sIKsz/wzc6GR4FD1RDjWbORamYRPwhuEM';
const BAD_CREDENTIALS = 'The user name, password or API key is not valid.';
const BAD_CLIENT = 'The client id, client secret or API key is not valid.';
// RFC 6750 §3: 401 answers to a request that sent a bearer token challenge for one; invalid_token when the token
// itself is why (unknown, expired, revoked, or its client or user no longer able to use it).
const BEARER_CHALLENGE = 'Bearer realm="apas"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="apas", error="invalid_token", error_description="The access token is unknown, expired or revoked"';
/** The longest user name (an e-mail address) a Basic header may carry. */
const MAX_USER_NAME = 320;

/** The token of a Bearer Authorization header (empty when none follows the scheme); null for any other header. */
export function parseBearer(header: string | undefined): string | null {
  const m = header === undefined ? null : /^Bearer(?:\s+(.*))?$/is.exec(header.trim());
  return m ? (m[1] ?? '').trim() : null;
}

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

// The web pages have no API key, so their failures count against a user name from one address (and the address),
// never against the name alone: nobody can lock a user out of the web pages from elsewhere. Across addresses they
// throttle the account, unless they come from a browser the user signed in with before (`device`).
function webSubject(userName: string, device: string | null = null): SignInSubject {
  return { kind: 'web', userName, device };
}

/**
 * Runs a bearer sign-in; its 401 answers challenge for a Bearer token (RFC 6750 §3) rather than for Basic credentials,
 * keeping any challenge the error already names (invalid_token).
 */
async function withBearerChallenge<T>(signIn: () => Promise<T>): Promise<T> {
  try {
    return await signIn();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || error.headers['WWW-Authenticate'] !== undefined) throw error;
    throw new ApiError(error.code, error.message, { fields: error.fields, headers: { ...error.headers, 'WWW-Authenticate': BEARER_CHALLENGE } });
  }
}

/**
 * Checks Basic credentials plus X-ApiKey, then the second factor of users enrolled in MFA. Verified
 * password/key combinations are remembered by their digest so that a request costs no password hash; every
 * request still reads the user and key rows, so a changed password, a disabled user or a revoked key takes
 * effect at once, on every instance. Failed sign-ins are slowed down and locked out by the SignInGuard: a check
 * that costs a hash or can be guessed (a TOTP code) is counted as a failure before it runs and forgiven when it
 * succeeds, and concurrent requests with the same new credentials share one check. The API key is checked before
 * the password, so that wrong passwords count against a user name only when sent with that user's key. An OAuth
 * access token may stand in for the password (Bearer), and OAuth clients authenticate here too, under the same rules.
 */
export class AuthService implements SignInChecks {
  readonly #verified = new Map<string, Verified>();
  readonly #checking = new Map<string, Promise<boolean>>();
  // When this instance last wrote a key's last use: the key rows are cached, so their own mark can lag behind.
  readonly #keyMarks = new Map<string, number>();

  constructor(
    private readonly store: Pick<Store, 'accounts' | 'mfa' | 'oauth' | 'organizations' | 'sessions' | 'transaction'>, private readonly clock: Clock, private readonly guard: SignInGuard, private readonly ids: IdGenerator,
    private readonly passwords: PasswordPolicy = ANY_PASSWORD,
  ) {}

  /**
   * The caller behind the credentials (Basic, or an OAuth access token as Bearer, plus X-ApiKey); throws
   * AUTHENTICATION_REQUIRED, INVALID_CREDENTIALS, SIGN_IN_LOCKED or MFA_*.
   */
  async authenticate(p: PresentedCredentials): Promise<Caller> {
    const bearer = parseBearer(p.authorization);
    if (bearer !== null) return withBearerChallenge(() => this.#authenticateBearer(bearer, p));
    const basic = parseBasic(p.authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your user name and password with HTTP Basic authentication.');
    if (!p.apiKey) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your API key in the X-ApiKey header.');
    const key = parseApiKey(p.apiKey);
    const [user, keyRow] = await Promise.all([this.store.accounts.findUserByEmail(basic.email), key ? this.store.accounts.findApiKey(key.id) : Promise.resolve(null)]);
    const usable = user && !user.disabled && key && keyRow && keyRow.revokedAt === null && keyRow.userId === user.id;
    const cacheKey = digest(`${basic.email.toLowerCase()}\u0000${basic.password}\u0000${p.apiKey}`);
    const cached = this.#verified.get(cacheKey);
    const remembered = Boolean(usable && cached && cached.passwordHash === user.passwordHash && cached.keyHash === keyRow.secretHash);
    const subject: SignInSubject = { kind: 'user', userName: basic.email };
    const ok = await this.#verify(remembered, cacheKey, subject, p.clientAddress, async () => {
      // The key first: a long random secret, which a guesser does not have, so failures count against the user name
      // only once the key is that user's; before that, against the address alone. An unknown key id, another user's
      // key and a wrong secret cost the same one hash and get the same answer.
      const keyOk = await this.#counted(ADDRESS_ONLY, p.clientAddress, async () => {
        const matches = await verifySecret(usable ? keyRow.secretHash : DUMMY_HASH, key?.secret ?? '');
        return Boolean(usable && matches);
      });
      if (!keyOk || !usable) return false;
      return this.#counted(subject, p.clientAddress, async () => {
        if (!(await verifySecret(user.passwordHash, basic.password))) return false;
        this.#remember(cacheKey, { passwordHash: user.passwordHash, keyHash: keyRow.secretHash });
        return true;
      });
    });
    if (!ok || !usable) throw new ApiError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
    await this.#requirePasswordAllowed(user);
    const factor = await this.#secondFactor(user, p.totp, p.sessionToken, subject, p.clientAddress);
    if (this.#markDue(keyRow)) await this.#markUsed(keyRow);
    return this.#caller(user, keyRow.id, factor);
  }

  /**
   * An OAuth access token in place of Basic credentials: the token must be live (not expired or revoked) and its
   * client and the client's user too, and X-ApiKey a live key of that user, checked as on the Basic path (counted
   * against the address, remembered once verified). The token is checked first: it cannot be guessed, so a wrong
   * one costs no hash and counts no failure. A lock of the user name or address holds here as for Basic, and so
   * does the second factor of a user enrolled in MFA.
   */
  async #authenticateBearer(token: string, p: PresentedCredentials): Promise<Caller> {
    if (!p.apiKey) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your API key in the X-ApiKey header.');
    const parts = parseAccessToken(token);
    const row = parts ? await this.store.oauth.findAccessToken(parts.id) : null;
    const client = row ? await this.store.oauth.findClient(row.clientId) : null;
    const user = client ? await this.store.accounts.findUserById(client.userId) : null;
    const live = parts && row && client && user && tokenMatches(parts.secret, row.tokenHash) && row.revokedAt === null
      && row.expiresAt > this.clock.now() && client.revokedAt === null && !user.disabled;
    if (!live) {
      throw new ApiError('INVALID_CREDENTIALS', 'The access token is unknown, expired or revoked; get a new one from the token endpoint.', {
        headers: { 'WWW-Authenticate': INVALID_TOKEN_CHALLENGE },
      });
    }
    const subject: SignInSubject = { kind: 'user', userName: user.email };
    await this.guard.check(subject, p.clientAddress);
    const keyRow = await this.#checkKey(p.apiKey, user.id, p.clientAddress);
    if (!keyRow) throw new ApiError('INVALID_CREDENTIALS', 'The API key is not valid for the access token\'s user.');
    const factor = await this.#secondFactor(user, p.totp, p.sessionToken, subject, p.clientAddress);
    if (this.#markDue(keyRow)) await this.#markUsed(keyRow);
    return this.#caller(user, keyRow.id, factor);
  }

  /**
   * Authenticates an OAuth client at the token and revocation endpoints: its id and secret, plus X-ApiKey, which
   * must be a live key of the client's user. As with Basic credentials the key is checked first, against the
   * address alone, and a wrong secret counts against the user's name only when it came with the user's own key;
   * so these failures share the sign-in lockout, and a locked name or address gets no token. Throws
   * `invalid_client` (the same for every wrong part) or SIGN_IN_LOCKED.
   */
  async authenticateClient(p: PresentedClient): Promise<AuthenticatedClient> {
    if (!p.apiKey) throw new OAuthError('invalid_client', 'Send an API key of the client\'s user in the X-ApiKey header.');
    const client = isClientId(p.clientId) ? await this.store.oauth.findClient(p.clientId) : null;
    const user = client && client.revokedAt === null ? await this.store.accounts.findUserById(client.userId) : null;
    const keyRow = await this.#checkKey(p.apiKey, user?.id ?? null, p.clientAddress);
    if (!client || !user || !keyRow) throw new OAuthError('invalid_client', BAD_CLIENT);
    const ok = await this.#counted({ kind: 'user', userName: user.email }, p.clientAddress, () => verifySecret(client.secretHash, p.clientSecret));
    if (!ok) throw new OAuthError('invalid_client', BAD_CLIENT);
    if (this.#markDue(keyRow)) await this.#markUsed(keyRow);
    return { client, user, apiKeyId: keyRow.id };
  }

  /**
   * The key row when `apiKey` is a live key of the user `userId` (null: no such user), else null. Its secret costs
   * an argon2id verification counted against the address alone (of a dummy hash when there is no usable row, so
   * that every failure costs the same), unless this key text was verified for this user against the same hash before.
   */
  async #checkKey(apiKey: string, userId: string | null, address: string): Promise<ApiKeyRecord | null> {
    const key = parseApiKey(apiKey);
    const keyRow = key ? await this.store.accounts.findApiKey(key.id) : null;
    const usable = userId !== null && key && keyRow && keyRow.revokedAt === null && keyRow.userId === userId ? keyRow : null;
    // Per user and key: concurrent checks of one key share a run only when they ask about the same user.
    const cacheKey = digest(`key\u0000${userId ?? ''}\u0000${apiKey}`);
    if (usable && this.#verified.get(cacheKey)?.keyHash === usable.secretHash) return usable;
    const ok = await this.#checkOnce(cacheKey, () => this.#counted(ADDRESS_ONLY, address, async () => {
      const matches = await verifySecret(usable?.secretHash ?? DUMMY_HASH, key?.secret ?? '');
      if (!matches || !usable) return false;
      this.#remember(cacheKey, { passwordHash: '', keyHash: usable.secretHash });
      return true;
    }));
    return ok ? usable : null;
  }

  /**
   * Signs in on the web pages (the landing page and its reply form), which have no API key and only one password
   * field: a user enrolled in MFA appends the current 6-digit code to the password, as with most one-time-password
   * sign-ins. Since a code works once and browsers resend what was typed on every page, a sign-in with a code
   * starts a web session (see WebSignIn); while the browser sends its cookie back, the cookie is the second factor
   * and the code at the end of the password is not looked at.
   */
  async authenticateWeb(authorization: string | undefined, webSession: string | undefined, clientAddress: string, requestId?: string): Promise<WebSignIn> {
    const basic = parseBasic(authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Sign in with your user name and password.');
    const found = await this.store.accounts.findUserByEmail(basic.email);
    const enrolment = found ? await this.store.mfa.getMfa(found.id) : null;
    const code = enrolment ? basic.password.slice(-6) : undefined;
    const password = enrolment ? basic.password.slice(0, -6) : basic.password;
    const user = await this.#checkWebPassword(found, basic.email, password, clientAddress);
    if (enrolment && webSession !== undefined && (await this.#webSessionValid(user, webSession))) {
      return { caller: await this.#caller(user, '', { mfaVerified: true, mfaMethod: 'web' }), newSession: null };
    }
    const factor = await this.#secondFactor(user, code, undefined, webSubject(basic.email), clientAddress);
    const caller = await this.#caller(user, '', factor);
    return { caller, newSession: factor.mfaVerified ? await this.#startWebSession(caller, requestId) : null };
  }

  /**
   * SignInChecks of the web application's sign-in page: the password, checked and counted as on every web page;
   * `device` is the browser's known-device cookie, if it sent one.
   */
  async checkPassword(email: string, password: string, address: string, device?: string): Promise<UserWithSecret> {
    return this.#checkWebPassword(await this.store.accounts.findUserByEmail(email), email, password, address, device);
  }

  /** SignInChecks: a new known-device cookie for a user who just signed in. */
  knownDevice(user: UserWithSecret): string {
    return newKnownDevice(user);
  }

  /** The password check of the web pages, remembered like the API's and counted per user name and address. */
  async #checkWebPassword(user: UserWithSecret | null, email: string, password: string, address: string, device?: string): Promise<UserWithSecret> {
    const cacheKey = digest(`web\u0000${email.toLowerCase()}\u0000${password}`);
    const cached = this.#verified.get(cacheKey);
    const remembered = Boolean(user && cached && cached.passwordHash === user.passwordHash);
    const subject = webSubject(email, knownDeviceOf(user, device));
    const ok = await this.#verify(remembered, cacheKey, subject, address, () => this.#counted(subject, address, async () => {
      const matches = await verifySecret(user?.passwordHash ?? DUMMY_HASH, password);
      if (!matches || !user) return false;
      this.#remember(cacheKey, { passwordHash: user.passwordHash, keyHash: '' });
      return true;
    }));
    if (!ok || !user) throw new ApiError('INVALID_CREDENTIALS', 'The user name or password is not valid.');
    if (user.disabled) return this.#refuse(subject, address, 'The user name or password is not valid.');
    await this.#requirePasswordAllowed(user);
    return user;
  }

  // Checked only once the password is right, so a guesser learns nothing of the account from it.
  async #requirePasswordAllowed(user: UserWithSecret): Promise<void> {
    const policy = await this.passwords.passwordAllowed(user);
    if (!policy.allowed) {
      throw new ApiError('FORBIDDEN', `Your agency signs its staff in with single sign-on: use "Sign in with ${policy.label}" on the sign-in page; the API takes an OAuth access token instead of your password.`);
    }
  }

  /** SignInChecks: true for a user enrolled in MFA. */
  async hasMfa(userId: string): Promise<boolean> {
    return (await this.store.mfa.getMfa(userId)) !== null;
  }

  /** SignInChecks: accepts a current TOTP code of the user once, counted like a password. */
  async checkCode(user: UserWithSecret, code: string, address: string, device?: string): Promise<void> {
    if (code === '') throw new ApiError('MFA_INVALID', 'Enter the code your authenticator app shows.');
    await this.#secondFactor(user, code, undefined, webSubject(user.email, knownDeviceOf(user, device)), address);
  }

  /** SignInChecks: the caller a signed-in user acts as, with the grants they have now. */
  callerOf(user: UserWithSecret, mfaVerified: boolean): Promise<Caller> {
    return this.#caller(user, '', mfaVerified ? { mfaVerified: true, mfaMethod: 'web' } : { mfaVerified: false });
  }

  async #webSessionValid(user: UserWithSecret, value: string): Promise<boolean> {
    const parts = parseSessionToken(value);
    const row = parts ? await this.store.mfa.getWebSession(parts.id) : null;
    return Boolean(parts && row && row.userId === user.id && row.expiresAt > this.clock.now() && tokenMatches(parts.secret, row.secretHash));
  }

  // A new web session for a browser that just proved a TOTP code; only the SHA-256 of its secret is kept.
  async #startWebSession(caller: Caller, requestId: string | undefined): Promise<{ value: string; expiresAt: number }> {
    const now = this.clock.now();
    const parts = newSessionToken(this.ids);
    const expiresAt = now + WEB_SESSION_MINUTES * 60_000;
    await this.store.transaction(async (tx) => {
      await tx.mfa.insertWebSession({ id: parts.id, userId: caller.user.id, secretHash: hashTokenSecret(parts.secret), createdAt: now, expiresAt });
      await tx.audit.write({ action: 'user.mfa.web_session.create', actorId: caller.user.id, agencyId: caller.user.agencyId, detail: { sessionId: parts.id, expiresAt }, requestId }, now, this.ids.next());
    });
    return { value: formatSessionToken(parts), expiresAt };
  }

  /**
   * True for credentials that were remembered (after checking only that no lock is in force), else the result of
   * `check` run through #checkOnce.
   */
  async #verify(remembered: boolean, cacheKey: string, subject: SignInSubject, address: string, check: () => Promise<boolean>): Promise<boolean> {
    if (!remembered) return this.#checkOnce(cacheKey, check);
    await this.guard.check(subject, address);
    return true;
  }

  /**
   * Runs the hash checks of credentials that are not remembered. Concurrent requests with the same credentials wait
   * for one run instead of each paying (and counting) their own.
   */
  #checkOnce(cacheKey: string, check: () => Promise<boolean>): Promise<boolean> {
    const running = this.#checking.get(cacheKey);
    if (running) return running;
    const run = check().finally(() => this.#checking.delete(cacheKey));
    this.#checking.set(cacheKey, run);
    return run;
  }

  /**
   * Runs one expensive check counted as a failed sign-in of `subject` from before it starts (SIGN_IN_LOCKED when that
   * passes the limit), kept counted and slowed down when it fails, forgiven when it succeeds.
   */
  async #counted(subject: SignInSubject, address: string, check: () => Promise<boolean>): Promise<boolean> {
    const attempt = await this.guard.begin(subject, address);
    try {
      const ok = await check();
      if (!ok) await attempt.fail();
      return ok;
    } finally {
      await attempt.settle();
    }
  }

  // Enrolled users prove a second factor on every request: a TOTP code (good once) or a live session token.
  async #secondFactor(user: UserWithSecret, totp: string | undefined, sessionToken: string | undefined, subject: SignInSubject, address: string): Promise<SecondFactor> {
    const enrolment = await this.store.mfa.getMfa(user.id);
    if (!enrolment) return { mfaVerified: false };
    const now = this.clock.now();
    if (totp) {
      // A code can be guessed, so it is counted before it is checked, like a password.
      const attempt = await this.guard.begin(subject, address);
      try {
        const step = totpStep(enrolment.secret, totp.trim(), now);
        if (step === null || !(await this.store.mfa.claimTotpStep(user.id, step))) {
          await attempt.fail();
          throw new ApiError('MFA_INVALID', 'The one-time code is wrong, expired or already used.');
        }
      } finally {
        await attempt.settle();
      }
      return { mfaVerified: true, mfaMethod: 'totp' };
    }
    if (sessionToken) {
      const parts = parseSessionToken(sessionToken);
      const row = parts ? await this.store.mfa.getSessionToken(parts.id) : null;
      if (!parts || !row || row.userId !== user.id || row.expiresAt <= now || !tokenMatches(parts.secret, row.tokenHash)) {
        return this.#refuse(subject, address, 'The MFA session token is not valid or has expired.', 'MFA_INVALID');
      }
      return { mfaVerified: true, mfaMethod: 'session', mfaSessionTokenId: row.id };
    }
    throw new ApiError('MFA_REQUIRED', 'This account uses multi-factor authentication: send a current code in X-Mfa-Totp or a session token in X-Mfa-Session-Token.');
  }

  // A failure of a cheap check, counted after it (a session token cannot be guessed; a disabled user is known).
  async #refuse(subject: SignInSubject, address: string, message: string, code: 'INVALID_CREDENTIALS' | 'MFA_INVALID' = 'INVALID_CREDENTIALS'): Promise<never> {
    await this.guard.failed(subject, address);
    throw new ApiError(code, message);
  }

  #remember(cacheKey: string, entry: Verified): void {
    // Oldest-first eviction keeps memory bounded however many distinct credentials arrive.
    if (this.#verified.size >= MAX_CACHE) this.#verified.delete(this.#verified.keys().next().value as string);
    this.#verified.set(cacheKey, entry);
  }

  // True when a key's last use is due to be written: at most once a minute per key, checked without an async step
  // since every request asks.
  #markDue(key: ApiKeyRecord): boolean {
    return this.clock.now() - Math.max(key.lastUsedAt ?? 0, this.#keyMarks.get(key.id) ?? 0) >= MARK_EVERY_MS;
  }

  // A key's last use, for the console's Credentials page (#markDue says when).
  async #markUsed(key: ApiKeyRecord): Promise<void> {
    const now = this.clock.now();
    if (this.#keyMarks.size >= MAX_CACHE) this.#keyMarks.delete(this.#keyMarks.keys().next().value as string);
    this.#keyMarks.set(key.id, now);
    await this.store.sessions.markApiKeyUsed(key.id, now);
  }

  async #caller(user: UserWithSecret, apiKeyId: string, factor: SecondFactor): Promise<Caller> {
    // The organizations are cached like the grants, under the credentials topic that every membership change moves (on
    // any instance): a member removed from an organization sees none of its projects from the next request on.
    const [grants, organizationIds] = await Promise.all([this.store.accounts.listGrants(user.id), this.store.organizations.organizationIdsOf(user.id)]);
    const { id, agencyId, email, name, agencyAdmin, disabled } = user;
    return { user: { id, agencyId, email, name, agencyAdmin, disabled }, apiKeyId, grants, organizationIds, ...factor };
  }
}
