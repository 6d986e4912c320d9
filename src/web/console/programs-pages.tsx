import type { ComponentChildren } from 'preact';
import type { CalendarPreview, FormPreview, MailPreviewItem, PreviewIndex } from '../../domain/administration/program-preview-service.ts';
import type { ProgramSummary, UploadReview } from '../../domain/administration/program-publishing-service.ts';
import { type LoadableListView, MAX_LIST_FILE_BYTES } from '../../domain/lists/list-console-service.ts';
import { MAX_PROGRAM_FILE_BYTES } from '../../domain/administration/program-publishing-service.ts';
import type { Program } from '../../model/model.ts';
import type { ProgramVersion } from '../../model/program-version.ts';
import { FieldControl } from '../components/field-control.tsx';
import { formatSize } from '../components/file-summary.tsx';
import { TableControl } from '../components/table-control.tsx';
import { acceptedTypesText } from '../file-type-names.ts';
import { formatDateTime, formatDueDate } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { PROGRAM_UPLOAD_PATH, PROGRAMS_PATH, programsPaths } from './programs-paths.ts';

/** What every page of the area needs for its frame. */
export interface ProgramsFrame { user: PageUser; csrfToken: string; agencyAdmin: boolean; timeZone: string; notice?: string | null }

/** A refusal shown on the page: a headline and, for a program file's problems, one line per problem. */
export interface PageProblem { headline: string; lines: string[] }

/** A refused request's message as a page shows it: the program file's "… (2 problems):" headline, then its "  - " lines. */
export function problemOf(message: string): PageProblem {
  const [headline = '', ...rest] = message.split('\n');
  return { headline, lines: rest.map((l) => l.replace(/^\s*- /, '')).filter((l) => l.trim() !== '') };
}

function Problem(p: { problem: PageProblem; title: string }) {
  return (
    <div class="usa-alert usa-alert--error" role="alert">
      <div class="usa-alert__body">
        <h2 class="usa-alert__heading">{p.title}</h2>
        <p class="usa-alert__text">{p.problem.headline}</p>
        {p.problem.lines.length > 0 ? <ul class="usa-list">{p.problem.lines.map((l, i) => <li key={i}>{l}</li>)}</ul> : null}
      </div>
    </div>
  );
}

function Frame(p: ProgramsFrame & { title: string; children: ComponentChildren }) {
  return (
    <ConsoleLayout title={p.title} user={p.user} csrfToken={p.csrfToken} agencyAdmin={p.agencyAdmin} area="programs" notice={p.notice ?? null}>
      {p.children}
    </ConsoleLayout>
  );
}

/** The upload form: a YAML or JSON program file, posted as multipart with the CSRF token first. */
function UploadForm(p: { csrfToken: string; hint: string; programId?: string }) {
  // From a program's page, a refused file is shown on that page again.
  const action = p.programId ? `${PROGRAM_UPLOAD_PATH}?program=${encodeURIComponent(p.programId)}` : PROGRAM_UPLOAD_PATH;
  return (
    <form class="usa-form usa-form--large" method="post" action={action} enctype="multipart/form-data">
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <label class="usa-label" for="program-file">Program file</label>
      <span class="usa-hint" id="program-file-hint">{p.hint} YAML (.yaml, .yml) or JSON (.json), at most {formatSize(MAX_PROGRAM_FILE_BYTES)}.</span>
      <input class="usa-file-input" type="file" id="program-file" name="file" accept=".yaml,.yml,.json" aria-describedby="program-file-hint" required />
      <button class="usa-button" type="submit">Check the file</button>
    </form>
  );
}

