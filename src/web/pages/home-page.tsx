import type { PortalHomeView } from '../../domain/portal/portal-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { myProjectsPath, projectPagePath } from '../web-paths.ts';
import { ORGANIZATIONS_PATH } from '../organization-paths.ts';

/** What the home page needs besides the portal's view. */
export interface HomePageProps {
  home: PortalHomeView; user: PageUser; csrfToken: string; timeZone: string;
  /** The user's organizations: an application may be started for one of them. */
  organizations?: { id: string; name: string }[];
}


// Test copies of programs are tagged wherever the home page lists them beside live ones.
const TEST_TAG = <> <span class="usa-tag">Test</span></>;

/** The home page: staff find their programs' work queues; applicants their projects and where to start a new one. */
export function HomePage(p: HomePageProps) {
  const staffPrograms = p.home.programs.filter((g) => g.staff);
  const startable = p.home.programs.filter((g) => g.canStart);
  return (
    <Layout title="Home" agencyName={p.home.agencyName} user={p.user} csrfToken={p.csrfToken}>
      <h1>Welcome, {p.user.name}</h1>
      {staffPrograms.length > 0 ? (
        <section aria-labelledby="queues">
          <h2 id="queues">Work queues</h2>
          <ul class="usa-list">
            {staffPrograms.map((g) => (
              <li key={g.programId}><a href={`/Projects/ProjectList?ProgramId=${encodeURIComponent(g.programId)}`}>{g.name}</a> ({g.role}){g.testProgram ? TEST_TAG : null}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {startable.length > 0 ? (
        <section aria-labelledby="mine">
          <h2 id="mine">My projects</h2>
          {p.home.myProjects.length === 0 ? <p>You have no applications yet.</p> : (
            <TableBox label="Your applications">
              <table class="usa-table">
                <caption class="usa-sr-only">Your applications</caption>
                <thead><tr><th scope="col">Project</th><th scope="col">Program</th><th scope="col">Status</th><th scope="col">Last change</th><th scope="col">Waiting for you</th></tr></thead>
                <tbody>
                  {p.home.myProjects.map((r) => (
                    <tr key={r.projectId}>
                      <td>
                        <a href={projectPagePath(r.programId, r.projectId)}>{r.projectNumber ?? 'Draft'}</a>
                        {r.projectNumber === null ? <> <span class="usa-tag apas-draft">Draft — not submitted</span></> : null}
                      </td>
                      <td>{r.programName}{r.testProgram ? TEST_TAG : null}</td>
                      <td><span class="usa-tag">{r.status}</span></td>
                      <td><time datetime={isoDateTime(r.lastChange)}>{formatDateTime(r.lastChange, p.timeZone)}</time></td>
                      <td>{r.waiting.length === 0 ? 'Nothing' : <ul class="waiting">{r.waiting.map((w) => <li key={w}>{w}</li>)}</ul>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
          <ul class="usa-list">
            {startable.map((g) => (
              <li key={g.programId}><a href={myProjectsPath(g.programId)}>Search and filter your applications in {g.name}</a></li>
            ))}
          </ul>
          <h2>Start an application</h2>
          {startable.map((g) => (
            <form key={g.programId} method="post" action="/MvcProjects/NewProject" class="actions">
              <input type="hidden" name="_csrf" value={p.csrfToken} />
              <input type="hidden" name="ProgramId" value={g.programId} />
              {(p.organizations ?? []).length > 0 ? (
                <>
                  <label class="usa-label" for={`for-${g.programId}`}>For</label>
                  <select class="usa-select" id={`for-${g.programId}`} name="OrganizationId">
                    <option value="">Myself</option>
                    {(p.organizations ?? []).map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
                  </select>
                </>
              ) : null}
              <button class="usa-button" type="submit">Start an application for {g.name}</button>
            </form>
          ))}
        </section>
      ) : null}
      {startable.length > 0 ? <p><a href={ORGANIZATIONS_PATH}>Organizations</a>: share applications with the other installers of your company.</p> : null}
      {staffPrograms.length === 0 && startable.length === 0 ? <p>You have no access to any program yet; ask the agency to grant you one.</p> : null}
    </Layout>
  );
}
