import { createHash } from 'node:crypto';
import type { FastifyCsrfProtectionOptions } from '@fastify/csrf-protection';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './web-session-request.ts';

/**
 * The CSRF secret's cookie: `__Host-` over HTTPS, so that no other site or subdomain can set or replace it (browsers
 * accept the prefix only on a Secure cookie for path / without Domain). Over plain HTTP, as on a developer's
 * localhost, browsers refuse a `__Host-` cookie that is not Secure, so it is plain `_csrf` there.
 */
export function csrfCookieName(secure: boolean): string {
  return secure ? '__Host-apas_csrf' : '_csrf';
}

// @fastify/csrf-protection insists on an HMAC key when tokens carry user information. It need not be secret here: a
// token is only good with the secret in the HttpOnly cookie, and what it is bound to is the unguessable session cookie.
// A fixed key keeps tokens valid across restarts and between instances that share one database.
const HMAC_KEY = 'apas web form token';

/**
 * What a form's token is bound to: the session cookie the request came with (hashed), or nobody. A token made for one
 * session is refused with any other, so a token (or a CSRF cookie) from before sign-in or from another browser is no
 * good once signed in. Callers that sign each request with HTTP Basic have no session; their forms rely on the cookie
 * pair (`__Host-` over HTTPS) as before, and the inquiry reply also on its same-origin check.
 */
export function csrfBinding(request: FastifyRequest): string {
  const session = request.cookies[SESSION_COOKIE];
  return session !== undefined && session !== '' ? `session ${createHash('sha256').update(session).digest('base64url')}` : 'nobody';
}

/** The options of @fastify/csrf-protection for the web pages: secret in a cookie, tokens bound to the session. */
export function csrfOptions(secure: boolean, getToken: (request: FastifyRequest) => string | undefined): FastifyCsrfProtectionOptions {
  return {
    sessionPlugin: '@fastify/cookie',
    cookieKey: csrfCookieName(secure),
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure },
    getToken,
    getUserInfo: csrfBinding,
    csrfOpts: { userInfo: true, hmacKey: HMAC_KEY },
  };
}

/** The CSRF token for the forms of the page this reply answers, bound to the request's session. */
export function csrfToken(reply: FastifyReply): string {
  return reply.generateCsrf({ userInfo: csrfBinding(reply.request) });
}

/**
 * Drops the CSRF secret at sign-in and sign-out, so that the next page starts a new one: tokens of the signed-out
 * browser (or planted before sign-in) are void even apart from their binding.
 */
export function rotateCsrf(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(csrfCookieName(secure), { path: '/', sameSite: 'lax', httpOnly: true, secure });
}
