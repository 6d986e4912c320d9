import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { type ImportReport, importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's automations: imported with the program (parts by id), exported back unchanged, reported by the
// import's diff, and refused with the YAML line of each problem (filters, targets, CEL types, roles, placeholders).

const scope = importScope('auto', 'AU');

const BIG = {
  customId: 'big', name: 'Big systems to review',
  when: { trigger: 'form.submitted', form: 'Apply' },
  if: 'Size > 10.0',
  then: [
    { do: 'moveStatus', to: 'Approved' },
    { do: 'setField', field: 'Customer', value: "Customer + ' (big)'" },
    { do: 'assign', role: 'reader', pick: 'roundRobin' },
    { do: 'sendMail', to: 'owner', subject: '{{projectNumber}}', text: 'See {{link}}' },
  ],
};
const PLAN = {
  customId: 'plan', name: 'Plan rejected',
  when: { trigger: 'attachment.reviewed', attachment: 'SitePlan', approval: 'Rejected' },
  then: [{ do: 'openInquiry', subject: 'Your site plan', text: 'Please upload a clearer plan.', visibleToApplicant: true }, { do: 'emitEvent', name: 'plan-rejected' }],
};

function withAutomations(automations: Record<string, unknown>[] = [BIG, PLAN]) {
  return { ...sampleProgram(), automations };
}

const lines = (report: ImportReport) => report.changes.map(describeChange);

test('automations are imported (parts by id), exported, and round-trip with no changes', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(withAutomations()));
  assert.ok(lines(first).includes('created automation big') && lines(first).includes('created automation plan'));
  const program = await scope.env.store.programs.findProgram(first.programId);
  const model = await scope.env.store.programs.loadProgramModel(program!);
  const stored = program!.automations!;
  assert.equal(stored[0]!.when.formId, model.forms.find((f) => f.customId === 'Apply')!.id);
  assert.deepEqual(stored[0]!.actions[0], { do: 'moveStatus', statusId: model.statuses.find((s) => s.customId === 'Approved')!.id, reasonId: null, message: null });
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.automations.map((a) => a.customId), ['big', 'plan']);
  assert.equal(exported.automations[1]!.when.attachment, 'Apply/SitePlan');
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(exported, format);
    assert.match(text, /then/);
    const again = await importProgram(scope.env, scope.agency, parseProgramFile(text, format));
    assert.deepEqual(lines(again), [], `${format}: importing the export changes nothing`);
  }
});

test('the import reports created, updated, removed and reordered automations, also in a dry run', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withAutomations()));
  const changed = withAutomations([{ ...PLAN, name: 'Plans rejected' }, { ...BIG, if: 'Size > 12.0' }, { customId: 'new', name: 'New', when: { trigger: 'project.created' }, then: [{ do: 'emitEvent', name: 'x' }] }]);
  const dry = await importProgram(scope.env, scope.agency, validateProgramFile(changed), { dryRun: true });
  assert.deepEqual(lines(dry).sort(), ['created automation new', 'reordered automations', 'updated automation big (if)', 'updated automation plan (name)']);
  assert.equal((await scope.env.store.programs.findProgram(dry.programId))?.automations?.[0]?.customId, 'big', 'a dry run writes nothing');
  await importProgram(scope.env, scope.agency, validateProgramFile(changed));
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, validateProgramFile(withAutomations([BIG])))).sort(), ['removed automation new', 'removed automation plan', 'updated automation big (if)']);
});

