import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { consoleArea } from './console-paths.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { SelfServicePage } from './self-service-page.tsx';

const SAVED = 'The self-service policy was saved.';

/**
 * The console's Self-service area: the agency's policy on users' own credentials and webhooks, shown and set by agency
 * admins only (the service refuses anyone else: FORBIDDEN, nothing changed). A plain form; unchecked boxes turn off.
 */
export function selfServiceRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { path } = consoleArea('self-service');
  const service = deps.services.integrations.policy;

  web.get(path, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const policy = await service.show(c.scope);
    const saved = (request.query as Record<string, unknown>).notice === 'saved';
    return sendPage(reply, renderPage(SelfServicePage({
      user: c.user, csrfToken: c.csrfToken, policy,  timeZone: deps.timeZone, notice: saved ? SAVED : null,
    })));
  });

  web.post(path, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const body = (request.body ?? {}) as Record<string, unknown>;
    await service.set({ caller: c.caller, scope: c.scope }, { ownCredentials: body.ownCredentials === 'on', ownWebhooks: body.ownWebhooks === 'on' });
    return reply.redirect(`${path}?notice=saved`, 303);
  });
}
