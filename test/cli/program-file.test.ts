import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { resolveProgramFile } from '../../src/domain/programs/program-check.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { stringify } from 'yaml';
import { sampleProgram } from './sample-program.ts';

/** The message of the INVALID_REQUEST error `fn` throws. */
function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.code, 'INVALID_REQUEST');
    return error.message;
  }
  assert.fail('expected the program file to be refused');
}

function semantic(change: (p: ReturnType<typeof sampleProgram>) => void): string {
  const program = sampleProgram();
  change(program);
  return problemsOf(() => resolveProgramFile(validateProgramFile(program, 'test.yaml'), programCheckers(), 'test.yaml'));
}

test('a valid file is normalised with defaults filled in', () => {
  const file = validateProgramFile(sampleProgram());
  assert.equal(file.numberDigits, 5);
  assert.deepEqual(file.customLists[0]!.choices, [{ value: 'SMA', label: 'SMA' }, { value: 'ENP', label: 'Enphase' }]);
  assert.deepEqual(file.forms[0]!.fields[1], { field: 'System size', required: false, rules: null });
  assert.equal(file.forms[0]!.attachments[0]!.maxSizeBytes, 10 * 1024 * 1024);
  assert.equal(file.fields[0]!.multiValue, false);
  assert.doesNotThrow(() => resolveProgramFile(file, programCheckers()));
});

test('YAML and JSON syntax errors name the line', () => {
  assert.match(problemsOf(() => parseProgramFile('customId: [x\nname: y\n', 'yaml', 'p.yaml')), /p\.yaml is not a valid program[\s\S]*not valid YAML: .*line \d+/);
  assert.match(problemsOf(() => parseProgramFile('{"customId": ', 'json', 'p.json')), /not valid JSON/);
  assert.match(problemsOf(() => parseProgramFile('a: 1\na: 2\n')), /Map keys must be unique/);
});

test('schema errors list every problem with its path', () => {
  const program = sampleProgram();
  program.extra = true;
  program.numberPrefix = 'pv';
  program.fields[0]!.type = 'string';
  program.fields[1]!.colour = 'red';
  delete program.statuses[1]!.name;
  program.forms[0]!.attachments = [{ name: 'Site plan', allowedTypes: ['pdf'] }];
  (program.forms[0]!.fields as unknown[]).push(7);
  const message = problemsOf(() => validateProgramFile(program, 'p.yaml'));
  assert.match(message, /\(7 problems\)/);
  assert.match(message, /\(top level\): unknown property "extra"/);
  assert.match(message, /numberPrefix: must be 1 to 16 upper-case letters or digits/);
  assert.match(message, /fields\[0\]\.type \("Customer"\): must be one of text, number, integer, boolean, date, choice/);
  assert.match(message, /fields\[1\] \("Size"\): unknown property "colour"/);
  assert.match(message, /statuses\[1\] \("Review"\): missing required property "name"/);
  assert.match(message, /forms\[0\]\.attachments\[0\]\.allowedTypes\[0\] \("Site plan"\): must be a MIME type/);
  assert.match(message, /forms\[0\]\.fields\[4\] \("Apply"\): must be a string or an object/);
});

test('duplicate customIds and names are refused per kind', () => {
  assert.match(semantic((p) => { p.fields[1]!.customId = 'Customer'; }), /two fields have the customId "Customer"/);
  assert.match(semantic((p) => { p.statuses[3]!.name = 'Approved'; }), /two statuses have the name "Approved"/);
  assert.match(semantic((p) => { (p.customLists[0]!.choices as unknown[]).push('SMA'); }), /custom list "Makes": the choice "SMA" appears twice/);
  assert.match(semantic((p) => {
    (p.forms[0]!.attachments as unknown[]).push({ name: 'Site plan', allowedTypes: ['image/png'] });
  }), /form "Apply": two attachments have the name "Site plan"/);
});

