import type { MyProjectsShow, MyProjectsView } from '../../domain/portal/my-projects-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { Pager } from '../components/pager.tsx';
import { Alert } from '../components/alert.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { copyProjectPath, myProjectsPath, projectPagePath, removeProjectPath } from '../web-paths.ts';

/** What My projects needs besides the service's view. */
export interface MyProjectsPageProps {
  view: MyProjectsView; user: PageUser; csrfToken: string; timeZone: string; notice: string | null;
  /** True past the first page: a link leads back to it. */
  paged: boolean;
}

const SHOW_LABELS: Record<MyProjectsShow, string> = {
  all: 'All my projects', action: 'Needs my action', drafts: 'Drafts (not submitted)', submitted: 'Submitted',
};

/** My projects: the applicant's projects of a program with search, filters, summary columns and paging by cursor. */
export function MyProjectsPage(p: MyProjectsPageProps) {
  const v = p.view;
  const filtered = v.filter.search !== '' || v.filter.statusId !== null || v.filter.show !== 'all';
  const next = v.nextCursor === null ? null : myProjectsPath(v.programId, { ...filterParams(v), After: v.nextCursor });
  return (
    <Layout title={`My projects — ${v.programName}`} agencyName={v.agencyName} programName={v.programName} testProgram={v.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>My projects</h1>
      {p.notice ? <Alert kind="success" slim live>{p.notice}</Alert> : null}
      <form method="get" action="/MvcProjects/MyProjects" class="my-projects-filter" aria-label="Search my projects">
        <input type="hidden" name="ProgramId" value={v.programId} />
        <div class="usa-form-group">
          <label class="usa-label" for="q">Search</label>
          <input class="usa-input" id="q" name="q" type="search" value={v.filter.search} maxLength={200}
            aria-describedby="q-hint" />
          {/* Labels as the program writes them: lower-cased, "Inverter output (kW AC)" would lose its units. */}
          <p id="q-hint" class="usa-hint">Project number{v.columns.length > 0 ? `, ${v.columns.map((c) => c.name).join(', ')}` : ''}</p>
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="status">Status</label>
          <select class="usa-select" id="status" name="Status">
            <option value="" selected={v.filter.statusId === null}>Any status</option>
            {v.statuses.map((s) => <option key={s.id} value={s.id} selected={v.filter.statusId === s.id}>{s.name}</option>)}
          </select>
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="show">Show</label>
          <select class="usa-select" id="show" name="Show">
            {(Object.keys(SHOW_LABELS) as MyProjectsShow[]).map((s) => <option key={s} value={s} selected={v.filter.show === s}>{SHOW_LABELS[s]}</option>)}
          </select>
        </div>
        <button class="usa-button" type="submit">Search</button>
        {filtered ? <a href={myProjectsPath(v.programId)}>Clear</a> : null}
      </form>
      {v.rows.length === 0 ? <p>{filtered ? 'No project of yours matches.' : 'You have no applications yet.'}</p> : (
        <TableBox label={`Your applications in ${v.programName}`}>
          <table class="usa-table">
            <caption>Your applications in {v.programName}, latest change first</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                {v.columns.map((c) => <th scope="col" key={c.fieldId}>{c.name}</th>)}
                <th scope="col">Status</th><th scope="col">Last change</th><th scope="col">Waiting for you</th><th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {v.rows.map((r) => (
                <tr key={r.projectId}>
                  <td>
                    <a href={projectPagePath(v.programId, r.projectId)}>{r.projectNumber ?? 'Draft'}</a>
                    {r.draft ? <> <span class="usa-tag apas-draft">Draft — not submitted</span></> : null}
                  </td>
                  {r.summary.map((s, i) => <td key={i}>{s}</td>)}
                  <td><span class="usa-tag">{r.status}</span></td>
                  <td><time datetime={isoDateTime(r.lastChange)}>{formatDateTime(r.lastChange, p.timeZone)}</time></td>
                  <td>{r.waiting.length === 0 ? 'Nothing' : <ul class="waiting">{r.waiting.map((w) => <li key={w}>{w}</li>)}</ul>}</td>
                  <td>
                    <ul class="row-actions">
                      {v.canStart ? <li><a href={copyProjectPath(v.programId, r.projectId)}>Copy<span class="usa-sr-only"> {r.projectNumber ?? 'draft'}</span></a></li> : null}
                      {r.removal ? (
                        <li><a href={removeProjectPath(v.programId, r.projectId)}>{r.removal === 'delete' ? 'Delete' : 'Withdraw'}<span class="usa-sr-only"> {r.projectNumber ?? 'draft'}</span></a></li>
                      ) : null}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      <Pager first={p.paged ? myProjectsPath(v.programId, filterParams(v)) : null} next={next} />
      {v.canStart ? (
        <form method="post" action="/MvcProjects/NewProject" class="actions">
          <input type="hidden" name="_csrf" value={p.csrfToken} />
          <input type="hidden" name="ProgramId" value={v.programId} />
          <button class="usa-button" type="submit">Start an application for {v.programName}</button>
        </form>
      ) : null}
    </Layout>
  );
}

function filterParams(v: MyProjectsView): Record<string, string> {
  return {
    ...(v.filter.search === '' ? {} : { q: v.filter.search }), ...(v.filter.statusId === null ? {} : { Status: v.filter.statusId }),
    ...(v.filter.show === 'all' ? {} : { Show: v.filter.show }),
  };
}
