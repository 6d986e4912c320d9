/** How far ahead of UTC the time zone's clocks are at an instant, in milliseconds. */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(ms);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a calendar day (yyyy-MM-dd) begins in a time zone, or null when the text is not such a date. Staff
 * filter by the days they see on the pages, which are days of the service's time zone, not of UTC.
 */
export function startOfDay(date: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(utc).toISOString().slice(0, 10) !== date) return null;
  // The offset at the guess can differ from the offset at the answer across a DST change; a second step settles it.
  const first = utc - zoneOffset(utc, timeZone);
  return utc - zoneOffset(first, timeZone);
}

/** The day after a yyyy-MM-dd date, as yyyy-MM-dd. */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
