import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import type { ApiError } from '../../src/domain/api-error.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { type ImportReport, importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// Status reasons and mail templates in a program file: imported, exported back unchanged, reported by the import's
// diff, and refused with the YAML line of each problem.

const scope = importScope('reasons', 'AS');

const REASONS = [{ customId: 'Incomplete', name: 'Documents missing' }, { customId: 'TooLarge', name: 'System too large' }];
const TEMPLATE = { subject: '{{projectNumber}} was rejected', text: 'Reason: {{reason}}\n{{message}}\n{{link}}\n' };
const NAMED = [{ customId: 'Reminder', subject: 'Reminder about {{projectNumber}}', text: 'Please finish {{projectNumber}} in {{programName}}.' }];

function withReasons() {
  const program = sampleProgram();
  program.statuses[3] = { customId: 'Rejected', name: 'Rejected', reasons: REASONS, reasonRequired: true, mailTemplate: TEMPLATE };
  program.statuses[2] = { customId: 'Approved', name: 'Approved', reasons: [{ customId: 'Fast', name: 'Fast track' }] };
  return { ...program, mailTemplates: NAMED };
}

function lines(report: ImportReport): string[] {
  return report.changes.map(describeChange);
}

test('reasons, status templates and named templates are imported, exported, and round-trip with no changes', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(withReasons()));
  const program = await scope.env.store.programs.findProgram(first.programId);
  assert.deepEqual(program?.mailTemplates, NAMED);
  const model = await scope.env.store.programs.loadProgramModel(program!);
  const rejected = model.statuses.find((s) => s.customId === 'Rejected')!;
  assert.deepEqual([rejected.reasons, rejected.reasonRequired, rejected.mailTemplate], [REASONS, true, TEMPLATE]);
  const review = model.statuses.find((s) => s.customId === 'Review')!;
  assert.equal(review.reasons, undefined, 'a status without reasons is stored as before');
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.statuses[3], { customId: 'Rejected', name: 'Rejected', publicId: 'rejected', initial: false, next: [], reasons: REASONS, reasonRequired: true, mailTemplate: TEMPLATE });
  assert.deepEqual(exported.mailTemplates, NAMED);
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(exported, format);
    assert.match(text, /reasonRequired/);
    assert.doesNotMatch(text.split('Review')[1]!.split('Approved')[0]!, /reasons/, 'statuses without reasons are written without them');
    const again = await importProgram(scope.env, scope.agency, parseProgramFile(text, format));
    assert.deepEqual(lines(again), [], `${format}: importing the export changes nothing`);
  }
});

test('the import reports changed reasons, templates and named templates, and a dry run writes nothing', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(sampleProgram()));
  const dry = await importProgram(scope.env, scope.agency, validateProgramFile(withReasons()), { dryRun: true });
  assert.deepEqual(lines(dry), ['updated program PV (mailTemplates)', 'updated status Approved (reasons)', 'updated status Rejected (reasons, reasonRequired, mailTemplate)']);
  const model = await scope.env.store.programs.loadProgramModel((await scope.env.store.programs.findProgram(first.programId))!);
  assert.equal(model.statuses.find((s) => s.customId === 'Rejected')!.reasons, undefined);
  await importProgram(scope.env, scope.agency, validateProgramFile(withReasons()));
  const changed = withReasons();
  changed.statuses[3] = { ...changed.statuses[3], reasonRequired: false };
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, validateProgramFile(changed))), ['updated status Rejected (reasonRequired)']);
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, validateProgramFile(sampleProgram()))),
    ['updated program PV (mailTemplates)', 'updated status Approved (reasons)', 'updated status Rejected (reasons, mailTemplate)']);
});

test('refusals name the YAML line of each problem', async () => {
  const file = withReasons();
  file.statuses[3] = {
    customId: 'Rejected', name: 'Rejected', reasonRequired: true,
    reasons: [{ customId: 'Incomplete', name: 'Documents missing' }, { customId: 'Incomplete', name: 'Other' }],
    mailTemplate: { subject: 'About {{projectNumbr}}', text: 'Hello' },
  };
  file.statuses[2] = { customId: 'Approved', name: 'Approved', reasonRequired: true };
  file.statuses.push({ customId: 'Closed', name: 'Closed', reasonRequired: true, reasons: [{ customId: 'Done', name: 'Done' }] });
  (file.statuses[1]!.next as string[]).push('Closed');
  file.forms[1] = { customId: 'Finish', name: 'Completion', availableIn: ['Approved'], leadsTo: 'Closed' };
  file.mailTemplates = [...NAMED, { customId: 'Reminder', subject: 'x', text: '{{owner}}' }];
  const yaml = stringify(file);
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  const known = '{{projectNumber}}, {{status}}, {{link}}, {{programName}}, {{reason}}, {{message}}, {{deadlines}}';
  assert.deepEqual(problems.sort(), [
    `form "Finish" (${at('leadsTo: Closed', 0, 'Closed')}): leadsTo "Closed" requires a reason, which a submission cannot give`,
    `mail template "Reminder" (${at('customId: Reminder', 1)}): another mail template has the customId "Reminder"`,
    `mail template "Reminder": text (${at('{{owner}}')}): unknown placeholder "{{owner}}"; use ${known}`,
    `status "Approved" (${at('customId: Approved')}): reasonRequired needs a list of reasons to choose from`,
    `status "Rejected" (${at('customId: Incomplete', 1)}): reasons: two reasons have the customId "Incomplete"`,
    `status "Rejected": mailTemplate.subject (${at('{{projectNumbr}}')}): unknown placeholder "{{projectNumbr}}"; use ${known}`,
  ].sort());
});