test('references must resolve, once each', () => {
  assert.match(semantic((p) => { p.fields[2]!.list = 'Nope'; }), /field "Make": list: no custom list has the customId or name "Nope"/);
  assert.match(semantic((p) => { p.statuses[1]!.next = ['Approved', 'Approved']; }), /status "Review": next: "Approved" is listed twice/);
  assert.match(semantic((p) => { p.statuses[0]!.next = ['Gone']; }), /status "Unsubmitted": next: no status has the customId or name "Gone"/);
  assert.match(semantic((p) => { p.forms[0]!.leadsTo = 'Elsewhere'; }), /form "Apply": leadsTo: no status/);
  assert.match(semantic((p) => { p.forms[0]!.availableIn = ['Nowhere']; }), /form "Apply": availableIn: no status/);
  assert.match(semantic((p) => { (p.forms[0]!.fields as unknown[]).push('Ghost'); }), /form "Apply": fields: no field has the customId or name "Ghost"/);
  assert.match(semantic((p) => { (p.forms[0]!.fields as unknown[]).push('Customer name'); }), /form "Apply": the field "Customer name" is on the form twice/);
  assert.match(semantic((p) => { p.fields[3]!.name = 'Customer'; }), /"Customer" is ambiguous/);
});

test('exactly one initial status, named Unsubmitted', () => {
  assert.match(semantic((p) => { p.statuses[0]!.initial = false; }), /exactly one status must be initial: true \(found none\)/);
  assert.match(semantic((p) => { p.statuses[1]!.initial = true; }), /exactly one status must be initial: true \(found "Unsubmitted", "Review"\)/);
  assert.match(semantic((p) => {
    p.statuses[0]!.name = 'Draft';
  }), /status "Unsubmitted": the initial status must be named "Unsubmitted"/);
});

test('type-specific options are checked', () => {
  assert.match(semantic((p) => { delete p.fields[2]!.list; }), /field "Make": a choice field needs a list/);
  assert.match(semantic((p) => { p.fields[0]!.list = 'Makes'; }), /field "Customer": only choice fields have a list/);
  assert.match(semantic((p) => { p.fields[1]!.maxLength = 3; }), /field "Size": maxLength applies to text fields only/);
  assert.match(semantic((p) => { p.fields[0]!.min = 1; }), /field "Customer": min and max apply to number and integer fields only/);
  assert.match(semantic((p) => { p.fields[1]!.min = 60; }), /field "Size": min \(60\) is greater than max \(50\)/);
  assert.match(semantic((p) => { p.fields[1]!.type = 'integer'; p.fields[1]!.max = 2.5; }), /field "Size": max of an integer field must be a whole number/);
  assert.match(semantic((p) => { p.statuses[1]!.publicId = 'x'; p.statuses[2]!.publicId = 'x'; }), /two statuses have the publicId "x"/);
});

test('every refusal names the line and column of what makes it: references, keys, fields, statuses, templates', () => {
  const text = [
    'customId: PV',
    'name: Small PV',
    'numberPrefix: PV',
    'customLists:',
    '  - customId: Makes',
    '    name: Makes',
    '    choices: [SMA, ENP, SMA]',
    'fields:',
    '  - customId: Size',
    '    name: Size',
    '    type: number',
    '  - customId: Size',
    '    name: Other size',
    '    type: text',
    '    min: 1',
    'statuses:',
    '  - customId: Draft',
    '    name: Draft',
    '    initial: true',
    '    next: [Review, Gone]',
    '  - customId: Review',
    '    name: In review',
    'forms:',
    '  - customId: Apply',
    '    name: Application',
    '    availableIn: [Draft]',
    '    fields:',
    '      - Size',
    '      - Ghost',
    'notifications:',
    '  statusChanged:',
    '    subject: Now {{status}}',
    '    text: |',
    '      Hello,',
    '        see {{link}} or {{lnk}}.',
  ].join('\n');
  const message = problemsOf(() => resolveProgramFile(parseProgramFile(text, 'yaml', 'p.yaml'), programCheckers(), 'p.yaml'));
  assert.deepEqual(message.split('\n').slice(1).map((l) => l.replace(/; use .*/, '')), [
    '  - two fields have the customId "Size" (line 12, column 15)',
    '  - custom list "Makes" (line 7, column 25): the choice "SMA" appears twice',
    '  - field "Size" (line 15, column 10): min and max apply to number and integer fields only (type is text)',
    '  - status "Draft" (line 20, column 20): next: no status has the customId or name "Gone"',
    '  - form "Apply" (line 29, column 9): fields: no field has the customId or name "Ghost"',
    '  - status "Draft" (line 18, column 11): the initial status must be named "Unsubmitted"',
    // In a block (|) text, the placeholder's own line, and its column counting the block's indentation.
    '  - notifications.statusChanged.text (line 35, column 25): unknown placeholder "{{lnk}}"',
  ]);
});

