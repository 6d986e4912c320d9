/** What a secret's value is replaced with. */
export const REDACTED = '[redacted]';

// Query parameters whose values are secrets: mailed links' tokens, CSRF tokens, OAuth tokens and secrets.
const SECRET_PARAMS = new Set(['token', '_csrf', 'access_token', 'refresh_token', 'client_secret', 'password']);
// The shapes of apas's own credentials (API keys, MFA session tokens, OAuth access tokens): wherever one appears.
const CREDENTIAL = /^(?:apas|mst|at)_[0-9A-Za-z]{8,}_[0-9A-Za-z]{16,}$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A request target (path and query) fit for a log: the values of secret query parameters (`token`, `_csrf`,
 * `access_token`, …; names compared decoded and case-insensitively) and any path segment or value shaped like an
 * apas credential become `[redacted]`. Everything else stays as it was sent.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const safePath = path.split('/').map((segment) => (CREDENTIAL.test(decoded(segment)) ? REDACTED : segment)).join('/');
  if (q < 0) return safePath;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (SECRET_PARAMS.has(decoded(name).toLowerCase()) || CREDENTIAL.test(decoded(value))) return `${name}=${REDACTED}`;
    // A path of this service carried along (the sign-in page's `next`) may hold secrets of its own.
    const inner = decoded(value);
    if (inner.startsWith('/') && inner.includes('?')) {
      const safe = redactUrl(inner);
      if (safe !== inner) return `${name}=${encodeURIComponent(safe)}`;
    }
    return pair;
  });
  return `${safePath}?${query.join('&')}`;
}

/**
 * A mail body (text or HTML) with the secrets of its links redacted: the value of every `token`-like query parameter
 * (see redactUrl) in any URL in it. What a sent mail keeps, so a stored copy opens no account.
 */
export function redactLinks(body: string): string {
  return body.replace(/([?&;])([A-Za-z_%0-9]+)=([^&\s"'<>]+)/g, (whole, lead: string, name: string) =>
    (SECRET_PARAMS.has(decoded(name).toLowerCase()) ? `${lead}${name}=${REDACTED}` : whole));
}
