import { createHash, randomBytes } from 'node:crypto';

/** How long a mailed signing link works (ms): a week; a resend or a reminder mails a new one. */
export const LINK_TTL_MS = 7 * 24 * 3_600_000;

/** The signing page: `?token=` for a mailed link, `?EnvelopeId=` for a signed-in signer or staff. */
export const SIGNING_PATH = '/MvcProjects/Sign';

/** The document of an envelope, shown inline on the signing page (same parameters as the page). */
export const SIGNING_DOCUMENT_PATH = '/MvcProjects/Sign/Document';

/**
 * A new link token: 32 random bytes, base64url. Only its SHA-256 is stored: the token is as unguessable as a key, so a
 * slow password hash would add nothing but cost to every visit of the page.
 */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a link token. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The signing page's address for a token (`token` is redacted from logs and kept mails) or an envelope. */
export function signingUrl(publicUrl: string, of: { token: string } | { envelopeId: string }): string {
  const query: Record<string, string> = 'token' in of ? { token: of.token } : { EnvelopeId: of.envelopeId };
  return `${publicUrl}${SIGNING_PATH}?${new URLSearchParams(query).toString()}`;
}
