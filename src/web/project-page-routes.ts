import type { FastifyInstance } from 'fastify';
import { idParam, type RawQuery, requiredParam } from '../http/query-params.ts';
import { ProjectPage } from './pages/project-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';

/**
 * GET /MvcProjects/LandingPage?ProgramId=…&ProjectId=…: the project page, at the address SubmitProject and the other
 * project answers give as Url. `Submitted` (set by the form page after a submit) adds the confirmation.
 */
export function projectPageRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  web.get('/MvcProjects/LandingPage', async (request, reply) => {
    // Sign-in comes first, so that nothing about the request is answered to a stranger. Errors are answered as
    // pages by the app's one error handler.
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as RawQuery;
    const programId = idParam(requiredParam(query, 'ProgramId'), 'ProgramId');
    const projectId = idParam(requiredParam(query, 'ProjectId'), 'ProjectId');
    const project = await services.projects.landing(caller, programId, projectId);
    const forms = await services.applications.projectForms(caller, programId, projectId);
    const inquiries = await services.inquiries.landingThreads(caller, programId, projectId);
    const { deadlines } = await services.deadlines.list(caller, programId, projectId);
    const manage = await services.removals.offers(caller, programId, projectId);
    const mails = await services.projectMail.ownerMails(caller, programId, projectId);
    const envelopes = await services.signing.listForProject(caller, programId, projectId);
    const relations = await services.relations.listRelations(caller, programId, projectId);
    const page = renderPage(ProjectPage({
      project, forms, inquiries, deadlines, envelopes, relations, manage, mails, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone, justSubmitted: query.Submitted !== undefined,
    }));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });
}
