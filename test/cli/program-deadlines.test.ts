import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's calendar and deadlines: imported and stored with the program, exported back unchanged, reported
// by the import's diff, refused with the YAML line of each problem.

const scope = importScope('deadlines', 'AD');

function withDeadlines(extra: Record<string, unknown> = {}) {
  const program = sampleProgram();
  program.fields.push({ customId: 'Inspection', name: 'Inspection date', type: 'date' });
  return {
    ...program,
    calendar: { timeZone: 'America/Los_Angeles', holidays: { country: 'US', region: 'CA' }, closures: ['2026-12-24', { date: '2026-12-31', name: 'Year end' }] },
    deadlines: [
      { customId: 'AnswerDue', name: 'Answer due', duration: { businessDays: 10 } },
      { customId: 'Internal', name: 'Internal check', duration: { calendarDays: 3 }, shownToApplicant: false },
      { customId: 'InspectBy', name: 'Inspection', duration: { untilField: 'Inspection date' } },
    ],
    ...extra,
  };
}

test('calendar and deadlines are stored, exported back, and a second import changes nothing', async () => {
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withDeadlines()));
  assert.ok(report.changes.map(describeChange).includes('created calendar PV'));
  assert.ok(report.changes.map(describeChange).includes('created deadline AnswerDue'));
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.calendar, {
    timeZone: 'America/Los_Angeles', workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], holidays: { country: 'US', region: 'CA' },
    closures: [{ date: '2026-12-24', name: null }, { date: '2026-12-31', name: 'Year end' }],
  });
  assert.deepEqual(exported.deadlines?.map((d) => [d.customId, d.duration, d.shownToApplicant]), [
    ['AnswerDue', { businessDays: 10 }, true], ['Internal', { calendarDays: 3 }, false], ['InspectBy', { untilField: 'Inspection' }, true],
  ]);
  const text = formatProgramFile(exported, 'yaml');
  assert.match(text, /calendar:\n {2}timeZone: America\/Los_Angeles\n/);
  const again = await importProgram(scope.env, scope.agency, parseProgramFile(text));
  assert.deepEqual(again.changes, []);
});

test('the import diff names what changed in the calendar and deadlines', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withDeadlines()));
  const changed = withDeadlines();
  changed.calendar = { ...changed.calendar, timeZone: 'Europe/Berlin' } as typeof changed.calendar;
  changed.deadlines = [{ customId: 'AnswerDue', name: 'Answer due', duration: { businessDays: 15 } }, { customId: 'New', name: 'New one', duration: { calendarDays: 1 } }] as never;
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(changed), { dryRun: true });
  assert.deepEqual(report.changes.map(describeChange), [
    'updated calendar PV (timeZone)', 'updated deadline AnswerDue (duration)', 'created deadline New', 'removed deadline Internal', 'removed deadline InspectBy',
  ]);
  const { calendar: _c, ...without } = withDeadlines();
  const removed = await importProgram(scope.env, scope.agency, validateProgramFile(without), { dryRun: true });
  assert.deepEqual(removed.changes.map(describeChange), ['removed calendar PV']);
});

test('an unknown time zone, country or region, a bad closure date and a bad untilField are refused with their lines', async () => {
  const file = withDeadlines({
    calendar: { timeZone: 'Pacific/Nowhere', holidays: { country: 'US', region: 'ZZ' }, closures: ['2026-13-01'] },
  });
  file.deadlines.push({ customId: 'BySize', name: 'By size', duration: { untilField: 'Size' } });
  file.deadlines.push({ customId: 'ByNothing', name: 'By nothing', duration: { untilField: 'Nothing' } });
  file.deadlines.push({ customId: 'AnswerDue', name: 'Again', duration: { businessDays: 1 } });
  const text = stringify(file);
  const at = placeOf(text);
  const problems = await refusedImport(scope, text);
  assert.deepEqual(problems, [
    `calendar (${at('Pacific/Nowhere')}): timeZone: unknown time zone "Pacific/Nowhere"; use an IANA name such as America/Los_Angeles or Europe/Berlin`,
    `calendar (${at('region: ZZ', 0, 'ZZ')}): holidays: country US has no region "ZZ"; its regions are ${problems[1]!.split('its regions are ')[1]}`,
    `calendar (${at('2026-13-01')}): closures: "2026-13-01" is not a date written YYYY-MM-DD`,
    `deadline "BySize" (${at('untilField: Size', 0, 'Size')}): untilField: field "Size" is of type number, not date`,
    problems[4]!,
    `deadline "AnswerDue" (${at('customId: AnswerDue', 1)}): another deadline has the customId "AnswerDue"`,
  ]);
  assert.match(problems[4]!, new RegExp(`^deadline "ByNothing" \\(${at('untilField: Nothing', 0, 'Nothing')}\\): untilField.*"Nothing"`));
  assert.match(problems[1]!, /\bCA\b/);
});

test('the schema refuses a duration with two kinds, zero days and an unknown weekday', () => {
  const bad = withDeadlines({ calendar: { workingDays: ['Mon', 'Funday'] } });
  bad.deadlines = [{ customId: 'X', name: 'X', duration: { businessDays: 0, calendarDays: 2 } as never }];
  assert.throws(() => validateProgramFile(bad), (e: unknown) => {
    const message = (e as Error).message;
    assert.match(message, /calendar\.workingDays\[1\]: must be one of Mon, Tue/);
    assert.match(message, /duration.*must NOT have more than 1 properties/);
    assert.match(message, /businessDays.*must be >= 1/);
    return true;
  });
});
