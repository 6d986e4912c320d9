const dueDateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A local date (YYYY-MM-DD, already in the program's time zone) for people: "12 Dec 2026". */
export function formatDueDate(date: string): string {
  return dueDateFormat.format(Date.parse(`${date}T00:00:00Z`));
}
