/** Formats epoch milliseconds for people: date and time in the service's time zone, with the zone's name. */
export function formatDateTime(ms: number, timeZone: string): string {
  // dateStyle and timeStyle cannot be combined with timeZoneName (a TypeError), so the parts are named one by one.
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(ms);
}

/** The machine-readable form of a time for `<time datetime>`. */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString();
}
