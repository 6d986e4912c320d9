import type { ProgramCalendar } from '../../model/model.ts';
import { isDate, isTimeZone } from './local-date.ts';
import { holidayRegions } from './working-days.ts';

/**
 * What is wrong with a calendar that the schema cannot see: an unknown time zone, holiday country or region, a
 * closure that is no real date or is listed twice. `at(path)` names where a part of `calendar:` was written.
 */
export function calendarProblems(calendar: ProgramCalendar, at: (path: (string | number)[]) => string): string[] {
  const problems: string[] = [];
  if (!isTimeZone(calendar.timeZone)) {
    problems.push(`calendar${at(['timeZone'])}: timeZone: unknown time zone "${calendar.timeZone}"; use an IANA name such as America/Los_Angeles or Europe/Berlin`);
  }
  const h = calendar.holidays;
  if (h !== null) {
    const known = holidayRegions(h.country);
    if (!known.known) problems.push(`calendar${at(['holidays', 'country'])}: holidays: unknown country "${h.country}" (an ISO 3166-1 code date-holidays knows, such as US or DE)`);
    else if (h.region !== null && !known.regions.includes(h.region)) {
      const list = known.regions.length > 0 ? `; its regions are ${known.regions.join(', ')}` : '; it has no regions';
      problems.push(`calendar${at(['holidays', 'region'])}: holidays: country ${h.country} has no region "${h.region}"${list}`);
    }
  }
  calendar.closures.forEach((c, i) => {
    if (!isDate(c.date)) problems.push(`calendar${at(['closures', i])}: closures: "${c.date}" is not a date written YYYY-MM-DD`);
    else if (calendar.closures.findIndex((x) => x.date === c.date) !== i) problems.push(`calendar${at(['closures', i])}: closures: ${c.date} is listed twice`);
  });
  return problems;
}
