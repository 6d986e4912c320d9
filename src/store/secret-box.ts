import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { ConfigError } from '../config.ts';
import { StoreError } from './store-error.ts';

/**
 * Envelope encryption of the secrets the service must be able to read back (TOTP secrets, webhook signing secrets):
 * each value is encrypted with its own random data key (AES-256-GCM), and that data key is wrapped with a key
 * encryption key that never enters the database. Rotating the key encryption key re-wraps the small data keys only.
 * Values that must also be found by equality (sensitive data fields) get a blind index beside them: a keyed hash of the
 * value under a key derived from the key encryption key, so equal values match without the database learning them.
 */

/** One key encryption key: a short public id (stored beside every value it wraps) and 32 secret bytes. */
export interface SecretKey { id: string; key: Buffer }

/** A sealed value as stored: `sealed:v1:<key id>:<wrapped data key>:<iv>:<ciphertext and tag>`, base64url parts. */
const PREFIX = 'sealed:v1:';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Encrypts and decrypts stored secrets with the configured keys; the first key seals, every key opens. */
export interface SecretBox {
  /** Seals `plain`, bound to `context` (table, column and row), so a sealed value cannot be moved to another row. */
  seal(plain: string, context: string): string;
  /** Opens a sealed value; a value stored before encryption (not sealed) is returned as it is. */
  open(stored: string, context: string): string;
  /** The stored value re-wrapped with the first key (null when it already is): key rotation, or sealing a legacy value. */
  reseal(stored: string, context: string): string | null;
  /** The id of the key that seals. */
  readonly primaryKeyId: string;
  /** The key id a stored value is sealed with; null for a legacy, unsealed value. */
  keyIdOf(stored: string): string | null;
  /** Whether a key of this id is configured (and so opens what it sealed). */
  hasKey(keyId: string): boolean;
  /**
   * The blind indexes of `plain` in `context` (`bi:<key id>:<HMAC-SHA-256>`), the sealing key's first and then one per
   * other configured key: an equality search matches any of them, so values indexed before a rotation are still found.
   */
  blindIndexes(plain: string, context: string): string[];
}

const BLIND_PREFIX = 'bi:';

/** The key id a stored value is sealed with; null for a value in clear. Needs no key. */
export function sealedKeyId(stored: string): string | null {
  return stored.startsWith(PREFIX) ? (stored.slice(PREFIX.length).split(':')[0] ?? null) : null;
}

/** Whether a stored value is sealed: exactly when sealedKeyId gives a key id, without taking the text apart. */
export function isSealedText(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The key id a blind index was made with; null when `stored` is not one. */
export function blindIndexKeyId(stored: string): string | null {
  return stored.startsWith(BLIND_PREFIX) ? (stored.slice(BLIND_PREFIX.length).split(':')[0] ?? null) : null;
}

function b64(data: Buffer): string {
  return data.toString('base64url');
}

function gcm(key: Buffer, iv: Buffer, data: Buffer, aad: string): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  return Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
}

