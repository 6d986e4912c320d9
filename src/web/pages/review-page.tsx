import type { ComponentChildren } from 'preact';
import { TableBox } from '../components/table-box.tsx';
import { Alert } from '../components/alert.tsx';
import type { ReviewThreadView, ReviewView } from '../../domain/projects/review-service.ts';
import type { DeadlineBoardView } from '../../domain/deadlines/deadline-service.ts';
import { DeadlineBoard } from '../components/deadline-list.tsx';
import { DocumentBoard, type DocumentBoardView } from '../components/document-board.tsx';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { FileLinks } from '../components/file-summary.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { HistoryReason } from './history-reason.tsx';
import { QUEUE_PATH, reviewPath } from './work-queue-page.tsx';
import type { OwnerMailsView } from '../../domain/mail/project-mail-service.ts';
import { OwnerMails } from '../components/owner-mails.tsx';
import { EnvelopeList } from '../components/envelope-list.tsx';
import type { EnvelopeView } from '../../domain/signing/signing-service.ts';
import type { ProjectRelationsView } from '../../domain/relations/relation-service.ts';
import { RelatedProjects } from '../components/related-projects.tsx';

/** What the review page shows besides the domain's view: a notice after an action, or the problems of a refused one. */
export interface ReviewPageProps {
  view: ReviewView; notice: string | null; problems: FormProblem[]; user: PageUser; csrfToken: string; timeZone: string;
  /** What a refused status change sent, shown again so that a typed message is not lost. */
  statusForm?: StatusFormValues;
  /** The project's deadlines with the start/satisfy/cancel forms (src/domain/deadlines); absent: none shown. */
  deadlines?: DeadlineBoardView;
  /** The mails the project's owner was sent about it, newest first; absent: not listed. */
  mails?: OwnerMailsView;
  /** The program's documents with their newest request, the Generate forms and, for admins, Preview links (src/domain/documents); absent: none shown. */
  documents?: DocumentBoardView;
  /** The project's documents out for signature; `mayManage`: the caller may void them and resend links (generateDocuments). */
  envelopes?: { views: EnvelopeView[]; mayManage: boolean };
  /** The project's related projects the caller may read, and the related projects it may create (src/domain/relations); absent: none shown. */
  relations?: ProjectRelationsView;
}

/** The status form's values: the status, the reason and the message. */
export interface StatusFormValues { statusId: string; reasonId: string; message: string }

// Staff read the thread statuses in words, as applicants do on the project page (the API keeps the codes).
const THREAD_STATUS_LABEL: Record<string, string> = { Open: 'Open', AwaitingResponse: 'Awaiting the applicant’s response', Resolved: 'Resolved', Closed: 'Closed' };
const ROLE_LABEL: Record<string, string> = { admin: 'Admin', editor: 'Editor', reader: 'Reader', applicant: 'Applicant' };

const THREAD_MOVE_LABEL: Record<string, string> = { Open: 'Reopen', AwaitingResponse: 'Mark awaiting response', Resolved: 'Mark resolved', Closed: 'Close' };

function When(p: { at: number; timeZone: string }) {
  return <time datetime={isoDateTime(p.at)}>{formatDateTime(p.at, p.timeZone)}</time>;
}

// Every action is a small POST form with the CSRF token; the server refuses what the page does not offer anyway.
/** The form that relates another existing project to this one (LinkProject): its program, its number, and what it is to this one. */
function LinkForm(p: { path: string; csrfToken: string; programs: { customId: string; name: string }[]; cls: (id: string) => string }) {
  return (
    <Action path={p.path} action="Link" csrfToken={p.csrfToken}>
      <fieldset class="usa-fieldset">
        <legend class="usa-legend">Link another project</legend>
        <div class="usa-form-group">
          <label class="usa-label" for="link-program">Its program</label>
          <select class="usa-select" id="link-program" name="ProgramId">
            {p.programs.map((x) => <option key={x.customId} value={x.customId}>{x.name}</option>)}
          </select>
        </div>
        <div class={p.cls('link-number')}>
          <label class="usa-label" for="link-number">Its project number</label>
          <input class="usa-input" id="link-number" name="ProjectNumber" value="" />
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="link-kind">It is this project's</label>
          <select class="usa-select" id="link-kind" name="Kind">
            <option value="link">Link (can be removed)</option>
            <option value="child">Child</option>
            <option value="successor">Successor</option>
          </select>
        </div>
        <button class="usa-button usa-button--outline" type="submit">Link project</button>
      </fieldset>
    </Action>
  );
}

