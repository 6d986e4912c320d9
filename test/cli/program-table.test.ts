import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { resolveProgramFile } from '../../src/domain/programs/program-check.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { type TestEnv, testEnv } from './test-store.ts';

// Table fields in program files (docs/programs.md, "Table fields"): the schema and the checks refuse a bad table
// naming the field and the column; an import stores the columns, an export gives them back, and the round trip
// changes nothing.

/** The sample program with a table field `Inverters` (changed by `change`) on its application form. */
function withTable(change: (table: Record<string, unknown>) => void = () => {}) {
  const program = sampleProgram();
  const table: Record<string, unknown> = {
    customId: 'Inverters', name: 'Inverters', type: 'table', maxRows: 5,
    columns: [
      { customId: 'Make', name: 'Manufacturer', type: 'choice', list: 'Makes', required: true },
      { customId: 'Quantity', type: 'integer', min: 1, max: 50 },
      { customId: 'Rating', name: 'Rating (kW)', type: 'number', min: 0.1 },
    ],
  };
  change(table);
  program.fields.push(table);
  (program.forms[0]!.fields as unknown[]).push('Inverters');
  return program;
}

function problemsOf(program: Record<string, unknown>): string {
  try {
    resolveProgramFile(validateProgramFile(program, 'test.yaml'), programCheckers(), 'test.yaml');
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.code, 'INVALID_REQUEST');
    return error.message;
  }
  assert.fail('expected the program file to be refused');
}

const columns = (t: Record<string, unknown>) => t.columns as Record<string, unknown>[];

test('a table field is read with its columns, defaults filled in', () => {
  const file = validateProgramFile(withTable());
  const table = file.fields.find((f) => f.customId === 'Inverters')!.table!;
  assert.deepEqual(table.columns[1], { customId: 'Quantity', name: 'Quantity', type: 'integer', list: null, required: false, maxLength: null, min: 1, max: 50 });
  assert.equal(table.minRows, null);
  assert.equal(table.maxRows, 5);
  assert.doesNotThrow(() => resolveProgramFile(file, programCheckers()));
});

test('a bad column is refused naming the field and the column', () => {
  assert.match(problemsOf(withTable((t) => { columns(t)[0]!.list = 'Nope'; })), /field "Inverters": column "Make": list: no custom list has the customId or name "Nope"/);
  assert.match(problemsOf(withTable((t) => { delete columns(t)[0]!.list; })), /field "Inverters": column "Make": a choice column needs a list/);
  assert.match(problemsOf(withTable((t) => { columns(t)[1]!.maxLength = 5; })), /column "Quantity": maxLength applies to text columns only \(type is integer\)/);
  assert.match(problemsOf(withTable((t) => { columns(t)[1]!.min = 1.5; })), /column "Quantity": min of an integer column must be a whole number/);
  assert.match(problemsOf(withTable((t) => { columns(t)[2]!.max = 0; })), /column "Rating": min \(0.1\) is greater than max \(0\)/);
  assert.match(problemsOf(withTable((t) => { columns(t)[2]!.customId = 'Make'; })), /field "Inverters": two columns have the customId "Make"/);
  assert.match(problemsOf(withTable((t) => { columns(t)[2]!.name = 'Manufacturer'; })), /field "Inverters": two columns have the name "Manufacturer"/);
  // The schema's own checks name the column by its path and customId.
  assert.match(problemsOf(withTable((t) => { columns(t)[1]!.type = 'table'; })), /fields\[5\]\.columns\[1\]\.type \("Quantity"\): must be one of text, number, integer, boolean, date, choice$/m);
  assert.match(problemsOf(withTable((t) => { columns(t)[1]!.colour = 'red'; })), /fields\[5\]\.columns\[1\] \("Quantity"\): unknown property "colour"/);
  assert.match(problemsOf(withTable((t) => { delete columns(t)[1]!.customId; })), /fields\[5\]\.columns\[1\] \("Inverters"\): missing required property "customId"/);
});