function ungcm(key: Buffer, iv: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** A SecretBox over `keys` (at least one; the first seals). */
export function createSecretBox(keys: SecretKey[]): SecretBox {
  if (keys.length === 0) throw new Error('a SecretBox needs at least one key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const primary = keys[0]!;
  const parse = (stored: string) => {
    const parts = stored.slice(PREFIX.length).split(':');
    if (parts.length !== 4) throw new StoreError('SECRET_UNREADABLE', 'A stored secret is damaged (not a sealed value).');
    const [keyId, wrapped, iv, data] = parts as [string, string, string, string];
    const kek = byId.get(keyId);
    if (!kek) throw new StoreError('SECRET_UNREADABLE', `A stored secret is sealed with the key "${keyId}", which is not configured (APAS_SECRET_KEYS or APAS_SECRET_KEY_FILE).`);
    return { keyId, kek, wrapped: Buffer.from(wrapped, 'base64url'), iv: Buffer.from(iv, 'base64url'), data: Buffer.from(data, 'base64url') };
  };
  // The wrapped data key carries its own 12-byte IV in front; its AAD names the key id, so a key cannot be swapped.
  const wrap = (dataKey: Buffer, context: string) => {
    const iv = randomBytes(12);
    return Buffer.concat([iv, gcm(primary.key, iv, dataKey, `${primary.id}|${context}`)]);
  };
  const unwrap = (kek: Buffer, keyId: string, wrapped: Buffer, context: string) => {
    try {
      return ungcm(kek, wrapped.subarray(0, 12), wrapped.subarray(12), `${keyId}|${context}`);
    } catch {
      throw new StoreError('SECRET_UNREADABLE', `A stored secret does not open with the key "${keyId}": the key is wrong or the value was changed.`);
    }
  };
  const format = (keyId: string, wrapped: Buffer, iv: Buffer, data: Buffer) => `${PREFIX}${keyId}:${b64(wrapped)}:${b64(iv)}:${b64(data)}`;
  // One HMAC key per key encryption key, derived (HKDF) so that the key that seals is never itself used as a MAC key.
  const indexKeys = keys.map((k) => ({ id: k.id, key: Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), 'apas blind index v1', 32)) }));
  return {
    primaryKeyId: primary.id,
    seal(plain, context) {
      const dataKey = randomBytes(32);
      const iv = randomBytes(12);
      return format(primary.id, wrap(dataKey, context), iv, gcm(dataKey, iv, Buffer.from(plain, 'utf8'), context));
    },
    open(stored, context) {
      if (!stored.startsWith(PREFIX)) return stored;
      const p = parse(stored);
      const dataKey = unwrap(p.kek, p.keyId, p.wrapped, context);
      try {
        return ungcm(dataKey, p.iv, p.data, context).toString('utf8');
      } catch {
        throw new StoreError('SECRET_UNREADABLE', 'A stored secret was changed or moved from another row.');
      }
    },
    reseal(stored, context) {
      if (!stored.startsWith(PREFIX)) return this.seal(stored, context);
      const p = parse(stored);
      if (p.keyId === primary.id) return null;
      // Only the data key is re-wrapped: the value itself is not decrypted, which is the point of the envelope.
      return format(primary.id, wrap(unwrap(p.kek, p.keyId, p.wrapped, context), context), p.iv, p.data);
    },
    keyIdOf: sealedKeyId,
    hasKey: (keyId) => byId.has(keyId),
    blindIndexes: (plain, context) => indexKeys.map((k) => `${BLIND_PREFIX}${k.id}:${b64(createHmac('sha256', k.key).update(`${context}\u0000${plain}`).digest())}`),
  };
}

/** Parses key lines `ID:BASE64` (32 bytes each; one per line or comma-separated); `source` names where they came from. */
export function parseSecretKeys(text: string, source: string): SecretKey[] {
  const entries = text.split('\n').filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(',')).map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0) throw new ConfigError(`${source} holds no key; each key is a line ID:BASE64 (make one with "apas secrets new-key").`);
  const keys: SecretKey[] = [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const key = Buffer.from(colon < 0 ? '' : entry.slice(colon + 1), 'base64');
    if (!KEY_ID.test(id) || key.length !== 32) {
      throw new ConfigError(`${source}: every key must be ID:BASE64 with an id of letters, digits, - or _ and 32 bytes of key (make one with "apas secrets new-key").`);
    }
    if (keys.some((k) => k.id === id)) throw new ConfigError(`${source} names the key id "${id}" twice.`);
    keys.push({ id, key });
  }
  return keys;
}

/** A new key line `ID:BASE64` with a date-based id, for a key file or APAS_SECRET_KEYS. */
export function newSecretKeyLine(now: Date = new Date()): string {
  const id = `k${now.toISOString().slice(0, 10).replaceAll('-', '')}${randomBytes(3).toString('hex')}`;
  return `${id}:${randomBytes(32).toString('base64')}`;
}

/** A SecretBox with one new random key, for databases that live no longer than the process (tests, benchmarks). */
export function ephemeralSecretBox(): SecretBox {
  return createSecretBox(parseSecretKeys(newSecretKeyLine(), 'a key of this process'));
}

/** A SecretBox that loads its keys on first use: commands that never touch a secret need no key configured. */
export function lazySecretBox(load: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= load());
  return {
    get primaryKeyId() {
      return get().primaryKeyId;
    },
    seal: (plain, context) => get().seal(plain, context),
    open: (stored, context) => get().open(stored, context),
    reseal: (stored, context) => get().reseal(stored, context),
    keyIdOf: (stored) => get().keyIdOf(stored),
    hasKey: (keyId) => get().hasKey(keyId),
    blindIndexes: (plain, context) => get().blindIndexes(plain, context),
  };
}