function Action(p: { path: string; action: string; csrfToken: string; children: ComponentChildren; class?: string }) {
  return (
    <form method="post" action={`${p.path}/${p.action}`} class={p.class ?? 'action-form'}>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      {p.children}
    </form>
  );
}

// Every note, the first of a thread and the later ones alike, is internal unless this box is ticked (the API's
// default too); the hint says so on the form, so nobody has to guess which way a note goes.
function VisibleChoice(p: { id: string }) {
  return (
    <div class="usa-checkbox">
      <input class="usa-checkbox__input" type="checkbox" id={p.id} name="Visible" value="true" aria-describedby={`${p.id}-hint`} />
      <label class="usa-checkbox__label" for={p.id}>Visible to the applicant</label>
      <p class="usa-hint" id={`${p.id}-hint`}>Left unticked, the note is internal: only staff see it.</p>
    </div>
  );
}

function Thread(p: { t: ReviewThreadView; view: ReviewView; path: string; csrfToken: string; timeZone: string }) {
  const { t, view } = p;
  const id = t.threadId;
  return (
    <article class="thread" aria-labelledby={`thread-${id}`}>
      <h3 id={`thread-${id}`}>{t.subject}</h3>
      <p><span class="usa-tag">{THREAD_STATUS_LABEL[t.status] ?? t.status}</span>{t.externalId ? <> · External id: {t.externalId}</> : null}</p>
      <ol class="notes">
        {t.notes.map((n) => (
          <li key={`${n.at}-${n.author}`}>
            <p class="note-meta">{n.author} · <When at={n.at} timeZone={p.timeZone} /> · {n.visibleToApplicant ? 'Visible to the applicant' : 'Internal'}</p>
            <p class="note-text">{n.text}</p>
          </li>
        ))}
      </ol>
      {view.may.inquiries ? (
        <div class="thread-actions">
          {t.status !== 'Closed' ? (
            <Action path={p.path} action="InquiryNote" csrfToken={p.csrfToken}>
              <input type="hidden" name="ThreadId" value={id} />
              <div class="usa-form-group">
                <label class="usa-label" for={`note-text-${id}`}>Add a note to “{t.subject}”</label>
                <textarea class="usa-textarea" id={`note-text-${id}`} name="Text" required />
              </div>
              <VisibleChoice id={`note-visible-${id}`} />
              <button class="usa-button" type="submit">Add note to “{t.subject}”</button>
            </Action>
          ) : null}
          <div class="actions">
            {t.moves.map((to) => (
              <Action key={to} path={p.path} action="InquiryStatus" csrfToken={p.csrfToken} class="inline">
                <input type="hidden" name="ThreadId" value={id} />
                <input type="hidden" name="Status" value={to} />
                <button type="submit" class="usa-button usa-button--outline">{THREAD_MOVE_LABEL[to] ?? to} “{t.subject}”</button>
              </Action>
            ))}
          </div>
          <Action path={p.path} action="InquiryExternalId" csrfToken={p.csrfToken}>
            <input type="hidden" name="ThreadId" value={id} />
            <div class="usa-form-group">
              <label class="usa-label" for={`external-${id}`}>External id of “{t.subject}”</label>
              <p class="usa-hint" id={`external-hint-${id}`}>A ticket id in another system; leave empty to unlink.</p>
              <input class="usa-input" type="text" id={`external-${id}`} name="ExternalId" value={t.externalId ?? ''} aria-describedby={`external-hint-${id}`} />
            </div>
            <button type="submit" class="usa-button usa-button--outline">Save external id of “{t.subject}”</button>
          </Action>
        </div>
      ) : null}
    </article>
  );
}

