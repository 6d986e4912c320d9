import type { DeadlineDefinition, DeadlineDuration, ProgramCalendar, Weekday } from '../../model/model.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';

/** `calendar:` as a program file writes it (program.schema.json). */
export interface RawCalendar {
  timeZone?: string; workingDays?: Weekday[]; holidays?: { country: string; region?: string };
  closures?: (string | { date: string; name?: string })[];
}

/** A `deadlines:` item as a program file writes it. */
export interface RawDeadline { customId: string; name: string; duration: DeadlineDuration; shownToApplicant?: boolean }

/** `calendar:` with every default filled in; null when the file has none. */
export function normaliseCalendar(raw: RawCalendar | undefined): ProgramCalendar | null {
  if (!raw) return null;
  const days = raw.workingDays ?? DEFAULT_CALENDAR.workingDays;
  return {
    timeZone: raw.timeZone ?? 'UTC',
    // In week order, so that a stored calendar compares equal to the file however the file lists them.
    workingDays: (['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const).filter((d) => days.includes(d)),
    holidays: raw.holidays ? { country: raw.holidays.country.toUpperCase(), region: raw.holidays.region ?? null } : null,
    closures: (raw.closures ?? []).map((c) => (typeof c === 'string' ? { date: c, name: null } : { date: c.date, name: c.name ?? null })),
  };
}

/** `deadlines:` with defaults filled in. */
export function normaliseDeadlines(raw: RawDeadline[] | undefined): DeadlineDefinition[] {
  return (raw ?? []).map((d) => ({ customId: d.customId, name: d.name, duration: { ...d.duration }, shownToApplicant: d.shownToApplicant ?? true }));
}
