import type { Clock } from '../../model/clock.ts';
import type { Store } from '../../store/store.ts';
import type { BackgroundTask } from '../events/background-work.ts';
import { attentionDueBy } from './queue-columns.ts';

/** How often the near-deadline marks are looked at (ms). The window moves once a day, so this bounds the lag at midnight. */
export const NEAR_DEADLINE_POLL_MS = 60_000;

/** How often a program's marks are read again although its window has not moved (ms): mends a race or a changed calendar. */
export const NEAR_DEADLINE_RECHECK_MS = 10 * 60_000;

/** What keeping the near-deadline marks needs. */
export interface NearDeadlineDeps { store: Store; clock: Clock }

/**
 * Keeps the queue's "deadline near" bit (ATTENTION.near) with the time. The change step sets and clears it whenever a
 * deadline or status changes; what no change brings is the day moving on, which brings running deadlines into the
 * window of ATTENTION_DUE_BUSINESS_DAYS working days. The window's end (attentionDueBy) moves once a day per calendar,
 * so a program's marks are brought up to date when its window moved, and again every NEAR_DEADLINE_RECHECK_MS.
 * Background work is woken after every change; a wake within half the interval of the last round is let go.
 */
export function nearDeadlineTask(deps: NearDeadlineDeps, intervalMs = NEAR_DEADLINE_POLL_MS): BackgroundTask {
  const marked = new Map<string, { nearBy: number; at: number }>();
  let last = -Infinity;
  return {
    what: 'near deadline marks', intervalMs,
    run: async () => {
      const now = deps.clock.now();
      if (now - last < intervalMs / 2) return false;
      last = now;
      for (const programId of await deps.store.queueViews.programIds()) {
        const program = await deps.store.programs.findProgram(programId);
        if (!program) continue;
        const nearBy = attentionDueBy(program, now);
        const before = marked.get(programId);
        if (before && before.nearBy === nearBy && now - before.at < NEAR_DEADLINE_RECHECK_MS) continue;
        await deps.store.queueViews.markNearDeadlines(programId, nearBy);
        marked.set(programId, { nearBy, at: now });
      }
      return false;
    },
  };
}
