import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { SIGN_ON_CALLBACK_PATH } from '../domain/sign-on/sign-on-service.ts';
import { rotateCsrf } from './csrf.ts';
import { SignOnRefusedPage } from './pages/sign-in-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { safeNext, SESSION_COOKIE } from './web-session-request.ts';

/** The cookie that binds a single sign-on under way to the browser that started it (HttpOnly, ten minutes). */
export const SIGN_ON_COOKIE = 'apas_sign_on';

const COOKIE_PATH = '/MvcProjects/SignIn/Sso';

// Refusals a person can act on are shown on the refusal page; anything else goes to the app's one error handler.
const SHOWN = new Set(['INVALID_REQUEST', 'INVALID_CREDENTIALS', 'FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE']);

function refused(reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof ApiError) || !SHOWN.has(error.code)) throw error;
  reply.clearCookie(SIGN_ON_COOKIE, { path: COOKIE_PATH });
  return reply.code(error.status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store')
    .send(renderPage(SignOnRefusedPage({ message: error.message })));
}

/**
 * Staff single sign-on (src/domain/sign-on): a "Sign in with <provider>" link of the sign-in page starts it here, the
 * provider sends the browser back to the callback, which starts a session as the password sign-in does.
 */
export function signOnRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl } = deps;
  const secure = new URL(publicUrl).protocol === 'https:';

  web.get(SIGN_ON_CALLBACK_PATH, async (request, reply) => {
    try {
      const url = new URL(request.url, publicUrl);
      const done = await services.signOn.flow.complete(url, request.cookies[SIGN_ON_COOKIE], request.id);
      reply.clearCookie(SIGN_ON_COOKIE, { path: COOKIE_PATH });
      rotateCsrf(reply, secure);
      reply.setCookie(SESSION_COOKIE, done.cookie, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: new Date(done.expiresAt) });
      return reply.redirect(safeNext(done.next), 303);
    } catch (error) {
      return refused(reply, error);
    }
  });

  web.get(`${COOKIE_PATH}/:agency`, async (request: FastifyRequest<{ Params: { agency: string }; Querystring: { next?: string } }>, reply) => {
    try {
      const begun = await services.signOn.flow.begin(request.params.agency, safeNext(request.query.next));
      // Lax, so that the provider's top-level redirect back brings it; the path keeps it off every other page.
      reply.setCookie(SIGN_ON_COOKIE, begun.browser, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, expires: new Date(begun.expiresAt) });
      return reply.header('Cache-Control', 'no-store').redirect(begun.url, 303);
    } catch (error) {
      return refused(reply, error);
    }
  });
}