test('a table is never multi-value nor sensitive, has columns, and only tables have columns and row limits', () => {
  assert.match(problemsOf(withTable((t) => { t.multiValue = true; })), /field "Inverters": a table field cannot be multiValue/);
  assert.match(problemsOf(withTable((t) => { t.sensitive = true; })), /field "Inverters": a table field cannot be sensitive/);
  assert.match(problemsOf(withTable((t) => { delete t.columns; })), /field "Inverters": a table field needs at least one column/);
  assert.match(problemsOf(withTable((t) => { t.minRows = 6; })), /field "Inverters": minRows \(6\) is greater than maxRows \(5\)/);
  const program = sampleProgram();
  program.fields[0]!.minRows = 1;
  assert.match(problemsOf(program), /field "Customer": columns, minRows and maxRows apply to table fields only \(type is text\)/);
});

test('every table problem names the line and column of the property that makes it', () => {
  const text = [
    'customId: PV',
    'name: Small PV',
    'numberPrefix: PV',
    'customLists:',
    '  - customId: Makes',
    '    name: Makes',
    '    choices: [SMA]',
    'fields:',
    '  - customId: Inverters',
    '    name: Inverters',
    '    type: table',
    '    multiValue: true',
    '    sensitive: true',
    '    minRows: 3',
    '    maxRows: 1',
    '    columns:',
    '      - customId: Make',
    '        type: text',
    '        list: Makes',
    '      - customId: Count',
    '        type: integer',
    '        maxLength: 4',
    '      - customId: Make',
    '        name: Model',
    '        type: choice',
    '  - customId: Name',
    '    name: Name',
    '    type: text',
    '    maxRows: 2',
    'statuses:',
    '  - customId: Unsubmitted',
    '    name: Unsubmitted',
    '    initial: true',
  ].join('\n');
  const message = (() => {
    try {
      resolveProgramFile(parseProgramFile(text, 'yaml', 'table.yaml'), programCheckers(), 'table.yaml');
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail('expected the program file to be refused');
  })();
  assert.deepEqual(message.split('\n').slice(1), [
    '  - field "Inverters" (line 12, column 17): a table field cannot be multiValue (it already holds a list of rows)',
    '  - field "Inverters" (line 13, column 16): a table field cannot be sensitive (keep sensitive data in a field of its own)',
    '  - field "Inverters" (line 14, column 14): minRows (3) is greater than maxRows (1)',
    '  - field "Inverters" (line 23, column 19): two columns have the customId "Make"',
    '  - field "Inverters": column "Make" (line 19, column 15): only choice columns have a list (type is text)',
    '  - field "Inverters": column "Count" (line 22, column 20): maxLength applies to text columns only (type is integer)',
    '  - field "Inverters": column "Make" (line 25, column 15): a choice column needs a list',
    '  - field "Name" (line 29, column 14): columns, minRows and maxRows apply to table fields only (type is text)',
  ]);
});

let env: TestEnv;
before(async () => {
  env = await testEnv();
  await env.store.transaction((tx) => tx.accounts.insertAgency({ id: 'AGTABLE00001', customId: 'tables', name: 'tables' }, 1));
});
after(async () => {
  await env.cleanup();
});

test('an import stores the columns; the export gives them back compactly and re-imports without changes; a column change is reported', async () => {
  const first = await importProgram(env, 'tables', validateProgramFile(withTable()));
  const program = await env.store.programs.findProgram(first.programId);
  const model = await env.store.programs.loadProgramModel(program!);
  const field = model.fields.find((f) => f.customId === 'Inverters')!;
  assert.equal(field.type, 'table');
  assert.equal(field.table!.columns[0]!.listId, model.lists[0]!.id, 'the choice column refers to the list by id');
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(await exportProgram(env.store, 'tables', 'PV'), format);
    if (format === 'yaml') {
      assert.match(text, /columns:/);
      assert.match(text, /\{ customId: Quantity, type: integer, min: 1, max: 50 \}/, 'defaults and a name equal to the customId are left out');
    }
    const again = await importProgram(env, 'tables', parseProgramFile(text, format));
    assert.equal(again.changed, false, again.changes.map(describeChange).join('; '));
  }
  const changed = await importProgram(env, 'tables', validateProgramFile(withTable((t) => { columns(t).push({ customId: 'Serial', type: 'text' }); })), { dryRun: true });
  assert.deepEqual(changed.changes.map(describeChange), ['updated field Inverters (table)']);
});