test('refusals name the YAML line of each problem, and a refused import changes nothing', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(withAutomations()));
  const before = await scope.env.store.programs.loadProgramDefinition(first.programId);
  const file = withAutomations([
    { customId: 'a', name: 'A', when: { trigger: 'status.entered', status: 'Nowhere', form: 'Apply' }, if: 'Size + 1 > 10.0', then: [{ do: 'moveStatus', to: 'Unsubmitted' }] },
    { customId: 'b', name: 'B', when: { trigger: 'form.submitted' }, then: [{ do: 'setField', field: 'Size', value: "'large'" }, { do: 'assign', role: 'Engineer' }] },
    { customId: 'b', name: 'C', when: { trigger: 'project.created' }, if: 'Sise > 1.0', then: [{ do: 'sendMail', to: 'role', subject: 'Hi {{name}}', text: 'x' }, { do: 'moveStatus' }] },
  ]);
  const yaml = stringify(file);
  const lineOf = (text: string, nth = 0) => yaml.split('\n').map((l, i) => [l, i + 1] as const).filter(([l]) => l.includes(text))[nth]![1];
  // `line N, column C` of `text` (its nth line), at the start of `text` there.
  const at = (text: string, nth = 0) => `line ${lineOf(text, nth)}, column ${yaml.split('\n')[lineOf(text, nth) - 1]!.indexOf(text) + 1}`;
  const problems = await refusedImport(scope, yaml);
  const ifA = lineOf('if: Size + 1');
  assert.equal(problems.length, 12, problems.join('\n'));
  assert.deepEqual(await scope.env.store.programs.loadProgramDefinition(first.programId), before, 'nothing changed');
  // Each problem names its line.
  for (const p of problems) assert.match(p, /\(line \d+, column \d+\)/, p);
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in:\n${problems.join('\n')}`);
  has(new RegExp(`^automation "a" \\(${at('trigger: status.entered')}\\): when: status: no status has the customId or name "Nowhere"$`));
  has(new RegExp(`^automation "a" \\(${at('trigger: status.entered')}\\): when: the trigger status.entered takes only status, not form$`));
  has(new RegExp(`^automation "a" \\(${at('do: moveStatus')}\\): then\\[0\\] \\(moveStatus\\): no status can move to "Unsubmitted"`));
  has(new RegExp(`^automation "a": if \\(line ${ifA}, column \\d+\\): \\+ cannot combine an int and a double`));
  has(new RegExp(`^automation "b": then setField Size: value \\(line ${lineOf("'large'")}, column \\d+\\): must give a double, but gives a string$`));
  has(new RegExp(`^automation "b" \\(${at('do: assign')}\\): then\\[1\\] \\(assign\\): no role is named "Engineer"; the roles are applicant, reader, editor, admin$`));
  has(/^automation "b" \(line \d+, column \d+\): then\[1\] \(assign\): say how to pick among the role's holders/);
  has(new RegExp(`^automation "b" \\(${at('customId: b', 1)}\\): another automation has the customId "b"$`));
  has(new RegExp(`^automation "b": if \\(line ${lineOf('if: Sise')}, column \\d+\\): unknown name "Sise" \\(did you mean "Size"\\?\\)$`));
  has(/then\[0\] \(sendMail\): a mail to a role names the role/);
  // A placeholder is placed at itself, not at its action.
  has(new RegExp(`^automation "b": then\\[0\\] \\(sendMail\\): subject \\(${at('{{name}}')}\\): unknown placeholder "\\{\\{name\\}\\}"`));
  has(new RegExp(`^automation "b" \\(${at('do: moveStatus', 1)}\\): then\\[1\\] \\(moveStatus\\): missing to$`));
});

test('the schema refuses an unknown trigger and an unknown action, naming the automation and their line and column', async () => {
  const yaml = stringify(withAutomations([{ customId: 'x', name: 'X', when: { trigger: 'deadline.whenever' }, then: [{ do: 'explode', sparkle: true }] }]));
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  assert.deepEqual(problems.filter((p) => p.startsWith('automations')).map((p) => p.replace(/: must be one of .*/, ': must be one of …')), [
    `automations[0].when.trigger ("x") (${at('deadline.whenever')}): must be one of …`,
    `automations[0].then[0] ("x") (${at('sparkle')}): unknown property "sparkle"`,
    `automations[0].then[0].do ("x") (${at('explode')}): must be one of …`,
  ]);
});

test('an unknown placeholder in a block-style (|) or quoted mail text is placed at its own line and column', async () => {
  const yaml = [
    stringify(withAutomations([])).replace(/automations: \[\]\n/, ''),
    'automations:',
    '  - customId: mail',
    '    name: Mail',
    '    when: { trigger: form.submitted }',
    '    then:',
    '      - do: sendMail',
    '        to: owner',
    '        subject: "Project \\u00e9 {{projectNumbr}}"',
    '        text: |',
    '          Hello,',
    '',
    '          your project {{projectNumber}} is in {{stauts}}.',
    '      - do: openInquiry',
    "        subject: 'It''s {{what}}'",
    '        text: >',
    '          folded {{foldedUnknown}}',
    '',
  ].join('\n');
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  const unknown = (name: string) => `unknown placeholder "{{${name}}}"; use ${problems[0]!.split('; use ')[1]}`;
  assert.deepEqual(problems, [
    // Columns count the source: "\u00e9" is six characters of the file and one of the subject.
    `automation "mail": then[0] (sendMail): subject (${at('{{projectNumbr}}')}): ${unknown('projectNumbr')}`,
    `automation "mail": then[0] (sendMail): text (${at('{{stauts}}')}): ${unknown('stauts')}`,
    `automation "mail": then[1] (openInquiry): subject (${at('{{what}}')}): ${unknown('what')}`,
    // A folded text's lines are joined, so it is placed at its start.
    `automation "mail": then[1] (openInquiry): text (line ${yaml.split('\n').indexOf('        text: >') + 1}, column 15): ${unknown('foldedUnknown')}`,
  ]);
});

test("a move names a reason of its target status, and one wherever the status always needs one; a mail names a template the file has", async () => {
  const program = withAutomations([{
    customId: 'msgs', name: 'Reasons and templates', when: { trigger: 'form.submitted', form: 'Apply' },
    then: [
      { do: 'moveStatus', to: 'Rejected' },
      { do: 'moveStatus', to: 'Approved', reason: 'Nope' },
      { do: 'sendMail', to: 'owner', template: 'Missing' },
      { do: 'sendMail', to: 'owner', template: 'Sorry', subject: 'Both', text: 'Both' },
      { do: 'sendMail', to: 'owner' },
    ],
  }]);
  const rejected = program.statuses.find((s) => s.customId === 'Rejected')!;
  Object.assign(rejected, { reasons: [{ customId: 'TooLarge', name: 'Too large' }], reasonRequired: true });
  const problems = await refusedImport(scope, stringify({ ...program, mailTemplates: [{ customId: 'Sorry', subject: 'Sorry', text: 'Sorry' }] }));
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in:\n${problems.join('\n')}`);
  has(/^automation "msgs" \(line \d+, column \d+\): then\[0\] \(moveStatus\): a move to "Rejected" needs a reason \(reason: one of TooLarge\)$/);
  has(/then\[1\] \(moveStatus\): reason: status "Approved" has no reason "Nope"; it lists no reasons$/);
  has(/then\[2\] \(sendMail\): template: mailTemplates has no "Missing"; it has Sorry$/);
  has(/then\[3\] \(sendMail\): a mail is a named template or a subject and text, not both$/);
  has(/then\[4\] \(sendMail\): a mail needs a subject and a text, or a named template$/);
  assert.equal(problems.length, 5, problems.join('\n'));

  // Given properly, they import and come back out of the export as written.
  const fine = withAutomations([{
    customId: 'msgs', name: 'Reasons and templates', when: { trigger: 'form.submitted', form: 'Apply' },
    then: [{ do: 'moveStatus', to: 'Rejected', reason: 'TooLarge', message: 'Too large for us.' }, { do: 'sendMail', to: 'owner', template: 'Sorry' }],
  }]);
  Object.assign(fine.statuses.find((s) => s.customId === 'Rejected')!, { reasons: [{ customId: 'TooLarge', name: 'Too large' }], reasonRequired: true });
  await importProgram(scope.env, scope.agency, validateProgramFile({ ...fine, mailTemplates: [{ customId: 'Sorry', subject: 'Sorry', text: 'Sorry' }] }));
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.automations[0]!.actions, [
    { do: 'moveStatus', to: 'Rejected', reason: 'TooLarge', message: 'Too large for us.' }, { do: 'sendMail', to: 'owner', template: 'Sorry' },
  ]);
});

