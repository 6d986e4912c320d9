import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { WorkQueueFilter } from '../domain/queue/work-queue-service.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { idParam } from '../http/query-params.ts';
import type { FormProblem } from './components/error-summary.tsx';
import { csvStream } from './csv.ts';
import { QUEUE_PATH, WorkQueuePage } from './pages/work-queue-page.tsx';
import { queueFilter, readQueueForm } from './queue-query.ts';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { QUEUE_VIEWS_PATH } from './components/queue-views-panel.tsx';
import { csrfToken } from './csrf.ts';

const NO_FILTER: WorkQueueFilter = {
  statuses: [], assignee: null, submittedFrom: null, submittedTo: null, number: null, fields: [], overdue: false, sort: 'updated', direction: 'desc', attention: [], columns: [], pageSize: 25, cursor: null,
};

// The service's refusals of a filter the form can show beside its control; anything else goes to the error handler.
function filterProblem(error: unknown): FormProblem | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'INVALID_REQUEST' || error.code === 'SENSITIVE_DATA_NOT_ALLOWED') return { fieldId: 'filter-value', message: error.message };
  if (error.code === 'INVALID_PARAMETER') {
    const fieldId = error.message.startsWith('Status') ? 'filter-status' : /^(Column|Choose at most)/.test(error.message) ? 'filter-columns' : 'filter-order';
    return { fieldId, message: error.message };
  }
  return null;
}

/** GET /Projects/ProjectList?ProgramId=…: a program's work queue for its staff, and (`format=csv`) its download. */
export function workQueueRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  web.get(QUEUE_PATH, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as Record<string, unknown>;
    const form = readQueueForm(query);
    const programId = idParam(form.programId, 'ProgramId');
    const { filter, problems } = queueFilter(form, timeZone);
    if (query.format === 'csv') {
      if (problems.length > 0) throw new ApiError('INVALID_PARAMETER', problems.map((x) => x.message).join(' '));
      const exported = await services.workQueue.exportRows(caller, programId, filter);
      // Streamed: rows are read a chunk at a time as the client takes them, never the whole queue at once.
      return reply.type('text/csv; charset=utf-8').header('Content-Disposition', contentDisposition(exported.fileName))
        .header('Cache-Control', 'no-store').send(csvStream(exported));
    }
    let shown = problems;
    let status = problems.length === 0 ? 200 : 400;
    let view = null;
    if (problems.length === 0) {
      try {
        view = await services.workQueue.page(caller, programId, filter);
      } catch (error) {
        const problem = filterProblem(error);
        if (!problem) throw error;
        shown = [problem];
        status = (error as ApiError).status;
      }
    }
    // A refused filter still shows the form (with the program's statuses and fields) to correct it, without rows.
    view ??= { ...(await services.workQueue.page(caller, programId, NO_FILTER)), rows: [], nextCursor: null, previousCursor: null, atStart: true };
    const bulk = await services.bulkActions.formOptions(caller, programId);
    const { views, mayShare } = await services.queueViews.list(caller, programId);
    const page = renderPage(WorkQueuePage({ view, form, problems: shown, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone, bulk, views, mayShare }));
    return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });

  // Saving or deleting a view answers with the queue: the saved view opened, or the program's queue after a delete.
  web.post(QUEUE_VIEWS_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const body = request.body as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const programId = idParam(text('ProgramId').trim(), 'ProgramId');
    const viewId = text('viewId').trim();
    const saved = await services.queueViews.save(caller, programId, { viewId: viewId === '' ? null : viewId, name: text('name'), shared: text('shared') === '1', query: text('query') });
    const q = new URLSearchParams(saved.query);
    q.set('ProgramId', programId);
    q.set('view', saved.viewId);
    return reply.redirect(`${QUEUE_PATH}?${q.toString()}`, 303);
  });

  web.post(`${QUEUE_VIEWS_PATH}/Delete`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const body = request.body as Record<string, unknown>;
    const programId = idParam(String(body.ProgramId ?? '').trim(), 'ProgramId');
    await services.queueViews.delete(caller, programId, idParam(String(body.viewId ?? '').trim(), 'viewId'));
    return reply.redirect(`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: programId }).toString()}`, 303);
  });
}
