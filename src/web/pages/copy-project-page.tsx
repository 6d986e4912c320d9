import type { CopySourceView } from '../../domain/portal/copy-service.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { projectPagePath } from '../web-paths.ts';

/** What the copy page needs. */
export interface CopyProjectPageProps { source: CopySourceView; user: PageUser; csrfToken: string }

/** Copy an application: the applicant picks the forms whose data a new draft starts with. */
export function CopyProjectPage(p: CopyProjectPageProps) {
  const s = p.source;
  const name = s.projectNumber ?? 'your draft';
  return (
    <Layout title="Copy an application" testProgram={s.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>Copy {name} to a new application</h1>
      <p>The new application is a draft of yours that starts with the data of the forms you choose. Files, the project
        number, questions and the status are not copied, nor are sensitive fields: you add those again.</p>
      <form method="post" action="/MvcProjects/CopyProject">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="ProgramId" value={s.programId} />
        <input type="hidden" name="ProjectId" value={s.projectId} />
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">Forms to copy</legend>
          {s.forms.map((f, i) => (
            <div class="usa-checkbox" key={f.formId}>
              <input class="usa-checkbox__input" type="checkbox" id={`form-${i}`} name="FormId" value={f.formId} checked={i === 0} />
              <label class="usa-checkbox__label" for={`form-${i}`}>{f.name}</label>
            </div>
          ))}
        </fieldset>
        <div class="actions">
          <button class="usa-button" type="submit">Create the copy</button>
          <a href={projectPagePath(s.programId, s.projectId)}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
