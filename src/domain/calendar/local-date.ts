import type { Weekday } from '../../model/model.ts';
import { localDateOf, wallClock } from '../../model/local-date.ts';

// The zone readings live in the model, where the store's dashboard counts use them too.
export { isTimeZone, localDateOf } from '../../model/local-date.ts';

/**
 * The first instant of a local date in a time zone: its local midnight, or, where a DST jump skips midnight, the
 * first instant that is on that date.
 */
export function startOfLocalDay(date: string, timeZone: string): number {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  // The zone's offset near the date's midnight; after one correction the offset is the one in force then.
  const first = midnight - (wallClock(midnight, timeZone) - midnight);
  const second = midnight - (wallClock(first, timeZone) - first);
  const candidates = [first, second].filter((t) => localDateOf(t, timeZone) === date).sort((a, b) => a - b);
  if (candidates.length > 0) {
    // Midnight itself may be ambiguous when clocks fall back over it; the earlier instant starts the day.
    let start = candidates[0]!;
    while (localDateOf(start - 3_600_000, timeZone) === date) start -= 3_600_000;
    return start;
  }
  // Midnight does not exist: the day starts where the jump lands, found by stepping minutes from the later guess.
  let t = Math.max(first, second);
  while (localDateOf(t, timeZone) < date) t += 60_000;
  return t;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** The date `days` days after a date (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const WEEKDAYS: Weekday[] = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The day of the week of a date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

/** Whole calendar days from one local date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
