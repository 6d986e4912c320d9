/** The source of the current time; an interface so tests can fix or advance it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
let cachedDay = Number.NaN;
let cachedDate = '';

/** Formats epoch milliseconds as ISO 8601 with an explicit UTC offset, e.g. 2026-11-22T03:08:22.507+00:00. */
export function isoTimestamp(ms: number): string {
  // Lists format thousands of timestamps, mostly of few days: the date part is kept for the last day seen and the
  // time of day is formatted by arithmetic, which costs a fraction of Date's toISOString.
  const day = Math.floor(ms / DAY_MS);
  if (!Number.isSafeInteger(ms) || day < 0 || day > 2_932_896) return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
  if (day !== cachedDay) {
    cachedDate = new Date(day * DAY_MS).toISOString().slice(0, 11);
    cachedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  const millis = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : String(milli);
  return `${cachedDate}${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${millis}+00:00`;
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
