import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH, type DemoCredential } from '../../src/domain/programs/demo.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DIALECTS } from '../support/databases.ts';
import { basicAuth, DEMO_APPLICATION, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest, NS, rowsRequest } from '../support/http-harness.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// Table fields (docs/programs.md, "Table fields"; docs/interface.md, "Table fields"): the demo application's Inverters
// and Batteries, written and read whole through SetProjectData and GetProjectData in XML and JSON, checked cell by
// cell (a refused write reads back unchanged), submitted, shown by GetAllProjectData and the export, and searched by
// column with GetProjectsByData.

const APPLICATION = DEMO_APPLICATION;

type Rows = Record<string, string>[];


/** The rows of one table field in an XML answer (DataField or export Field element, by CustomId). */
function xmlRows(xml: string, customId: string): Rows | undefined {
  const field = new RegExp(`<(DataField|Field) [^>]*CustomId="${customId}"[^>]*?(?:/>|>([\\s\\S]*?)</\\1>)`).exec(xml);
  if (!field) return undefined;
  const rows = /<Rows>([\s\S]*?)<\/Rows>/.exec(field[2] ?? '');
  if (!rows) return [];
  return [...rows[1]!.matchAll(/<Row>([\s\S]*?)<\/Row>|<Row\/>/g)].map((m) => Object.fromEntries(
    [...(m[1] ?? '').matchAll(/<Cell Column="([^"]+)" Value="([^"]*)"\/>/g)].map((c) => [c[1]!, c[2]!]),
  ));
}

/** The rows of one table field in a JSON GetProjectData answer. */
function jsonRows(body: string, customId: string): Rows | undefined {
  const data = JSON.parse(body) as { Project: { DataFields: { DataField: { CustomId?: string; Rows?: { Row: { Cell: { Column: string; Value?: string }[] }[] } }[] } } };
  const field = data.Project.DataFields.DataField.find((f) => f.CustomId === customId);
  if (!field) return undefined;
  return (field.Rows?.Row ?? []).map((r) => Object.fromEntries(r.Cell.map((c) => [c.Column, c.Value ?? ''])));
}

const INVERTERS: Rows = [
  { Make: 'SMA', Model: 'SB2.5', Quantity: '1', RatedKwAc: '2.5' },
  { Make: 'ENPHASE', Model: 'IQ8PLUS', Quantity: '12', RatedKwAc: '0.29' },
];

