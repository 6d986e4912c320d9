import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { loadListRows } from '../../src/domain/lists/list-load.ts';
import { queryWords } from '../../src/domain/lists/list-words.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { exportProgram } from '../../src/domain/programs/program-export.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { seedDemoLists } from '../../src/domain/programs/demo.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { basicAuth, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest, rowsRequest } from '../support/http-harness.ts';
import { PROGRAMS_PATH, programsPaths } from '../../src/web/console/programs-paths.ts';
import { formPagePath } from '../../src/web/web-paths.ts';
import { TEST_PROGRAMS_PATH } from '../../src/web/console/test-program-pages.tsx';

// A custom list of `rows: csv` (issue 34, §2): its rows loaded from a CSV file apart from the program, replaced whole,
// searched through an index, and the values a field saves checked against them.

const PROGRAM = {
  customId: 'EQUIP', name: 'Equipment', numberPrefix: 'EQ',
  customLists: [{
    customId: 'Inverters', name: 'Approved inverters', rows: 'csv', key: 'ModelNumber', label: 'Description',
    columns: [{ name: 'Manufacturer' }, { name: 'ModelNumber' }, { name: 'Description' }, { name: 'RatedKwAc', type: 'number' }],
  }],
  fields: [
    { customId: 'Inverter', name: 'Inverter', type: 'choice', list: 'Inverters' }, { customId: 'Notes', name: 'Notes', type: 'text' },
    { customId: 'InverterKw', name: 'Inverter output (kW AC)', type: 'calculated', resultType: 'number', formula: 'lists.Inverters[Inverter].RatedKwAc' },
    {
      customId: 'Strings', name: 'Inverters of the system', type: 'table', maxRows: 10,
      columns: [{ customId: 'Model', type: 'choice', list: 'Inverters', required: true }, { customId: 'Quantity', type: 'integer', min: 1, max: 50, required: true }],
    },
    { customId: 'TotalKw', name: 'Total output (kW AC)', type: 'calculated', resultType: 'number', formula: 'Strings.map(r, double(r.Quantity) * lists.Inverters[r.Model].RatedKwAc).sum()' },
  ],
  statuses: [{ customId: 'Draft', name: 'Unsubmitted', initial: true, next: ['Done'] }, { customId: 'Done', name: 'Done' }],
  forms: [{ customId: 'Apply', name: 'Application', availableIn: ['Draft'], leadsTo: 'Done', fields: ['Inverter', 'Notes', 'InverterKw', 'Strings', 'TotalKw'] }],
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

  it('rules read the chosen rows\' columns: a field\'s and a table\'s, undecided for a key the list lacks', async () => {
    const created = await demo.app.inject({ method: 'POST', url: `${API}/NewProject`, headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey } });
    const projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
    const cellValue = (body: string, field: string) => new RegExp(`CustomId="${field}"[^>]*Value="([^"]*)"`).exec(body)?.[1];
    const one = await setData(projectId, { Inverter: 'SE7600H-US' });
    assert.equal(one.statusCode, 200, one.body);
    assert.equal(cellValue(one.body, 'InverterKw'), '7.6');
    const rows = await demo.app.inject({
      method: 'POST', url: `${API}/Projects/${projectId}/Forms/Apply/Draft/Data`,
      payload: rowsRequest('Strings', [{ Model: 'IQ8PLUS-72-2-US', Quantity: '20' }, { Model: 'SB7.7-1SP-US-41', Quantity: '1' }]),
      headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey, 'content-type': 'application/xml' },
    });
    assert.equal(rows.statusCode, 200, rows.body);
    assert.equal(cellValue(rows.body, 'TotalKw'), '13.5', '20 × 0.29 + 7.7');
    const badCell = await demo.app.inject({
      method: 'POST', url: `${API}/Projects/${projectId}/Forms/Apply/Draft/Data`, payload: rowsRequest('Strings', [{ Model: 'NOPE', Quantity: '1' }]),
      headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey, 'content-type': 'application/xml' },
    });
    assert.equal(badCell.statusCode, 422, badCell.body);
    assert.match(badCell.body, /NOPE/);
  });

  it('a rule naming a column the list does not declare is refused at import', async () => {
    const forms = [{ ...PROGRAM.forms[0]!, fields: ['Inverter', 'Notes', 'Kw'] }];
    const bad = { ...PROGRAM, customId: 'EQUIP2', forms, fields: [...PROGRAM.fields.slice(0, 2), { customId: 'Kw', name: 'Kw', type: 'calculated', resultType: 'number', formula: 'lists.Inverters[Inverter].RatedKwDc' }] };
    await assert.rejects(importProgram({ ...deps(), checkers: programCheckers() }, 'demo', validateProgramFile(bad)), (e: Error) => { assert.match(e.message, /field "Kw": formula .*RatedKwDc/); return true; });
    const typed = { ...bad, fields: [...PROGRAM.fields.slice(0, 2), { customId: 'Kw', name: 'Kw', type: 'calculated', resultType: 'number', formula: 'lists.Inverters[Inverter].Manufacturer' }] };
    await assert.rejects(importProgram({ ...deps(), checkers: programCheckers() }, 'demo', validateProgramFile(typed)), (e: Error) => { assert.match(e.message, /field "Kw": formula .*string/); return true; });
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

forEachDialect('long lists: the console upload', ({ dialect }) => {
  const demo = demoApi(dialect);
  const deps = () => ({ store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator() });
  const rowsNow = async () => (await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('EQUIP'))!)).lists[0]!.choices.map((c) => c.value);
  let listId = '';
  let programId = '';

  before(async () => {
    const report = await importProgram({ ...deps(), checkers: programCheckers() }, 'demo', validateProgramFile(PROGRAM));
    programId = report.programId;
    await loadListRows(deps(), { programRef: 'EQUIP', listRef: 'Inverters' }, CSV);
    listId = (await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('EQUIP'))!)).lists[0]!.id;
  });

  /** Posts a CSV file as the program page's form does, pressing `button`. */
  async function post(role: string, text: string, button: 'check' | 'load') {
    const who = demoUser(role);
    const page = await demo.webGet(demoUser('admin'), PROGRAMS_PATH);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    const cookie = ([] as string[]).concat(page.headers['set-cookie'] ?? []).find((x) => x.startsWith('_csrf='))?.split(';')[0];
    assert.ok(token && cookie, page.body);
    const b = 'xXlistXx';
    const payload = `--${b}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${token}\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="inverters.csv"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n`
      + `--${b}\r\nContent-Disposition: form-data; name="${button}"\r\n\r\n1\r\n--${b}--\r\n`;
    return demo.app.inject({
      method: 'POST', url: programsPaths.list(programId, listId), payload,
      headers: { authorization: basicAuth(who), 'content-type': `multipart/form-data; boundary=${b}`, cookie },
    });
  }

  it('the program page lists the list with its rows; Check the file reports and loads nothing', async () => {
    const page = await demo.webGet(demoUser('admin'), programsPaths.program(programId));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Approved inverters \(Inverters\)<\/h3><p>3 rows\. Columns: Manufacturer, ModelNumber, Description, RatedKwAc \(number\); key ModelNumber\./);
    const two = 'ModelNumber,Manufacturer,Description,RatedKwAc\nA1,Acme,Acme one,1\nA2,Acme,Acme two,2';
    const checked = await post('admin', two, 'check');
    assert.equal(checked.statusCode, 200, checked.body);
    assert.match(checked.body, /The file is fine: list Inverters would hold 2 rows \(it holds 3\)\. Nothing was loaded\./);
    assert.equal((await rowsNow()).length, 3);
    const bad = await post('admin', 'ModelNumber,Manufacturer,Description,RatedKwAc\nA1,Acme,Acme one,lots', 'load');
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.body, /line 2: RatedKwAc must be a number; got &quot;lots&quot;/);
    assert.equal((await rowsNow()).length, 3, 'a refused file loads nothing');
    const loaded = await post('admin', two, 'load');
    assert.equal(loaded.statusCode, 303, loaded.body);
    assert.deepEqual(await rowsNow(), ['A1', 'A2']);
    const after = await demo.webGet(demoUser('admin'), String(loaded.headers.location));
    assert.match(after.body, /List Inverters now holds the 2 rows of the file\./);
    await loadListRows(deps(), { programRef: 'EQUIP', listRef: 'Inverters' }, CSV);
  });

  it('only the program\'s admins load its lists: others are refused and the rows stay', async () => {
    for (const role of ['reviewer', 'applicant']) {
      const res = await post(role, 'ModelNumber,Manufacturer,Description,RatedKwAc\nB1,B,B one,1', 'load');
      assert.equal(res.statusCode, 403, `${role}: ${res.body.slice(0, 200)}`);
      assert.equal((await rowsNow()).length, 3, role);
    }
  });
});