test('a cycle of formulas and a calculated field placed as required name their line and column', () => {
  const text = [
    'customId: PV',
    'name: Small PV',
    'numberPrefix: PV',
    'fields:',
    '  - customId: Size',
    '    name: Size',
    '    type: number',
    '  - customId: A',
    '    name: A',
    '    type: calculated',
    '    resultType: number',
    '    formula: B + 1.0',
    '  - customId: B',
    '    name: B',
    '    type: calculated',
    '    resultType: number',
    '    formula: A * 2.0',
    'statuses:',
    '  - customId: Unsubmitted',
    '    name: Unsubmitted',
    '    initial: true',
    'forms:',
    '  - customId: Apply',
    '    name: Application',
    '    availableIn: [Unsubmitted]',
    '    fields:',
    '      - Size',
    '      - { field: A, required: true }',
  ].join('\n');
  const message = problemsOf(() => resolveProgramFile(parseProgramFile(text, 'yaml', 'p.yaml'), programCheckers(), 'p.yaml'));
  assert.deepEqual(message.split('\n').slice(1), [
    '  - field "A" (line 12, column 14): formula: calculated fields "A" -> "B" -> "A" need each other\'s values: a formula cannot depend on itself',
    '  - form "Apply": field "A" (line 28, column 31): a calculated field is never filled in, so it cannot be required or read-only',
  ]);
});

test('a problem of a rule written as a block (|) is placed at its own line and column of the file', () => {
  const text = [
    'customId: PV',
    'name: Small PV',
    'numberPrefix: PV',
    'fields:',
    '  - { customId: Size, name: Size, type: number }',
    '  - customId: Half',
    '    name: Half',
    '    type: calculated',
    '    resultType: number',
    '    formula: |',
    '      Size > 1.0',
    '        ? Sise / 2.0',
    '        : 0.0',
    'statuses:',
    '  - { customId: Unsubmitted, name: Unsubmitted, initial: true }',
  ].join('\n');
  const message = problemsOf(() => resolveProgramFile(parseProgramFile(text, 'yaml', 'p.yaml'), programCheckers(), 'p.yaml'));
  assert.deepEqual(message.split('\n').slice(1), ['  - field "Half": formula (line 12, column 11): unknown name "Sise" (did you mean "Size"?)']);
});

test('schema problems name their line and column: an unknown key at the key, a missing one at its object', () => {
  const text = [
    'customId: PV',
    'name: Small PV',
    'numberPrefix: pv',
    'colour: red',
    'fields:',
    '  - customId: Size',
    '    type: number',
    'statuses:',
    '  - customId: Unsubmitted',
    '    name: Unsubmitted',
    '    initial: true',
    'automations:',
    '  - customId: x',
    '    name: X',
    '    when: { trigger: deadline.whenever }',
    '    then:',
    '      - do: explode',
  ].join('\n');
  const message = problemsOf(() => parseProgramFile(text, 'yaml', 'p.yaml'));
  assert.deepEqual(message.split('\n').slice(1).map((l) => l.replace(/: must be one of .*/, ': must be one of …')), [
    '  - (top level) (line 4, column 1): unknown property "colour"',
    '  - numberPrefix (line 3, column 15): must be 1 to 16 upper-case letters or digits',
    '  - fields[0] ("Size") (line 6, column 5): missing required property "name"',
    '  - automations[0].when.trigger ("x") (line 15, column 22): must be one of …',
    '  - automations[0].then[0].do ("x") (line 17, column 13): must be one of …',
  ]);
  // A JSON file's problems are placed the same way.
  const json = JSON.stringify({ customId: 'PV', name: 'X', numberPrefix: 'PV', statuses: [{ name: 'Unsubmitted', initial: true, extra: 1 }] }, null, 2);
  assert.match(problemsOf(() => parseProgramFile(json, 'json', 'p.json')), /statuses\[0\] \("Unsubmitted"\) \(line 9, column 7\): unknown property "extra"$/);
  assert.match(problemsOf(() => parseProgramFile('{"customId": "PV",\n  "name": 1 ,', 'json', 'p.json')), /not valid JSON \(line 2, column 13\): /);
  // A placeholder in a JSON text is placed at its column, its escapes ("\n", "\u00e9") counted as written.
  const mail = { customId: 'PV', name: 'X', numberPrefix: 'PV', statuses: [{ name: 'Unsubmitted', initial: true, mailTemplate: { subject: 's', text: 'Hello,\n\u00e9 {{nope}}' } }] };
  const escaped = JSON.stringify(mail, null, 2).replace('\u00e9', '\\u00e9');
  assert.equal(escaped.split('\n')[10], '        "text": "Hello,\\n\\u00e9 {{nope}}"');
  assert.match(problemsOf(() => resolveProgramFile(parseProgramFile(escaped, 'json', 'p.json'), programCheckers())), /status "Unsubmitted": mailTemplate\.text \(line 11, column 33\): unknown placeholder "\{\{nope\}\}"/);
});

