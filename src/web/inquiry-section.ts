import { isoTimestamp } from '../model/clock.ts';
import type { LandingInquiriesView } from '../domain/views.ts';
import { escapeHtml as esc } from './html-escape.ts';

const STATUS_LABELS: Record<string, string> = { Open: 'Open', AwaitingResponse: 'Awaiting your response', Resolved: 'Resolved', Closed: 'Closed' };

/**
 * The landing page's inquiry threads: each thread the applicant can see, its visible notes oldest first (text kept as
 * written, line breaks shown), and a reply form unless the thread is closed. Empty when there is nothing to show.
 */
export function renderInquirySection(view: LandingInquiriesView, programId: string, projectId: string): string {
  if (view.threads.length === 0) return '';
  const threads = view.threads.map((t) => {
    const notes = t.notes.map((n) =>
      `<li><p class="meta">${esc(n.author)} · <time>${esc(isoTimestamp(n.timestamp))}</time></p><div class="note" style="white-space:pre-wrap">${esc(n.text)}</div></li>`).join('');
    const form = t.canReply
      ? `<form method="post" action="${esc(view.replyUrl)}">` +
        `<input type="hidden" name="ProgramId" value="${esc(programId)}"><input type="hidden" name="ProjectId" value="${esc(projectId)}">` +
        `<input type="hidden" name="ThreadId" value="${esc(t.threadId)}">` +
        `<label>Your reply<br><textarea name="Text" rows="4" cols="60" maxlength="20000" required></textarea></label><br>` +
        '<button type="submit">Send reply</button></form>'
      : '<p><em>This thread is closed.</em></p>';
    return `<section class="inquiry" id="thread-${esc(t.threadId)}"><h3>${esc(t.subject)} <small>(${esc(STATUS_LABELS[t.status] ?? t.status)})</small></h3><ol>${notes}</ol>${form}</section>`;
  });
  return `<h2>Questions from the program</h2>\n${threads.join('\n')}\n`;
}
