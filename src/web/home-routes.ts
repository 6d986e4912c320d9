import type { FastifyInstance } from 'fastify';
import { idParam } from '../http/query-params.ts';
import { HomePage } from './pages/home-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app.ts';
import { formPagePath, projectPagePath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';

/** The home page, and starting an application from it. */
export function homeRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;

  web.get('/MvcProjects/', async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const home = await services.portal.home(caller);
    const page = renderPage(HomePage({ home, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone }));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });

  web.post('/MvcProjects/NewProject', { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const programId = idParam(String((request.body as Record<string, unknown>).ProgramId ?? '').trim(), 'ProgramId');
    const created = await services.projects.createProject(caller, programId);
    // Straight to the first form the new project can take; the project page when there is none.
    const first = created.forms.find((f) => f.availableInStatuses.some((s) => s.statusId === created.currentStatus.statusId));
    return reply.redirect(first ? formPagePath(created.programId, created.projectId, first.formId) : projectPagePath(created.programId, created.projectId), 303);
  });
}
