import type { ProgramCalendar } from '../../model/model.ts';
import { addDays } from './local-date.ts';
import { publicHolidayList } from './working-days.ts';

/** A day the agency does not work although it is a working day of the week: a public holiday or one of its closures. */
export interface ClosedDay { date: string; name: string; kind: 'holiday' | 'closure' }

/**
 * The public holidays and closures of a calendar from one local date to another (both included), in date order; a
 * closure on a holiday is listed once, as the closure. Days off every week (weekends) are not listed.
 */
export function closedDays(calendar: ProgramCalendar, from: string, to: string): ClosedDay[] {
  const days = new Map<string, ClosedDay>();
  const h = calendar.holidays;
  if (h !== null) {
    for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
      for (const d of publicHolidayList(h.country, h.region, year)) {
        if (d.date >= from && d.date <= to && !days.has(d.date)) days.set(d.date, { date: d.date, name: d.name, kind: 'holiday' });
      }
    }
  }
  for (const c of calendar.closures) {
    if (c.date >= from && c.date <= to) days.set(c.date, { date: c.date, name: c.name ?? 'Closed', kind: 'closure' });
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The last day of the year that starts on `from` (a local date): the day before the same date a year later. */
export function yearAfter(from: string): string {
  const next = `${Number(from.slice(0, 4)) + 1}${from.slice(4)}`;
  // 29 February has no twin next year; the year then ends on 28 February.
  return next.endsWith('-02-29') ? `${next.slice(0, 8)}28` : addDays(next, -1);
}
