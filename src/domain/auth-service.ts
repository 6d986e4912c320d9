import { ApiError } from './api-error.ts';
import type { Caller } from './caller.ts';
import { digest, parseApiKey, verifySecret } from './secrets.ts';
import type { Store } from '../store/store.ts';

/** What a request presented: the raw Authorization and X-ApiKey header values. */
export interface PresentedCredentials { authorization: string | undefined; apiKey: string | undefined }

interface Verified { userId: string; keyId: string; passwordHash: string; keyHash: string }

const MAX_CACHE = 10_000;
// A fixed argon2id hash verified when the user does not exist, so that a miss costs as long as a hit.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$Oz1dAbjFbdYt+Ei6yEYAKA$wo5UWHX1e6sIKsz/wzc6GR4FD1RDjWbORamYRPwhuEM';

/** Splits a Basic Authorization header into user name and password; null when it is not one. */
export function parseBasic(header: string | undefined): { email: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { email: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * Checks Basic credentials plus X-ApiKey. Verified combinations are remembered by their digest so that a
 * request costs no password hash; every request still reads the user and key rows, so a changed password,
 * a disabled user or a revoked key takes effect at once, on every instance.
 */
export class AuthService {
  readonly #store: Store;
  readonly #verified = new Map<string, Verified>();

  constructor(store: Store) {
    this.#store = store;
  }

  /** The caller behind the credentials; throws AUTHENTICATION_REQUIRED or INVALID_CREDENTIALS. */
  async authenticate(presented: PresentedCredentials): Promise<Caller> {
    const basic = parseBasic(presented.authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your user name and password with HTTP Basic authentication.');
    if (!presented.apiKey) throw new ApiError('AUTHENTICATION_REQUIRED', 'Send your API key in the X-ApiKey header.');
    const key = parseApiKey(presented.apiKey);
    const [user, keyRow] = await Promise.all([
      this.#store.findUserByEmail(basic.email),
      key ? this.#store.findApiKey(key.id) : Promise.resolve(null),
    ]);
    const cacheKey = digest(`${basic.email.toLowerCase()}\u0000${basic.password}\u0000${presented.apiKey}`);
    const usable = user && !user.disabled && key && keyRow && keyRow.revokedAt === null && keyRow.userId === user.id;
    const cached = this.#verified.get(cacheKey);
    if (usable && cached && cached.passwordHash === user.passwordHash && cached.keyHash === keyRow.secretHash) {
      return this.#caller(user, keyRow.id);
    }
    const passwordOk = await verifySecret(user?.passwordHash ?? DUMMY_HASH, basic.password);
    // The key is checked even when the user is unknown, so timing tells nothing about which part was wrong.
    let keyOk = false;
    if (usable) keyOk = await verifySecret(keyRow.secretHash, key.secret);
    else await verifySecret(DUMMY_HASH, key?.secret ?? '');
    if (!usable || !passwordOk || !keyOk) {
      throw new ApiError('INVALID_CREDENTIALS', 'The user name, password or API key is not valid.');
    }
    this.#remember(cacheKey, { userId: user.id, keyId: keyRow.id, passwordHash: user.passwordHash, keyHash: keyRow.secretHash });
    return this.#caller(user, keyRow.id);
  }

  /** Checks only a user's password (web pages, which have no API key); throws like authenticate. */
  async authenticatePassword(authorization: string | undefined): Promise<Caller> {
    const basic = parseBasic(authorization);
    if (!basic) throw new ApiError('AUTHENTICATION_REQUIRED', 'Sign in with your user name and password.');
    const user = await this.#store.findUserByEmail(basic.email);
    const cacheKey = digest(`web\u0000${basic.email.toLowerCase()}\u0000${basic.password}`);
    const cached = this.#verified.get(cacheKey);
    if (user && !user.disabled && cached && cached.passwordHash === user.passwordHash) return this.#caller(user, '');
    const ok = await verifySecret(user?.passwordHash ?? DUMMY_HASH, basic.password);
    if (!user || user.disabled || !ok) throw new ApiError('INVALID_CREDENTIALS', 'The user name or password is not valid.');
    this.#remember(cacheKey, { userId: user.id, keyId: '', passwordHash: user.passwordHash, keyHash: '' });
    return this.#caller(user, '');
  }

  #remember(cacheKey: string, entry: Verified): void {
    // Oldest-first eviction keeps memory bounded however many distinct credentials arrive.
    if (this.#verified.size >= MAX_CACHE) this.#verified.delete(this.#verified.keys().next().value as string);
    this.#verified.set(cacheKey, entry);
  }

  async #caller(user: { id: string; agencyId: string; email: string; name: string; agencyAdmin: boolean; disabled: boolean }, apiKeyId: string): Promise<Caller> {
    const grants = await this.#store.listGrants(user.id);
    const { id, agencyId, email, name, agencyAdmin, disabled } = user;
    return { user: { id, agencyId, email, name, agencyAdmin, disabled }, apiKeyId, grants };
  }
}
