import type { OwnerMailView } from '../../domain/mail/project-mail-service.ts';
import { TableBox } from './table-box.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';

/**
 * The mails a project's owner was sent about it (status changes, questions, the agency's messages, automations), newest
 * first: when, what kind, the subject and whether it went out. `title` names them for the reader of the page.
 */
export function OwnerMails(p: { mails: OwnerMailView[]; title: string; timeZone: string }) {
  return (
    <section aria-labelledby="mails-title">
      <h2 id="mails-title">{p.title}</h2>
      {p.mails.length === 0 ? <p>No mails about this project yet.</p> : (
        <TableBox label={p.title}>
          <table class="usa-table">
            <caption class="usa-sr-only">{p.title}, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Subject</th><th scope="col">Mail</th></tr></thead>
            <tbody>
              {p.mails.map((m, i) => (
                <tr key={i}>
                  <td><time datetime={isoDateTime(m.at)}>{formatDateTime(m.at, p.timeZone)}</time></td><td>{m.kind}</td><td>{m.subject}</td><td>{m.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </section>
  );
}
