import type { CsvBounds } from '../../domain/imports/csv-table.ts';
import type { ImportProblem } from '../../domain/imports/import-columns.ts';
import type { ImportReport, ImportRowResult } from '../../domain/imports/project-import-service.ts';
import type { PageUser } from '../layout.tsx';
import { projectPagePath } from '../web-paths.ts';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** The Import projects area's address: the form, and where it is posted (multipart). */
export const IMPORT_PATH = consoleArea('import').path;

/** What the import page shows: the caller's programs, what the form held, a refusal, and the last run's report. */
export interface ImportPageProps {
  user: PageUser; csrfToken: string; agencyAdmin: boolean;
  programs: { id: string; customId: string; name: string }[];
  bounds: CsvBounds;
  programId: string | null;
  mapping: string;
  refusal?: { message: string; problems: ImportProblem[] } | null;
  report?: ImportReport | null;
}

const where = (p: ImportProblem) => `Line ${p.line}${p.column === null ? '' : `, column ${p.column}`}`;

/** The Import projects area: the form (program, CSV file, mapping; check or import) and the report of the last run. */
export function ImportPage(p: ImportPageProps) {
  return (
    <ConsoleLayout title="Import projects" area="import" user={p.user} csrfToken={p.csrfToken} agencyAdmin={p.agencyAdmin}>
      {p.refusal ? <Refusal refusal={p.refusal} /> : null}
      {p.report ? <Report report={p.report} /> : null}
      <p>
        Creates or updates a program's projects from the rows of a CSV file, each as a change of yours with the same
        checks, rules, audit and events as any other. The header names the columns: <code>ExternalId</code> (required:
        the row's id in your records, so that importing the file again updates rather than duplicates),{' '}
        <code>Owner</code> (the e-mail address of a user with a role in the program), <code>Status</code> (a new
        project's first status) and data fields by custom id or name. Check the file first: nothing is kept.
      </p>
      <ImportForm {...p} />
    </ConsoleLayout>
  );
}

function ImportForm(p: ImportPageProps) {
  return (
    <form class="usa-form usa-form--large" method="post" action={IMPORT_PATH} enctype="multipart/form-data">
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <label class="usa-label" for="import-program">Program</label>
      <select class="usa-select" id="import-program" name="program" required>
        {p.programs.map((program) => (
          <option key={program.id} value={program.id} selected={program.id === p.programId}>{program.name} ({program.customId})</option>
        ))}
      </select>
      <label class="usa-label" for="import-mapping">Mapping (optional)</label>
      <span class="usa-hint" id="import-mapping-hint">
        One <code>Column = target</code> a line, for headers that are not a field's custom id or name; the target a
        field's custom id or name, <code>externalId</code>, <code>owner</code>, <code>status</code>, or <code>-</code> to leave the column out.
      </span>
      <textarea class="usa-textarea" id="import-mapping" name="mapping" rows={4} maxLength={20000} aria-describedby="import-mapping-hint">{p.mapping}</textarea>
      <label class="usa-label" for="import-file">CSV file</label>
      <span class="usa-hint" id="import-file-hint">
        UTF-8 (CSV UTF-8), comma-separated, at most {p.bounds.maxRows.toLocaleString('en-US')} rows
        and {Math.floor(p.bounds.maxBytes / 1024 / 1024)} MB; larger files with <code>apas import projects</code>.
      </span>
      <input class="usa-file-input" type="file" id="import-file" name="file" accept=".csv,text/csv" aria-describedby="import-file-hint" required />
      <div class="margin-top-3">
        <button class="usa-button" type="submit" name="mode" value="dry-run">Check the file</button>
        <button class="usa-button usa-button--outline" type="submit" name="mode" value="import">Import</button>
      </div>
    </form>
  );
}

function Refusal(p: { refusal: { message: string; problems: ImportProblem[] } }) {
  return (
    <div class="usa-alert usa-alert--error" role="alert">
      <div class="usa-alert__body">
        <h2 class="usa-alert__heading">The file was not imported</h2>
        <p class="usa-alert__text">{p.refusal.message}</p>
        {p.refusal.problems.length > 0 ? (
          <ul class="usa-list">{p.refusal.problems.map((problem, i) => <li key={i}>{where(problem)}: {problem.message}</li>)}</ul>
        ) : null}
      </div>
    </div>
  );
}

function outcomeText(row: ImportRowResult, dryRun: boolean): string {
  if (row.outcome === 'refused') return 'Refused';
  const done = { created: 'Created', updated: 'Updated', unchanged: 'Unchanged' }[row.outcome];
  return dryRun ? `Would be ${done.toLowerCase()}` : done;
}

function Report(p: { report: ImportReport }) {
  const { report } = p;
  const { created, updated, unchanged, refused } = report.counts;
  return (
    <>
      <section class="usa-summary-box margin-bottom-3" aria-label="Import report">
        <div class="usa-summary-box__body">
          <h2 class="usa-summary-box__heading">{report.dryRun ? 'Checked: nothing was kept' : 'Imported'} into {report.programName}</h2>
          <p class="usa-summary-box__text">
            {report.rows.length} rows: {created} {report.dryRun ? 'would be created' : 'created'}, {updated} {report.dryRun ? 'would be updated' : 'updated'},{' '}
            {unchanged} unchanged, {refused} refused.
            {report.dryRun ? ' Choose the file again and Import to import it.' : refused > 0 ? ' Correct the refused rows and import the file again: the rows imported are found by their external id and left unchanged.' : ''}
          </p>
        </div>
      </section>
      <table class="usa-table usa-table--borderless usa-table--compact">
        <caption>Each row of the file</caption>
        <thead><tr><th scope="col">Line</th><th scope="col">External id</th><th scope="col">Outcome</th><th scope="col">Project</th><th scope="col">Problems and notes</th></tr></thead>
        <tbody>
          {report.rows.map((row) => (
            <tr key={row.line}>
              <th scope="row">{row.line}</th>
              <td>{row.externalId ?? ''}</td>
              <td>{outcomeText(row, report.dryRun)}</td>
              <td>{row.projectId !== null && !(report.dryRun && row.outcome === 'created') ? <a href={projectPagePath(report.programId, row.projectId)}>{row.projectNumber ?? 'Unsubmitted'}</a> : ''}</td>
              <td>
                {row.problems.length + row.notes.length > 0 ? (
                  <ul class="usa-list usa-list--unstyled">
                    {row.problems.map((problem, i) => <li key={`p${i}`}>{problem.column === null ? '' : `${problem.column}: `}{problem.message}</li>)}
                    {row.notes.map((note, i) => <li key={`n${i}`}>{note}</li>)}
                  </ul>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
