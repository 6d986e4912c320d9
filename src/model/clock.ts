/** The source of the current time; an interface so tests can fix or advance it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
// The parts of a time of day, made once: `HH:MM:` for each minute of a day, `.mmm+00:00` for each millisecond.
const MINUTES = Array.from({ length: 1440 }, (_, m) => `${TWO_DIGITS[Math.floor(m / 60)]}:${TWO_DIGITS[m % 60]}:`);
const MILLIS = Array.from({ length: 1000 }, (_, m) => `.${String(m).padStart(3, '0')}+00:00`);
// The date part of the days met, up to MAX_DAYS of them (then started afresh): a list sorted by creation meets a new
// day every few rows, and a page of its days again and again.
const MAX_DAYS = 4096;
const dates = new Map<number, string>();

/** Formats epoch milliseconds as ISO 8601 with an explicit UTC offset, e.g. 2026-11-22T03:08:22.507+00:00. */
export function isoTimestamp(ms: number): string {
  // Lists format thousands of timestamps: the date part is kept per day and the time of day is put together from
  // the tables above in four parts, which costs a fraction of Date's toISOString (docs/performance.md, "A page of 100
  // on PostgreSQL").
  const day = Math.floor(ms / DAY_MS);
  if (!Number.isSafeInteger(ms) || day < 0 || day > 2_932_896) return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
  let date = dates.get(day);
  if (date === undefined) {
    if (dates.size >= MAX_DAYS) dates.clear();
    date = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dates.set(day, date);
  }
  const rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  const seconds = (rest - milli) / 1000;
  const second = seconds % 60;
  return date + MINUTES[(seconds - second) / 60]! + TWO_DIGITS[second]! + MILLIS[milli]!;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,7})?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses the timestamp formats integrations send for `changed_since` and similar values:
 * yyyy-MM-dd, yyyy-MM-ddTHH:mm:ss[.fffffff] with an offset or Z (UTC when the offset is missing).
 * Returns epoch milliseconds, or null when the text is not such a timestamp.
 */
export function parseTimestamp(text: string): number | null {
  const value = text.trim();
  const d = DATE_ONLY.exec(value);
  if (d) return checked(Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!), +d[1]!, +d[2]!, +d[3]!);
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, da, h, mi, s, frac, zone] = m;
  if (+h! > 23 || +mi! > 59 || +s! > 59) return null;
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const base = checked(Date.UTC(+y!, +mo! - 1, +da!, +h!, +mi!, +s!, ms), +y!, +mo!, +da!);
  if (base === null) return null;
  if (!zone || zone === 'Z') return base;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offH = Number(digits.slice(0, 2));
  const offM = Number(digits.slice(2, 4));
  if (offH > 14 || offM > 59) return null;
  return base - sign * (offH * 60 + offM) * 60000;
}

function checked(ms: number, y: number, mo: number, d: number): number | null {
  const date = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March; a real calendar date must come back unchanged.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return ms;
}