// Without script the reason cannot follow the chosen status, so every reason is offered, grouped by the status that
// lists it; the service refuses one that the chosen status does not list, and the page says why.
function StatusReasonControls(p: { view: ReviewView; values: StatusFormValues | undefined }) {
  const withReasons = p.view.nextStatuses.filter((s) => s.reasons.length > 0);
  const required = p.view.nextStatuses.filter((s) => s.reasonRequired).map((s) => `“${s.name}”`);
  return (
    <>
      {withReasons.length > 0 ? (
        <div class="usa-form-group">
          <label class="usa-label" for="review-reason">Reason</label>
          <p class="usa-hint" id="review-reason-hint">
            {required.length > 0 ? `A move to ${required.join(', ')} needs a reason. ` : ''}Choose one listed under the status you move to.
          </p>
          <select class="usa-select" id="review-reason" name="ReasonId" aria-describedby="review-reason-hint">
            <option value="">No reason</option>
            {withReasons.map((s) => (
              <optgroup key={s.statusId} label={s.name}>
                {s.reasons.map((r) => <option key={r.customId} value={r.customId} selected={p.values?.reasonId === r.customId}>{r.name}</option>)}
              </optgroup>
            ))}
          </select>
        </div>
      ) : null}
      <div class="usa-form-group">
        <label class="usa-label" for="review-message">Message (optional)</label>
        <p class="usa-hint" id="review-message-hint">Shown to the applicant in the project's history and in the mail about the change.</p>
        <textarea class="usa-textarea" id="review-message" name="Message" maxlength={4000} aria-describedby="review-message-hint">{p.values?.message ?? ''}</textarea>
      </div>
    </>
  );
}

