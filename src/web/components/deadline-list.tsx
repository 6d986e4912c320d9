import type { ComponentChildren } from 'preact';
import type { DeadlineBoardView, DeadlineView } from '../../domain/deadlines/deadline-service.ts';
import { formatDateTime, formatDueDate, isoDateTime } from '../format-time.ts';

const STATE_LABEL: Record<DeadlineView['state'], string> = { running: 'Running', satisfied: 'Satisfied', cancelled: 'Cancelled', passed: 'Passed' };

/** "by 12 Dec 2026" with the due day as a machine-readable date. */
export function DueBy(p: { date: string }) {
  return <>by <time datetime={p.date}>{formatDueDate(p.date)}</time></>;
}

/** The applicant's view: the running deadlines shown to them, e.g. "Answer due by 12 Dec 2026". */
export function ApplicantDeadlines(p: { deadlines: DeadlineView[] }) {
  const running = p.deadlines.filter((d) => d.state === 'running');
  if (running.length === 0) return null;
  return (
    <section aria-labelledby="deadlines">
      <h2 id="deadlines">Deadlines</h2>
      <ul class="deadlines">
        {running.map((d) => (
          <li key={d.customId}>{d.name} <DueBy date={d.dueDate} />{d.overdue ? <strong class="overdue"> (overdue)</strong> : null}</li>
        ))}
      </ul>
    </section>
  );
}

/** The review page's table of every deadline with state, due date, overdue marker, and start/satisfy/cancel forms. */
export function DeadlineBoard(p: { board: DeadlineBoardView; timeZone: string; form: (action: string, deadlineId: string, label: string, name: string) => ComponentChildren }) {
  if (p.board.rows.length === 0) return null;
  return (
    <section aria-labelledby="deadlines-title">
      <h2 id="deadlines-title">Deadlines</h2>
      <table class="deadlines">
        <thead><tr><th scope="col">Deadline</th><th scope="col">State</th><th scope="col">Due</th>{p.board.canManage ? <th scope="col">Actions</th> : null}</tr></thead>
        <tbody>
          {p.board.rows.map((r) => {
            const d = r.current;
            return (
              <tr key={r.customId} id={`deadline-${r.customId}`}>
                <th scope="row">{r.name}</th>
                <td>{d ? STATE_LABEL[d.state] : 'Not started'}{d?.overdue ? <strong class="overdue"> Overdue</strong> : null}</td>
                <td>{d ? <><DueBy date={d.dueDate} /> (passes <time datetime={isoDateTime(d.dueAt)}>{formatDateTime(d.dueAt, p.timeZone)}</time>)</> : '—'}</td>
                {p.board.canManage ? (
                  <td>
                    {p.form('Start', r.customId, d?.state === 'running' ? 'Restart' : 'Start', r.name)}
                    {d?.state === 'running' ? <>{p.form('Satisfy', r.customId, 'Satisfy', r.name)}{p.form('Cancel', r.customId, 'Cancel', r.name)}</> : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