/** The program's lists of rows from CSV files: how many rows each holds, and a form to check or load a new file. */
function ListsSection(p: { programId: string; csrfToken: string; lists: LoadableListView[]; problem: PageProblem | null }) {
  return (
    <section aria-labelledby="long-lists">
      <h2 id="long-lists">Lists loaded from CSV files</h2>
      {p.problem ? <Problem problem={p.problem} title="The rows were not loaded" /> : null}
      <p>Loading a file replaces all rows of the list at once. Projects keep the values they hold, also those the new file no longer has.</p>
      {p.lists.map((l) => {
        const ref = l.customId ?? l.listId;
        return (
          <form key={l.listId} class="usa-form usa-form--large" method="post" action={programsPaths.list(p.programId, l.listId)} enctype="multipart/form-data">
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            <h3>{l.name} ({ref})</h3>
            <p>{l.rows} rows. Columns: {l.columns.map((c) => `${c.name}${c.type === 'text' ? '' : ` (${c.type})`}`).join(', ')}; key {l.key}.</p>
            <label class="usa-label" for={`list-file-${ref}`}>CSV file for {l.name}</label>
            <span class="usa-hint" id={`list-file-hint-${ref}`}>UTF-8, a header line naming the columns first, at most {formatSize(MAX_LIST_FILE_BYTES)}.</span>
            <input class="usa-file-input" type="file" id={`list-file-${ref}`} name="file" accept=".csv,text/csv" aria-describedby={`list-file-hint-${ref}`} required />
            <div class="usa-button-group">
              {/* Named after the list: the page holds a button per list, and the program file's own Check the file. */}
              <button class="usa-button usa-button--outline" type="submit" name="check" value="1">Check the file for {l.name}</button>
              <button class="usa-button" type="submit" name="load" value="1">Load the rows into {l.name}</button>
            </div>
          </form>
        );
      })}
    </section>
  );
}

function VersionCell(p: { live: ProgramVersion | null; timeZone: string }) {
  if (!p.live) return <>No version recorded yet</>;
  return <>Version {p.live.version}, {formatDateTime(p.live.publishedAt, p.timeZone)} by {p.live.publisher}</>;
}

