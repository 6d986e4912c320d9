import { ApiError } from '../domain/api-error.ts';

/** The most characters of a key. */
export const MAX_KEY_LENGTH = 255;

// An sf-string (RFC 9651 §3.3.3): printable ASCII in double quotes, `"` and `\` escaped with a backslash.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
// Leniently, what clients that do not quote send (a UUID, say): RFC 9110 tchar, plus ":" and "/" as sf-token allows.
const BARE_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]+$/;

function malformed(why: string): ApiError {
  return new ApiError('INVALID_REQUEST',
    `The Idempotency-Key header is not valid: ${why}. Send one key of 1 to ${MAX_KEY_LENGTH} printable ASCII characters as a quoted string, such as "8e03978e-40d5-43e8-bc93-6894a57f9324".`);
}

/**
 * The key an Idempotency-Key field names (draft-ietf-httpapi-idempotency-key-header §2: an Item whose value is an
 * sf-string), unquoted and unescaped; a bare token is taken as the same key quoted. Anything else (two fields, a
 * parameter, a character outside printable ASCII, an empty or over-long key) is a 400, never a silent new key.
 */
export function parseIdempotencyKey(field: string | string[]): string {
  if (Array.isArray(field)) throw malformed('it was sent more than once');
  const value = field.trim();
  const quoted = SF_STRING.exec(value);
  let key: string;
  if (quoted) key = quoted[1]!.replace(/\\(["\\])/g, '$1');
  else if (BARE_TOKEN.test(value)) key = value;
  else throw malformed(value.startsWith('"') ? 'it is not one quoted string of printable ASCII characters' : 'it is neither a quoted string nor a token');
  if (key.length === 0) throw malformed('the key is empty');
  if (key.length > MAX_KEY_LENGTH) throw malformed(`the key has ${key.length} characters`);
  return key;
}