/** The staff review page of a project: facts, actions the caller may take, data side by side, files, inquiries, history. */
export function ReviewPage(p: ReviewPageProps) {
  const { view } = p;
  const path = reviewPath(view.programId, view.projectId);
  const title = view.number ? `Review ${view.number}` : 'Review an unsubmitted project';
  const bad = new Set(p.problems.map((x) => x.fieldId));
  const cls = (id: string) => (bad.has(id) ? 'usa-form-group usa-form-group--error' : 'usa-form-group');
  return (
    <Layout title={title} agencyName={view.agencyName} programName={view.programName} testProgram={view.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <p><a href={`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: view.programId }).toString()}`}>Back to the work queue</a></p>
      <h1>{title}</h1>
      {p.notice ? <Alert kind="success" slim live>{p.notice}</Alert> : null}
      <ErrorSummary title="That was not done" problems={p.problems} />
      <dl class="facts">
        <dt>Status</dt><dd><span class="usa-tag">{view.status}</span> since <When at={view.statusAt} timeZone={p.timeZone} /></dd>
        <dt>Applicant (owner)</dt><dd>{view.owner.name} ({view.owner.email})</dd>
        <dt>Assignee</dt><dd>{view.assignee ? `${view.assignee.name} (${view.assignee.email})` : 'Unassigned'}</dd>
        <dt>Created</dt><dd><When at={view.createdAt} timeZone={p.timeZone} /></dd>
        <dt>Last change</dt><dd><When at={view.lastChange} timeZone={p.timeZone} /></dd>
        <dt>Your role</dt><dd>{ROLE_LABEL[view.role] ?? view.role}</dd>
      </dl>

      {view.may.setStatus || view.may.assign || view.may.setOwner || view.may.export ? (
        <section aria-labelledby="actions-title">
          <h2 id="actions-title">Actions</h2>
          {view.may.setStatus ? (view.nextStatuses.length > 0 ? (
            <Action path={path} action="Status" csrfToken={p.csrfToken}>
              <div class={cls('review-status')}>
                <label class="usa-label" for="review-status">Move to status</label>
                <p class="usa-hint" id="review-status-hint">Only the statuses the workflow allows after “{view.status}”.</p>
                <select class="usa-select" id="review-status" name="StatusId" aria-describedby="review-status-hint">
                  {view.nextStatuses.map((s) => <option key={s.statusId} value={s.statusId} selected={p.statusForm?.statusId === s.statusId}>{s.name}</option>)}
                </select>
              </div>
              <StatusReasonControls view={view} values={p.statusForm} />
              <button class="usa-button" type="submit">Change status</button>
            </Action>
          ) : view.finalStatus ? <p>“{view.status}” is a final status: the workflow allows no further move.</p>
            : <p>Your role does not move projects on from “{view.status}”.</p>) : null}
          {view.may.assign ? (
            <>
              <Action path={path} action="Assignee" csrfToken={p.csrfToken}>
                <div class={cls('review-assignee')}>
                  <label class="usa-label" for="review-assignee">Assignee's e-mail address</label>
                  <p class="usa-hint" id="review-assignee-hint">A staff member of this program (reader, editor, admin, or a role that reads every project) who can read this project; those who can are suggested.</p>
                  <input class="usa-input" type="email" id="review-assignee" name="Email" value={view.assignee?.email ?? ''} aria-describedby="review-assignee-hint" list="review-assignee-choices" />
                  <datalist id="review-assignee-choices">
                    {view.assignees.map((a) => <option key={a.email} value={a.email}>{a.name}</option>)}
                  </datalist>
                </div>
                <button class="usa-button" type="submit">Assign</button>
              </Action>
              {view.assignee ? (
                <Action path={path} action="Assignee" csrfToken={p.csrfToken}>
                  <input type="hidden" name="Email" value="" />
                  <button type="submit" class="usa-button usa-button--outline">Unassign</button>
                </Action>
              ) : null}
            </>
          ) : null}
          {view.may.setOwner ? (
            <Action path={path} action="Owner" csrfToken={p.csrfToken}>
              <div class={cls('review-owner')}>
                <label class="usa-label" for="review-owner">New owner's e-mail address</label>
                <input class="usa-input" type="email" id="review-owner" name="Email" value="" />
              </div>
              <button type="submit" class="usa-button usa-button--outline">Change owner</button>
            </Action>
          ) : null}
          {view.may.export ? <p><a href={`${path}/Export`}>Export this project (XML)</a></p> : null}
        </section>
      ) : null}

      {p.deadlines ? (
        <DeadlineBoard board={p.deadlines} timeZone={p.timeZone} form={(action, deadlineId, label, name) => (
          <Action path={path} action="Deadline" csrfToken={p.csrfToken} class="inline-form">
            <input type="hidden" name="DeadlineId" value={deadlineId} />
            <button class="usa-button" type="submit" name="Action" value={action} aria-label={`${label} ${name}`}>{label}</button>
          </Action>
        )} />
      ) : null}

      {p.documents ? (
        <DocumentBoard documents={p.documents} timeZone={p.timeZone} path={path} form={(documentId, name) => (
          <Action path={path} action="Document" csrfToken={p.csrfToken} class="inline-form">
            <input type="hidden" name="DocumentId" value={documentId} />
            <button class="usa-button" type="submit" aria-label={`Generate document ${name}`}>Generate document</button>
          </Action>
        )} />
      ) : null}

      <EnvelopeList envelopes={p.envelopes?.views ?? []} timeZone={p.timeZone} actions={p.envelopes?.mayManage ? { path, csrfToken: p.csrfToken } : null} />
      {p.relations ? (
        <RelatedProjects relations={p.relations} timeZone={p.timeZone} forms={{
          create: (relationId, name) => (
            <Action path={path} action="Relation" csrfToken={p.csrfToken} class="inline-form">
              <input type="hidden" name="RelationId" value={relationId} />
              <button class="usa-button usa-button--outline" type="submit" id={`relation-${relationId}`}>Create {name}</button>
            </Action>
          ),
          unlink: (relationId, label) => (
            <Action path={path} action="Unlink" csrfToken={p.csrfToken} class="inline-form">
              <input type="hidden" name="RelationId" value={relationId} />
              <button class="usa-button usa-button--unstyled" type="submit" id={`unlink-${relationId}`} aria-label={`Remove the link to ${label}`}>Remove link</button>
            </Action>
          ),
          link: <LinkForm path={path} csrfToken={p.csrfToken} programs={p.relations.linkPrograms} cls={cls} />,
        }} />
      ) : null}
      <section aria-labelledby="data-title">
        <h2 id="data-title">Data</h2>
        {view.forms.map((form) => (
          <section key={form.formId} aria-labelledby={`form-${form.formId}`}>
            <h3 id={`form-${form.formId}`}>{form.name}</h3>
            <p>{form.submittedAt === null ? 'Not submitted yet.' : <>First submitted <When at={form.submittedAt} timeZone={p.timeZone} /></>}</p>
            <TableBox label={`${form.name}: submitted data and current draft`}>
              <table class="usa-table">
                <caption class="usa-sr-only">{form.name}: submitted data and current draft</caption>
                <thead><tr><th scope="col">Field</th><th scope="col">Submitted</th><th scope="col">Current draft</th></tr></thead>
                <tbody>
                  {form.fields.map((f) => (
                    <tr key={f.fieldId} class={f.differs ? 'differs' : undefined}>
                      <th scope="row">{f.name}</th>
                      <td>{f.submitted ?? '—'}</td>
                      <td>{f.draft ?? '—'}{f.differs ? <strong class="changed"> (changed in draft)</strong> : null}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          </section>
        ))}
      </section>

      <section aria-labelledby="files-title">
        <h2 id="files-title">Attachments</h2>
        {view.attachments.length === 0 ? <p>No files have been uploaded.</p> : view.attachments.map((a) => (
          <article key={a.attachmentId} class="attachment" aria-labelledby={`file-${a.attachmentId}`}>
            <h3 id={`file-${a.attachmentId}`}>{a.name}</h3>
            <dl class="facts">
              <dt>File</dt><dd><FileLinks fileName={a.fileName} contentType={a.contentType} href={`${path}/Attachments/${encodeURIComponent(a.attachmentId)}`} /> ({a.size} bytes, {a.contentType}, version {a.version})</dd>
              <dt>Uploaded</dt><dd>{a.uploadedBy}, <When at={a.uploadedAt} timeZone={p.timeZone} /></dd>
              <dt>Review</dt><dd><span class="usa-tag">{a.approvalStatus}</span>{a.reviewedBy && a.reviewedAt !== null ? <> by {a.reviewedBy}, <When at={a.reviewedAt} timeZone={p.timeZone} /></> : null}</dd>
              <dt>Note</dt><dd class="note-text">{a.note ?? '—'}</dd>
            </dl>
            {view.may.reviewAttachments ? (
              <Action path={path} action="Attachment" csrfToken={p.csrfToken}>
                <input type="hidden" name="AttachmentId" value={a.attachmentId} />
                <div class={cls(`review-note-${a.attachmentId}`)}>
                  <label class="usa-label" for={`review-note-${a.attachmentId}`}>Note on {a.name}</label>
                  <textarea class="usa-textarea" id={`review-note-${a.attachmentId}`} name="Note">{a.note ?? ''}</textarea>
                </div>
                <div class="actions">
                  <button class="usa-button" type="submit" name="Action" value="Approve">Approve {a.name}</button>
                  <button type="submit" name="Action" value="Reject" class="usa-button usa-button--secondary">Reject {a.name}</button>
                </div>
              </Action>
            ) : null}
          </article>
        ))}
      </section>

      <section aria-labelledby="inquiries-title">
        <h2 id="inquiries-title">Inquiries</h2>
        {view.threads.length === 0 ? <p>No inquiry threads.</p> : view.threads.map((t) => (
          <Thread key={t.threadId} t={t} view={view} path={path} csrfToken={p.csrfToken} timeZone={p.timeZone} />
        ))}
        {view.may.inquiries ? (
          <Action path={path} action="InquiryNote" csrfToken={p.csrfToken}>
            <fieldset class="usa-fieldset">
              <legend class="usa-legend">Start a thread</legend>
              <div class={cls('thread-subject')}>
                <label class="usa-label" for="thread-subject">Subject</label>
                <input class="usa-input" type="text" id="thread-subject" name="Subject" maxLength={200} required />
              </div>
              <div class={cls('thread-text')}>
                <label class="usa-label" for="thread-text">First note</label>
                <textarea class="usa-textarea" id="thread-text" name="Text" required />
              </div>
              <VisibleChoice id="thread-visible" />
              <button class="usa-button" type="submit">Start thread</button>
            </fieldset>
          </Action>
        ) : null}
      </section>

      <section aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <TableBox label="Status history">
          <table class="usa-table">
            <caption class="usa-sr-only">Status history, newest first</caption>
            <thead><tr><th scope="col">Status</th><th scope="col">When</th><th scope="col">By</th><th scope="col">Reason</th></tr></thead>
            <tbody>
              {view.history.map((h) => (
                <tr key={`${h.at}-${h.status}`}><td>{h.status}</td><td><When at={h.at} timeZone={p.timeZone} /></td><td>{h.by}</td><td><HistoryReason line={h} /></td></tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      </section>

      {p.mails ? <OwnerMails mails={p.mails.mails} title={`Mails sent to the applicant (${view.owner.name})`} timeZone={p.timeZone} /> : null}

      {view.automations.length > 0 ? (
        <section aria-labelledby="automations-title">
          <h2 id="automations-title">Automations</h2>
          <TableBox label="What the program's automations did">
            <table class="usa-table automations">
              <caption class="usa-sr-only">What the program's automations did, newest first</caption>
              <thead><tr><th scope="col">When</th><th scope="col">Automation</th><th scope="col">Trigger</th><th scope="col">Outcome</th><th scope="col">Details</th></tr></thead>
              <tbody>
                {view.automations.map((r, i) => (
                  <tr key={i}><td><When at={r.at} timeZone={p.timeZone} /></td><td>{r.automation}</td><td>{r.trigger}</td><td>{r.outcome}</td><td>{r.details}</td></tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        </section>
      ) : null}
    </Layout>
  );
}
