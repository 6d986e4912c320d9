import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { BulkAction, BulkTarget } from '../domain/queue/bulk-action-service.ts';
import type { WorkQueueFilter } from '../domain/queue/work-queue-service.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { idParam } from '../http/query-params.ts';
import { BULK_PATH } from './components/bulk-action-form.tsx';
import { csrfToken } from './csrf.ts';
import { csvStream } from './csv.ts';
import { BulkActionPage, BulkRefusedPage } from './pages/bulk-action-page.tsx';
import { queueFilter, readQueueForm } from './queue-query.ts';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

type Form = Record<string, unknown>;

// Refusals of the whole form, which its page explains; anything else (403, 404, …) goes to the error handler.
const FORM_ERRORS = new Set(['INVALID_REQUEST', 'INVALID_PARAMETER', 'IDEMPOTENCY_KEY_REUSED', 'SENSITIVE_DATA_NOT_ALLOWED']);

function body(request: FastifyRequest): Form {
  const b = request.body;
  if (b === null || typeof b !== 'object' || 'unsupportedContentType' in b) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as application/x-www-form-urlencoded.');
  return b as Form;
}

function one(form: Form, name: string): string {
  const value = form[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', `Send the form field ${name} once.`);
  return value;
}

function many(form: Form, name: string): string[] {
  const value = form[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter((v) => v !== '');
}

/** The queue's filter the form carried (its query string), read as the queue reads its own address. */
function carriedFilter(query: string, programId: string, timeZone: string): WorkQueueFilter {
  const raw: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    const had = raw[k];
    raw[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  const { filter, problems } = queueFilter({ ...readQueueForm(raw), programId }, timeZone);
  if (problems.length > 0) throw new ApiError('INVALID_PARAMETER', problems.map((x) => x.message).join(' '));
  return { ...filter, cursor: null };
}

function actionOf(form: Form, kind: string): BulkAction {
  if (kind === 'assign') return { kind, email: one(form, 'Email').trim() || null };
  if (kind === 'status') return { kind, statusRef: one(form, 'StatusId'), reasonId: one(form, 'ReasonId').trim() || null, message: one(form, 'Message') || null };
  if (kind === 'mail') return { kind, template: one(form, 'Template') };
  throw new ApiError('INVALID_REQUEST', 'Choose one of the bulk actions: assign, move status, send a message or export.');
}

/**
 * The work queue's bulk actions: POST /Projects/ProjectList/Bulk runs one (or, for export, downloads the projects as
 * the queue's CSV) and answers with 303 to its result, GET /Projects/ProjectList/Bulk/<id>?ProgramId=… shows it.
 */
export function bulkActionRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;

  web.post(BULK_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const form = body(request);
    const programId = idParam(one(form, 'ProgramId'), 'ProgramId');
    try {
      const scope = one(form, 'Scope') || 'selected';
      if (scope !== 'selected' && scope !== 'filter') throw new ApiError('INVALID_REQUEST', 'Choose the ticked projects or all projects matching the filters.');
      const target: BulkTarget = scope === 'filter'
        ? { scope, filter: carriedFilter(one(form, 'Filter'), programId, timeZone) }
        : { scope, projectIds: many(form, 'ProjectId') };
      const kind = one(form, 'Action');
      if (kind === 'export') {
        // The queue's own CSV, of the ticked projects or of the filter (as the queue's download link gives it). The
        // ticked ones keep the page's columns and order but none of its filters: a ticked project is always exported.
        if (target.scope === 'selected' && target.projectIds.length === 0) throw new ApiError('INVALID_REQUEST', 'Select at least one project to export.');
        const shown = target.scope === 'filter' ? target.filter : carriedFilter(one(form, 'Filter'), programId, timeZone);
        const filter = target.scope === 'filter' ? target.filter
          : { ...carriedFilter('', programId, timeZone), columns: shown.columns, sort: shown.sort, direction: shown.direction, projectIds: target.projectIds };
        const exported = await services.workQueue.exportRows(caller, programId, filter);
        return reply.type('text/csv; charset=utf-8').header('Content-Disposition', contentDisposition(exported.fileName))
          .header('Cache-Control', 'no-store').send(csvStream(exported));
      }
      const view = await services.bulkActions.run(caller, { programRef: programId, key: one(form, 'BulkKey'), action: actionOf(form, kind), target });
      const query = new URLSearchParams({ ProgramId: view.programId, ...(view.replayed ? { retry: '1' } : {}) });
      return reply.code(303).header('Cache-Control', 'no-store').redirect(`${BULK_PATH}/${encodeURIComponent(view.id)}?${query.toString()}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || !FORM_ERRORS.has(error.code)) throw error;
      const page = renderPage(BulkRefusedPage({ programId, message: error.message, user: await pageUser(services, caller), csrfToken: csrfToken(reply) }));
      return reply.code(error.status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
    }
  });

  web.get(`${BULK_PATH}/:bulkActionId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as Form;
    const programId = idParam(typeof query.ProgramId === 'string' ? query.ProgramId : '', 'ProgramId');
    const bulkActionId = idParam((request.params as { bulkActionId?: string }).bulkActionId, 'bulkActionId');
    const view = await services.bulkActions.result(caller, programId, bulkActionId, query.retry === '1');
    const page = renderPage(BulkActionPage({ view, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone }));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });
}
