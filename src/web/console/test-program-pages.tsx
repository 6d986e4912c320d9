import type { TestProgramRow, TestProgramView } from '../../domain/administration/test-program-service.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { dashboardHref } from '../web-paths.ts';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** The console area's address. */
export const TEST_PROGRAMS_PATH = consoleArea('test-programs').path;

/** The page of one test copy. */
export function testProgramPath(programId: string): string {
  return `${TEST_PROGRAMS_PATH}/${encodeURIComponent(programId)}`;
}

interface Frame { user: PageUser; csrfToken: string; agencyAdmin: boolean; notice?: string | null; refusal?: string | null }

function Refusal({ text }: { text: string | null | undefined }) {
  return text ? (
    <div class="usa-alert usa-alert--error usa-alert--slim" role="alert">
      <div class="usa-alert__body"><p class="usa-alert__text">{text}</p></div>
    </div>
  ) : null;
}

/** The Test programs area: each live program the caller administers, with its test copy or a button that makes one. */
export function TestProgramsPage(p: Frame & { rows: TestProgramRow[] }) {
  return (
    <ConsoleLayout title="Test programs" area="test-programs" user={p.user} csrfToken={p.csrfToken} agencyAdmin={p.agencyAdmin} notice={p.notice ?? null}>
      <Refusal text={p.refusal} />
      <p>
        A test copy has the live program's forms, rules, automations, documents and roles, its own project numbers, and
        the live program's staff grants. Its mail is never sent: it stays in the copy's outbox here. Its projects never
        appear in the live program's work queue, dashboard or exports, and a reset empties it.
      </p>
      <table class="usa-table usa-table--borderless">
        <caption>Programs and their test copies</caption>
        <thead><tr><th scope="col">Live program</th><th scope="col">Test copy</th></tr></thead>
        <tbody>
          {p.rows.map(({ live, test }) => (
            <tr key={live.id}>
              <th scope="row">{live.name} <span class="text-base">({live.customId})</span></th>
              <td>
                {test ? <a href={testProgramPath(test.id)}>{test.name}</a> : (
                  <form method="post" action={`${TEST_PROGRAMS_PATH}/Create`} class="usa-form margin-0">
                    <input type="hidden" name="_csrf" value={p.csrfToken} />
                    <input type="hidden" name="ProgramId" value={live.id} />
                    <button type="submit" class="usa-button usa-button--outline">Create a test copy of {live.name}</button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ConsoleLayout>
  );
}

/** One test copy: what it is, update from live, reset, and the mails of its projects that were not sent. */
export function TestProgramPage(p: Frame & { view: TestProgramView; timeZone: string }) {
  const { test, live, mails } = p.view;
  const action = (what: string) => `${testProgramPath(test.id)}/${what}`;
  return (
    <ConsoleLayout title={test.name} area="test-programs" user={p.user} csrfToken={p.csrfToken} agencyAdmin={p.agencyAdmin} notice={p.notice ?? null}>
      <Refusal text={p.refusal} />
      <section class="usa-summary-box" aria-label="About this test copy">
        <div class="usa-summary-box__body">
          <ul class="usa-list usa-list--unstyled">
            <li>Test copy of {live ? `${live.name} (${live.customId})` : 'a program that no longer exists'}</li>
            <li>Custom id <code>{test.customId}</code>, program id <code>{test.id}</code></li>
            <li>Project numbers <code>{test.numberPrefix}-…</code></li>
            <li><a href={`/Projects/ProjectList?ProgramId=${encodeURIComponent(test.id)}`}>Work queue</a> · <a href={dashboardHref(test.id)}>Dashboard</a></li>
          </ul>
        </div>
      </section>
      <h2>Update from the live program</h2>
      <p>Imports the live program's definition again, as it is now; the copy keeps its custom id, name, numbering and projects.</p>
      <form method="post" action={action('Update')} class="usa-form">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <button type="submit" class="usa-button">Update from live</button>
      </form>
      <h2>Reset</h2>
      <p>Deletes every project of the test copy with its files, history, deadlines, events and mail, and starts its numbering again at 1.</p>
      <form method="post" action={action('Reset')} class="usa-form">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <div class="usa-checkbox">
          <input class="usa-checkbox__input" type="checkbox" id="confirm-reset" name="Confirm" value="yes" required />
          <label class="usa-checkbox__label" for="confirm-reset">Delete every project of {test.name}</label>
        </div>
        <button type="submit" class="usa-button usa-button--secondary">Reset the test copy</button>
      </form>
      <h2>Outbox</h2>
      {mails.length === 0 ? <p>No mail yet.</p> : (
        <table class="usa-table usa-table--stacked">
          <caption>Mail of the test copy's projects (not sent), newest first</caption>
          <thead><tr><th scope="col">Queued</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Text</th></tr></thead>
          <tbody>
            {mails.map((m) => (
              <tr key={m.id}>
                <td><time datetime={isoDateTime(m.createdAt)}>{formatDateTime(m.createdAt, p.timeZone)}</time></td>
                <td>{m.to}</td>
                <td>{m.subject}</td>
                <td><details><summary>Read</summary><pre class="mail-text">{m.text}</pre></details></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ConsoleLayout>
  );
}
