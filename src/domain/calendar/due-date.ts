import type { DeadlineDuration, ProgramCalendar } from '../../model/model.ts';
import { addDays, localDateOf, startOfLocalDay } from './local-date.ts';
import { isWorkingDay } from './working-days.ts';

/** When a deadline is due: the last local day it allows (shown "by <dueDate>"), and the instant that day ends. */
export interface Due { dueDate: string; dueAt: number }

// Ten years of days: a calendar with no working day at all (every day closed) must not loop for ever.
const MAX_SEARCH_DAYS = 3660 * 2;

/**
 * When a deadline started at `start` is due. N business days: the Nth working day after the start's local date
 * (the start day never counts); N calendar days: the Nth day after it; untilField: the date the field holds. The
 * deadline passes at the end of that day, i.e. at the start of the next local day in the calendar's time zone.
 * `fieldDate` is the field's value (YYYY-MM-DD) for untilField. Null when no such day exists.
 */
export function dueOf(calendar: ProgramCalendar, start: number, duration: DeadlineDuration, fieldDate: string | null = null): Due | null {
  const from = localDateOf(start, calendar.timeZone);
  let dueDate: string | null = null;
  if ('businessDays' in duration) {
    let date = from;
    for (let counted = 0, i = 0; counted < duration.businessDays; i++) {
      if (i > MAX_SEARCH_DAYS) return null;
      date = addDays(date, 1);
      if (isWorkingDay(calendar, date)) counted++;
    }
    dueDate = date;
  } else if ('calendarDays' in duration) {
    dueDate = addDays(from, duration.calendarDays);
  } else {
    dueDate = fieldDate;
  }
  if (dueDate === null) return null;
  return { dueDate, dueAt: startOfLocalDay(addDays(dueDate, 1), calendar.timeZone) };
}
