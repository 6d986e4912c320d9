import type { DashboardView, Figure } from '../../domain/dashboards/dashboard-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { QUEUE_PATH } from './work-queue-page.tsx';
import { dashboardHref } from '../web-paths.ts';

/** The path of a program's dashboard; `figure=…&format=csv` downloads one figure's table. */

/** What the dashboard page shows: the figures, and each figure's chart as SVG markup (dashboard-chart.ts). */
export interface DashboardPageProps { view: DashboardView; charts: string[]; user: PageUser; csrfToken: string; timeZone: string }

function FigureSection(p: { programId: string; figure: Figure; chart: string }) {
  const { figure } = p;
  const heading = `figure-${figure.id}`;
  return (
    <section class="figure" aria-labelledby={heading}>
      <h2 id={heading}>{figure.title}</h2>
      <p>{figure.description}</p>
      <div class="figure-body">
        {/* The chart's markup comes from Vega's SVG renderer, which escapes every text and attribute it writes. */}
        <div class="chart" dangerouslySetInnerHTML={{ __html: p.chart }} />
        <TableBox label={`${figure.title}: the data`}>
          <table class="usa-table">
            <caption>{figure.title}: the data</caption>
            <thead><tr>{figure.columns.map((c) => <th key={c} scope="col">{c}</th>)}</tr></thead>
            <tbody>
              {figure.rows.length === 0
                ? <tr><td colSpan={figure.columns.length}>No data yet.</td></tr>
                : figure.rows.map((r, i) => <tr key={i}>{r.map((cell, j) => (j === 0 ? <th key={j} scope="row">{cell}</th> : <td key={j}>{cell ?? ''}</td>))}</tr>)}
            </tbody>
          </table>
        </TableBox>
      </div>
      <p><a href={dashboardHref(p.programId, figure.id)} download>Download “{figure.title}” as CSV</a></p>
    </section>
  );
}

/** A program's dashboard for its staff: each figure as a chart (SVG, no script) with its data as a table beside it. */
export function DashboardPage(p: DashboardPageProps) {
  const { view } = p;
  return (
    <Layout title="Dashboard" agencyName={view.agencyName} programName={view.programName} testProgram={view.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>Dashboard</h1>
      <p>
        As of <time datetime={isoDateTime(view.asOf)}>{formatDateTime(view.asOf, p.timeZone)}</time>; days, weeks and months are UTC.{' '}
        <a href={`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: view.programId }).toString()}`}>Work queue</a>
      </p>
      {view.groups ? (
        <div class="usa-alert usa-alert--info usa-alert--slim" id="dashboard-groups">
          <div class="usa-alert__body">
            <p class="usa-alert__text">Your access is limited to the access groups {view.groups.join(', ')}: every figure counts only their projects.</p>
          </div>
        </div>
      ) : null}
      {view.figures.map((f, i) => <FigureSection key={f.id} programId={view.programId} figure={f} chart={p.charts[i]!} />)}
    </Layout>
  );
}
