import type { FastifyInstance } from 'fastify';
import { isoTimestamp } from '../model/clock.ts';
import type { LandingView } from '../domain/views.ts';
import { idParam, type RawQuery, requiredParam } from '../http/query-params.ts';
import type { Services } from '../http/services.ts';
import type { LandingInquiriesView } from '../domain/views.ts';
import { renderInquirySection } from './inquiry-section.ts';
import { escapeHtml } from './html-escape.ts';
import { webCaller } from './web-session-request.ts';

const esc = escapeHtml;

/** Renders the landing page of a project as a small self-contained HTML document. */
export function renderLandingPage(v: LandingView, inquiries: LandingInquiriesView = { replyUrl: '', threads: [] }): string {
  const title = v.projectNumber ?? 'Unsubmitted project';
  const forms = v.forms.map((f) => `<li>${esc(f.name)}${f.available ? ' <em>(open now)</em>' : ''}</li>`).join('');
  const history = v.history.map((h) => `<tr><td>${esc(h.status)}</td><td><time>${esc(isoTimestamp(h.at))}</time></td><td>${esc(h.by)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ${esc(v.programName)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#222}
dt{font-weight:600}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left}</style>
</head><body>
<p>${esc(v.programName)}</p>
<h1>${esc(title)}</h1>
<dl>
<dt>Status</dt><dd>${esc(v.currentStatus.name)} since <time>${esc(isoTimestamp(v.currentStatus.timestamp))}</time></dd>
<dt>Owner</dt><dd>${esc(v.ownerName)}</dd>
<dt>Project id</dt><dd><code>${esc(v.projectId)}</code></dd>
<dt>Last change</dt><dd><time>${esc(isoTimestamp(v.lastChangeTimestamp))}</time></dd>
</dl>
<h2>Forms</h2><ul>${forms}</ul>
<h2>Status history</h2>
<table><thead><tr><th>Status</th><th>Since</th><th>By</th></tr></thead><tbody>${history}</tbody></table>
${renderInquirySection(inquiries, v.programId, v.projectId)}</body></html>
`;
}

/** GET /MvcProjects/LandingPage?ProgramId=…&ProjectId=…: the page a submit response's Url opens (password sign-in). */
export function landingPageRoutes(app: FastifyInstance, services: Services, publicUrl: string): void {
  app.get('/MvcProjects/LandingPage', async (request, reply) => {
    // Sign-in comes first, so that nothing about the request is answered to a stranger. Errors are answered as
    // pages by the app's one error handler.
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as RawQuery;
    const programId = idParam(requiredParam(query, 'ProgramId'), 'ProgramId');
    const projectId = idParam(requiredParam(query, 'ProjectId'), 'ProjectId');
    const view = await services.projects.landing(caller, programId, projectId);
    const inquiries = await services.inquiries.landingThreads(caller, programId, projectId);
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(renderLandingPage(view, inquiries));
  });
}
