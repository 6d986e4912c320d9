import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileRule, type CompiledRule } from '../../src/domain/rules/compile-rule.ts';
import { calculatedText as textOf } from '../../src/domain/rules/form-rules.ts';
import { dateValue } from '../../src/domain/rules/rule-functions.ts';
import type { DataField } from '../../src/model/model.ts';
import { ruleShapes, ruleVariables, type ScopeField } from '../../src/domain/rules/rule-scope.ts';
import { RULE_COST_LIMIT } from '../../src/domain/rules/rule-limits.ts';
import { T, type RuleType } from '../../src/domain/rules/rule-types.ts';

// A small program's variables: one field of each type a rule can see.
const FIELDS: ScopeField[] = [
  { customId: 'SizeDc', type: 'number', multiValue: false },
  { customId: 'SizeAc', type: 'number', multiValue: false },
  { customId: 'Modules', type: 'integer', multiValue: false },
  { customId: 'HasBattery', type: 'boolean', multiValue: false },
  { customId: 'Installed', type: 'date', multiValue: false },
  { customId: 'Make', type: 'choice', multiValue: false },
  { customId: 'Serials', type: 'text', multiValue: true, maxLength: 40 },
  { customId: 'Notes', type: 'text', multiValue: false },
  { customId: 'has space', type: 'text', multiValue: false },
  { customId: 'Rows', type: 'table', multiValue: false, table: { columns: [{ customId: 'Sn', type: 'text', maxLength: 20 }, { customId: 'Q', type: 'integer' }] } },
  { customId: 'FewRows', type: 'table', multiValue: false, table: { maxRows: 50, columns: [{ customId: 'Sn', type: 'text', maxLength: 20 }] } },
];
const VARS = ruleVariables(FIELDS);
const SHAPES = ruleShapes(FIELDS);

function compiled(source: string, want: RuleType = T.bool): CompiledRule {
  const result = compileRule(source, VARS, want, { shapes: SHAPES });
  assert.ok('rule' in result, `${source}: ${JSON.stringify('problems' in result ? result.problems : null)}`);
  return result.rule;
}

