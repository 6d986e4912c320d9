import { HistoryReason } from './history-reason.tsx';
import { TableBox } from '../components/table-box.tsx';
import { Alert } from '../components/alert.tsx';
import type { ProjectFormsView } from '../../domain/projects/application-service.ts';
import type { LandingInquiriesView, LandingView } from '../../domain/views.ts';
import type { DeadlineView } from '../../domain/deadlines/deadline-service.ts';
import { ApplicantDeadlines } from '../components/deadline-list.tsx';
import { FileSummary } from '../components/file-summary.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { copyProjectPath, filePath, formPagePath, removeProjectPath } from '../web-paths.ts';
import type { OwnerMailsView } from '../../domain/mail/project-mail-service.ts';
import { OwnerMails } from '../components/owner-mails.tsx';
import { EnvelopeList } from '../components/envelope-list.tsx';
import type { EnvelopeView } from '../../domain/signing/signing-service.ts';
import type { ProjectRelationsView } from '../../domain/relations/relation-service.ts';
import { RelatedProjects } from '../components/related-projects.tsx';

const THREAD_STATUS: Record<string, string> = { Open: 'Open', AwaitingResponse: 'Awaiting your response', Resolved: 'Resolved', Closed: 'Closed' };

/** What the project page shows. */
export interface ProjectPageProps {
  project: LandingView; forms: ProjectFormsView; inquiries: LandingInquiriesView;
  user: PageUser; csrfToken: string; timeZone: string;
  /** True right after the applicant submitted a form: the page confirms it and says what happens next. */
  justSubmitted: boolean;
  /** The project's deadlines the caller may see; the running ones are listed ("Answer due by 12 Dec 2026"). */
  deadlines?: DeadlineView[];
  /** What the applicant may do with the whole application: copy it into a new one, delete the draft or withdraw it. */
  manage?: { canCopy: boolean; removal: 'delete' | 'withdraw' | null };
  /** The mails the project's owner was sent about it, newest first; absent: not listed. */
  mails?: OwnerMailsView;
  /** The project's documents out for signature (src/domain/signing), with their signers; absent or empty: none shown. */
  envelopes?: EnvelopeView[];
  /** The project's related projects the caller may read (src/domain/relations); absent or empty: none shown. */
  relations?: ProjectRelationsView;
}

function When(p: { at: number; timeZone: string }) {
  return <time datetime={isoDateTime(p.at)}>{formatDateTime(p.at, p.timeZone)}</time>;
}

