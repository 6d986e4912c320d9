import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calendarProblems } from '../../src/domain/calendar/calendar-problems.ts';
import { dueOf } from '../../src/domain/calendar/due-date.ts';
import { localDateOf, startOfLocalDay } from '../../src/domain/calendar/local-date.ts';
import { DEFAULT_CALENDAR, isWorkingDay } from '../../src/domain/calendar/working-days.ts';
import type { DeadlineDuration, ProgramCalendar } from '../../src/model/model.ts';

// Business-day arithmetic: weekends, public holidays of date-holidays, the agency's closures, DST in Los Angeles
// and Berlin, starts on non-working days and at the year's end. Due dates are local; dueAt is the next local midnight.

const LA: ProgramCalendar = { timeZone: 'America/Los_Angeles', workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], holidays: { country: 'US', region: 'CA' }, closures: [] };
const BERLIN: ProgramCalendar = { timeZone: 'Europe/Berlin', workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], holidays: { country: 'DE', region: 'BY' }, closures: [] };
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

function due(calendar: ProgramCalendar, start: string, duration: DeadlineDuration): [string, string] {
  const d = dueOf(calendar, at(start), duration);
  assert.ok(d);
  return [d.dueDate, iso(d.dueAt)];
}

test('the start day never counts; weekends are skipped; due at the next local midnight', () => {
  // Monday 2026-12-07 10:00 in Los Angeles (18:00Z): 1 business day is Tuesday, passing at Wednesday 00:00 PST.
  assert.deepEqual(due(LA, '2026-12-07T18:00:00Z', { businessDays: 1 }), ['2026-12-08', '2026-12-09T08:00:00.000Z']);
  // Friday 2026-12-11: 1 business day is Monday.
  assert.deepEqual(due(LA, '2026-12-11T18:00:00Z', { businessDays: 1 }), ['2026-12-14', '2026-12-15T08:00:00.000Z']);
  assert.deepEqual(due(LA, '2026-12-07T18:00:00Z', { businessDays: 10 }), ['2026-12-21', '2026-12-22T08:00:00.000Z']);
});

test('the start counts by its local date: 05:00Z on 1 December is still 30 November in Los Angeles', () => {
  assert.equal(localDateOf(at('2026-12-01T05:00:00Z'), LA.timeZone), '2026-11-30');
  assert.deepEqual(due(LA, '2026-12-01T05:00:00Z', { businessDays: 1 }), ['2026-12-01', '2026-12-02T08:00:00.000Z']);
});

test('a start on a non-working day counts from the next working day', () => {
  // Saturday 2026-12-05: Monday is the first business day.
  assert.deepEqual(due(LA, '2026-12-05T20:00:00Z', { businessDays: 1 }), ['2026-12-07', '2026-12-08T08:00:00.000Z']);
  // Thanksgiving (a holiday itself) + the day after (a California holiday) + the weekend.
  assert.deepEqual(due(LA, '2026-11-26T20:00:00Z', { businessDays: 1 }), ['2026-11-30', '2026-12-01T08:00:00.000Z']);
});

test('public holidays of the country and region are skipped; observances are not', () => {
  // Wednesday 2026-11-25: Thanksgiving and the day after are closed in California.
  assert.deepEqual(due(LA, '2026-11-25T18:00:00Z', { businessDays: 3 }), ['2026-12-02', '2026-12-03T08:00:00.000Z']);
  assert.equal(isWorkingDay(LA, '2026-11-27'), false);
  assert.equal(isWorkingDay({ ...LA, holidays: { country: 'US', region: null } }, '2026-11-27'), true, 'the day after Thanksgiving is not a federal holiday');
  assert.equal(isWorkingDay(LA, '2026-03-17'), true, 'St. Patrick\'s Day is an observance');
  // Epiphany (6 January) is a holiday in Bavaria, not in Germany as a whole.
  assert.deepEqual(due(BERLIN, '2026-01-05T09:00:00Z', { businessDays: 1 }), ['2026-01-07', '2026-01-07T23:00:00.000Z']);
  assert.deepEqual(due({ ...BERLIN, holidays: { country: 'DE', region: null } }, '2026-01-05T09:00:00Z', { businessDays: 1 }), ['2026-01-06', '2026-01-06T23:00:00.000Z']);
});

test('the agency\'s closures are skipped, and so are days that are not working days of the week', () => {
  const closed = { ...LA, closures: [{ date: '2026-12-08', name: 'Office move' }] };
  assert.deepEqual(due(closed, '2026-12-07T18:00:00Z', { businessDays: 1 }), ['2026-12-09', '2026-12-10T08:00:00.000Z']);
  const fourDays = { ...LA, workingDays: ['Mon', 'Tue', 'Wed', 'Thu'] as ProgramCalendar['workingDays'] };
  assert.deepEqual(due(fourDays, '2026-12-10T18:00:00Z', { businessDays: 1 }), ['2026-12-14', '2026-12-15T08:00:00.000Z']);
});

test('date-holidays types the Friday before a Saturday Veterans Day bank, not public: a closure fills the gap (docs/programs.md)', () => {
  const US: ProgramCalendar = { ...LA, holidays: { country: 'US', region: null } };
  // When this fails, the package closes the gap itself: update "Closures fill gaps in the holiday data".
  assert.equal(isWorkingDay(US, '2028-11-10'), true, 'the observed Veterans Day 2028 is a working day by the data');
  assert.equal(isWorkingDay({ ...US, closures: [{ date: '2028-11-10', name: 'Veterans Day (observed)' }] }, '2028-11-10'), false);
  assert.equal(isWorkingDay(US, '2026-07-03'), false, 'the observed Independence Day 2026 is typed public');
});

