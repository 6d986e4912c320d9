import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's relations (docs/programs.md, "Related projects"): stored with the program (its own fields as ids),
// exported back as written, reported by the import's diff, and refused with the YAML line of each problem.

const scope = importScope('relations', 'AR');

function withRelations(relations: Record<string, unknown>[] = [
  { customId: 'claim', name: 'Incentive claim', kind: 'child', program: 'CLAIM', copy: { ClaimCustomer: 'Customer', ClaimKw: 'System size' } },
  { customId: 'next', kind: 'successor', program: 'PV' },
]) {
  return { ...sampleProgram(), relations };
}

test('relations are stored, exported back as written, and a second import changes nothing', async () => {
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withRelations()));
  assert.ok(report.changes.map(describeChange).includes('created program PV'));
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.relations, [
    { customId: 'claim', name: 'Incentive claim', kind: 'child', program: 'CLAIM', copy: [{ to: 'ClaimCustomer', from: 'Customer' }, { to: 'ClaimKw', from: 'Size' }] },
    { customId: 'next', name: 'next', kind: 'successor', program: 'PV', copy: [] },
  ]);
  const text = formatProgramFile(exported, 'yaml');
  assert.match(text, /relations:\n {2}- customId: claim\n/);
  assert.match(text, /copy: \{ ClaimCustomer: Customer, ClaimKw: Size \}/);
  const again = await importProgram(scope.env, scope.agency, parseProgramFile(text));
  assert.deepEqual(again.changes, []);
  const changed = await importProgram(scope.env, scope.agency, validateProgramFile(withRelations([])), { dryRun: true });
  assert.deepEqual(changed.changes.map(describeChange), ['updated program PV (relations)']);
});

test('a duplicate customId, an unknown, sensitive or table field to copy, and an action naming no relation are refused with their lines', async () => {
  const file = withRelations([
    { customId: 'claim', kind: 'child', program: 'CLAIM', copy: { A: 'Nothing', B: 'Account' } },
    { customId: 'claim', kind: 'link', program: 'CLAIM' },
  ]);
  const text = `${stringify(file)}automations:
  - customId: make
    name: Make
    when: { trigger: status.entered, status: Approved }
    then: [{ do: createRelatedProject, relation: nope }]
`;
  const at = placeOf(text);
  const problems = await refusedImport(scope, text);
  assert.ok(problems.some((p) => p.startsWith('automation "make"') && p.includes('relation: the program has no relation "nope"; its relations are claim, claim')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith(`relation "claim" (${at('customId: claim', 0)}): copy A:`) && p.includes('"Nothing"')), problems.join('\n'));
  assert.ok(problems.includes(`relation "claim" (${at('customId: claim', 0)}): copy B: the field "Account" is sensitive; a sensitive value is not copied into another project`), problems.join('\n'));
  assert.ok(problems.includes(`relation "claim" (${at('customId: claim', 1)}): another relation has the customId "claim"`), problems.join('\n'));
});

test('the schema refuses an unknown kind and a relation without a program', () => {
  assert.throws(() => validateProgramFile(withRelations([{ customId: 'x', kind: 'sibling', program: 'P' }, { customId: 'y', kind: 'link' }])), (e: unknown) => {
    const message = (e as Error).message;
    assert.match(message, /relations\[0\]\.kind \("x"\): must be one of child, successor, link/);
    assert.match(message, /relations\[1\] \("y"\): missing required property "program"/);
    return true;
  });
});
