import type { OutboxPage } from '../../domain/administration/mail-outbox-service.ts';
import { MAIL_STATUSES, type MailSummary } from '../../domain/mail/mail-queue-service.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleErrorAlert } from './console-error-alert.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { ConsolePager } from './console-pager.tsx';
import { consoleArea } from './console-paths.ts';

/** The Mail area's address. */
export const MAIL_PATH = consoleArea('mail').path;

/** The outbox's address for a status filter (and a cursor). */
export function mailHref(status: string, cursor?: string | null): string {
  const q = new URLSearchParams({ ...(status ? { Status: status } : {}), ...(cursor ? { cursor } : {}) }).toString();
  return q === '' ? MAIL_PATH : `${MAIL_PATH}?${q}`;
}

/** What the outbox page shows. */
export interface MailPageProps {
  user: PageUser; csrfToken: string; agencyAdmin: boolean; timeZone: string;
  status: string; page: OutboxPage; older: boolean; notice?: string | null; refusal?: string | null;
}

const LABELS: Record<string, string> = { pending: 'queued', sent: 'sent', failed: 'failed' };

function When(p: { m: MailSummary; timeZone: string }) {
  const at = p.m.status === 'sent' && p.m.sentAt !== null ? p.m.sentAt : p.m.createdAt;
  return <time datetime={isoDateTime(at)}>{formatDateTime(at, p.timeZone)}</time>;
}

/** The mail outbox: a page of mails newest first with status, attempts and last error, filtered by status; retry a failed one. */
export function MailOutboxPage(p: MailPageProps) {
  return (
    <ConsoleLayout title="Mail" user={p.user} csrfToken={p.csrfToken} area="mail" agencyAdmin={p.agencyAdmin} notice={p.notice}>
      <ConsoleErrorAlert message={p.refusal} />
      <p>{p.agencyAdmin
        ? 'The mails about the agency\'s projects and the account mails to its users, newest first.'
        : 'The mails about the projects of the programs you administer, newest first.'} A failed mail can be sent again; its text is never shown here.</p>
      <form class="usa-form" method="get" action={MAIL_PATH}>
        <label class="usa-label" for="mail-status">Status</label>
        <select class="usa-select" id="mail-status" name="Status">
          <option value="" selected={p.status === ''}>any</option>
          {MAIL_STATUSES.map((s) => <option key={s} value={s} selected={p.status === s}>{LABELS[s]}</option>)}
        </select>
        <button class="usa-button" type="submit">Show</button>
      </form>
      {p.page.mails.length === 0 ? <p>No mail matches.</p> : (
        <table class="usa-table usa-table--borderless usa-table--stacked">
          <caption>Mails, newest first</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">Recipient</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Action</th></tr></thead>
          <tbody>
            {p.page.mails.map((m) => (
              <tr key={m.id}>
                <td data-label="Time"><When m={m} timeZone={p.timeZone} /></td>
                <td data-label="Recipient">{m.to}</td>
                <td data-label="Subject">{m.subject}</td>
                <td data-label="Status"><span class="usa-tag">{LABELS[m.status] ?? m.status}</span></td>
                <td data-label="Attempts">{m.attempts}</td>
                <td data-label="Last error">{m.lastError ?? ''}</td>
                <td data-label="Action">
                  {m.status === 'failed' && m.eventId !== null ? (
                    <form method="post" action={`${MAIL_PATH}/Retry`}>
                      <input type="hidden" name="_csrf" value={p.csrfToken} />
                      <input type="hidden" name="MailId" value={m.id} />
                      <button class="usa-button usa-button--secondary" type="submit" aria-label={`Send again: ${m.subject} to ${m.to}`}>Send again</button>
                    </form>
                  ) : m.status === 'failed' ? 'an account mail: its link was withdrawn; the person asks for a new one' : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConsolePager label="Mail pages" noun="mails" newest={p.older ? mailHref(p.status) : null} older={p.page.nextCursor ? mailHref(p.status, p.page.nextCursor) : null} />
    </ConsoleLayout>
  );
}
