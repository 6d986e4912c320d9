import type { AuditPage as AuditRows } from '../../domain/administration/audit-trail-service.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleErrorAlert } from './console-error-alert.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { ConsolePager } from './console-pager.tsx';
import { consoleArea } from './console-paths.ts';

/** The Audit trail area's address. */
export const AUDIT_PATH = consoleArea('audit').path;

/** The trail's filters as typed in its form (and carried by its links). */
export interface AuditForm { User: string; Project: string; Action: string; From: string; To: string }

/** The trail's address with these filters (and a cursor, or the CSV format). */
export function auditHref(f: AuditForm, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(Object.entries({ ...f, ...extra }).filter(([, v]) => v !== ''));
  const text = q.toString();
  return text === '' ? AUDIT_PATH : `${AUDIT_PATH}?${text}`;
}

/** What the trail's page shows. */
export interface AuditPageProps {
  user: PageUser; csrfToken: string; agencyAdmin: boolean; timeZone: string;
  form: AuditForm;
  /** The page of rows; null when the filters were refused (`problem` says why). */
  page: AuditRows | null;
  problem: string | null;
  /** True on a later page: a link back to the newest rows. */
  older: boolean;
}

function detailText(detail: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(detail ?? {});
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function Field(p: { id: string; name: keyof AuditForm; label: string; value: string; type?: 'text' | 'date'; hint?: string }) {
  return (
    <div class="grid-col-12 tablet:grid-col-4">
      <label class="usa-label" for={p.id}>{p.label}</label>
      {p.hint ? <span class="usa-hint" id={`${p.id}-hint`}>{p.hint}</span> : null}
      {p.type === 'date'
        ? <input class="usa-input" id={p.id} name={p.name} type="date" value={p.value} />
        : <input class="usa-input" id={p.id} name={p.name} type="text" value={p.value} aria-describedby={p.hint ? `${p.id}-hint` : undefined} />}
    </div>
  );
}

/** The audit trail: filters, a page of rows newest first, the next page's link and the CSV download. */
export function AuditTrailPage(p: AuditPageProps) {
  return (
    <ConsoleLayout title="Audit trail" user={p.user} csrfToken={p.csrfToken} area="audit" agencyAdmin={p.agencyAdmin}>
      <p>{p.agencyAdmin ? 'Every audited change of the agency' : 'Every audited change of the programs you administer and their projects'}, newest first.</p>
      <form class="usa-form usa-form--large maxw-full" method="get" action={AUDIT_PATH}>
        <div class="grid-row grid-gap">
          <Field id="audit-user" name="User" label="User (e-mail address)" value={p.form.User} />
          <Field id="audit-project" name="Project" label="Project (id or number)" value={p.form.Project} />
          <Field id="audit-action" name="Action" label="Action" value={p.form.Action} hint="An action, or its family: webhook finds webhook.create and the others." />
          <Field id="audit-from" name="From" label="From (day)" type="date" value={p.form.From} />
          <Field id="audit-to" name="To" label="To (day, included)" type="date" value={p.form.To} />
        </div>
        <button class="usa-button" type="submit">Filter</button>
        <a class="usa-button usa-button--outline" href={auditHref(p.form, { format: 'csv' })}>Download CSV</a>
      </form>
      <ConsoleErrorAlert message={p.problem} />
      {p.page === null ? null : p.page.rows.length === 0 ? <p>No audited change matches.</p> : (
        <table class="usa-table usa-table--borderless usa-table--stacked">
          <caption>Audited changes, newest first</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">User</th><th scope="col">Action</th><th scope="col">Project</th><th scope="col">Detail</th></tr></thead>
          <tbody>
            {p.page.rows.map((r) => (
              <tr key={r.id}>
                <td data-label="Time"><time datetime={isoDateTime(r.at)}>{formatDateTime(r.at, p.timeZone)}</time></td>
                <td data-label="User">{r.actorEmail ?? (r.actorId === null ? 'the service' : r.actorId)}</td>
                <td data-label="Action">{r.action}</td>
                <td data-label="Project">{r.projectId ?? ''}</td>
                <td data-label="Detail"><code class="font-mono-3xs">{detailText(r.detail)}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConsolePager label="Audit trail pages" noun="changes" newest={p.older ? auditHref(p.form) : null} older={p.page?.nextCursor ? auditHref(p.form, { cursor: p.page.nextCursor }) : null} />
    </ConsoleLayout>
  );
}
