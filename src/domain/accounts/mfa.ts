import { createHash, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { IdGenerator } from '../../model/ids.ts';

/** TOTP parameters every authenticator app understands: SHA-1, 6 digits, 30 s. */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** A new random TOTP secret in base 32 (160 bits, as RFC 4226 recommends). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads (usually from a QR code). */
export function otpauthUri(secret: string, account: string, issuer = 'apas'): string {
  return new TOTP({ ...TOTP_PARAMS, issuer, label: account, secret: Secret.fromBase32(secret) }).toString();
}

/** The code for a moment (tests and the CLI's self-check use it). */
export function totpCode(secret: string, timestamp: number): string {
  return TOTP.generate({ ...TOTP_PARAMS, secret: Secret.fromBase32(secret), timestamp });
}

/** The time step a code belongs to (the current one or its neighbour either side), or null when it is wrong. */
export function totpStep(secret: string, code: string, timestamp: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ ...TOTP_PARAMS, token: code, secret: Secret.fromBase32(secret), timestamp, window: 1 });
  return delta === null ? null : TOTP.counter({ period: TOTP_PARAMS.period, timestamp }) + delta;
}

/** An MFA session token: `mst_<id>_<secret>`; only the SHA-256 of the secret is stored. */
export interface SessionTokenParts { id: string; secret: string }

/** A new session token; its secret is four ids of the generator (240 random bits from the real one). */
export function newSessionToken(ids: IdGenerator): SessionTokenParts {
  return { id: ids.next(), secret: `${ids.next()}${ids.next()}${ids.next()}${ids.next()}` };
}

/** The text a client sends in X-Mfa-Session-Token. */
export function formatSessionToken(t: SessionTokenParts): string {
  return `mst_${t.id}_${t.secret}`;
}

/** Splits a session token; null when it is not shaped like one. */
export function parseSessionToken(text: string): SessionTokenParts | null {
  const m = /^mst_([0-9A-Z]{12})_([0-9A-Z]{48})$/.exec(text.trim());
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

/** SHA-256 of a token secret: enough for 240 random bits, and cheap on every request (unlike a password hash). */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares a token secret with its stored hash in constant time. */
export function tokenMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashTokenSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
