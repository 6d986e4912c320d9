import type { Program } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { formatDueDate } from '../calendar/format-due-date.ts';

/**
 * The `{{deadlines}}` of a mail to the applicant: each running deadline of the project they are shown, a line each
 * ("Answer due by 18 May 2026."), soonest first; empty when none runs.
 */
export async function applicantDeadlinesText(reader: Pick<StoreReader, 'deadlines'>, program: Program, projectId: string): Promise<string> {
  const shown = new Map((program.deadlines ?? []).filter((d) => d.shownToApplicant).map((d) => [d.customId, d.name]));
  const running = (await reader.deadlines.listProjectDeadlines(projectId)).filter((d) => d.state === 'running' && shown.has(d.deadlineId));
  return running.sort((a, b) => a.dueAt - b.dueAt).map((d) => `${shown.get(d.deadlineId)} by ${formatDueDate(d.dueDate)}.`).join('\n');
}
