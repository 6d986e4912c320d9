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

test('field rules read a related project\'s values, type-checked against its program: unknown, sensitive, mistyped and formula reads are refused with their lines', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(sampleProgram()));
  const claim = (rules: string[], formula = 'ClaimKw * 1.0') => `customId: CL
name: Claim
numberPrefix: CL
fields:
  - { customId: ClaimKw, name: Claim kW, type: number }
  - { customId: Doubled, name: Doubled, type: calculated, resultType: number, formula: "${formula}" }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Done] }
  - { customId: Done, name: Done }
forms:
  - customId: Claim
    name: Claim
    availableIn: [Unsubmitted]
    leadsTo: Done
    fields:
      - field: ClaimKw
        validations:
${rules.map((r) => `          - { rule: "${r}", message: "No." }`).join('\n')}
relations:
  - { customId: pv, kind: parent, program: PV }
  - { customId: later, kind: parent, program: LATER }
`;
  const good = claim([
    'ClaimKw <= related.pv.values.Size && related.pv.values.Make != \'\' && size(related.pv.values.Serials) >= 0',
    // Customer has a maxLength of 100 in PV, so this loop is costed with it, not with any text's 10,000 characters.
    'related.pv.values.Serials.all(s, !related.pv.values.Customer.contains(\'x\'))',
  ]);
  const report = await importProgram(scope.env, scope.agency, parseProgramFile(good), { dryRun: true });
  assert.ok(report.changes.map(describeChange).includes('created program CL'));
  const text = claim([
    'ClaimKw <= related.pv.values.Sise',
    'related.pv.values.Account != \'\'',
    'related.pv.values.Customer > 1.0',
    'related.later.values.X == 1',
    'related.pv.values.Serials.all(s, related.pv.values.Serials.all(t, s + t != \'\'))',
  ], 'related.pv.values.Size * 2.0');
  const at = placeOf(text);
  const problems = await refusedImport(scope, text);
  assert.ok(problems.includes(`form "Claim": field "ClaimKw": validations[0] (${at('values.Sise', 0, '.Sise')}): record of program PV's fields (sensitive fields are never read) has no member "Sise" (did you mean "Size"?)`), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('form "Claim": field "ClaimKw": validations[1] (line') && p.includes('has no member "Account"')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('form "Claim": field "ClaimKw": validations[2]') && /string.*double|double.*string/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('form "Claim": field "ClaimKw": validations[3]') && p.includes('record of program LATER\'s fields (none: the agency has no program LATER yet; import it first) has no member "X"')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('field "Doubled": formula') && p.includes('related project has no member "values"')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('form "Claim": field "ClaimKw": validations[4]') && /costs up to \d+ units with the fields at their declared limits, more than the 100000/.test(p)), problems.join('\n'));
});
