// Building an Intl.DateTimeFormat costs about as much as rendering a whole table row, and a page of 100 projects
// formats 200 times, so one formatter per time zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Formats epoch milliseconds for people: date and time in the service's time zone, with the zone's name. */
export function formatDateTime(ms: number, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    // dateStyle and timeStyle cannot be combined with timeZoneName (a TypeError), so the parts are named one by one.
    format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
    formatters.set(timeZone, format);
  }
  return format.format(ms);
}

/** The machine-readable form of a time for `<time datetime>`. */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A local date (YYYY-MM-DD, already in the program's time zone) for people: "12 Dec 2026" (the mails write it alike). */
export { formatDueDate } from '../domain/calendar/format-due-date.ts';
