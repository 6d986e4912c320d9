import Holidays from 'date-holidays';
import type { ProgramCalendar } from '../../model/model.ts';
import { weekdayOf } from './local-date.ts';

/** The calendar of a program without `calendar:`: UTC, Monday to Friday, no holidays or closures. */
export const DEFAULT_CALENDAR: ProgramCalendar = { timeZone: 'UTC', workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], holidays: null, closures: [] };

// Public holidays per country, region and year; date-holidays computes a year's list by rules, so each is kept.
const holidayCache = new Map<string, { date: string; name: string }[]>();

/** The public holidays of a country (and region) in a year, by date and name; observances and optional days are not closed. */
export function publicHolidayList(country: string, region: string | null, year: number): { date: string; name: string }[] {
  const key = `${country}/${region ?? ''}/${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    const calendar = region === null ? new Holidays(country) : new Holidays(country, region);
    // date-holidays writes each date as local "YYYY-MM-DD hh:mm:ss" (a substitute day is its own public entry).
    days = calendar.getHolidays(year).filter((h) => h.type === 'public').map((h) => ({ date: h.date.slice(0, 10), name: h.name }));
    holidayCache.set(key, days);
  }
  return days;
}

/** The public holidays (YYYY-MM-DD) of a country (and region) in a year. */
export function publicHolidays(country: string, region: string | null, year: number): Set<string> {
  return new Set(publicHolidayList(country, region, year).map((h) => h.date));
}

/** True when the agency works on a local date: a working day of the week, not a public holiday, not a closure. */
export function isWorkingDay(calendar: ProgramCalendar, date: string): boolean {
  if (!calendar.workingDays.includes(weekdayOf(date))) return false;
  if (calendar.closures.some((c) => c.date === date)) return false;
  const h = calendar.holidays;
  return h === null || !publicHolidays(h.country, h.region, Number(date.slice(0, 4))).has(date);
}

/** The country codes date-holidays knows, and the region codes of one country (empty when it has none). */
export function holidayRegions(country: string): { known: boolean; regions: string[] } {
  const all = new Holidays().getCountries();
  if (!Object.hasOwn(all, country)) return { known: false, regions: [] };
  return { known: true, regions: Object.keys(new Holidays().getStates(country) ?? {}) };
}
