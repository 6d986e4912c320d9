import type { BulkActionView } from '../../domain/queue/bulk-action-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { Alert } from '../components/alert.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { QUEUE_PATH, reviewPath } from './work-queue-page.tsx';

/** What the result page of a bulk action shows. */
export interface BulkActionPageProps { view: BulkActionView; user: PageUser; csrfToken: string; timeZone: string }

const OUTCOME_LABEL = { done: 'Done', unchanged: 'Unchanged', refused: 'Refused', pending: 'Not done' } as const;

function queueLink(programId: string): string {
  return `${QUEUE_PATH}?${new URLSearchParams({ ProgramId: programId }).toString()}`;
}

/** The result of a bulk action: counts, then per project what was done and what was refused, and why. */
export function BulkActionPage(p: BulkActionPageProps) {
  const { view } = p;
  const c = view.counts;
  return (
    <Layout title="Bulk action" agencyName={view.agencyName} programName={view.programName} testProgram={view.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>Bulk action: {view.description}</h1>
      {view.replayed ? <Alert kind="info" slim live>This bulk action was already carried out; this is its result. Nothing was changed again.</Alert> : null}
      <dl class="facts">
        <dt>Run by</dt><dd>{view.ranBy}</dd>
        <dt>Started</dt><dd><time datetime={isoDateTime(view.createdAt)}>{formatDateTime(view.createdAt, p.timeZone)}</time></dd>
        <dt>Projects</dt><dd>{view.scope === 'filter' ? 'All projects matching the filters' : 'The projects ticked'} ({view.projects.length})</dd>
        <dt>State</dt><dd>{view.state === 'finished' ? 'Finished' : view.state === 'running' ? 'Still running: reload this page to see more' : 'Interrupted: the projects not done were not changed'}</dd>
      </dl>
      <p id="bulk-summary">{c.done} done, {c.unchanged} unchanged, {c.refused} refused{c.pending > 0 ? `, ${c.pending} not done` : ''}.</p>
      <TableBox label="What the bulk action did to each project">
        <table class="usa-table">
          <caption>What the bulk action did to each project</caption>
          <thead>
            <tr><th scope="col">Project</th><th scope="col">Outcome</th><th scope="col">What happened</th></tr>
          </thead>
          <tbody>
            {view.projects.map((r) => (
              <tr key={r.projectId}>
                <td>{r.readable ? <a href={reviewPath(view.programId, r.projectId)}>{r.number ?? `Unsubmitted ${r.projectId}`}</a> : r.projectId}</td>
                <td>{r.outcome === 'refused' ? <strong>{OUTCOME_LABEL[r.outcome]}</strong> : OUTCOME_LABEL[r.outcome]}</td>
                <td>{r.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      <p><a href={queueLink(view.programId)}>Back to the work queue</a></p>
    </Layout>
  );
}

/** A bulk form that could not be carried out at all (nothing selected, too many projects, a bad filter): nothing was changed. */
export function BulkRefusedPage(p: { programId: string; message: string; user: PageUser; csrfToken: string }) {
  return (
    <Layout title="Bulk action not done" user={p.user} csrfToken={p.csrfToken}>
      <h1>Bulk action not done</h1>
      <Alert kind="error" role="alert">
        <p>{p.message}</p>
        <p>Nothing was changed.</p>
      </Alert>
      <p><a href={queueLink(p.programId)}>Back to the work queue</a></p>
    </Layout>
  );
}
