import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { Caller } from '../domain/caller.ts';
import type { Services } from '../http/services.ts';
import type { PageUser } from './layout.tsx';
import { WEB_SESSION_COOKIE, webSessionSetCookie } from './web-session-cookie.ts';

/** The cookie of the web application's sessions. */
export const SESSION_COOKIE = 'apas_session';

/**
 * Where a page may send the browser on after sign-in: a path of this service, never another site, written in
 * printable ASCII only (as browsers send paths, percent-encoded): anything else could split the Location header, make
 * a browser read the path as another host, or not fit in a header at all. Anything else leads to the start page.
 */
export function safeNext(next: unknown): string {
  const fallback = '/MvcProjects/';
  if (typeof next !== 'string' || !/^\/[\x21-\x7e]*$/.test(next) || next.startsWith('//') || next.includes('\\')) return fallback;
  return next;
}

/**
 * The caller of a web page: the signed-in session, or (for clients of the landing page that send them) HTTP Basic
 * credentials. Nobody signed in is AUTHENTICATION_REQUIRED, which the error handler answers with the sign-in page.
 */
export async function webCaller(request: FastifyRequest, reply: FastifyReply, services: Services, publicUrl: string): Promise<Caller> {
  if (request.headers.authorization !== undefined) {
    const { caller, newSession } = await services.auth.authenticateWeb(request.headers.authorization, request.cookies[WEB_SESSION_COOKIE], request.ip, request.id);
    if (newSession) reply.header('Set-Cookie', webSessionSetCookie(newSession.value, publicUrl));
    return caller;
  }
  const state = await services.webSessions.resume(request.cookies[SESSION_COOKIE]);
  if (state.kind === 'signed-in') return { ...state.caller, requestId: request.id };
  throw new ApiError('AUTHENTICATION_REQUIRED', 'Sign in to see this page.');
}

/**
 * How the page header shows a caller: staff see work queues, applicants their projects, and whoever administers a
 * program the console (also a program's own role that holds administerProgram and nothing a reviewer has).
 */
export async function pageUser(services: Services, caller: Caller): Promise<PageUser> {
  const [staff, admin] = await Promise.all([services.portal.isStaffAnywhere(caller), services.console.mayUse(caller)]);
  return { name: caller.user.name, email: caller.user.email, staff, console: admin };
}