function problems(source: string, want: RuleType = T.bool): string[] {
  const result = compileRule(source, VARS, want, { shapes: SHAPES });
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
  const fields: ScopeField[] = [
    { customId: 'SizeAc', type: 'number', multiValue: false },
    {
      customId: 'Inverters', type: 'table', multiValue: false,
      table: { columns: [{ customId: 'Make', type: 'choice' }, { customId: 'Quantity', type: 'integer' }, { customId: 'RatedKwAc', type: 'number' }] },
    },
  ];
  const vars = ruleVariables(fields);
  const run = (source: string, bindings: Record<string, unknown>) => {
    const result = compileRule(source, vars, T.bool, { shapes: ruleShapes(fields) });
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

const rows = (n: number) => Array.from({ length: n }, (_, i) => new Map<string, unknown>([['Sn', `SN${i}`], ['Q', BigInt(i)]]));

test('a rule that may cost more than the limit is refused at import, with its estimated cost', () => {
  // Serial numbers unique across 1,000 rows: a million comparisons.
  const [serials] = problems('Rows.all(a, Rows.exists_one(b, b.Sn == a.Sn))');
  assert.match(serials!, /^1:1 costs up to \d+ units with the fields at their declared limits, more than the 100000 a rule may cost/);
  assert.ok(Number(/up to (\d+)/.exec(serials!)![1]) > 10_000_000);
  // Over a table of at most 50 rows it is cheap enough, and a sum over 1,000 rows is too.
  assert.ok(compiled('FewRows.all(a, FewRows.exists_one(b, b.Sn == a.Sn))').estimatedCost <= RULE_COST_LIMIT);
  assert.ok(compiled('Rows.map(r, r.Q).sum() > 0', T.bool).estimatedCost <= RULE_COST_LIMIT);
  // Eight nested comprehensions over short lists multiply past any budget.
  const nested = `${'Serials.all(a, '.repeat(8)}true${')'.repeat(8)}`;
  assert.match(problems(nested)[0]!, /costs up to more than 10\^15 units/);
  // Declared lengths count: size() over 1,000 texts of 10,000 characters steps through ten million of them.
  assert.match(problems('Serials.all(s, size(s) >= 4) && size(Notes) > 0 && [Notes].all(n, Serials.all(s, n.contains(s)))')[0]!, /costs up to/);
});

test('a rule that costs more than the limit as it runs stops and refuses, naming the rule', () => {
  // Imported under a smaller limit (a program version that declared fewer rows than the values hold), or stored before limits.
  const result = compileRule('Rows.all(a, Rows.exists_one(b, b.Sn == a.Sn))', VARS, T.bool, { shapes: SHAPES, stored: true });
  assert.ok('rule' in result);
  assert.equal(result.rule.evaluate({ Rows: rows(20) as never }), true);
  const started = performance.now();
  assert.throws(() => result.rule.evaluate({ Rows: rows(1000) as never }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'VALIDATION_FAILED');
    assert.match(e.message, /^The rule "Rows\.all\(a, Rows\.exists_one\(b, b\.Sn == a\.Sn\)\)" costs more than the 100000 units a rule may cost/);
    return true;
  });
  // It stopped at the limit, well before the million rounds.
  assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
  // The meter starts again with each evaluation.
  assert.equal(result.rule.evaluate({ Rows: rows(20) as never }), true);
  // The estimate bounds the count: a rule accepted at import runs to its end on values at their declared limits.
  const full = Array.from({ length: 50 }, (_, i) => new Map<string, unknown>([['Sn', String(i).padStart(20, 'x')]]));
  assert.equal(compiled('FewRows.all(a, FewRows.exists_one(b, b.Sn == a.Sn))').evaluate({ FewRows: full as never }), true);
  const serials = Array.from({ length: 1000 }, (_, i) => String(i).padStart(40, 'x'));
  assert.equal(compiled('Serials.all(s, size(s) >= 4 && !(s in ["x", "y"]) && s.endsWith("9") == s.endsWith("9"))').evaluate({ Serials: serials }), true);
});

test('map and filter build their lists in linear time, and lists still join and compare as lists', () => {
  const sum = compiled('Rows.map(r, r.Q).sum()', T.int);
  assert.equal(sum.evaluate({ Rows: rows(1000) as never }), 499500n);
  assert.equal(compiled('Rows.filter(r, r.Q % 2n == 0).map(r, r.Q).sum()'.replace('2n', '2'), T.int).evaluate({ Rows: rows(10) as never }), 20n);
  const joined = compiled('Rows.map(r, r.Q) + [7] == [0, 1, 7] && size(Rows.map(r, r.Q)) == 2 && 1 in Rows.map(r, r.Q)');
  assert.equal(joined.evaluate({ Rows: rows(2) as never }), true);
  // A list grown in place does not change the list it grew from.
  assert.equal(compiled('[Rows.map(r, r.Q) + [5], Rows.map(r, r.Q) + [6]] == [[0, 5], [0, 6]]').evaluate({ Rows: rows(1) as never }), true);
});

test('deep nesting is refused with a clear message, not a stack overflow', () => {
  assert.deepEqual(problems(`${'('.repeat(40)}SizeDc${')'.repeat(40)} > 1.0`), ['1:33 brackets are nested more than 32 deep']);
  assert.deepEqual(problems(`${'('.repeat(1990)}SizeDc${')'.repeat(1990)} > 1.0`), ['1:33 brackets are nested more than 32 deep']);
  // Brackets inside a string are text.
  compiled(`Make == "${'('.repeat(40)}"`);
  const chain = problems(`${Array(300).fill('Modules').join(' + ')} > 0`);
  assert.equal(chain.length, 1);
  assert.match(chain[0]!, /^1:\d+ the expression nests more than 100 levels deep: split it up$/);
  // And an expression is at most 4,000 characters, whatever part of a program it is (automation conditions too).
  assert.deepEqual(problems(`${Array(1000).fill('Modules').join(' + ')} > 0`), ['1:1 is 10001 characters long; an expression may have at most 4000']);
});

test('int literals beyond 64 bits are refused at their column', () => {
  assert.deepEqual(problems('Modules < 99999999999999999999'), ['1:11 the int 99999999999999999999 is outside the 64-bit range CEL ints have (-9223372036854775808 to 9223372036854775807)']);
  compiled('Modules < 9223372036854775807 && Modules > -9223372036854775808');
  assert.match(problems('Modules < 0x1FFFFFFFFFFFFFFFF')[0]!, /^1:11 the int 36893488147419103231 is outside/);
  assert.match(problems('SizeDc < 1e400')[0]!, /^1:10 this double is too large/);
});

test('a calculated value that does not fit its field is stored empty: too long, not finite, or an integer beyond 2^53', () => {
  const field = (type: string, maxLength: number | null = null) => ({ type, maxLength }) as unknown as DataField;
  assert.equal(textOf(field('text', 5), 'abcde'), 'abcde');
  assert.equal(textOf(field('text', 5), 'abcdef'), null);
  // Length in characters, as a typed value's: five emoji are five characters.
  assert.equal(textOf(field('text', 5), '😀😀😀😀😀'), '😀😀😀😀😀');
  assert.equal(textOf(field('text'), 'x'.repeat(10_000)), 'x'.repeat(10_000));
  assert.equal(textOf(field('text'), 'x'.repeat(10_001)), null);
  assert.equal(textOf(field('text', 100_000), 'x'.repeat(131_072)), null);
  assert.equal(textOf(field('number'), Number.POSITIVE_INFINITY), null);
  assert.equal(textOf(field('number'), Number.NaN), null);
  assert.equal(textOf(field('integer'), 1e300), null);
  assert.equal(textOf(field('integer'), 2 ** 53 + 2), null);
  assert.equal(textOf(field('integer'), 41.9), '41');
  // A formula that doubles a text in each of a chain of fields ends empty once it outgrows them, never megabytes.
  const doubled = compiled('Notes + Notes + Notes + Notes', T.string).evaluate({ Notes: 'x'.repeat(4_000) });
  assert.equal(textOf(field('text'), doubled), null);
});
