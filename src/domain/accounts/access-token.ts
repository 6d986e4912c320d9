import type { IdGenerator } from '../../model/ids.ts';
import { randomToken } from '../../model/ids.ts';

/** An OAuth access token: `at_<id>_<secret>`; the id names its row, only the SHA-256 of the secret is stored. */
export interface AccessTokenParts { id: string; secret: string }

const TOKEN = /^at_([0-9A-Z]{12})_([0-9A-Z]{60})$/;
const CLIENT_ID = /^[0-9A-Z]{12}$/;

/** A new access token; its secret is five ids of the generator (300 random bits from the real one). */
export function newAccessToken(ids: IdGenerator): AccessTokenParts {
  return { id: ids.next(), secret: `${ids.next()}${ids.next()}${ids.next()}${ids.next()}${ids.next()}` };
}

/** The text a client sends as `Authorization: Bearer …`. */
export function formatAccessToken(t: AccessTokenParts): string {
  return `at_${t.id}_${t.secret}`;
}

/** Splits an access token; null when it is not shaped like one. */
export function parseAccessToken(text: string): AccessTokenParts | null {
  const m = TOKEN.exec(text);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

/** True for text shaped like a client id (a generated id), the only kind worth looking up. */
export function isClientId(text: string): boolean {
  return CLIENT_ID.test(text);
}

/** A new client secret: 40 random characters (200 bits), stored only as an argon2id hash like an API key's. */
export function newClientSecret(): string {
  return randomToken(40);
}