forEachDialect('long lists: choosing on the form page and in the schema', ({ dialect }) => {
  const demo = demoApi(dialect);
  const admin = demoUser('admin');
  const deps = () => ({ store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator() });
  let programId = '';
  let projectId = '';
  let fieldId = '';
  let formId = '';
  const api = (method: 'GET' | 'POST', url: string, payload?: string) => demo.app.inject({
    method, url: `${API}/${url}`, payload, headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey, ...(payload ? { 'content-type': 'application/xml' } : {}) },
  });

  before(async () => {
    programId = (await importProgram({ ...deps(), checkers: programCheckers() }, 'demo', validateProgramFile(PROGRAM))).programId;
    await loadListRows(deps(), { programRef: 'EQUIP', listRef: 'Inverters' }, CSV);
    const model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('EQUIP'))!);
    fieldId = model.fields.find((f) => f.customId === 'Inverter')!.id;
    formId = model.forms[0]!.id;
    projectId = /ProjectId="([^"]+)"/.exec((await api('POST', 'NewProject')).body)![1]!;
  });

  it('the form page offers a search box instead of the rows; Search shows the matches and keeps what was typed, saving nothing', async () => {
    const url = formPagePath(programId, projectId, formId);
    const page = await demo.webGet(admin, url);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<label class="usa-label" for="field-[^"]+-search">Search Approved inverters \(3 rows\)<\/label>/);
    assert.match(page.body, /<option value>Search the list first<\/option><\/select>/, 'no row is offered before a search');
    const searched = await demo.webPost(admin, url, { action: `search:${fieldId}`, [`_search_${fieldId}`]: 'sunny 7.7', [model_notes()]: 'typed, not saved' });
    assert.equal(searched.statusCode, 200, searched.body.slice(0, 500));
    assert.match(searched.body, /1 row matches &quot;sunny 7.7&quot;; choose below\./);
    assert.match(searched.body, /<option value="SB7.7-1SP-US-41">Sunny Boy 7.7-US<\/option>/);
    assert.doesNotMatch(searched.body, /SE7600H-US/);
    assert.match(searched.body, /value="typed, not saved"/, 'the other input is kept');
    const draft = await api('GET', `Projects/${projectId}/Forms/Apply/Draft/Data`);
    assert.doesNotMatch(draft.body, /typed, not saved/, 'a search saves nothing');
    const saved = await demo.webPost(admin, url, { action: 'save', [fieldId]: 'SB7.7-1SP-US-41', [model_notes()]: 'typed, not saved' });
    assert.equal(saved.statusCode, 303, saved.body.slice(0, 500));
    const again = await demo.webGet(admin, url);
    assert.match(again.body, /<option value="SB7.7-1SP-US-41" selected>Sunny Boy 7.7-US<\/option>/);
    const refused = await demo.webPost(admin, url, { action: 'save', [fieldId]: 'NOT-A-MODEL' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /&quot;NOT-A-MODEL&quot; is not on the list Approved inverters that Inverter chooses from\./);
  });

  it('GetFormSchema (version 2) names the list without its rows; GetCustomListChoices gives them', async () => {
    const schema = await api('GET', 'Forms/Apply/Schema?version=2');
    assert.equal(schema.statusCode, 200, schema.body);
    const field = /<DataField [^>]*CustomId="Inverter"[^>]*?(\/>|>[\s\S]*?<\/DataField>)/.exec(schema.body)![0];
    assert.match(field, /CustomListCustomId="Inverters"/);
    assert.doesNotMatch(field, /<Choices/);
    const choices = await api('GET', 'CustomLists/Inverters/Choices');
    assert.equal(choices.statusCode, 200, choices.body);
    assert.equal((choices.body.match(/<Choice /g) ?? []).length, 3);
  });

  function model_notes(): string {
    return notesId;
  }
  let notesId = '';
  before(async () => {
    const model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('EQUIP'))!);
    notesId = model.fields.find((f) => f.customId === 'Notes')!.id;
  });
});

