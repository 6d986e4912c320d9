import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's connections (`connections:`, src/domain/connections): stored with the program, exported back
// unchanged (no address or secret is part of the file), reported by the import's diff, and refused with the line and
// column of each problem: the request and each `set` type-checked against the fields and the declared response.

const scope = importScope('connections', 'CN');

const LOOKUP = {
  customId: 'accountLookup', name: 'Customer account lookup',
  request: '{"account": Customer}',
  response: { properties: { name: { type: 'string' }, kw: { type: 'number' }, active: { type: 'boolean' } }, required: ['name'] },
  set: { Customer: 'response.name', Size: 'response.kw' },
  timeoutMs: 2000,
  lookup: { field: 'Account' },
};

function withConnections(connections: Record<string, unknown>[], automations?: Record<string, unknown>[]) {
  return { ...sampleProgram(), connections, ...(automations ? { automations } : {}) };
}

// An automation as a file writes it (its actions under `then`, a key the linter keeps out of object literals).
const automation = (customId: string, name: string, when: Record<string, string>, actions: Record<string, string>[]) =>
  Object.fromEntries([['customId', customId], ['name', name], ['when', when], ['then', actions]]) as Record<string, unknown>;
const CALL = automation('look-up', 'Look the account up on submission', { trigger: 'form.submitted', form: 'Apply' }, [{ do: 'callConnection', connection: 'accountLookup' }]);
const ON_FAILURE = automation('on-failure', 'Tell staff', { trigger: 'connection.failed', connection: 'accountLookup' }, [{ do: 'emitEvent', name: 'lookupFailed' }]);

test('connections are stored with the program, exported back without addresses, and a second import changes nothing', async () => {
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withConnections([LOOKUP], [CALL, ON_FAILURE])));
  const lines = report.changes.map(describeChange);
  assert.ok(lines.includes('created connection accountLookup'), lines.join('\n'));
  const program = (await scope.env.store.programs.listPrograms(report.agencyId))[0]!;
  const model = await scope.env.store.programs.loadProgramModel(program);
  const [stored] = model.program.connections!;
  const field = (id: string) => model.fields.find((f) => f.customId === id)!.id;
  assert.deepEqual(stored, {
    customId: 'accountLookup', name: 'Customer account lookup', method: 'POST', request: '{"account": Customer}',
    response: { type: 'object', properties: { name: { type: 'string' }, kw: { type: 'number' }, active: { type: 'boolean' } }, required: ['name'] },
    set: [{ fieldId: field('Customer'), value: 'response.name' }, { fieldId: field('Size'), value: 'response.kw' }], timeoutMs: 2000, retries: 3,
    lookupFieldId: field('Account'),
  });
  assert.deepEqual(model.program.automations!.map((a) => [a.when.trigger, a.when.connectionId ?? null, a.actions[0]]), [
    ['form.submitted', null, { do: 'callConnection', connectionId: 'accountLookup' }], ['connection.failed', 'accountLookup', { do: 'emitEvent', name: 'lookupFailed' }],
  ]);
  const text = formatProgramFile(await exportProgram(scope.env.store, scope.agency, 'PV'), 'yaml');
  assert.match(text, /connections:\n {2}- customId: accountLookup\n/);
  assert.doesNotMatch(text, /url|https?:/i);
  assert.deepEqual((await importProgram(scope.env, scope.agency, parseProgramFile(text))).changes, []);
  const json = formatProgramFile(await exportProgram(scope.env.store, scope.agency, 'PV'), 'json');
  assert.deepEqual((await importProgram(scope.env, scope.agency, parseProgramFile(json, 'json'))).changes, []);
});

test('the import diff names what changed in a connection, and its removal', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withConnections([LOOKUP])));
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withConnections([{ ...LOOKUP, method: 'GET', retries: 0, lookup: undefined }])));
  assert.deepEqual(report.changes.map(describeChange), ['updated connection accountLookup (method, retries, lookup)']);
  const removed = await importProgram(scope.env, scope.agency, validateProgramFile(withConnections([])), { dryRun: true });
  assert.deepEqual(removed.changes.map(describeChange), ['removed connection accountLookup']);
});

test('a request or set of the wrong type, an unknown field or response property and a bad shape are refused where written', async () => {
  const yaml = stringify(withConnections([{
    ...LOOKUP,
    request: 'Customer + 1',
    response: { properties: { name: { type: 'string' }, 'bad-name': { type: 'string' } }, required: ['name', 'missing'] },
    set: { Customer: 'response.nam', Size: 'response.name', Nobody: 'response.name', Make: 'response.name' },
    lookup: { field: 'Size' },
  }, { ...LOOKUP, name: 'Other' }], [automation('look-up', 'Look up', { trigger: 'form.submitted', form: 'Apply' }, [{ do: 'callConnection', connection: 'nowhere' }])]));
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  assert.deepEqual(problems, [
    `automation "look-up" (${at('- do: callConnection', 0, 'do')}): then[0] (callConnection): connection: the program has no connection "nowhere"; its connections are accountLookup, accountLookup`,
    `connection "accountLookup" (${at('properties:')}): response: required names "missing", which properties does not declare`,
    `connection "accountLookup" (${at('properties:')}): response: the property "bad-name" cannot be read by a rule; name it with letters, digits and "_"`,
    `connection "accountLookup": request (${at('request: Customer + 1', 0, '+')}): + cannot combine a string and a int`,
    `connection "accountLookup" (${at('field: Size', 0, 'Size')}): the lookup field "Size" must be a text field with one value that people fill in`,
    `connection "accountLookup": set Customer (${at('Customer: response.nam', 0, '.nam')}): the response of accountLookup has no member "nam" (did you mean "name"?)`,
    `connection "accountLookup": set Size (${at('Size: response.name', 0, 'response')}): must give a double, but gives a string`,
    `connection "accountLookup" (${at('Nobody: response.name', 0, 'response')}): set: no field has the customId or name "Nobody"`,
    `connection "accountLookup" (${at('- customId: accountLookup', 1, 'accountLookup')}): another connection has the customId "accountLookup"`,
  ]);
});

test('a multi-value field takes a set that gives a list of its type, and one that gives a single value is refused where written', async () => {
  const tagged = { ...LOOKUP, response: { properties: { name: { type: 'string' }, serials: { type: 'array', items: { type: 'string' } } }, required: ['name'] } };
  const yaml = stringify(withConnections([{ ...tagged, set: { Customer: 'response.name', Serials: 'response.name' } }]));
  const at = placeOf(yaml);
  assert.deepEqual(await refusedImport(scope, yaml), [
    `connection "accountLookup": set Serials (${at('Serials: response.name', 0, 'response')}): must give a list(string), but gives a string`,
  ]);
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withConnections([{ ...tagged, set: { Customer: 'response.name', Serials: 'response.serials' } }])));
  assert.equal(report.changed, true);
});
