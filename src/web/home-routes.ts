import type { FastifyInstance } from 'fastify';
import { idParam } from '../http/query-params.ts';
import { HomePage } from './pages/home-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { formPagePath, projectPagePath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';

/** The home page, and starting an application from it. */
export function homeRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;

  web.get('/MvcProjects/', async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const home = await services.portal.home(caller);
    const organizations = (await services.organizations.mine(caller)).map((o) => ({ id: o.id, name: o.name }));
    const page = renderPage(HomePage({ home, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone, organizations }));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });

  web.post('/MvcProjects/NewProject', { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const body = request.body as Record<string, unknown>;
    const programId = idParam(String(body.ProgramId ?? '').trim(), 'ProgramId');
    // "For": empty for oneself, or an organization of the user's (the service refuses any other with NOT_FOUND).
    const organizationId = String(body.OrganizationId ?? '').trim();
    const created = await services.projects.createProject(caller, programId, organizationId === '' ? {} : { organizationId });
    // Straight to the first form the new project can take; the project page when there is none.
    const first = created.forms.find((f) => f.availableInStatuses.some((s) => s.statusId === created.currentStatus.statusId));
    return reply.redirect(first ? formPagePath(created.programId, created.projectId, first.formId) : projectPagePath(created.programId, created.projectId), 303);
  });
}
