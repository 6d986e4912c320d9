import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { UserWithSecret } from '../../model/records.ts';
import { safeEqual } from './secrets.ts';

/** The cookie a browser keeps after a successful web sign-in, exempting it from the account-wide throttle. */
export const KNOWN_DEVICE_COOKIE = 'apas_device';

/** How long a browser stays known after its last sign-in (the cookie's Max-Age, in seconds). */
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 180 * 86_400;

// Keyed by the user's password hash: nothing more to store, and a password change forgets every known browser.
function mac(user: UserWithSecret, body: string): string {
  const key = createHash('sha256').update(`apas known device\u0000${user.passwordHash}`).digest();
  return createHmac('sha256', key).update(body).digest('base64url');
}

/** A new known-device cookie value for a user who just signed in: `<user id>.<random id>.<HMAC>`. */
export function newKnownDevice(user: UserWithSecret): string {
  const body = `${user.id}.${randomBytes(12).toString('base64url')}`;
  return `${body}.${mac(user, body)}`;
}

/** The random id of a known-device cookie when it is the user's and made with the current password; else null. */
export function knownDeviceOf(user: UserWithSecret | null, cookie: string | undefined): string | null {
  if (!user || cookie === undefined || cookie.length > 200) return null;
  const parts = cookie.split('.');
  if (parts.length !== 3 || parts[0] !== user.id) return null;
  const body = `${parts[0]}.${parts[1]}`;
  return safeEqual(mac(user, body), parts[2]!) ? parts[1]! : null;
}
