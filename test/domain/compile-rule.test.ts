import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileRule, type CompiledRule } from '../../src/domain/rules/compile-rule.ts';
import { dateValue } from '../../src/domain/rules/rule-functions.ts';
import { ruleVariables } from '../../src/domain/rules/rule-scope.ts';
import { T, type RuleType } from '../../src/domain/rules/rule-types.ts';

// A small program's variables: one field of each type a rule can see.
const VARS = ruleVariables([
  { customId: 'SizeDc', type: 'number', multiValue: false },
  { customId: 'SizeAc', type: 'number', multiValue: false },
  { customId: 'Modules', type: 'integer', multiValue: false },
  { customId: 'HasBattery', type: 'boolean', multiValue: false },
  { customId: 'Installed', type: 'date', multiValue: false },
  { customId: 'Make', type: 'choice', multiValue: false },
  { customId: 'Serials', type: 'text', multiValue: true },
  { customId: 'has space', type: 'text', multiValue: false },
]);

function compiled(source: string, want: RuleType = T.bool): CompiledRule {
  const result = compileRule(source, VARS, want);
  assert.ok('rule' in result, `${source}: ${JSON.stringify('problems' in result ? result.problems : null)}`);
  return result.rule;
}

function problems(source: string, want: RuleType = T.bool): string[] {
  const result = compileRule(source, VARS, want);
  assert.ok('problems' in result, `${source} should not compile`);
  return result.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
}

test('a rule over numbers decides with values and is undecided without them', () => {
  const rule = compiled('SizeAc <= SizeDc * 1.25');
  assert.equal(rule.evaluate({ SizeAc: 7.6, SizeDc: 8.2 }), true);
  assert.equal(rule.evaluate({ SizeAc: 11, SizeDc: 8 }), false);
  assert.equal(rule.evaluate({ SizeAc: 7.6 }), undefined);
  assert.deepEqual([...rule.names].sort(), ['SizeAc', 'SizeDc']);
});

test('&& and || decide when one side settles it, even with an empty field on the other', () => {
  const rule = compiled('!HasBattery || SizeDc > 0.0');
  assert.equal(rule.evaluate({ HasBattery: false }), true);
  assert.equal(rule.evaluate({ HasBattery: true }), undefined);
  assert.equal(rule.evaluate({ HasBattery: true, SizeDc: 2 }), true);
});

test('dates, lists, project and role, and the functions apas adds', () => {
  assert.equal(compiled('Installed >= date("2026-01-01")').evaluate({ Installed: dateValue('2026-03-01') }), true);
  assert.equal(compiled('daysBetween(date("2026-01-01"), Installed)', T.int).evaluate({ Installed: dateValue('2026-01-31') }), 30n);
  assert.equal(compiled('Serials.all(s, size(s) >= 4) && size(Serials) == Modules').evaluate({ Serials: ['ABCD', 'EFGH'], Modules: 2n }), true);
  assert.equal(compiled('[1.5, 2.5].sum()', T.double).evaluate({}), 4);
  assert.equal(compiled('round(SizeDc / SizeAc, 2)', T.double).evaluate({ SizeDc: 8.2, SizeAc: 7.6 }), 1.08);
  const rule = compiled('project.status == "Unsubmitted" && role == "applicant" && "SitePlan" in project.files');
  assert.equal(rule.evaluate({ project: new Map<string, unknown>([['status', 'Unsubmitted'], ['files', ['SitePlan']]]) as never, role: 'applicant' }), true);
  assert.deepEqual([...rule.projectMembers].sort(), ['files', 'status']);
});

test('a division by zero is undecided, not an error', () => {
  assert.equal(compiled('Modules / 0 == 1').evaluate({ Modules: 3n }), undefined);
});

test('unknown names and members are refused with a suggestion, at their column', () => {
  assert.deepEqual(problems('HasBatery == true'), ['1:1 unknown name "HasBatery" (did you mean "HasBattery"?)']);
  assert.deepEqual(problems('SizeDc > 1.0 && project.stats == "x"'), ['1:24 project has no member "stats" (did you mean "status"?)']);
  // A customId that is not a CEL name cannot be a variable.
  assert.match(problems('has_space == "x"')[0]!, /unknown name "has_space"/);
});

test('type errors are refused before the rule ever runs', () => {
  assert.match(problems('Modules * 1.5 > 2.0')[0]!, /cannot combine an int and a double/);
  assert.match(problems('Make > 3')[0]!, /a string cannot be compared with a int/);
  assert.match(problems('Make == 3')[0]!, /a string is never equal to a int/);
  assert.match(problems('SizeDc + 1.0')[0]!, /must give a bool, but gives a double/);
  assert.match(problems('HasBattery && "yes"')[0]!, /must be a bool, not a string/);
  assert.match(problems('nosuch(SizeDc)')[0]!, /unknown function "nosuch"/);
  assert.match(problems('Serials.sum() > 1')[0]!, /adds up a list of ints or doubles, not a list\(string\)/);
  assert.match(problems('"SizeDc" in Make')[0]!, /needs a list or a map on its right/);
});

test('syntax errors name the line and column of the expression', () => {
  assert.deepEqual(problems('SizeDc > 1.0 &&\n  SizeAc <'), ['2:10 syntax error: found < but expecting end of input']);
});

test('a formula gives its field\'s type; numbers across types are refused', () => {
  assert.equal(compiled('SizeDc + SizeAc', T.double).evaluate({ SizeDc: 0.1, SizeAc: 0.2 }), 0.30000000000000004);
  assert.match(problems('Modules', T.double)[0]!, /must give a double, but gives a int/);
  compiled('double(Modules) * 0.4', T.double);
});

test('a table is a list of rows: rules over rows, sums over a column, and an empty cell is undecided', () => {
  const vars = ruleVariables([
    { customId: 'SizeAc', type: 'number', multiValue: false },
    {
      customId: 'Inverters', type: 'table', multiValue: false,
      table: { columns: [{ customId: 'Make', type: 'choice' }, { customId: 'Quantity', type: 'integer' }, { customId: 'RatedKwAc', type: 'number' }] },
    },
  ]);
  const run = (source: string, bindings: Record<string, unknown>) => {
    const result = compileRule(source, vars, T.bool);
    assert.ok('rule' in result, JSON.stringify(result));
    return result.rule.evaluate(bindings as never);
  };
  const rows = [new Map<string, unknown>([['Make', 'SMA'], ['Quantity', 2n], ['RatedKwAc', 3.8]]), new Map<string, unknown>([['Make', 'ENPHASE'], ['Quantity', 1n]])];
  assert.equal(run('Inverters.all(r, r.Quantity >= 1)', { Inverters: rows }), true);
  assert.equal(run('Inverters.exists(r, r.Make == "SMA") && size(Inverters) == 2', { Inverters: rows }), true);
  // The second row has no rating: the sum cannot be decided.
  assert.equal(run('Inverters.map(r, double(r.Quantity) * r.RatedKwAc).sum() <= SizeAc', { Inverters: rows, SizeAc: 7.6 }), undefined);
  assert.equal(run('Inverters.map(r, double(r.Quantity) * r.RatedKwAc).sum() <= SizeAc', { Inverters: rows.slice(0, 1), SizeAc: 7.6 }), true);
  const bad = compileRule('Inverters.all(r, r.Quantty >= 1)', vars, T.bool);
  assert.ok('problems' in bad && /a row of Inverters has no member "Quantty" \(did you mean "Quantity"\?\)/.test(bad.problems[0]!.message));
});
