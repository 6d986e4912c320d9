import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../http/content-disposition.ts';
import { idParam } from '../http/query-params.ts';
import { csrfToken } from './csrf.ts';
import { csvLine } from './csv.ts';
import { chartSvg } from './dashboard-chart.ts';
import { DashboardPage } from './pages/dashboard-page.tsx';
import { DASHBOARD_PATH } from './web-paths.ts';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

/** GET /Projects/Dashboard?ProgramId=…: a program's dashboard for its staff, and (`figure=…&format=csv`) one figure's data. */
export function dashboardRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  web.get(DASHBOARD_PATH, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const query = request.query as Record<string, unknown>;
    const programId = idParam(typeof query.ProgramId === 'string' ? query.ProgramId : undefined, 'ProgramId');
    if (query.format === 'csv') {
      const { figure } = await services.dashboards.figure(caller, programId, typeof query.figure === 'string' ? query.figure : '');
      const body = [figure.columns, ...figure.rows.map((r) => r.map((cell) => (cell === null ? '' : String(cell))))].map(csvLine).join('');
      return reply.type('text/csv; charset=utf-8').header('Content-Disposition', contentDisposition(`${figure.id}.csv`))
        .header('Cache-Control', 'no-store').send(body);
    }
    const view = await services.dashboards.view(caller, programId);
    const charts = await Promise.all(view.figures.map((f) => chartSvg(f, `chart-${f.id}`)));
    const page = renderPage(DashboardPage({ view, charts, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone }));
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  });
}