test('all semantic problems are reported together', () => {
  const message = semantic((p) => {
    p.fields[2]!.list = 'Nope';
    p.statuses[0]!.initial = false;
  });
  assert.match(message, /\(2 problems\):\n {2}- /);
});

test('notification templates: unknown placeholders and unknown kinds are refused with their path', () => {
  const message = semantic((p) => {
    (p as Record<string, unknown>).notifications = { statusChanged: { subject: 'Now {{ status }}', text: 'Hi {{applicantName}}, see {{link}}' } };
  });
  assert.match(message, /notifications\.statusChanged\.text: unknown placeholder "\{\{applicantName\}\}"/);
  assert.doesNotMatch(message, /subject/);
  const schema = problemsOf(() => validateProgramFile({ ...sampleProgram(), notifications: { reminder: { subject: 'x', text: 'y' }, question: { subject: 'x' } } }));
  assert.match(schema, /unknown property "reminder"/);
  assert.match(schema, /notifications\.question: missing required property "text"/);
});

test('rules and formulas are compiled at import; each bad expression is named with its YAML line and column', () => {
  const program = sampleProgram();
  program.fields.push({ customId: 'Ratio', name: 'Ratio', type: 'calculated', resultType: 'number', formula: 'Size / 2' });
  program.forms[0]!.fields = [
    { field: 'Customer', required: true },
    { field: 'System size', visibleIf: 'Make == "SMA"', validations: [{ rule: 'Size > "1"', message: 'Too small.' }] },
    { field: 'Make', requiredIf: 'Sise > 3.0' },
    { field: 'Account', readOnlyIf: 'project.status != "Unsubmitted" &&' },
    'Ratio',
  ];
  const text = stringify(program);
  const problems = problemsOf(() => resolveProgramFile(parseProgramFile(text, 'yaml', 'bad.yaml'), programCheckers(), 'bad.yaml'));
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const columnOf = (needle: string, inner: string) => text.split('\n')[lineOf(needle) - 1]!.indexOf(inner) + 1;
  assert.match(problems, /bad\.yaml is not a valid program \(4 problems\)/);
  // CEL never mixes int and double by itself: Size / 2 is refused before it could fail on every save.
  assert.ok(problems.includes(`field "Ratio": formula (line ${lineOf('formula: Size / 2')}, column ${columnOf('formula: Size / 2', '/')}): / cannot combine an int and a double`), problems);
  assert.ok(problems.includes(`form "Apply": field "Size": validations[0] (line ${lineOf('rule: Size >')}, column ${columnOf('rule: Size >', '>')}): a double cannot be compared with a string`), problems);
  assert.ok(problems.includes(`form "Apply": field "Make": requiredIf (line ${lineOf('Sise')}, column ${columnOf('Sise', 'Sise')}): unknown name "Sise" (did you mean "Size"?)`), problems);
  assert.match(problems, new RegExp(`form "Apply": field "Account": readOnlyIf \\(line ${lineOf('readOnlyIf')}, column \\d+\\): syntax error`));
  // The same program with good rules imports.
  program.fields[5] = { customId: 'Ratio', name: 'Ratio', type: 'calculated', resultType: 'number', formula: 'Size / 2.0' };
  program.forms[0]!.fields = [{ field: 'System size', visibleIf: 'Make == "SMA"', validations: [{ rule: 'Size > 1.0', message: 'Too small.' }] }, 'Make', 'Ratio'];
  assert.doesNotThrow(() => resolveProgramFile(parseProgramFile(stringify(program), 'yaml', 'good.yaml'), programCheckers(), 'good.yaml'));
});