/** The programs the caller administers, with the upload form. */
export function ProgramsListPage(p: ProgramsFrame & { programs: ProgramSummary[]; problem?: PageProblem | null }) {
  return (
    <Frame {...p} title="Programs">
      {p.problem ? <Problem problem={p.problem} title="The file was not accepted" /> : null}
      <table class="usa-table usa-table--borderless">
        <caption>Programs you administer</caption>
        <thead><tr><th scope="col">Program</th><th scope="col">Custom id</th><th scope="col">Live version</th></tr></thead>
        <tbody>
          {p.programs.map((s) => (
            <tr key={s.program.id}>
              <th scope="row"><a href={programsPaths.program(s.program.id)}>{s.program.name}</a></th>
              <td>{s.program.customId}</td>
              <td><VersionCell live={s.live} timeZone={p.timeZone} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Upload a program file</h2>
      <p>The file is checked and compared with the live version first; nothing changes until you publish it on the next page.</p>
      <UploadForm csrfToken={p.csrfToken} hint={p.agencyAdmin ? 'A new version of a program of the agency, or a new program.' : 'A new version of a program you administer.'} />
    </Frame>
  );
}

/** A program: its live version, download, the previews, the version history and the upload form. */
export function ProgramPage(p: ProgramsFrame & {
  program: Program; versions: ProgramVersion[]; index: PreviewIndex; problem?: PageProblem | null;
  /** The program's lists of rows from CSV files (absent: none), and what a list's upload found. */
  lists?: LoadableListView[]; listProblem?: PageProblem | null;
}) {
  const id = p.program.id;
  const live = p.versions[0] ?? null;
  return (
    <Frame {...p} title={p.program.name}>
      {p.problem ? <Problem problem={p.problem} title="The file was not accepted" /> : null}
      <section class="usa-summary-box" aria-labelledby="live-version">
        <div class="usa-summary-box__body">
          <h2 class="usa-summary-box__heading" id="live-version">Live version</h2>
          <div class="usa-summary-box__text">
            <p>Program {p.program.customId}: <VersionCell live={live} timeZone={p.timeZone} />.</p>
            <p><a class="usa-link" href={programsPaths.liveFile(id)} download>Download the live program file</a> (what <code>apas program export</code> writes).</p>
          </div>
        </div>
      </section>
      <h2>Previews</h2>
      <p>The live version as applicants see it.</p>
      <ul class="usa-list">
        {p.index.forms.map((f) => <li key={f.formId}><a href={programsPaths.form(id, f.formId)}>Form: {f.name}</a></li>)}
        <li><a href={programsPaths.mails(id)}>Mails ({p.index.mails.length}) with sample values</a></li>
        {p.index.documents.map((d) => <li key={d.customId}><a href={programsPaths.document(id, d.customId)}>Document: {d.name} (PDF over a sample project)</a></li>)}
        <li><a href={programsPaths.calendar(id)}>Calendar: holidays and closures of the next 12 months</a></li>
      </ul>
      <h2>Version history</h2>
      {p.versions.length === 0 ? <p>No version recorded yet: versions are recorded from the first publication on (here or with <code>apas program import</code>).</p> : (
        <table class="usa-table usa-table--borderless">
          <caption>Published versions, newest first</caption>
          <thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">By</th><th scope="col">Changes</th><th scope="col">File</th></tr></thead>
          <tbody>
            {p.versions.map((v) => (
              <tr key={v.version}>
                <th scope="row"><a href={programsPaths.version(id, v.version)}>Version {v.version}</a></th>
                <td>{formatDateTime(v.publishedAt, p.timeZone)}</td>
                <td>{v.publisher}</td>
                <td>{v.changes.length}</td>
                <td><a href={programsPaths.versionFile(id, v.version)} download>Download version {v.version}</a></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {p.lists && p.lists.length > 0 ? <ListsSection programId={id} csrfToken={p.csrfToken} lists={p.lists} problem={p.listProblem ?? null} /> : null}
      <h2>Upload a new version</h2>
      <UploadForm csrfToken={p.csrfToken} programId={id} hint={`A program file whose customId is ${p.program.customId}.`} />
      <p><a href={PROGRAMS_PATH}>All programs</a></p>
    </Frame>
  );
}

/** An uploaded file's changes against the live version, with the Publish button when it changes anything. */
export function ReviewPage(p: ProgramsFrame & { review: UploadReview; problem?: PageProblem | null }) {
  const r = p.review;
  return (
    <Frame {...p} title={`Review ${r.upload.fileName}`}>
      {p.problem ? <Problem problem={p.problem} title="Not published" /> : null}
      <p>
        {r.program ? <>The file updates program <a href={programsPaths.program(r.program.id)}>{r.program.name}</a>, compared with its live version{r.report.liveVersion > 0 ? ` (version ${r.report.liveVersion})` : ''}.</>
          : <>The file creates a new program, {r.customId}.</>}
        {' '}Uploaded {formatDateTime(r.upload.uploadedAt, p.timeZone)}; SHA-256 <code>{r.upload.sha256}</code>.
      </p>
      <h2>Changes</h2>
      <section aria-label="Changes"><pre class="program-changes">{r.lines.join('\n')}</pre></section>
      {r.report.changed ? (
        <form class="usa-form" method="post" action={programsPaths.publish(r.upload.id)}>
          <input type="hidden" name="_csrf" value={p.csrfToken} />
          <input type="hidden" name="sha256" value={r.upload.sha256} />
          <input type="hidden" name="version" value={String(r.report.liveVersion)} />
          <button class="usa-button" type="submit">Publish version {r.report.liveVersion + 1}</button>
        </form>
      ) : <p>The file matches the live version: there is nothing to publish.</p>}
      <p><a href={r.program ? programsPaths.program(r.program.id) : PROGRAMS_PATH}>Cancel</a></p>
    </Frame>
  );
}

/** One recorded version: who published it and when, what it changed against the version before, and its file. */
export function VersionPage(p: ProgramsFrame & { program: Program; version: ProgramVersion }) {
  const v = p.version;
  return (
    <Frame {...p} title={`${p.program.name}, version ${v.version}`}>
      <p>Published {formatDateTime(v.publishedAt, p.timeZone)} by {v.publisher} from {v.fileName} (SHA-256 <code>{v.sha256}</code>).</p>
      <h2>{v.version === 1 ? 'Changes (the first version recorded)' : `Changes since version ${v.version - 1}`}</h2>
      <section aria-label="Changes"><pre class="program-changes">{v.changes.join('\n')}</pre></section>
      <p><a class="usa-link" href={programsPaths.versionFile(p.program.id, v.version)} download>Download the file of version {v.version}</a></p>
      <p><a href={programsPaths.program(p.program.id)}>Back to {p.program.name}</a></p>
    </Frame>
  );
}

/** A form of the live version as applicants see it: the real controls, read-only, nothing filled in. */
export function FormPreviewPage(p: ProgramsFrame & { preview: FormPreview }) {
  const v = p.preview;
  return (
    <Frame {...p} title={`Preview: ${v.form.name}`}>
      <p>The form as applicants of {v.program.name} see it, with every field shown (rules that show, hide or require fields depend on the answers) and nothing filled in. It cannot be sent.</p>
      <form class="usa-form usa-form--large" aria-label={`Preview of ${v.form.name}`}>
        <fieldset class="usa-fieldset" disabled>
          <legend class="usa-legend">{v.form.name}</legend>
          {v.fields.map((f) => (f.table ? <TableControl key={f.fieldId} f={f} rows={[]} problems={[]} /> : <FieldControl key={f.fieldId} f={f} shown={null} error={null} />))}
        </fieldset>
      </form>
      {v.attachments.length > 0 ? (
        <>
          <h2>Attachments</h2>
          <ul class="usa-list">
            {v.attachments.map((a) => (
              <li key={a.attachmentId}>{a.name}{a.required ? ' (required)' : ''}: {a.document !== null ? 'made by the agency\'s system' : `${acceptedTypesText(a.allowedTypes)}, at most ${formatSize(a.maxSizeBytes)}`}</li>
            ))}
          </ul>
        </>
      ) : null}
      <p><a href={programsPaths.program(v.program.id)}>Back to {v.program.name}</a></p>
    </Frame>
  );
}

/** Every mail of the live version with sample values, as `apas program preview-mail` prints them. */
export function MailsPreviewPage(p: ProgramsFrame & { program: Program; mails: MailPreviewItem[] }) {
  return (
    <Frame {...p} title={`Mails of ${p.program.name}`}>
      <p>Each mail with sample values: project number 42, the status's first reason, and a sample message from the reviewer.</p>
      {p.mails.map((m) => (
        <section key={m.key} aria-labelledby={`mail-${m.key}`}>
          <h2 id={`mail-${m.key}`}>{m.label}</h2>
          <p class="usa-hint">From {m.source}.</p>
          <p><strong>Subject:</strong> {m.mail.subject}</p>
          <pre class="mail-text">{m.mail.text}</pre>
        </section>
      ))}
      <p><a href={programsPaths.program(p.program.id)}>Back to {p.program.name}</a></p>
    </Frame>
  );
}

const WEEKDAY_NAMES: Record<string, string> = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' };

/** The calendar of the live version: working days, and the holidays and closures of the coming twelve months. */
export function CalendarPage(p: ProgramsFrame & { preview: CalendarPreview }) {
  const c = p.preview;
  return (
    <Frame {...p} title={`Calendar of ${c.program.name}`}>
      <p>{c.own ? 'The program\'s calendar.' : 'The program has no calendar of its own: deadlines count with the default one.'}</p>
      <ul class="usa-list">
        <li>Time zone: {c.calendar.timeZone}</li>
        <li>Working days: {c.calendar.workingDays.map((d) => WEEKDAY_NAMES[d] ?? d).join(', ')}</li>
        <li>Public holidays: {c.calendar.holidays ? `${c.calendar.holidays.country}${c.calendar.holidays.region ? `-${c.calendar.holidays.region}` : ''}` : 'none'}</li>
      </ul>
      <table class="usa-table usa-table--borderless">
        <caption>Holidays and closures from {formatDueDate(c.from)} to {formatDueDate(c.to)}</caption>
        <thead><tr><th scope="col">Date</th><th scope="col">Name</th><th scope="col">Kind</th></tr></thead>
        <tbody>
          {c.days.length === 0 ? <tr><td colSpan={3}>None.</td></tr> : c.days.map((d) => (
            <tr key={d.date}><th scope="row">{formatDueDate(d.date)}</th><td>{d.name}</td><td>{d.kind === 'holiday' ? 'Public holiday' : 'Closure'}</td></tr>
          ))}
        </tbody>
      </table>
      <p><a href={programsPaths.program(c.program.id)}>Back to {c.program.name}</a></p>
    </Frame>
  );
}
