import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when a browser says the request comes from a page of this service: an `Origin` equal to the origin of the
 * public address, or, without an Origin, `Sec-Fetch-Site: same-origin`. Web forms sign in with HTTP Basic, which
 * browsers send on their own, so a form post from another site must be told apart this way.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, publicUrl: string): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return origin === new URL(publicUrl).origin;
  return headers['sec-fetch-site'] === 'same-origin';
}