test('DST in Los Angeles: the day after a change starts at the new offset', () => {
  // Clocks go forward on Sunday 8 March 2026: Monday 9 March passes at Tuesday 00:00 PDT (07:00Z).
  assert.deepEqual(due(LA, '2026-03-06T20:00:00Z', { businessDays: 1 }), ['2026-03-09', '2026-03-10T07:00:00.000Z']);
  assert.deepEqual(due(LA, '2026-03-07T20:00:00Z', { calendarDays: 1 }), ['2026-03-08', '2026-03-09T07:00:00.000Z']);
  assert.equal(iso(startOfLocalDay('2026-03-08', LA.timeZone)), '2026-03-08T08:00:00.000Z');
  // Clocks go back on Sunday 1 November 2026.
  assert.equal(iso(startOfLocalDay('2026-11-01', LA.timeZone)), '2026-11-01T07:00:00.000Z');
  assert.equal(iso(startOfLocalDay('2026-11-02', LA.timeZone)), '2026-11-02T08:00:00.000Z');
  assert.deepEqual(due(LA, '2026-10-30T20:00:00Z', { businessDays: 1 }), ['2026-11-02', '2026-11-03T08:00:00.000Z']);
  // 23:30 PDT on Saturday 31 October is still the 31st locally although it is 1 November in UTC.
  assert.deepEqual(due(LA, '2026-11-01T06:30:00Z', { calendarDays: 1 }), ['2026-11-01', '2026-11-02T08:00:00.000Z']);
});

test('DST in Berlin: midnight moves from 23:00Z to 22:00Z and back', () => {
  assert.equal(iso(startOfLocalDay('2026-03-29', BERLIN.timeZone)), '2026-03-28T23:00:00.000Z');
  assert.equal(iso(startOfLocalDay('2026-03-30', BERLIN.timeZone)), '2026-03-29T22:00:00.000Z');
  assert.equal(iso(startOfLocalDay('2026-10-26', BERLIN.timeZone)), '2026-10-25T23:00:00.000Z');
  assert.deepEqual(due(BERLIN, '2026-03-27T10:00:00Z', { businessDays: 1 }), ['2026-03-30', '2026-03-30T22:00:00.000Z']);
  assert.deepEqual(due(BERLIN, '2026-10-23T10:00:00Z', { calendarDays: 2 }), ['2026-10-25', '2026-10-25T23:00:00.000Z']);
});

test('year end: Christmas and New Year are skipped, calendar days run into the next year', () => {
  // Wednesday 23 December 2026: 24 (Christmas Eve is only optional), 28, 29, 30, 31, then Monday 4 January 2027.
  assert.deepEqual(due(LA, '2026-12-23T18:00:00Z', { businessDays: 6 }), ['2027-01-04', '2027-01-05T08:00:00.000Z']);
  assert.deepEqual(due(LA, '2026-12-30T18:00:00Z', { calendarDays: 5 }), ['2027-01-04', '2027-01-05T08:00:00.000Z']);
  assert.deepEqual(due(DEFAULT_CALENDAR, '2026-12-31T23:59:59Z', { businessDays: 1 }), ['2027-01-01', '2027-01-02T00:00:00.000Z']);
});

test('untilField: due by the field\'s date, at the end of that local day; no date, no due', () => {
  const d = dueOf(LA, at('2026-12-01T18:00:00Z'), { untilField: 'F' }, '2026-12-24');
  assert.deepEqual(d && [d.dueDate, iso(d.dueAt)], ['2026-12-24', '2026-12-25T08:00:00.000Z']);
  assert.equal(dueOf(LA, at('2026-12-01T18:00:00Z'), { untilField: 'F' }, null), null);
});

test('a calendar with no working day at all gives no due date instead of looping', () => {
  const closed = { ...DEFAULT_CALENDAR, workingDays: [] };
  assert.equal(dueOf(closed, at('2026-12-01T00:00:00Z'), { businessDays: 2 }), null);
  assert.deepEqual(due({ ...closed, workingDays: ['Sun'] }, '2026-12-01T00:00:00Z', { businessDays: 2 }), ['2026-12-13', '2026-12-14T00:00:00.000Z']);
});

test('calendarProblems: unknown time zone, country and region, and bad or repeated closure dates', () => {
  const problems = calendarProblems({
    timeZone: 'Mars/Olympus', workingDays: ['Mon'], holidays: { country: 'US', region: 'XX' },
    closures: [{ date: '2026-02-30', name: null }, { date: '2026-12-24', name: null }, { date: '2026-12-24', name: 'again' }],
  }, (path) => ` (${path.join('.')})`);
  assert.deepEqual(problems.map((p) => p.split(':')[0]), ['calendar (timeZone)', 'calendar (holidays.region)', 'calendar (closures.0)', 'calendar (closures.2)']);
  assert.match(problems[0]!, /unknown time zone "Mars\/Olympus"/);
  assert.match(problems[1]!, /country US has no region "XX"; its regions are .*CA/);
  assert.match(calendarProblems({ ...LA, holidays: { country: 'ZZ', region: null } }, () => '')[0]!, /unknown country "ZZ"/);
  assert.deepEqual(calendarProblems(LA, () => ''), []);
});
