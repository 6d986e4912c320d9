import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import type { AuditQuery } from '../../domain/administration/audit-trail-service.ts';
import { contentDisposition } from '../../http/content-disposition.ts';
import { csvStream } from '../csv.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { nextDay, startOfDay } from '../zoned-date.ts';
import { AUDIT_PATH, type AuditForm, AuditTrailPage } from './audit-page.tsx';
import { formText } from './console-form.ts';
import { consoleRequest, sendPage } from './console-request.ts';

function readForm(query: unknown): AuditForm {
  return { User: formText(query, 'User'), Project: formText(query, 'Project'), Action: formText(query, 'Action'), From: formText(query, 'From'), To: formText(query, 'To') };
}

// The days of the form as instants of the service's time zone: From's start, and the start of the day after To.
function auditQuery(f: AuditForm, timeZone: string): AuditQuery {
  const day = (text: string, label: string) => {
    const at = startOfDay(text, timeZone);
    if (at === null) throw new ApiError('INVALID_PARAMETER', `${label} must be a day (yyyy-mm-dd).`);
    return at;
  };
  return {
    user: f.User, project: f.Project, action: f.Action,
    ...(f.From.trim() !== '' ? { from: day(f.From.trim(), 'From') } : {}),
    ...(f.To.trim() !== '' ? { to: day(nextDay(f.To.trim()), 'To') } : {}),
  };
}

/** GET …/Console/Audit: the audit trail filtered, paged by cursor, and (`format=csv`) downloaded whole, streamed. */
export function auditRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const trail = deps.services.consoleOperations.audit;
  web.get(AUDIT_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const form = readForm(request.query);
    const cursor = formText(request.query, 'cursor') || undefined;
    if (formText(request.query, 'format') === 'csv') {
      const exported = await trail.export(c.caller, auditQuery(form, deps.timeZone));
      // Streamed: rows are read a chunk at a time as the client takes them, never the whole trail at once.
      return reply.type('text/csv; charset=utf-8').header('Content-Disposition', contentDisposition(exported.fileName))
        .header('Cache-Control', 'no-store').send(csvStream(exported));
    }
    let page = null;
    let problem: string | null = null;
    let status = 200;
    try {
      page = await trail.page(c.caller, auditQuery(form, deps.timeZone), cursor);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'INVALID_PARAMETER') throw error;
      problem = error.message;
      status = error.status;
    }
    const props = { user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, timeZone: deps.timeZone, form, page, problem, older: cursor !== undefined };
    return sendPage(reply, renderPage(AuditTrailPage(props)), status);
  });
}