test('reasonRequired may list the statuses from which a move needs a reason: imported by id, exported by reference', async () => {
  const file = withReasons();
  // A return for correction: Approved → Review needs a reason, Unsubmitted → Review (a submission) does not.
  file.statuses[2] = { ...file.statuses[2], next: ['Review'] };
  file.statuses[1] = { ...file.statuses[1], reasons: [{ customId: 'Fix', name: 'Needs a fix' }], reasonRequired: ['Approved'] };
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(file));
  const model = await scope.env.store.programs.loadProgramModel((await scope.env.store.programs.findProgram(first.programId))!);
  const approved = model.statuses.find((s) => s.customId === 'Approved')!;
  assert.deepEqual(model.statuses.find((s) => s.customId === 'Review')!.reasonRequired, [approved.id]);
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.statuses[1]!.reasonRequired, ['Approved']);
  const text = formatProgramFile(exported, 'yaml');
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, parseProgramFile(text, 'yaml'))), []);
  file.statuses[1] = { ...file.statuses[1], reasonRequired: ['Approved', 'Unsubmitted', 'Rejected', 'Nowhere'] };
  const yaml = stringify(file);
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  assert.deepEqual(problems.sort(), [
    `form "Apply" (${at('leadsTo: Review', 0, 'Review')}): leadsTo "Review" requires a reason, which a submission cannot give`,
    `status "Review" (${at('- Nowhere', 0, 'Nowhere')}): reasonRequired: no status has the customId or name "Nowhere"`,
    `status "Review" (${at('- Rejected', 1, 'Rejected')}): reasonRequired: the workflow has no transition from "Rejected" to "Review"`,
  ].sort());
  file.statuses[1] = { ...file.statuses[1], reasonRequired: 'yes' };
  assert.throws(() => validateProgramFile(file), /statuses\[1\]\.reasonRequired \("Review"\): must be true, false or a list of statuses/);
});

test('the schema refuses a reason without a name and an unknown key, naming where', async () => {
  const file = withReasons();
  file.statuses[3] = { customId: 'Rejected', name: 'Rejected', reasons: [{ customId: 'Incomplete' }], reasonNeeded: true };
  assert.throws(() => validateProgramFile(file), (e: ApiError) => e.code === 'INVALID_REQUEST'
    && /statuses\[3\]\.reasons\[0\] \("Incomplete"\): missing required property "name"/.test(e.message)
    && /statuses\[3\] \("Rejected"\): unknown property "reasonNeeded"/.test(e.message));
});

test('a withdrawal status cannot require a reason: the owner withdraws with one click and gives none', async () => {
  const withdrawal = (reasonRequired: unknown) => {
    const file = withReasons();
    file.statuses[1] = { ...file.statuses[1], next: ['Approved', 'Rejected', 'Withdrawn'] };
    file.statuses.push({ customId: 'Withdrawn', name: 'Withdrawn', withdrawal: true, reasons: [{ customId: 'Moved', name: 'Moved away' }], reasonRequired });
    return file;
  };
  for (const reasonRequired of [true, ['Review']]) {
    const yaml = stringify(withdrawal(reasonRequired));
    // reasonRequired of the status Withdrawn: `true` on its line, a list on the line after.
    const rows = yaml.split('\n');
    const key = rows.findIndex((l, i) => i > rows.indexOf('  - customId: Withdrawn') && l.includes('reasonRequired:'));
    const place = reasonRequired === true ? `line ${key + 1}, column ${rows[key]!.indexOf('true') + 1}` : `line ${key + 2}, column ${rows[key + 1]!.indexOf('-') + 1}`;
    assert.deepEqual(await refusedImport(scope, yaml), [
      `status "Withdrawn" (${place}): a withdrawal status cannot require a reason: the owner withdraws without giving one, so could never withdraw`,
    ], JSON.stringify(reasonRequired));
  }
  // Reasons a member of staff may give on such a move are fine.
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withdrawal(false)));
  assert.ok(lines(report).includes('created status Withdrawn'), lines(report).join('\n'));
});
