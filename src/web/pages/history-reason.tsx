import type { PageHistoryLine } from '../../domain/views.ts';

/** The reason and message a status move gave, for a history table's cell (empty when it gave none). */
export function HistoryReason(p: { line: Pick<PageHistoryLine, 'reason' | 'message'> }) {
  return (
    <>
      {p.line.reason ? <span class="reason">{p.line.reason}</span> : null}
      {p.line.message ? <p class="reason-message">{p.line.message}</p> : null}
    </>
  );
}