forEachDialect('long lists: the demo\'s approved inverters', ({ dialect }) => {
  const demo = demoApi(dialect);
  const applicant = demoUser('applicant');

  it('the demo loads its 10,000 approved inverters once; the inverter table\'s total counts a listed model\'s rated output', async () => {
    const deps = { store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator(), checkers: programCheckers() };
    assert.deepEqual(await seedDemoLists(deps), ['loaded 10000 rows into list ApprovedInverters']);
    assert.deepEqual(await seedDemoLists(deps), [], 'a list holding rows is left alone');
    const model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram('RES-SOLAR'))!);
    const list = model.lists.find((l) => l.customId === 'ApprovedInverters')!;
    assert.equal(list.choices.length, 10_000);
    const found = await demo.db.store.listRows.searchListRows(list.id, queryWords('SE7600H US'), 5);
    assert.ok(found.rows.some((r) => r.value === 'SE7600H-US'), JSON.stringify(found.rows));
    assert.ok(found.rows.every((r) => /^SE7600H-/.test(r.value)));
    assert.equal(found.more, true);
    const projectId = await demo.newProject(applicant);
    await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest({ SystemSizeKwAc: '7.6' })));
    const rows = (listed: string) => rowsRequest('Inverters', [{ Make: 'SOLAREDGE', Model: 'SE7600H', Quantity: '1', ListedModel: listed }]);
    // SE7600H-US is listed at 7.6 kW AC: the total fits without a typed rating; SE3800H-US (3.8 kW) does not.
    await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rows('SE7600H-US')));
    const refused = await demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rows('SE3800H-US'));
    assert.equal(refused.statusCode, 422, refused.body);
    assert.match(refused.body, /must add up to the inverter output/);
    const unlisted = await demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rows('NOT-LISTED'));
    assert.equal(unlisted.statusCode, 422, unlisted.body);
    assert.match(unlisted.body, /NOT-LISTED/);
  });

  it('a test copy of the program carries the rows: its search, choices and rules answer as the live program\'s; a later load into either leaves the other alone', async () => {
    const admin = demoUser('admin');
    const deps = { store: demo.db.store, clock: demo.clock, ids: new RandomIdGenerator(), checkers: programCheckers() };
    const made = await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/Create`, { ProgramId: 'RES-SOLAR' });
    assert.equal(made.statusCode, 303, made.body);
    const modelOf = async (ref: string) => demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram(ref))!);
    const inverters = async (ref: string) => (await modelOf(ref)).lists.find((l) => l.customId === 'ApprovedInverters')!;
    const [live, test] = [await inverters('RES-SOLAR'), await inverters('RES-SOLAR-test')];
    assert.notEqual(test.id, live.id, 'the copy has a list of its own');
    assert.equal(test.choices.length, 10_000, 'all the rows came, in more than one page');
    assert.deepEqual(test.choices, live.choices);
    const found = await demo.db.store.listRows.searchListRows(test.id, queryWords('SE7600H US'), 5);
    assert.ok(found.rows.some((r) => r.value === 'SE7600H-US'), JSON.stringify(found.rows));

    const url = '/services/v2/Programs/RES-SOLAR-test';
    const post = (path: string, payload?: string) => {
      demo.clock.advance();
      return demo.app.inject({
        method: 'POST', url: `${url}/${path}`, payload,
        headers: { authorization: basicAuth(admin), 'x-apikey': admin.apiKey, ...(payload ? { 'content-type': 'application/xml' } : {}) },
      });
    };
    const projectId = /ProjectId="([^"]+)"/.exec((await post('NewProject')).body)![1]!;
    const data = `Projects/${projectId}/Forms/Application/Draft/Data`;
    assert.equal((await post(data, dataRequest({ SystemSizeKwAc: '7.6' }))).statusCode, 200);
    const rows = (listed: string) => rowsRequest('Inverters', [{ Make: 'SOLAREDGE', Model: 'SE7600H', Quantity: '1', ListedModel: listed }]);
    const listed = await post(data, rows('SE7600H-US'));
    assert.equal(listed.statusCode, 200, listed.body);
    const refused = await post(data, rows('SE3800H-US'));
    assert.equal(refused.statusCode, 422, refused.body);
    assert.match(refused.body, /must add up to the inverter output/, 'the rule read the copy\'s row of SE3800H-US');

    // Loads after the copy is made: each list keeps its own rows.
    const header = 'Manufacturer,ModelNumber,Description,RatedKwAc,NominalVoltageAc,WeightedEfficiency,Microinverter,ListedOn';
    await loadListRows(deps, { programRef: 'RES-SOLAR', listRef: 'ApprovedInverters' }, `${header}\nAcme,LIVE-1,Live one,1,240,96,false,2024-01-01`);
    assert.equal((await inverters('RES-SOLAR-test')).choices.length, 10_000, 'a load into the live list leaves the copy\'s');
    await loadListRows(deps, { programRef: 'RES-SOLAR-test', listRef: 'ApprovedInverters' }, `${header}\nAcme,TEST-1,Test one,1,240,96,false,2024-01-01\nAcme,TEST-2,Test two,2,240,96,false,2024-01-01`);
    assert.deepEqual((await inverters('RES-SOLAR')).choices.map((c) => c.value), ['LIVE-1'], 'a load into the copy leaves the live list');

    // Update from live: a long list the live program added since comes with its rows; the copy's loaded list keeps its own.
    const file = await exportProgram(demo.db.store, 'demo', 'RES-SOLAR');
    const modules = { customId: 'ApprovedModules', name: 'Approved modules', choices: [], rows: { key: 'ModelNumber', label: 'ModelNumber', columns: [{ name: 'ModelNumber', type: 'text' as const }] } };
    await importProgram(deps, 'demo', { ...file, customLists: [...file.customLists, modules] });
    await loadListRows(deps, { programRef: 'RES-SOLAR', listRef: 'ApprovedModules' }, 'ModelNumber\nQ-PEAK-400\nREC-410');
    const updated = await demo.webPost(admin, `${TEST_PROGRAMS_PATH}/${(await modelOf('RES-SOLAR-test')).program.id}/Update`, {});
    assert.match(String(updated.headers.location), /notice=updated/);
    const copy = await modelOf('RES-SOLAR-test');
    assert.deepEqual(copy.lists.find((l) => l.customId === 'ApprovedModules')?.choices.map((c) => c.value), ['Q-PEAK-400', 'REC-410']);
    assert.deepEqual(copy.lists.find((l) => l.customId === 'ApprovedInverters')?.choices.map((c) => c.value), ['TEST-1', 'TEST-2']);

    // A list the live program loads only after the copy has it empty: the next update, with no change of definition, fills it.
    const batteries = { customId: 'ApprovedBatteries', name: 'Approved batteries', choices: [], rows: { key: 'ModelNumber', label: 'ModelNumber', columns: [{ name: 'ModelNumber', type: 'text' as const }] } };
    await importProgram(deps, 'demo', { ...(await exportProgram(demo.db.store, 'demo', 'RES-SOLAR')), customLists: [...file.customLists, modules, batteries] });
    const update = () => demo.webPost(admin, `${TEST_PROGRAMS_PATH}/${copy.program.id}/Update`, {});
    assert.equal((await update()).statusCode, 303);
    const batteriesOf = async (ref: string) => (await modelOf(ref)).lists.find((l) => l.customId === 'ApprovedBatteries')?.choices.map((c) => c.value);
    assert.deepEqual(await batteriesOf('RES-SOLAR-test'), [], 'nothing to copy yet');
    await loadListRows(deps, { programRef: 'RES-SOLAR', listRef: 'ApprovedBatteries' }, 'ModelNumber\nPOWERWALL-3');
    assert.match(String((await update()).headers.location), /notice=/);
    assert.deepEqual(await batteriesOf('RES-SOLAR-test'), ['POWERWALL-3'], 'the unchanged update filled the empty list');
    assert.deepEqual(await batteriesOf('RES-SOLAR'), ['POWERWALL-3']);
  });
});
