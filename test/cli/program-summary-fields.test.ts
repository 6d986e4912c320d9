import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';
import { sampleProgram } from './sample-program.ts';

// A program file's summary fields (`summary: true`) and withdrawal status (`withdrawal: true`): imported, exported
// back, reported by the import's diff when they change, and refused where they make no sense.

const scope = importScope('summary', 'SU');

function marked(summary = true, withdrawal = true) {
  const program = sampleProgram();
  program.fields = program.fields.map((f) => (f.customId === 'Customer' && summary ? { ...f, summary: true } : f));
  program.statuses = [
    ...program.statuses.map((s) => (s.customId === 'Review' ? { ...s, next: ['Approved', 'Rejected', 'Withdrawn'] } : s)),
    { customId: 'Withdrawn', name: 'Withdrawn', ...(withdrawal ? { withdrawal: true } : {}) },
  ];
  return program;
}

test('summary fields and the withdrawal status are imported, exported, round-trip unchanged, and diffed', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(marked()));
  const program = await scope.env.store.programs.findProgram(first.programId);
  const model = await scope.env.store.programs.loadProgramModel(program!);
  assert.equal(model.fields.find((f) => f.customId === 'Customer')?.summary, true);
  assert.equal(model.fields.find((f) => f.customId === 'Size')?.summary, undefined, 'other fields carry no key');
  assert.equal(model.statuses.find((s) => s.customId === 'Withdrawn')?.withdrawal, true);
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(exported, format);
    assert.match(text, /summary/);
    assert.match(text, /withdrawal/);
    const again = await importProgram(scope.env, scope.agency, parseProgramFile(text, format));
    assert.deepEqual(again.changes.map(describeChange), [], `${format}: importing the export changes nothing`);
  }
  const unmarked = await importProgram(scope.env, scope.agency, validateProgramFile(marked(false, false)));
  const lines = unmarked.changes.map(describeChange);
  assert.ok(lines.some((l) => /field Customer/.test(l) && /summary/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /status Withdrawn/.test(l) && /withdrawal/.test(l)), lines.join('\n'));
});

test('a sensitive or table field cannot be a summary field, nor the initial status a withdrawal status', async () => {
  const program = marked();
  program.fields = program.fields.map((f) => (f.customId === 'Account' ? { ...f, summary: true } : f));
  program.statuses = program.statuses.map((s) => (s.customId === 'Unsubmitted' ? { ...s, withdrawal: true } : s));
  const yaml = stringify(program);
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  assert.ok(problems.includes(`field "Account" (${at('summary: true', 1, 'true')}): a sensitive field cannot be a summary field (My projects would show it)`), problems.join('\n'));
  assert.ok(problems.includes(`status "Unsubmitted" (${at('withdrawal: true', 0, 'true')}): the initial status cannot be a withdrawal status`), problems.join('\n'));
  const typo = await refusedImport(scope, stringify({ ...marked(), fields: [{ customId: 'X', name: 'X', type: 'text', summary: 'yes' }] }));
  assert.ok(typo.some((p) => /summary \("X"\) \(line \d+, column \d+\): must be boolean/.test(p)), typo.join('\n'));
});