test('a move into a status that must have a reason but lists none says what is wrong, not "reason: one of "', async () => {
  const program = withAutomations([{ customId: 'm', name: 'M', when: { trigger: 'form.submitted', form: 'Apply' }, then: [{ do: 'moveStatus', to: 'Rejected' }] }]);
  Object.assign(program.statuses.find((s) => s.customId === 'Rejected')!, { reasonRequired: true });
  const yaml = stringify(program);
  const at = placeOf(yaml);
  assert.deepEqual(await refusedImport(scope, yaml), [
    `automation "m" (${at('do: moveStatus')}): then[0] (moveStatus): a move to "Rejected" needs a reason, but the status lists no reasons to give; give it reasons: or drop its reasonRequired`,
    `status "Rejected" (${at('customId: Rejected')}): reasonRequired needs a list of reasons to choose from`,
  ]);
});

test('deadline triggers and actions name deadlines the file has; visibleToApplicant filters only notes', async () => {
  const program = {
    ...withAutomations([
      { customId: 'd1', name: 'D1', when: { trigger: 'deadline.passed', deadline: 'Nope' }, then: [{ do: 'startDeadline', deadline: 'Missing' }] },
      { customId: 'd2', name: 'D2', when: { trigger: 'form.submitted', visibleToApplicant: true }, then: [{ do: 'satisfyDeadline', deadline: 'Due' }] },
    ]),
    deadlines: [{ customId: 'Due', name: 'Due', duration: { businessDays: 5 } }],
  };
  const problems = await refusedImport(scope, stringify(program));
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in:\n${problems.join('\n')}`);
  has(/^automation "d1" \(line \d+, column \d+\): when: deadline: the program has no deadline "Nope"; its deadlines are Due$/);
  has(/then\[0\] \(startDeadline\): deadline: the program has no deadline "Missing"; its deadlines are Due$/);
  has(/automation "d2" \(line \d+, column \d+\): when: the trigger form.submitted takes only form, not visibleToApplicant$/);
  assert.equal(problems.length, 3, problems.join('\n'));
});

test('a daily schedule names its time of day and may narrow to a status; only automations read project.ageDays and daysInStatus', async () => {
  const daily = { customId: 'daily', name: 'Daily', when: { trigger: 'schedule', at: '08:00', status: 'Unsubmitted' }, if: 'project.ageDays >= 30 && project.daysInStatus > 2', then: [{ do: 'emitEvent', name: 'old-draft' }] };
  const refused = await refusedImport(scope, stringify(withAutomations([
    { customId: 'noTime', name: 'No time', when: { trigger: 'schedule' }, then: [{ do: 'emitEvent', name: 'x' }] },
    { customId: 'timed', name: 'Timed', when: { trigger: 'project.created', at: '08:00' }, then: [{ do: 'emitEvent', name: 'x' }] },
  ])));
  const has = (problems: string[], re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in:\n${problems.join('\n')}`);
  has(refused, /^automation "noTime" \(line \d+, column \d+\): when: the trigger schedule needs at, the local time of day it runs \(HH:MM\)$/);
  has(refused, /^automation "timed" \(line \d+, column \d+\): when: the trigger project.created takes no filter, not at$/);
  assert.equal(refused.length, 2, refused.join('\n'));
  const late = await refusedImport(scope, stringify(withAutomations([{ ...daily, when: { trigger: 'schedule', at: '24:00' } }])));
  has(late, /automations\[0\]\.when\.at \("daily"\) \(line \d+, column \d+\): must match pattern/);
  // A form's rule that read the project's age would change its answer while nobody acts: the name is unknown there.
  const file = withAutomations([daily]);
  const ruledFile = withAutomations([daily]);
  (ruledFile.forms[0]!.fields as unknown[])[1] = { field: 'Size', visibleIf: 'project.ageDays < 90' };
  const ruled = await refusedImport(scope, stringify(ruledFile));
  has(ruled, /visibleIf \(line \d+, column \d+\): .*ageDays/);
  assert.equal(ruled.length, 1, ruled.join('\n'));

  await importProgram(scope.env, scope.agency, validateProgramFile(file));
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  const { trigger, at, status } = exported.automations[0]!.when;
  assert.deepEqual({ trigger, at, status }, { trigger: 'schedule', at: '08:00', status: 'Unsubmitted' });
  const again = await importProgram(scope.env, scope.agency, parseProgramFile(formatProgramFile(exported, 'yaml'), 'yaml'));
  assert.deepEqual(lines(again), [], 'importing the export changes nothing');
});

