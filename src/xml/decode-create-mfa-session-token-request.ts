import type { SchemaRegistry } from './schema-registry.ts';
import { readXml } from './xml-reader.ts';

/** Root element of CreateMfaSessionToken's optional body. */
export const CREATE_MFA_SESSION_TOKEN_REQUEST = 'CreateMfaSessionTokenRequest';

/** Reads the optional body: the lifetime in minutes, or null when the attribute (or the whole body) is absent. */
export function decodeCreateMfaSessionTokenRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): { minutes: number | null } {
  const root = readXml(body, CREATE_MFA_SESSION_TOKEN_REQUEST, ns, schemas);
  const raw = root.attrs['ExpiresAfterMinutes'];
  // The XSD has already refused anything but a positive integer; a huge one still becomes a number the service refuses.
  return { minutes: raw === undefined ? null : Number(raw.trim()) };
}
