/** Formats epoch milliseconds for people: date and time in the service's time zone, with the zone's name. */
export function formatDateTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone, timeZoneName: 'short' }).format(ms);
}

/** The machine-readable form of a time for `<time datetime>`. */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString();
}
