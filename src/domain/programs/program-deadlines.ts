import type { DeadlineDefinition, Program, ProgramCalendar } from '../../model/model.ts';
import { calendarProblems } from '../calendar/calendar-problems.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import type { DefinitionChange, Resolve } from './program-parts.ts';
import type { ProgramFile } from './program-file.ts';
import { atLine } from './program-lines.ts';

/**
 * Checks `calendar:` and `deadlines:` (unique customIds and names, untilField naming a date field); gives per
 * deadline the index of its untilField's field (null for other durations). Each problem names the YAML line.
 */
export function checkDeadlines(file: ProgramFile, fields: Resolve, problems: string[]): (number | null)[] {
  if (file.calendar) problems.push(...calendarProblems(file.calendar, (path) => atLine(file, ['calendar', ...path])));
  const deadlines = file.deadlines ?? [];
  return deadlines.map((d, i) => {
    const where = `deadline "${d.customId}"${atLine(file, ['deadlines', i])}`;
    for (const key of ['customId', 'name'] as const) {
      if (deadlines.slice(0, i).some((x) => x[key] === d[key])) problems.push(`${where}: another deadline has the ${key} "${d[key]}"`);
    }
    if (!('untilField' in d.duration)) return null;
    const at = `deadline "${d.customId}"${atLine(file, ['deadlines', i, 'duration', 'untilField'])}: untilField`;
    const index = fields(d.duration.untilField, at);
    if (index !== null && file.fields[index]!.type !== 'date') problems.push(`${at}: field "${d.duration.untilField}" is of type ${file.fields[index]!.type}, not date`);
    return index;
  });
}

/** The deadlines to store: untilField by the field's id. */
export function planDeadlines(file: ProgramFile, untilFields: (number | null)[], fieldIds: string[]): DeadlineDefinition[] {
  return (file.deadlines ?? []).map((d, i) => {
    const field = untilFields[i];
    return field === null || field === undefined ? d : { ...d, duration: { untilField: fieldIds[field]! } };
  });
}

/** A program's stored deadlines as the program file writes them; `refOf` turns a field id into its reference. */
export function deadlineSpecsOf(program: Program, refOf: (fieldId: string) => string): DeadlineDefinition[] {
  return (program.deadlines ?? []).map((d) => ('untilField' in d.duration ? { ...d, duration: { untilField: refOf(d.duration.untilField) } } : d));
}

/** A calendar as the program file writes it, defaults left out. */
export function compactCalendar(calendar: ProgramCalendar): Record<string, unknown> {
  const defaultDays = calendar.workingDays.join() === DEFAULT_CALENDAR.workingDays.join();
  return {
    timeZone: calendar.timeZone,
    ...(defaultDays ? {} : { workingDays: calendar.workingDays }),
    ...(calendar.holidays ? { holidays: calendar.holidays.region === null ? { country: calendar.holidays.country } : calendar.holidays } : {}),
    ...(calendar.closures.length > 0 ? { closures: calendar.closures.map((c) => (c.name === null ? c.date : c)) } : {}),
  };
}

/** A deadline as the program file writes it, defaults left out. */
export function compactDeadline(d: DeadlineDefinition): Record<string, unknown> {
  return { customId: d.customId, name: d.name, duration: d.duration, ...(d.shownToApplicant ? {} : { shownToApplicant: false }) };
}

/** What an import does to the calendar (updated: which parts) and to the deadlines, by customId. */
export function diffDeadlines(before: Program | null, after: Program): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  const [a, b] = [before?.calendar ?? null, after.calendar ?? null];
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const keys = ['timeZone', 'workingDays', 'holidays', 'closures'] as const;
    const properties = a === null || b === null ? [] : keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    changes.push({ kind: 'calendar', action: b === null ? 'removed' : a === null ? 'created' : 'updated', ref: after.customId, properties });
  }
  const old = before?.deadlines ?? [];
  const next = after.deadlines ?? [];
  for (const d of next) {
    const prior = old.find((x) => x.customId === d.customId);
    if (!prior) {
      changes.push({ kind: 'deadline', action: 'created', ref: d.customId, properties: [] });
      continue;
    }
    const properties = (['name', 'duration', 'shownToApplicant'] as const).filter((k) => JSON.stringify(prior[k]) !== JSON.stringify(d[k]));
    if (properties.length > 0) changes.push({ kind: 'deadline', action: 'updated', ref: d.customId, properties });
  }
  for (const d of old) {
    if (!next.some((x) => x.customId === d.customId)) changes.push({ kind: 'deadline', action: 'removed', ref: d.customId, properties: [] });
  }
  return changes;
}
