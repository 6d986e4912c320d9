import type { Clock } from '../../model/clock.ts';
import { localDateOf } from '../../model/local-date.ts';
import type { Store } from '../../store/store.ts';
import { DEFAULT_CALENDAR, isWorkingDay } from '../calendar/working-days.ts';
import { type BackgroundTask, clockPacedTask, type WorkLog } from '../events/background-work.ts';
import type { SigningService } from './signing-service.ts';

/** A signer is reminded once a day at most: when their last mail is this old (ms). */
export const REMIND_AFTER_MS = 24 * 3_600_000;

/** Nobody is reminded of an envelope sent longer ago than this (ms); staff resend or void it. */
export const REMIND_FOR_MS = 30 * 24 * 3_600_000;

/** How often signers who have not acted are looked for (ms). */
export const REMINDER_POLL_MS = 3_600_000;

/** Reminders per round. */
const REMINDER_BATCH = 200;

/** What reminding needs: the store, the time, the signing service that mails, and where failures are logged. */
export interface ReminderDeps { store: Store; clock: Clock; signing: Pick<SigningService, 'remind'>; log?: WorkLog }

/**
 * Reminds the signers whose turn it is and who have not acted for a day, on the working days of the program's
 * calendar only (`calendar:`; Monday to Friday in UTC without one): each gets a mail with a new link, the earlier one
 * revoked, in a change of the project (step `reminded`). Returns how many it reminded.
 */
export async function remindSigners(deps: ReminderDeps, now = deps.clock.now()): Promise<number> {
  const due = await deps.store.envelopes.signersAwaiting(now - REMIND_AFTER_MS, now - REMIND_FOR_MS, REMINDER_BATCH);
  const working = new Map<string, boolean>();
  let reminded = 0;
  for (const s of due) {
    if (!working.has(s.programId)) {
      const program = await deps.store.programs.findProgram(s.programId);
      const calendar = program?.calendar ?? DEFAULT_CALENDAR;
      working.set(s.programId, program !== null && isWorkingDay(calendar, localDateOf(now, calendar.timeZone)));
    }
    if (!working.get(s.programId)) continue;
    try {
      if (await deps.signing.remind(s.envelopeId, s.id)) reminded++;
    } catch (error) {
      deps.log?.warn({ err: error, envelopeId: s.envelopeId }, 'reminding a signer failed; trying again next round');
    }
  }
  return reminded;
}

/** The background task that reminds signers every REMINDER_POLL_MS. */
export function reminderTask(deps: ReminderDeps, intervalMs = REMINDER_POLL_MS): BackgroundTask {
  return clockPacedTask('signing reminders', deps.clock, intervalMs, (now) => remindSigners(deps, now));
}
