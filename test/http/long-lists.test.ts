import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { loadListRows } from '../../src/domain/lists/list-load.ts';
import { queryWords } from '../../src/domain/lists/list-words.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { exportProgram } from '../../src/domain/programs/program-export.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { basicAuth, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest } from '../support/http-harness.ts';

// A custom list of `rows: csv` (issue 34, §2): its rows loaded from a CSV file apart from the program, replaced whole,
// searched through an index, and the values a field saves checked against them.

const PROGRAM = {
  customId: 'EQUIP', name: 'Equipment', numberPrefix: 'EQ',
  customLists: [{
    customId: 'Inverters', name: 'Approved inverters', rows: 'csv', key: 'ModelNumber', label: 'Description',
    columns: [{ name: 'Manufacturer' }, { name: 'ModelNumber' }, { name: 'Description' }, { name: 'RatedKwAc', type: 'number' }],
  }],
  fields: [{ customId: 'Inverter', name: 'Inverter', type: 'choice', list: 'Inverters' }],
  statuses: [{ customId: 'Draft', name: 'Unsubmitted', initial: true, next: ['Done'] }, { customId: 'Done', name: 'Done' }],
  forms: [{ customId: 'Apply', name: 'Application', availableIn: ['Draft'], leadsTo: 'Done', fields: ['Inverter'] }],
};

const CSV = [
  'Manufacturer,ModelNumber,Description,RatedKwAc,Notes',
  'Enphase Energy,IQ8PLUS-72-2-US,"Enphase IQ8PLUS-72-2-US, 290 W",0.29,micro',
  'SolarEdge Technologies,SE7600H-US,SolarEdge SE7600H-US 7.6 kW,7.6,',
  'SMA America,SB7.7-1SP-US-41,Sunny Boy 7.7-US,7.7,',
].join('\r\n');

const API = '/services/v2/Programs/EQUIP';

