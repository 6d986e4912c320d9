import type { Clock } from '../../model/clock.ts';
import type { Store } from '../../store/store.ts';
import { type BackgroundTask, clockPacedTask } from '../events/background-work.ts';

/** How often the programs' calendar zones are compared with their dashboard counts' (ms). */
export const DASHBOARD_ZONES_POLL_MS = 60_000;

/**
 * Keeps each program's dashboard counts in its calendar's time zone: an import that changes `calendar.timeZone` leaves
 * the counts in the old one, and this task moves them (dashboard-queries.ts rezoneSummaries: every project refreshed
 * under its lock, a page at a time), so a day, week or month is the program's within a minute or so of the import.
 */
export function dashboardZonesTask(deps: { store: Store; clock: Clock }, intervalMs = DASHBOARD_ZONES_POLL_MS): BackgroundTask {
  return clockPacedTask('dashboard zones', deps.clock, intervalMs, async () => {
    for (const programId of await deps.store.queueViews.programIds()) await rezoneIfMoved(deps.store, programId);
  });
}

/** Moves one program's counts to its calendar's zone when they are kept in another; returns the projects refreshed. */
export async function rezoneIfMoved(store: Store, programId: string): Promise<number> {
  const { kept, calendar } = await store.dashboardZones.summaryZones(programId);
  // Nothing counted yet (kept is null): the first count notes the calendar's zone itself.
  return kept === null || kept === calendar ? 0 : store.dashboardZones.rezoneSummaries(programId, calendar);
}
