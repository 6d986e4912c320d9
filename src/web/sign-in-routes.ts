import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_MAX_AGE_SECONDS } from '../domain/accounts/known-device.ts';
import { CodePage, SignedInAlreadyPage, SignInPage } from './pages/sign-in-page.tsx';
import { SignedOutPage } from './pages/signed-out-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, safeNext, SESSION_COOKIE } from './web-session-request.ts';
import { csrfToken, rotateCsrf } from './csrf.ts';

/** The sign-in page's address. */
export const SIGN_IN_PATH = '/MvcProjects/SignIn';

/** The page that confirms a sign-out. */
export const SIGNED_OUT_PATH = '/MvcProjects/SignedOut';

type Form = Record<string, unknown>;

function text(body: unknown, name: string): string {
  const value = (body as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function html(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
}

// Only these refusals are shown on the form itself; anything else goes to the app's one error handler.
const FORM_ERRORS = new Set(['INVALID_CREDENTIALS', 'SIGN_IN_LOCKED', 'MFA_INVALID', 'INVALID_REQUEST', 'FORBIDDEN']);
// Refusals whose own message is what the person needs (the others all read "not right", so as to tell a guesser nothing).
const SAID_AS_IS = new Set(['INVALID_REQUEST', 'SIGN_IN_LOCKED', 'FORBIDDEN']);

function formError(error: unknown): ApiError {
  if (error instanceof ApiError && FORM_ERRORS.has(error.code)) return error;
  throw error;
}

/** Sign-in (e-mail and password, then the code for users enrolled in MFA), sign-out, and the home page's redirect. */
export function signInRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl } = deps;
  const secure = new URL(publicUrl).protocol === 'https:';
  // A new session gets a new CSRF secret too: nothing of the browser's state before sign-in carries over.
  const cookie = (reply: FastifyReply, value: string, expiresAt: number) => {
    rotateCsrf(reply, secure);
    return reply.setCookie(SESSION_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: new Date(expiresAt) });
  };
  // The reset link is offered only where it works: with mail off its page does not exist.
  const resetByMail = services.selfService.resetByMail;
  const nextOf = (request: FastifyRequest) => safeNext((request.query as Form).next ?? text(request.body, 'next'));

  web.get(SIGN_IN_PATH, async (request, reply) => {
    const state = await services.webSessions.resume(request.cookies[SESSION_COOKIE]);
    // Not on to the session's pages unasked: the session may be one someone planted in this browser, so the page says
    // whose it is and offers to sign out and sign in anew.
    if (state.kind === 'signed-in') {
      return html(reply, 200, renderPage(SignedInAlreadyPage({ user: await pageUser(services, state.caller), next: nextOf(request), csrfToken: csrfToken(reply) })));
    }
    const providers = await services.signOn.flow.providers();
    return html(reply, 200, renderPage(SignInPage({ next: nextOf(request), email: '', error: null, csrfToken: csrfToken(reply), resetByMail, providers })));
  });

  web.post(SIGN_IN_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const next = nextOf(request);
    const email = text(request.body, 'email').trim();
    try {
      if (email === '' || text(request.body, 'password') === '') throw new ApiError('INVALID_REQUEST', 'Enter your e-mail address and your password.');
      const started = await services.webSessions.signIn(email, text(request.body, 'password'), request.ip, request.cookies[KNOWN_DEVICE_COOKIE]);
      cookie(reply, started.cookie, started.expiresAt);
      // The browser is known from now on: the account-wide throttle of failed sign-ins does not slow it down.
      reply.setCookie(KNOWN_DEVICE_COOKIE, started.knownDevice, {
        path: '/', httpOnly: true, sameSite: 'lax', secure: new URL(publicUrl).protocol === 'https:', maxAge: KNOWN_DEVICE_MAX_AGE_SECONDS,
      });
      const to = started.mfaDue ? `${SIGN_IN_PATH}/Code?next=${encodeURIComponent(next)}` : next;
      return reply.redirect(to, 303);
    } catch (error) {
      const refused = formError(error);
      const message = SAID_AS_IS.has(refused.code) ? refused.message : 'The e-mail address or password is not right.';
      const providers = await services.signOn.flow.providers();
      return html(reply, refused.status, renderPage(SignInPage({ next, email, error: message, csrfToken: csrfToken(reply), resetByMail, providers })));
    }
  });

  web.get(`${SIGN_IN_PATH}/Code`, async (request, reply) => {
    const state = await services.webSessions.resume(request.cookies[SESSION_COOKIE]);
    if (state.kind !== 'mfa-due') return reply.redirect(state.kind === 'signed-in' ? nextOf(request) : SIGN_IN_PATH, 303);
    return html(reply, 200, renderPage(CodePage({ next: nextOf(request), error: null, csrfToken: csrfToken(reply) })));
  });

  web.post(`${SIGN_IN_PATH}/Code`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const next = nextOf(request);
    try {
      await services.webSessions.completeMfa(request.cookies[SESSION_COOKIE], text(request.body, 'code').trim(), request.ip, request.cookies[KNOWN_DEVICE_COOKIE]);
      rotateCsrf(reply, secure);
      return reply.redirect(next, 303);
    } catch (error) {
      const refused = formError(error);
      return html(reply, refused.status, renderPage(CodePage({ next, error: refused.message, csrfToken: csrfToken(reply) })));
    }
  });

  web.post('/MvcProjects/SignOut', { preHandler: web.csrfProtection }, async (request, reply) => {
    await services.webSessions.signOut(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    rotateCsrf(reply, secure);
    // "Sign out and sign in as someone else" (the sign-in page of a signed-in browser) goes back to the sign-in form.
    if (text(request.body, 'after') === 'sign-in') return reply.redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(nextOf(request))}`, 303);
    return reply.redirect(SIGNED_OUT_PATH, 303);
  });

  // The confirmation after signing out; someone still signed in (another tab signed in again) goes home instead.
  web.get(SIGNED_OUT_PATH, async (request, reply) => {
    const state = await services.webSessions.resume(request.cookies[SESSION_COOKIE]);
    if (state.kind === 'signed-in') return reply.redirect('/MvcProjects/', 303);
    return html(reply, 200, renderPage(SignedOutPage({ signInPath: SIGN_IN_PATH })));
  });
}
