import type { Clock } from '../../model/clock.ts';
import type { DeadlineMarks } from '../../store/queue-view-queries.ts';
import type { Store } from '../../store/store.ts';
import { type BackgroundTask, clockPacedTask } from '../events/background-work.ts';
import { deadlineMarks } from './queue-attention.ts';

/** How often the deadline marks are looked at (ms). The near window moves once a day, so this bounds the lag at midnight. */
export const DEADLINE_MARKS_POLL_MS = 60_000;

/** Projects recounted per transaction: short transactions, so a change step waits little for their locks. */
export const DEADLINE_MARK_CHUNK = 500;

/** What keeping the deadline marks needs. */
export interface DeadlineMarksDeps { store: Store; clock: Clock }

/**
 * Keeps the queue's deadline bits (ATTENTION.near and .overdue) with what no change of a project brings. The change
 * step recounts both whenever a deadline or status changes; but the day moving on brings running deadlines into the
 * window of ATTENTION_DUE_BUSINESS_DAYS working days (its end, attentionDueBy, moves once a day per calendar, or when
 * an import changes the calendar), and an import may change which statuses have a move onward (overdue). So a
 * program's marks are compared with its deadlines when its window or its open statuses changed, and at an instance's
 * first round; those that differ are recounted under the projects' locks. Paced by the clock (clockPacedTask).
 */
export function deadlineMarksTask(deps: DeadlineMarksDeps, intervalMs = DEADLINE_MARKS_POLL_MS): BackgroundTask {
  const seen = new Map<string, { nearBy: number; open: string }>();
  return clockPacedTask('deadline marks', deps.clock, intervalMs, async (now) => {
    for (const programId of await deps.store.queueViews.programIds()) {
      const program = await deps.store.programs.findProgram(programId);
      if (!program) continue;
      const marks = deadlineMarks(program, await deps.store.programs.loadProgramModel(program), now);
      const open = marks.openStatusIds.join(' ');
      const last = seen.get(programId);
      if (last?.nearBy === marks.nearBy && last.open === open) continue;
      await recountDeadlineMarks(deps.store, programId, marks, { near: last?.nearBy !== marks.nearBy, overdue: last?.open !== open });
      seen.set(programId, { nearBy: marks.nearBy, open });
    }
  });
}

/** Brings one program's deadline marks (`which` of them) in line with its deadlines; returns the projects recounted. */
export async function recountDeadlineMarks(store: Store, programId: string, marks: DeadlineMarks, which = { near: true, overdue: true }): Promise<number> {
  const ids = await store.queueViews.deadlineMarksToChange(programId, marks, which);
  for (let i = 0; i < ids.length; i += DEADLINE_MARK_CHUNK) {
    const chunk = ids.slice(i, i + DEADLINE_MARK_CHUNK);
    await store.transaction((tx) => tx.queueViews.recountDeadlineMarks(chunk, marks));
  }
  return ids.length;
}