forEachDialect('long lists from CSV', ({ dialect }) => {
  const demo = demoApi(dialect);
  const admin = demoUser('admin');
  const target = { agencyRef: 'demo', programRef: 'EQUIP', listRef: 'Inverters' };
  const deps = () => ({ store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator() });
  const model = async () => demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('EQUIP'))!);
  const listId = async () => (await model()).lists[0]!.id;
  const setData = (projectId: string, values: Record<string, string>) => demo.app.inject({
    method: 'POST', url: `${API}/Projects/${projectId}/Forms/Apply/Draft/Data`, payload: dataRequest(values),
    headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey, 'content-type': 'application/xml' },
  });

  before(async () => {
    await importProgram({ ...deps(), checkers: programCheckers() }, 'demo', validateProgramFile(PROGRAM));
  });

  it('loads the rows of a CSV file into the list: keys, labels and typed cells, other columns ignored', async () => {
    const report = await loadListRows(deps(), target, CSV);
    assert.deepEqual({ rows: report.rows, before: report.rowsBefore, loaded: report.loaded, ignored: report.ignoredColumns }, { rows: 3, before: 0, loaded: true, ignored: ['Notes'] });
    const list = (await model()).lists[0]!;
    assert.deepEqual(list.choices[0], {
      value: 'IQ8PLUS-72-2-US', label: 'Enphase IQ8PLUS-72-2-US, 290 W',
      data: { Manufacturer: 'Enphase Energy', ModelNumber: 'IQ8PLUS-72-2-US', Description: 'Enphase IQ8PLUS-72-2-US, 290 W', RatedKwAc: '0.29' },
    });
    assert.deepEqual(list.choices.map((c) => c.value), ['IQ8PLUS-72-2-US', 'SE7600H-US', 'SB7.7-1SP-US-41']);
    const audit = await demo.db.store.audit.list({ action: 'list.load' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.detail?.rows, 3);
  });

  it('a dry run lists every problem by line and loads nothing; a load with problems is refused and loads nothing', async () => {
    const bad = [
      'ModelNumber,Manufacturer,Description,RatedKwAc',
      'A1,Acme,Acme one,n/a',
      ',Acme,Acme blank,1',
      'A1,Acme,Acme again,2',
      'A3,Acme,"Acme three',
    ].join('\n');
    const report = await loadListRows(deps(), target, bad, { dryRun: true });
    assert.deepEqual(report.problems, [
      { line: 5, message: 'a quoted cell is not closed (a " is missing)' },
      { line: 2, message: 'RatedKwAc must be a number; got "n/a"' },
      { line: 3, message: 'ModelNumber is empty (the key of each row must be filled in)' },
      { line: 4, message: 'ModelNumber "A1" is also the key of line 2' },
    ]);
    assert.equal(report.loaded, false);
    await assert.rejects(loadListRows(deps(), target, bad), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && /line 2: RatedKwAc must be a number/.test(e.message));
    const missing = await loadListRows(deps(), target, 'ModelNumber,Description\nX,Y', { dryRun: true });
    assert.deepEqual(missing.problems, [{ line: 1, message: 'the header lacks the columns "Manufacturer", "RatedKwAc"' }]);
    assert.equal((await model()).lists[0]!.choices.length, 3, 'the rows loaded before are still there');
  });

  it('finds rows by the words their key and label start with, through the words index', async () => {
    const search = async (text: string) => (await demo.db.store.listRows.searchListRows(await listId(), queryWords(text), 10)).rows.map((r) => r.value);
    assert.deepEqual(await search('se7600'), ['SE7600H-US']);
    assert.deepEqual(await search('SE7600H-US'), ['SE7600H-US']);
    assert.deepEqual(await search('sunny 7'), ['SB7.7-1SP-US-41']);
    assert.deepEqual(await search('enphase 290'), ['IQ8PLUS-72-2-US']);
    assert.deepEqual(await search('nothing'), []);
    assert.deepEqual(await search(''), ['IQ8PLUS-72-2-US', 'SE7600H-US', 'SB7.7-1SP-US-41']);
    const page = await demo.db.store.listRows.searchListRows(await listId(), [], 2);
    assert.deepEqual({ n: page.rows.length, more: page.more }, { n: 2, more: true });
  });

  it('SetProjectData takes a key of the list and refuses another value naming field and value; a value that left the list is kept', async () => {
    const created = await demo.app.inject({ method: 'POST', url: `${API}/NewProject`, headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey } });
    const projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
    const refused = await setData(projectId, { Inverter: 'NOT-A-MODEL' });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.match(refused.body, /Code="NOT_IN_LIST" Message="&quot;NOT-A-MODEL&quot; is not on the list Approved inverters that Inverter chooses from."/);
    const saved = await setData(projectId, { Inverter: 'SE7600H-US' });
    assert.equal(saved.statusCode, 200, saved.body);
    // A refresh without that row: the project keeps its value; a new save of it is refused.
    const report = await loadListRows(deps(), target, CSV.split('\r\n').filter((l) => !l.includes('SE7600H')).join('\n'));
    assert.deepEqual({ rows: report.rows, before: report.rowsBefore }, { rows: 2, before: 3 });
    const read = await demo.app.inject({ method: 'GET', url: `${API}/Projects/${projectId}/Forms/Apply/Draft/Data`, headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey } });
    assert.match(read.body, /Value="SE7600H-US"/, read.body);
    assert.equal((await setData(projectId, { Inverter: 'SE7600H-US' })).statusCode, 422, 'a value that left the list is not saved anew');
    await loadListRows(deps(), target, CSV);
  });

  it('exports the list as where its rows come from, never its rows; importing the export changes nothing', async () => {
    const file = await exportProgram(demo.db.store, 'demo', 'EQUIP');
    assert.deepEqual(file.customLists[0], { customId: 'Inverters', name: 'Approved inverters', choices: [], rows: { key: 'ModelNumber', label: 'Description', columns: [
      { name: 'Manufacturer', type: 'text' }, { name: 'ModelNumber', type: 'text' }, { name: 'Description', type: 'text' }, { name: 'RatedKwAc', type: 'number' },
    ] } });
    const again = await importProgram({ ...deps(), checkers: programCheckers() }, 'demo', file);
    assert.equal(again.changed, false);
    assert.equal((await model()).lists[0]!.choices.length, 3, 'an import leaves the loaded rows alone');
  });
});
