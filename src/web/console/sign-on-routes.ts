import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { SIGN_ON_CALLBACK_PATH } from '../../domain/sign-on/sign-on-service.ts';
import type { SignOnInput } from '../../domain/sign-on/sign-on-settings-service.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { consoleArea } from './console-paths.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { SignOnPage } from './sign-on-page.tsx';

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function inputOf(body: unknown): SignOnInput {
  const f = (name: string) => field(body, name);
  return {
    label: f('label'), issuer: f('issuer'), clientId: f('clientId'), clientSecret: f('clientSecret'), scopes: f('scopes'),
    emailClaim: f('emailClaim'), groupsClaim: f('groupsClaim'), groupGrants: f('groupGrants'),
    allowPasswords: f('allowPasswords') === 'on', enabled: f('enabled') === 'on',
  };
}

/** The console's Single sign-on area (agency admins): the agency's OpenID Connect provider, set and turned off. */
export function signOnConsoleRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { path } = consoleArea('sign-on');
  const settings = deps.services.signOn.settings;
  const callbackUrl = new URL(SIGN_ON_CALLBACK_PATH, deps.publicUrl).href;

  web.get(path, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const shown = await settings.showFor(c.scope);
    const notice = (request.query as { done?: string }).done === 'saved' ? 'The single sign-on settings were saved.'
      : (request.query as { done?: string }).done === 'disabled' ? 'Single sign-on is off; everyone signs in with a password again.' : null;
    return sendPage(reply, renderPage(SignOnPage({ user: c.user, csrfToken: c.csrfToken, settings: shown, notice, callbackUrl })));
  });

  web.post(path, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const input = inputOf(request.body);
    try {
      await settings.saveFor(c.scope, input, c.caller.user.id, request.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'INVALID_PARAMETER') throw error;
      const { clientSecret: _secret, ...typed } = input;
      const shown = await settings.showFor(c.scope);
      return sendPage(reply, renderPage(SignOnPage({ user: c.user, csrfToken: c.csrfToken, settings: shown, typed, error: error.message, callbackUrl })), 400);
    }
    return reply.redirect(`${path}?done=saved`, 303);
  });

  web.post(`${path}/Disable`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await settings.disableFor(c.scope, c.caller.user.id);
    return reply.redirect(`${path}?done=disabled`, 303);
  });
}
