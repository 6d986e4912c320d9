import type { Clock } from '../../model/clock.ts';
import type { Store } from '../../store/store.ts';
import { type BackgroundTask, clockPacedTask } from '../events/background-work.ts';
import { attentionDueBy } from './queue-columns.ts';

/** How often the near-deadline marks are looked at (ms). The window moves once a day, so this bounds the lag at midnight. */
export const NEAR_DEADLINE_POLL_MS = 60_000;

/** Projects recounted per transaction: short transactions, so a change step waits little for their locks. */
export const NEAR_MARK_CHUNK = 500;

/** What keeping the near-deadline marks needs. */
export interface NearDeadlineDeps { store: Store; clock: Clock }

/**
 * Keeps the queue's "deadline near" bit (ATTENTION.near) with the time. The change step recounts it whenever a
 * deadline or status changes; what no change brings is the day moving on, which brings running deadlines into the
 * window of ATTENTION_DUE_BUSINESS_DAYS working days. The window's end (attentionDueBy) moves once a day per calendar
 * (or when an import changes the calendar), so a program's marks are compared with its deadlines when its window
 * moved, and at an instance's first round; those that differ are recounted under the projects' locks. Paced by the
 * clock (clockPacedTask): wakes after changes are let go.
 */
export function nearDeadlineTask(deps: NearDeadlineDeps, intervalMs = NEAR_DEADLINE_POLL_MS): BackgroundTask {
  const windows = new Map<string, number>();
  return clockPacedTask('near deadline marks', deps.clock, intervalMs, async (now) => {
    for (const programId of await deps.store.queueViews.programIds()) {
      const program = await deps.store.programs.findProgram(programId);
      if (!program) continue;
      const nearBy = attentionDueBy(program, now);
      if (windows.get(programId) === nearBy) continue;
      await recountNearMarks(deps.store, programId, nearBy);
      windows.set(programId, nearBy);
    }
  });
}

/** Brings one program's near marks in line with its running deadlines due by `nearBy`; returns the projects recounted. */
export async function recountNearMarks(store: Store, programId: string, nearBy: number): Promise<number> {
  const ids = await store.queueViews.nearMarksToChange(programId, nearBy);
  for (let i = 0; i < ids.length; i += NEAR_MARK_CHUNK) {
    const chunk = ids.slice(i, i + NEAR_MARK_CHUNK);
    await store.transaction((tx) => tx.queueViews.recountNearMarks(chunk, nearBy));
  }
  return ids.length;
}