for (const dialect of DIALECTS) {
  describe(`table fields through the API [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const { ok, newProject, clock } = demo;
    const [admin, applicant] = [demoUser('admin'), demoUser('applicant')];

    function call(c: DemoCredential, method: 'GET' | 'POST', path: string, body?: string, type = 'application/xml', accept?: string): Promise<LightMyRequestResponse> {
      return demo.call(c, method, path, body, { type, accept });
    }
    const draftPath = (p: string) => `Projects/${p}/Forms/Application/Draft/Data`;
    async function draftRows(p: string, field = 'Inverters'): Promise<Rows | undefined> {
      return xmlRows(await ok(call(applicant, 'GET', draftPath(p)), 'ProjectDataGetResponse'), field);
    }
    async function readyToSubmit(p: string): Promise<void> {
      await ok(call(applicant, 'POST', draftPath(p), dataRequest(APPLICATION)));
      const upload = await demo.upload(p, 'SitePlan');
      assert.equal(upload.statusCode, 200, upload.body);
    }

    it('GetFormSchema describes the columns, their types, required flags, choices and the row limits', async () => {
      const xml = await ok(call(applicant, 'GET', 'Forms/Application/Schema?version=2'), 'FormSchemaResponseV2');
      const field = /<DataField [^>]*CustomId="Inverters"[^>]*>([\s\S]*?)<\/DataField>/.exec(xml)!;
      assert.match(field[0], /Type="table"/);
      assert.match(field[0], /MaxRows="20"/);
      assert.match(field[1]!, /<Column CustomId="Make" Name="Manufacturer" Type="choice" Required="true"[^>]*CustomListCustomId="InverterMakes">\s*<Choices>\s*<Choice Value="ENPHASE"/);
      assert.match(field[1]!, /<Column CustomId="Quantity" Name="Quantity" Type="integer" Required="true" MinValue="1" MaxValue="500"\/>/);
      const v1 = await ok(call(applicant, 'GET', 'Forms/Application/Schema'), 'FormSchemaResponse');
      assert.match(v1, /<Column CustomId="RatedKwAc" Name="Rated output \(kW AC\)" Type="number" Required="false" MinValue="0.01" MaxValue="1000"\/>/);
      const json = JSON.parse(await ok(call(applicant, 'GET', 'Forms/Application/Schema?version=2', undefined, undefined, 'application/json'))) as {
        Form: { DataFields: { DataField: { CustomId: string; Type: string; Columns?: { Column: { CustomId: string; Type: string }[] } }[] } };
      };
      const batteries = json.Form.DataFields.DataField.find((f) => f.CustomId === 'Batteries')!;
      assert.equal(batteries.Type, 'table');
      assert.deepEqual(batteries.Columns!.Column.map((c) => `${c.CustomId}:${c.Type}`), ['Make:text', 'Model:text', 'CapacityKwh:number', 'Quantity:integer']);
    });

    it('a draft saves and reads back a whole table in XML; a later write replaces it; an empty Rows clears it', async () => {
      const p = await newProject();
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', INVERTERS)), 'ProjectDataSetResponse');
      assert.deepEqual(await draftRows(p), INVERTERS);
      // Cells in any order, an empty cell and a row of only some columns: stored in column order, empty cells left out.
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', [{ Quantity: '2', Make: 'SMA', Model: '', RatedKwAc: '3.8' }])));
      assert.deepEqual(await draftRows(p), [{ Make: 'SMA', Quantity: '2', RatedKwAc: '3.8' }]);
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', [])));
      assert.deepEqual(await draftRows(p), []);
    });

    it('JSON: the same table in the mechanical mapping, written and read back', async () => {
      const p = await newProject();
      const body = JSON.stringify({ Project: { DataFields: { DataField: [{ DataFieldId: 'Batteries', Rows: { Row: [
        { Cell: [{ Column: 'Make', Value: 'Tesla' }, { Column: 'CapacityKwh', Value: '13.5' }, { Column: 'Quantity', Value: '2' }] },
      ] } }] } } });
      const res = await call(applicant, 'POST', draftPath(p), body, 'application/json', 'application/json');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(jsonRows(res.body, 'Batteries'), [{ Make: 'Tesla', CapacityKwh: '13.5', Quantity: '2' }]);
      assert.deepEqual(jsonRows(await ok(call(applicant, 'GET', draftPath(p), undefined, undefined, 'application/json')), 'Batteries'), [{ Make: 'Tesla', CapacityKwh: '13.5', Quantity: '2' }]);
      assert.deepEqual(await draftRows(p, 'Batteries'), [{ Make: 'Tesla', CapacityKwh: '13.5', Quantity: '2' }]);
      // Arrays a request may leave out: a Row without Cell is an empty row, Rows without Row clears the table.
      const empty = (rows: object) => call(applicant, 'POST', draftPath(p), JSON.stringify({ Project: { DataFields: { DataField: [{ DataFieldId: 'Batteries', Rows: rows }] } } }), 'application/json', 'application/json');
      assert.deepEqual(jsonRows((await empty({ Row: [{}] })).body, 'Batteries'), [{}]);
      assert.deepEqual(jsonRows((await empty({})).body, 'Batteries'), []);
    });

    it('a cell that does not fit its column is refused naming field, row and column, in XML and JSON; the draft reads back unchanged', async () => {
      const p = await newProject();
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', INVERTERS)));
      const bad = [INVERTERS[0]!, { Make: 'ACME', Model: 'X', Quantity: '0' }];
      const res = await call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', bad));
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(demo.schemas.validate('ErrorResponse', res.body), [], res.body);
      assert.match(res.body, /Code="VALIDATION_FAILED"/);
      assert.match(res.body, /<FieldError [^>]*CustomId="Inverters"[^>]*Code="NOT_IN_LIST" Message="&quot;ACME&quot; is not a choice of Inverters, row 2, Manufacturer." Row="2" Column="Make"\/>/);
      assert.match(res.body, /<FieldError [^>]*Code="OUT_OF_RANGE" Message="Inverters, row 2, Quantity must be between 1 and 500." Row="2" Column="Quantity"\/>/);
      const json = await call(applicant, 'POST', draftPath(p), JSON.stringify({ Project: { DataFields: { DataField: [{ DataFieldId: 'Inverters', Rows: { Row: [
        { Cell: [{ Column: 'Quantity', Value: 'two' }] }, { Cell: [{ Column: 'Colour', Value: 'red' }] },
      ] } }] } } }), 'application/json', 'application/json');
      assert.equal(json.statusCode, 422, json.body);
      const errors = (JSON.parse(json.body) as { FieldError: { Code: string; Row?: number; Column?: string }[] }).FieldError;
      assert.deepEqual(errors.map((e) => [e.Code, e.Row, e.Column]), [['INVALID_TYPE', 1, 'Quantity'], ['UNKNOWN_COLUMN', 2, 'Colour']]);
      // Value instead of Rows, and Rows for a field that is not a table.
      const wrongShape = await call(applicant, 'POST', draftPath(p), dataRequest({ Inverters: 'SMA' }));
      assert.match(wrongShape.body, /Code="ROWS_EXPECTED"/);
      const notTable = await call(applicant, 'POST', draftPath(p), rowsRequest('CustomerName', [{ Make: 'SMA' }]));
      assert.match(notTable.body, /Code="NOT_A_TABLE"/);
      assert.deepEqual(await draftRows(p), INVERTERS, 'every refused write changed nothing');
    });

    it('maxRows bounds every write; more rows are refused and the draft reads back unchanged', async () => {
      const p = await newProject();
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', INVERTERS)));
      const many = Array.from({ length: 21 }, () => ({ Make: 'SMA', Model: 'SB', Quantity: '1' }));
      const res = await call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', many));
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.body, /Code="TOO_MANY_ROWS" Message="Inverters takes at most 20 rows; got 21."/);
      assert.deepEqual(await draftRows(p), INVERTERS);
    });

    it('a draft keeps a row missing a required column; submitting refuses it naming row and column, then submits once it is filled', async () => {
      const p = await newProject();
      await readyToSubmit(p);
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', [INVERTERS[0]!, { Make: 'ENPHASE', Quantity: '12' }])));
      const refused = await call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`);
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(demo.schemas.validate('ErrorResponse', refused.body), [], refused.body);
      assert.match(refused.body, /Code="FORM_INCOMPLETE"/);
      assert.match(refused.body, /<FieldError [^>]*Code="REQUIRED" Message="Inverters, row 2: Model is required." Row="2" Column="Model"\/>/);
      assert.deepEqual(xmlRows(await ok(call(applicant, 'GET', `Projects/${p}/Forms/Application/Data`)), 'Inverters'), [], 'nothing submitted');
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', INVERTERS)));
      await ok(call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`));
      assert.deepEqual(xmlRows(await ok(call(applicant, 'GET', `Projects/${p}/Forms/Application/Data`), 'ProjectDataGetResponse'), 'Inverters'), INVERTERS);
      assert.deepEqual(await draftRows(p), INVERTERS, 'the draft shows the submitted rows');
      const all = await ok(call(admin, 'GET', `Projects/${p}/Data`), 'AllProjectDataResponse');
      assert.deepEqual(xmlRows(all, 'Inverters'), INVERTERS);
      const exported = await ok(call(admin, 'GET', `Projects/${p}/Export?version=2`), 'ProjectExportDataGetResponseV2');
      assert.deepEqual(xmlRows(exported, 'Inverters'), INVERTERS);
      assert.deepEqual(xmlRows(exported, 'Batteries'), [], 'a table never saved has no Rows');
    });

    it('GetProjectsByData finds a project when any row matches a column; a table without a column is refused', async () => {
      const p = await newProject();
      await readyToSubmit(p);
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', [{ Make: 'FRONIUS', Model: 'Primo', Quantity: '3', RatedKwAc: '7.5' }, { Make: 'TESLA', Model: 'PW3', Quantity: '1' }])));
      await ok(call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`));
      const search = async (fields: [string, string, string][]) => {
        const body = `<ProjectByDataRequest xmlns="${NS}"><DataFields>${fields.map(([id, op, content]) => `<Field Id="${id}" Content="${content}" Operator="${op}"/>`).join('')}</DataFields></ProjectByDataRequest>`;
        return call(admin, 'POST', 'Projects/ByData', body);
      };
      const found = async (fields: [string, string, string][]) => {
        const res = await search(fields);
        assert.equal(res.statusCode, 200, res.body);
        return res.body.includes(`ProjectId="${p}"`);
      };
      assert.equal(await found([['Inverters.Make', 'eq', 'TESLA']]), true, 'the second row matches');
      assert.equal(await found([['Inverters.Make', 'eq', 'SMA']]), false);
      assert.equal(await found([['Inverters.RatedKwAc', 'ge', '7.50']]), true, 'numbers compare as numbers');
      assert.equal(await found([['Inverters.RatedKwAc', 'gt', '7.5']]), false);
      assert.equal(await found([['Inverters.Model', 'contains', 'prim']]), true);
      assert.equal(await found([['Inverters.Make', 'ne', 'FRONIUS']]), false, 'ne: no row equals');
      assert.equal(await found([['Batteries.Make', 'empty', '']]), true);
      const whole = await search([['Inverters', 'eq', 'SMA']]);
      assert.equal(whole.statusCode, 400, whole.body);
      assert.match(whole.body, /Code="INVALID_REQUEST" Status="400" Message="Inverters is a table field: search one of its columns as Inverters.&lt;column&gt;/);
      const column = await search([['Inverters.Colour', 'eq', 'red']]);
      assert.equal(column.statusCode, 400, column.body);
      assert.match(column.body, /has no column &quot;Colour&quot;/);
      const notNumber = await search([['Inverters.Quantity', 'gt', 'many']]);
      assert.equal(notNumber.statusCode, 400, notNumber.body);
    });

    it("the work queue offers a table's columns as data filters, takes a choice's label, and writes tables readably in its CSV", async () => {
      const p = await newProject();
      await readyToSubmit(p);
      await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Inverters', [{ Make: 'GENERAC', Model: 'PWRcell', Quantity: '2', RatedKwAc: '3' }])));
      await ok(call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`));
      const queue = (query: string) => demo.app.inject({ method: 'GET', url: `/Projects/ProjectList?ProgramId=RES-SOLAR&${query}`, headers: { authorization: basicAuth(admin) } });
      const page = await queue('');
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /<option value="Inverters.Make">Inverters: Manufacturer<\/option>/);
      assert.doesNotMatch(page.body, /<option value="Inverters">/, 'the table itself is not a filter');
      const csv = await queue('field=Inverters.Make&op=eq&value=Generac&format=csv');
      assert.equal(csv.statusCode, 200, csv.body);
      const lines = csv.body.trim().split('\r\n');
      assert.equal(lines.length, 2, csv.body);
      assert.match(lines[1]!, new RegExp(p));
      assert.match(lines[1]!, /Manufacturer: Generac, Model: PWRcell, Quantity: 2, Rated output \(kW AC\): 3/);
    });

    it('minRows, set by a later import, refuses a submission with fewer rows; a draft may have fewer', async () => {
      const file = parseProgramFile(fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8'));
      const batteries = file.fields.find((f) => f.customId === 'Batteries')!;
      batteries.table = { ...batteries.table!, minRows: 2 };
      await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, file);
      try {
        const p = await newProject();
        await readyToSubmit(p);
        await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Batteries', [{ Make: 'Tesla', CapacityKwh: '13.5' }])));
        const refused = await call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`);
        assert.equal(refused.statusCode, 422, refused.body);
        assert.match(refused.body, /Code="TOO_FEW_ROWS" Message="Batteries needs at least 2 rows; got 1."/);
        await ok(call(applicant, 'POST', draftPath(p), rowsRequest('Batteries', [{ Make: 'Tesla', CapacityKwh: '13.5' }, { Make: 'LG', CapacityKwh: '9.8' }])));
        await ok(call(applicant, 'POST', `Projects/${p}/Forms/Application/Draft/Submit`));
      } finally {
        batteries.table = { ...batteries.table!, minRows: null };
        await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, file);
      }
    });
  });
}