test('a rule that may cost more than the limit, nests too deeply or holds an int beyond 64 bits is refused with its line, column and cost', () => {
  const program = sampleProgram();
  program.fields.push({ customId: 'Units', name: 'Units', type: 'table', columns: [{ customId: 'Sn', type: 'text', maxLength: 20 }, { customId: 'Qty', type: 'integer' }] });
  program.forms[1]!.fields = [
    { field: 'Serials', validations: [{ rule: 'Serials.all(s, s.size() >= 4)', message: 'At least 4 characters.' }] },
    { field: 'Units', validations: [{ rule: 'Units.all(a, Units.exists_one(b, b.Sn == a.Sn))', message: 'Each serial once.' }] },
    { field: 'Customer', visibleIf: `${'('.repeat(33)}true${')'.repeat(33)}` },
  ];
  program.forms[0]!.fields = [{ field: 'System size', validations: [{ rule: 'int(Size) < 99999999999999999999', message: 'x' }] }];
  const text = stringify(program);
  const problems = problemsOf(() => resolveProgramFile(parseProgramFile(text, 'yaml', 'costly.yaml'), programCheckers(), 'costly.yaml'));
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const columnOf = (needle: string, inner: string) => text.split('\n')[lineOf(needle) - 1]!.indexOf(inner) + 1;
  assert.match(problems, /costly\.yaml is not a valid program \(4 problems\)/);
  // 1,000 texts of up to 10,000 characters (no maxLength), each counted code point by code point: two million units.
  assert.match(problems, new RegExp(`form "Finish": field "Serials": validations\\[0\\] \\(line ${lineOf('Serials.all')}, column ${columnOf('Serials.all', 'Serials.all')}\\): costs up to 2010\\d+ units with the fields at their declared limits, more than the 100000 a rule may cost`));
  // Unique serials across 1,000 rows: a million comparisons.
  assert.match(problems, new RegExp(`form "Finish": field "Units": validations\\[0\\] \\(line ${lineOf('Units.all')}, column ${columnOf('Units.all', 'Units.all')}\\): costs up to 1[0-9]{7} units`));
  assert.ok(problems.includes(`form "Finish": field "Customer": visibleIf (line ${lineOf('visibleIf')}, column ${columnOf('visibleIf', '(') + 32}): brackets are nested more than 32 deep`), problems);
  assert.ok(problems.includes(`form "Apply": field "Size": validations[0] (line ${lineOf('99999999999999999999')}, column ${columnOf('99999999999999999999', '99999999999999999999')}): the int 99999999999999999999 is outside the 64-bit range CEL ints have (-9223372036854775808 to 9223372036854775807)`), problems);
  // Declared limits make the same rules cheap enough: 40-character serials, 50 rows.
  program.fields[4] = { ...program.fields[4], maxLength: 40 };
  program.fields[5] = { ...program.fields[5], maxRows: 50 };
  program.forms[1]!.fields = (program.forms[1]!.fields as unknown[]).slice(0, 2);
  program.forms[0]!.fields = ['System size'];
  assert.doesNotThrow(() => resolveProgramFile(parseProgramFile(stringify(program), 'yaml', 'bounded.yaml'), programCheckers(), 'bounded.yaml'));
  // Each rule within the limit, but 30 of them on one form: one save would run them all.
  const unique = { rule: 'Units.all(a, Units.exists_one(b, b.Sn == a.Sn))', message: 'Each serial once.' };
  program.forms[1]!.fields = ['Serials', { field: 'Units', validations: Array.from({ length: 30 }, () => unique) }];
  const many = stringify(program);
  const total = problemsOf(() => resolveProgramFile(parseProgramFile(many, 'yaml', 'many.yaml'), programCheckers(), 'many.yaml'));
  const formLine = many.split('\n').findIndex((l) => l.includes('customId: Finish')) + 1;
  assert.match(total, new RegExp(`form "Finish" \\(line ${formLine}, column 5\\): its rules and the program's formulas cost up to 11\\d{5} units together, more than the 1000000 one save may cost`));
});

test('calculated fields: formula and resultType go together, and formulas may not need each other', () => {
  const program = sampleProgram();
  program.fields.push({ customId: 'A', name: 'A', type: 'calculated', resultType: 'number' });
  assert.match(problemsOf(() => validateProgramFile(program)), /fields\[5\] \("A"\): missing required property "formula"/);
  program.fields[5] = { customId: 'A', name: 'A', type: 'number', formula: 'Size' };
  assert.match(problemsOf(() => validateProgramFile(program)), /fields\[5\]\.formula \("A"\): only calculated fields have this property/);
  program.fields[5] = { customId: 'A', name: 'A', type: 'calculated', resultType: 'number', formula: 'B + 1.0' };
  program.fields.push({ customId: 'B', name: 'B', type: 'calculated', resultType: 'number', formula: 'A * 2.0' });
  assert.match(semantic((p) => Object.assign(p, { fields: program.fields })), /calculated fields "A" -> "B" -> "A" need each other's values/);
});