test('generateDocument and sendMail attach name the file\'s documents: unknown ones are refused with their line; known ones are stored and exported', async () => {
  const letter = {
    customId: 'letter', name: 'Letter on approval',
    when: { trigger: 'status.entered', status: 'Approved' },
    then: [{ do: 'generateDocument', document: 'Approval' }, { do: 'sendMail', to: 'owner', subject: 'Approved', text: 'See attached', attach: ['Approval', 'Nope'] }],
  };
  const yaml = stringify(withAutomations([letter]));
  const problems = await refusedImport(scope, yaml);
  assert.deepEqual(problems.map((p) => p.replace(/\(line \d+, column \d+\)/, '(at)')), [
    'automation "letter" (at): then[0] (generateDocument): document: the program has no document "Approval" (documents: is empty)',
    'automation "letter" (at): then[1] (sendMail): attach: the program has no document "Approval" (documents: is empty)',
    'automation "letter" (at): then[1] (sendMail): attach: the program has no document "Nope" (documents: is empty)',
  ]);
  // The file's documents make the references good.
  const approval = { customId: 'Approval', name: 'Approval letter', title: 'Approval', body: 'Approved.', form: 'Apply' };
  const file = validateProgramFile({ ...withAutomations([{ ...letter, then: [letter.then[0], { ...letter.then[1], attach: ['Approval'] }] }]), documents: [approval] });
  const report = await importProgram(scope.env, scope.agency, file);
  const program = await scope.env.store.programs.findProgram(report.programId);
  assert.deepEqual(program!.automations![0]!.actions, [
    { do: 'generateDocument', documentId: 'Approval' },
    { do: 'sendMail', to: 'owner', role: null, subject: 'Approved', text: 'See attached', template: null, attach: ['Approval'] },
  ]);
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.automations[0]!.actions, [{ do: 'generateDocument', document: 'Approval' }, { do: 'sendMail', to: 'owner', subject: 'Approved', text: 'See attached', attach: ['Approval'] }]);
});
