import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { MyProjectsShow } from '../domain/portal/my-projects-service.ts';
import { idParam, optionalParam, type RawQuery, requiredParam } from '../http/query-params.ts';
import { CopyProjectPage } from './pages/copy-project-page.tsx';
import { MyProjectsPage } from './pages/my-projects-page.tsx';
import { RemoveProjectPage } from './pages/remove-project-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { formPagePath, myProjectsPath, projectPagePath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';

const NOTICES: Record<string, string> = { deleted: 'The draft was deleted.' };

// A form field of a posted form, as one trimmed string ('' when absent or repeated).
function bodyField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

function bodyIds(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | null)?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((v) => idParam(String(v).trim(), name));
}

/**
 * My projects (GET /MvcProjects/MyProjects), copying an application (GET and POST /MvcProjects/CopyProject), and
 * deleting a draft or withdrawing a project after a confirmation page (GET /MvcProjects/RemoveProject, then POST
 * DeleteDraft or WithdrawProject). Posts need the page's CSRF token; none of it needs JavaScript.
 */
export function myProjectsRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  const html = 'text/html; charset=utf-8';

  web.get('/MvcProjects/MyProjects', async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as RawQuery;
    const programId = idParam(requiredParam(query, 'ProgramId'), 'ProgramId');
    const after = optionalParam(query, 'After');
    const view = await services.myProjects.page(caller, {
      programRef: programId, search: optionalParam(query, 'q') ?? '', statusId: optionalParam(query, 'Status') ?? '',
      show: (optionalParam(query, 'Show') || 'all') as MyProjectsShow, ...(after ? { after } : {}),
    });
    const notice = NOTICES[optionalParam(query, 'Done') ?? ''] ?? null;
    const page = renderPage(MyProjectsPage({ view, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone, notice, paged: Boolean(after) }));
    return reply.type(html).header('Cache-Control', 'no-store').send(page);
  });

  web.get('/MvcProjects/CopyProject', async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as RawQuery;
    const source = await services.copies.source(caller, idParam(requiredParam(query, 'ProgramId'), 'ProgramId'), idParam(requiredParam(query, 'ProjectId'), 'ProjectId'));
    const page = renderPage(CopyProjectPage({ source, user: await pageUser(services, caller), csrfToken: csrfToken(reply) }));
    return reply.type(html).header('Cache-Control', 'no-store').send(page);
  });

  web.post('/MvcProjects/CopyProject', { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const programId = idParam(bodyField(request.body, 'ProgramId'), 'ProgramId');
    const projectId = idParam(bodyField(request.body, 'ProjectId'), 'ProjectId');
    const formIds = bodyIds(request.body, 'FormId');
    if (formIds.length === 0) throw new ApiError('INVALID_REQUEST', 'Choose at least one form to copy.');
    const created = await services.copies.copy(caller, programId, projectId, formIds);
    // Straight to the first form the copy can take, as a new application does; the project page when there is none.
    const first = created.forms.find((f) => f.availableInStatuses.some((s) => s.statusId === created.currentStatus.statusId));
    return reply.redirect(first ? formPagePath(created.programId, created.projectId, first.formId) : projectPagePath(created.programId, created.projectId), 303);
  });

  web.get('/MvcProjects/RemoveProject', async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as RawQuery;
    const removal = await services.removals.confirmation(caller, idParam(requiredParam(query, 'ProgramId'), 'ProgramId'), idParam(requiredParam(query, 'ProjectId'), 'ProjectId'));
    const page = renderPage(RemoveProjectPage({ removal, user: await pageUser(services, caller), csrfToken: csrfToken(reply) }));
    return reply.type(html).header('Cache-Control', 'no-store').send(page);
  });

  web.post('/MvcProjects/DeleteDraft', { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const programId = idParam(bodyField(request.body, 'ProgramId'), 'ProgramId');
    await services.removals.deleteDraft(caller, programId, idParam(bodyField(request.body, 'ProjectId'), 'ProjectId'));
    return reply.redirect(myProjectsPath(programId, { Done: 'deleted' }), 303);
  });

  web.post('/MvcProjects/WithdrawProject', { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const programId = idParam(bodyField(request.body, 'ProgramId'), 'ProgramId');
    const projectId = idParam(bodyField(request.body, 'ProjectId'), 'ProjectId');
    await services.removals.withdraw(caller, programId, projectId);
    return reply.redirect(projectPagePath(programId, projectId), 303);
  });
}
