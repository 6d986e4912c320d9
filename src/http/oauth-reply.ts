import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../domain/api-error.ts';
import { OAuthError } from '../domain/accounts/oauth-error.ts';

/** Where the OAuth endpoints live: the API's base path (API_BASE in app.ts) + `/oauth`. */
export const OAUTH_BASE = '/services/v2/oauth';

/** The media type of every answer of the OAuth endpoints (RFC 6749 §5.1). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Headers of every answer of the OAuth endpoints: tokens, and errors about them, are never cached (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

// ApiError statuses that are a malformed request in OAuth's terms (a body too large, of another type, …).
const REQUEST_STATUSES = new Set([400, 413, 415, 431]);

/** True for a request of the OAuth endpoints, whose every answer (errors included) is JSON. */
export function isOAuthPath(url: string): boolean {
  return url === OAUTH_BASE || url.startsWith(`${OAUTH_BASE}/`) || url.startsWith(`${OAUTH_BASE}?`);
}

// RFC 6749 §5.2: error_description is printable ASCII without '"' and '\'.
function description(message: string): string {
  return message.replaceAll('…', '...').replaceAll('"', "'").replaceAll('\\', '/').replace(/[^\x20-\x7e]/g, '?');
}

/**
 * The RFC 6749 §5.2 code of a failure: an OAuthError's own; for the failures the endpoints share with the rest of the
 * API, `invalid_client` for a 401, `invalid_request` for a request the service cannot take (400, 413, 415, 431), and
 * otherwise the API's own code in lower case (`sign_in_locked`, `rate_limited`, `service_unavailable`, …).
 */
export function oauthErrorCode(error: OAuthError | ApiError): string {
  if (error instanceof OAuthError) return error.code;
  if (error.status === 401) return 'invalid_client';
  return REQUEST_STATUSES.has(error.status) ? 'invalid_request' : error.code.toLowerCase();
}

/**
 * The one place where a failure at the OAuth endpoints becomes an answer: RFC 6749 §5.2 JSON, with the status (and,
 * for an ApiError, the headers such as Retry-After) it has everywhere else. `invalid_client` challenges for Basic
 * client credentials, the scheme the endpoints take (RFC 6749 §2.3.1).
 */
export function sendOAuthError(request: FastifyRequest, reply: FastifyReply, error: OAuthError | ApiError): FastifyReply {
  if (!(error instanceof OAuthError)) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  // As in sendError: a 413 sent before the body was read must not close the connection under the client's feet.
  if (error.status === 413 && request.raw.complete === false) reply.removeHeader('connection');
  const code = oauthErrorCode(error);
  if (code === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="apas", charset="UTF-8"');
  const body = JSON.stringify({ error: code, error_description: description(error.message) });
  return reply.code(error.status).headers(NO_STORE).type(JSON_TYPE).send(body);
}