/** A project: status and history, its forms (to fill in or read), submitted data, files, and the agency's questions with replies. */
export function ProjectPage(p: ProjectPageProps) {
  const v = p.project;
  const title = v.projectNumber ?? 'Unsubmitted project';
  // A form's data shows once it was submitted: a field it shares with an earlier form has a value before that.
  const submitted = p.forms.forms.filter((f) => f.submitted && f.values.length > 0);
  // Forms that can be opened with something to see or do: open in the current status, fillable by the caller now
  // (admins may fill in any form at any time), or submitted before.
  const listed = p.forms.forms.filter((f) => f.available || f.canFill || f.submitted);
  const files = p.forms.forms.flatMap((f) => f.attachments.map((a) => ({ form: f.name, a })));
  return (
    <Layout title={title} agencyName={p.forms.agencyName} programName={p.forms.programName} testProgram={p.forms.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>{title}</h1>
      {p.justSubmitted && v.projectNumber ? (
        <Alert kind="success" heading="Your application was submitted">
          <p>Project number <strong>{v.projectNumber}</strong>, status <strong>{v.currentStatus.name}</strong>.</p>
          <h3>What happens next</h3>
          <ul class="usa-list">{p.forms.nextSteps.map((s) => <li key={s}>{s}</li>)}</ul>
        </Alert>
      ) : null}
      <section class="usa-summary-box" aria-labelledby="summary">
        <div class="usa-summary-box__body">
          <h2 class="usa-summary-box__heading" id="summary">Summary</h2>
          <div class="usa-summary-box__text">
            <dl class="facts">
              <dt>Status</dt><dd><span class="usa-tag">{v.currentStatus.name}</span> since <When at={v.currentStatus.timestamp} timeZone={p.timeZone} /></dd>
              <dt>Program</dt><dd>{v.programName}</dd>
              <dt>Owner</dt><dd>{v.ownerName}</dd>
              <dt>Project id</dt><dd><code>{v.projectId}</code></dd>
              <dt>Last change</dt><dd><When at={v.lastChangeTimestamp} timeZone={p.timeZone} /></dd>
            </dl>
          </div>
        </div>
      </section>
      <ApplicantDeadlines deadlines={p.deadlines ?? []} />
      <EnvelopeList envelopes={p.envelopes ?? []} timeZone={p.timeZone} />
      {p.relations ? <RelatedProjects relations={p.relations} timeZone={p.timeZone} /> : null}
      <section aria-labelledby="forms">
        <h2 id="forms">Forms</h2>
        {listed.length === 0 ? <p>No form is open in this status.</p> : (
          <ul class="usa-list forms">
            {listed.map((f) => (
              <li key={f.formId}>
                <a href={formPagePath(v.programId, v.projectId, f.formId)}>{f.canFill ? `Fill in ${f.name}` : f.name}</a>
                {f.available ? <em> (open now)</em> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="history">
        <h2 id="history">Status history</h2>
        <TableBox label="Status history">
          <table class="usa-table">
            <caption class="usa-sr-only">Status history, newest first</caption>
            <thead><tr><th scope="col">Status</th><th scope="col">Since</th><th scope="col">By</th><th scope="col">Reason</th></tr></thead>
            <tbody class="history">
              {v.history.map((h, i) => <tr key={i}><td>{h.status}</td><td><When at={h.at} timeZone={p.timeZone} /></td><td>{h.by}</td><td><HistoryReason line={h} /></td></tr>)}
            </tbody>
          </table>
        </TableBox>
      </section>
      {submitted.length > 0 ? (
        <section aria-labelledby="data">
          <h2 id="data">Submitted data</h2>
          {submitted.map((f) => (
            <section key={f.formId} aria-labelledby={`data-${f.formId}`}>
              <h3 id={`data-${f.formId}`}>{f.name}</h3>
              <dl class="facts submitted">
                {f.values.map((x) => <><dt key={`${x.fieldId}-t`}>{x.name}</dt><dd key={`${x.fieldId}-d`}>{x.values.join(', ')}</dd></>)}
              </dl>
            </section>
          ))}
        </section>
      ) : null}
      {files.length > 0 ? (
        <section aria-labelledby="files">
          <h2 id="files">Attachments</h2>
          {files.map(({ form, a }) => (
            <section key={a.attachmentId} aria-labelledby={`file-${a.attachmentId}`}>
              <h3 id={`file-${a.attachmentId}`}>{a.name} <small>({form})</small></h3>
              <FileSummary file={a.file!} href={filePath(v.programId, v.projectId, a.attachmentId)} timeZone={p.timeZone} />
            </section>
          ))}
        </section>
      ) : null}
      {p.inquiries.threads.length > 0 ? (
        <section aria-labelledby="questions">
          <h2 id="questions">Questions from the program</h2>
          {p.inquiries.threads.map((t) => (
            <section class="inquiry" id={`thread-${t.threadId}`} key={t.threadId} aria-labelledby={`subject-${t.threadId}`}>
              <h3 id={`subject-${t.threadId}`}>{t.subject} <small>({THREAD_STATUS[t.status] ?? t.status})</small></h3>
              <ol class="notes">
                {t.notes.map((n, i) => (
                  <li key={i}><p class="meta">{n.author} · <When at={n.timestamp} timeZone={p.timeZone} /></p><div class="note">{n.text}</div></li>
                ))}
              </ol>
              {t.canReply ? (
                <form method="post" action={p.inquiries.replyUrl}>
                  <input type="hidden" name="_csrf" value={p.csrfToken} />
                  <input type="hidden" name="ProgramId" value={v.programId} />
                  <input type="hidden" name="ProjectId" value={v.projectId} />
                  <input type="hidden" name="ThreadId" value={t.threadId} />
                  <div class="usa-form-group">
                    <label class="usa-label" for={`reply-${t.threadId}`}>Your reply to “{t.subject}”</label>
                    <textarea class="usa-textarea" id={`reply-${t.threadId}`} name="Text" rows={4} maxLength={20000} required />
                  </div>
                  <button class="usa-button" type="submit">Send reply</button>
                </form>
              ) : t.status === 'Closed' ? <p><em>This thread is closed.</em></p> : null}
            </section>
          ))}
        </section>
      ) : null}
      {p.mails ? <OwnerMails mails={p.mails.mails} title={p.mails.toCaller ? 'Mails sent to you' : `Mails sent to ${v.ownerName}`} timeZone={p.timeZone} /> : null}
      {p.manage && (p.manage.canCopy || p.manage.removal) ? (
        <section aria-labelledby="manage">
          <h2 id="manage">This application</h2>
          <ul class="usa-list forms">
            {p.manage.canCopy ? <li><a href={copyProjectPath(v.programId, v.projectId)}>Copy to a new application</a></li> : null}
            {p.manage.removal === 'delete' ? <li><a href={removeProjectPath(v.programId, v.projectId)}>Delete this draft</a></li> : null}
            {p.manage.removal === 'withdraw' ? <li><a href={removeProjectPath(v.programId, v.projectId)}>Withdraw this application</a></li> : null}
          </ul>
        </section>
      ) : null}
    </Layout>
  );
}
