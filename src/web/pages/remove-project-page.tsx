import type { RemovalView } from '../../domain/portal/project-removal-service.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { projectPagePath } from '../web-paths.ts';

/** What the confirmation page of a deletion or withdrawal needs. */
export interface RemoveProjectPageProps { removal: RemovalView; user: PageUser; csrfToken: string }

/** Asks before a draft is deleted or a submitted project withdrawn: a form to confirm, no script needed. */
export function RemoveProjectPage(p: RemoveProjectPageProps) {
  const r = p.removal;
  const draft = r.removal === 'delete';
  const title = draft ? 'Delete this draft?' : `Withdraw ${r.projectNumber ?? ''}?`;
  return (
    <Layout title={title} testProgram={r.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>{title}</h1>
      {draft ? (
        <p>The draft, its data and its files are deleted for good and the agency never sees it. This cannot be undone.</p>
      ) : (
        <p>Project {r.projectNumber} (now in status "{r.status}") moves to "{r.withdrawTo}": the agency stops working on it.
          It stays in your list with its history.</p>
      )}
      <form method="post" action={draft ? '/MvcProjects/DeleteDraft' : '/MvcProjects/WithdrawProject'} class="actions">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="ProgramId" value={r.programId} />
        <input type="hidden" name="ProjectId" value={r.projectId} />
        <button type="submit" class="usa-button usa-button--secondary">{draft ? 'Delete the draft' : 'Withdraw the application'}</button>
        <a href={projectPagePath(r.programId, r.projectId)}>Keep it</a>
      </form>
    </Layout>
  );
}
