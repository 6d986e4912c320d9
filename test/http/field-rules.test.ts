import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { parse } from 'yaml';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH, type DemoCredential } from '../../src/domain/programs/demo.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { ErrorResponse } from '../../src/wire/documents/error-response.ts';
import { DIALECTS } from '../support/databases.ts';
import { DEMO_APPLICATION, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest, NS, rowsRequest } from '../support/http-harness.ts';
import { assertJsonAnswer } from '../support/json-answers.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// The demo program's rules (programs/residential-solar.yaml; docs/programs.md, "Field rules"), through the API in
// XML and JSON: visibleIf, requiredIf, readOnlyIf, validations and calculated fields, each refusal reading the
// project back unchanged.

const APPLICATION = DEMO_APPLICATION;

/** The FieldErrors of an XML error answer as "customId:CODE". */
function fieldErrors(res: LightMyRequestResponse): string[] {
  return [...res.body.matchAll(/<FieldError [^>]*?CustomId="([^"]*)"[^>]*?Code="([^"]*)"/g)].map((m) => `${m[1]}:${m[2]}`).sort();
}

/** A JSON SetProjectData body. */
function jsonData(values: Record<string, string>): string {
  return JSON.stringify({ Project: { DataFields: { DataField: Object.entries(values).map(([id, v]) => ({ DataFieldId: id, Value: v })) } } });
}

for (const dialect of DIALECTS) {
  describe(`field rules of the demo program [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const { ok, newProject, upload, clock } = demo;
    const [editor, applicant] = [demoUser('reviewer'), demoUser('applicant')];
    // Moved on by the test of a program change, which imports the program again.
    let model: ProgramModel;
    before(() => {
      model = demo.model;
    });

    const id = (customId: string) => model.fields.find((f) => f.customId === customId)!.id;

    function call(c: DemoCredential, method: 'GET' | 'POST', path: string, body?: string, json = false): Promise<LightMyRequestResponse> {
      return demo.call(c, method, path, body, json ? { type: 'application/json', accept: 'application/json' } : {});
    }
    function draft(projectId: string, values: Record<string, string>, c = applicant, form = 'Application'): Promise<LightMyRequestResponse> {
      return call(c, 'POST', `Projects/${projectId}/Forms/${form}/Draft/Data`, dataRequest(values));
    }
    function submit(projectId: string, c = applicant, form = 'Application'): Promise<LightMyRequestResponse> {
      return call(c, 'POST', `Projects/${projectId}/Forms/${form}/Draft/Submit`);
    }
    /** What the store holds for a project: its row, submitted values and drafts, by field customId. */
    async function state(projectId: string): Promise<unknown> {
      const name = (fieldId: string) => model.fields.find((f) => f.id === fieldId)?.customId ?? fieldId;
      const project = await demo.db.store.projects.getProject(model.program.id, projectId);
      const values = (await demo.db.store.projects.getAllValues(projectId)).map((v) => [name(v.fieldId), v.value, v.values]);
      // Sorted by field: the store reads a draft's rows in no particular order (PostgreSQL returns them as it finds them).
      const byField = (a: string[], b: string[]) => (a[1] ?? '').localeCompare(b[1] ?? '');
      const drafts = await Promise.all(model.forms.map(async (f) => (await demo.db.store.projects.getDraft(projectId, f.id)).map((v) => [f.customId, name(v.fieldId), v.value] as string[]).sort(byField)));
      return { version: project?.version, status: project?.statusId, number: project?.number, values, drafts };
    }
    function value(xml: string, customId: string): string | undefined {
      const field = new RegExp(`<DataField DataFieldId="${id(customId)}"[^>]*?(?:/>|>[\\s\\S]*?</DataField>)`).exec(xml)?.[0] ?? '';
      return /Value="([^"]*)"/.exec(field)?.[1];
    }

    it('a validation across fields refuses the save with its message, in XML and JSON, and writes nothing', async () => {
      const projectId = await newProject();
      await ok(draft(projectId, { SystemSizeKwDc: '7.6' }));
      const before = await state(projectId);
      const xml = await draft(projectId, { SystemSizeKwAc: '10' });
      assert.equal(xml.statusCode, 422, xml.body);
      assert.deepEqual(fieldErrors(xml), ['SystemSizeKwAc:RULE']);
      assert.match(xml.body, /Message="The inverter output \(kW AC\) can be at most 1.25 times the system size \(kW DC\)."/);
      const json = assertJsonAnswer(await call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, jsonData({ SystemSizeKwAc: '10' }), true), ErrorResponse, 422);
      assert.equal(json.Code, 'VALIDATION_FAILED');
      assert.deepEqual(json.FieldError.map((f) => [f.CustomId, f.Code, f.Message]), [
        ['SystemSizeKwAc', 'RULE', 'The inverter output (kW AC) can be at most 1.25 times the system size (kW DC).'],
      ]);
      assert.deepEqual(await state(projectId), before);
      // Field order never matters: raising both in one request is judged on the state after the whole request.
      await ok(draft(projectId, { SystemSizeKwAc: '10', SystemSizeKwDc: '9' }));
    });

    it('a draft checks only what is filled: the rule of an empty field is not run', async () => {
      const projectId = await newProject();
      // SystemSizeKwDc is empty, so the AC rule cannot be decided and the draft is saved.
      await ok(draft(projectId, { SystemSizeKwAc: '50' }));
      assert.equal(value(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`)), 'SystemSizeKwAc'), '50');
    });

    it('visibleIf: a hidden field is not required, keeps its draft value, and is not submitted', async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, { ...APPLICATION, HasBattery: 'true' }));
      // Shown and required while there is a battery.
      const before = await state(projectId);
      const refused = await submit(projectId);
      assert.equal(refused.statusCode, 422, refused.body);
      assert.match(refused.body, /Code="FORM_INCOMPLETE"/);
      assert.deepEqual(fieldErrors(refused), ['BatteryCapacityKwh:REQUIRED']);
      assert.deepEqual(await state(projectId), before);
      // Typed, then hidden again: the draft keeps the value (the person may switch back) ...
      await ok(draft(projectId, { BatteryCapacityKwh: '13.5' }));
      await ok(draft(projectId, { HasBattery: 'false' }));
      assert.equal(value(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`)), 'BatteryCapacityKwh'), '13.5');
      // ... and the submission leaves it out of the submitted data.
      await ok(submit(projectId));
      const submitted = await ok(call(editor, 'GET', `Projects/${projectId}/Forms/Application/Data`));
      assert.equal(value(submitted, 'HasBattery'), 'false');
      assert.equal(value(submitted, 'BatteryCapacityKwh'), undefined);
    });

    it('requiredIf: a large system needs the installer licence before it can be submitted', async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, { ...APPLICATION, SystemSizeKwDc: '12', SystemSizeKwAc: '10' }));
      const before = await state(projectId);
      const refused = await submit(projectId);
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(fieldErrors(refused), ['InstallerLicense:REQUIRED']);
      assert.deepEqual(await state(projectId), before);
      await ok(draft(projectId, { InstallerLicense: 'C-46 123456' }));
      await ok(submit(projectId));
    });

    it("a rule over a table's rows: the inverters must add up to the AC output; a row without its rating leaves it undecided", async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, APPLICATION));
      const before = await state(projectId);
      // 2 × 3.8 = 7.6 kW against 6 kW AC: more than 5 % off.
      const refused = await call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', [{ Make: 'SMA', Model: 'SB3.8', Quantity: '2', RatedKwAc: '3.8' }]));
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(fieldErrors(refused), ['Inverters:RULE']);
      assert.match(refused.body, /Message="The inverters listed \(quantity × rated output\) must add up to the inverter output \(kW AC\), within 5 %."/);
      assert.deepEqual(await state(projectId), before);
      // Without the rating the sum cannot be taken: the rule is undecided and does not refuse the save.
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', [{ Make: 'SMA', Model: 'SB3.8', Quantity: '2' }])));
      // A rule is judged when the request writes its field or a field it reads: changing the AC output re-judges the
      // rows entered before (2 × 3 = 6 kW does not fit 6.4 kW).
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', [{ Make: 'SMA', Model: 'SB3.0', Quantity: '2', RatedKwAc: '3' }])));
      const saved = await state(projectId);
      const mismatch = await draft(projectId, { SystemSizeKwAc: '6.4' });
      assert.equal(mismatch.statusCode, 422, mismatch.body);
      assert.deepEqual(fieldErrors(mismatch), ['Inverters:RULE']);
      assert.deepEqual(await state(projectId), saved);
      await ok(submit(projectId));
    });

    it('calculated fields are computed on save and submission, searchable, and never writable', async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, APPLICATION));
      const saved = await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`));
      assert.equal(value(saved, 'DcAcRatio'), '1.27');
      assert.equal(value(saved, 'IncentiveEstimate'), '1900');
      const before = await state(projectId);
      const refused = await draft(projectId, { DcAcRatio: '2', CustomerName: 'Changed' });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(fieldErrors(refused), ['DcAcRatio:CALCULATED']);
      assert.deepEqual(await state(projectId), before);
      // A change of what a formula reads changes its value at once.
      await ok(draft(projectId, { SystemSizeKwDc: '12', HasBattery: 'true', BatteryCapacityKwh: '10', InstallerLicense: 'C-46 1' }));
      await ok(draft(projectId, { SystemSizeKwAc: '9.6' }));
      await ok(submit(projectId));
      const submitted = await ok(call(editor, 'GET', `Projects/${projectId}/Forms/Application/Data`));
      assert.equal(value(submitted, 'DcAcRatio'), '1.25');
      assert.equal(value(submitted, 'IncentiveEstimate'), String(2500 + 2 * 150 + 500));
      const search = `<ProjectByDataRequest xmlns="${NS}"><DataFields><Field Id="DcAcRatio" Operator="eq" Content="1.25"/></DataFields></ProjectByDataRequest>`;
      const found = await call(editor, 'POST', 'Projects/ByData', search);
      assert.equal(found.statusCode, 200, found.body);
      assert.match(found.body, new RegExp(`ProjectId="${projectId}"`));
    });

    it('a copy computes its calculated fields, and a web save with nothing changed computes those missing', async () => {
      const source = await newProject();
      await ok(draft(source, APPLICATION));
      const formId = model.forms.find((f) => f.customId === 'Application')!.id;
      const copied = await demo.webPost(applicant, '/MvcProjects/CopyProject', { ProgramId: model.program.id, ProjectId: source, FormId: formId });
      assert.equal(copied.statusCode, 303, copied.body);
      const copyId = /Projects\/([A-Z0-9]+)\/Forms/.exec(String(copied.headers.location))![1]!;
      const calculated = async (projectId: string) => {
        const draftOf = new Map((await demo.db.store.projects.getDraft(projectId, formId)).map((v) => [v.fieldId, v.value]));
        return [draftOf.get(id('DcAcRatio')), draftOf.get(id('IncentiveEstimate'))];
      };
      assert.deepEqual(await calculated(copyId), ['1.27', '1900']);
      // A draft whose calculated fields were never computed (written as a copy once was, or before a formula existed).
      const bare = await newProject();
      const values = Object.entries(APPLICATION).map(([customId, v]) => ({ fieldId: id(customId), value: v, values: null, updatedAt: clock.now(), updatedBy: 'test' }));
      await demo.db.store.transaction((tx) => tx.projects.upsertDraft(bare, formId, values));
      assert.deepEqual(await calculated(bare), [undefined, undefined]);
      const saved = await demo.webPost(applicant, `/MvcProjects/Programs/${model.program.id}/Projects/${bare}/Forms/${formId}`, { action: 'save' });
      assert.ok(saved.statusCode < 400, saved.body.slice(0, 500));
      assert.deepEqual(await calculated(bare), ['1.27', '1900']);
      // Saved again as shown, with the values computed: nothing is written.
      const before = await state(bare);
      await demo.webPost(applicant, `/MvcProjects/Programs/${model.program.id}/Projects/${bare}/Forms/${formId}`, { action: 'save' });
      assert.deepEqual(await state(bare), before);
    });

    it('readOnlyIf and requiredIf over project.files: the diagram is confirmed only once it is uploaded', async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, APPLICATION));
      await ok(submit(projectId));
      const before = await state(projectId);
      const refused = await draft(projectId, { SiteInfoComplete: 'true', DiagramMatchesEquipment: 'true' }, editor, 'ReviewChecklist');
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(fieldErrors(refused), ['DiagramMatchesEquipment:READ_ONLY']);
      assert.deepEqual(await state(projectId), before);
      // Without a diagram it is not asked for: the checklist goes in without it.
      await ok(draft(projectId, { SiteInfoComplete: 'true' }, editor, 'ReviewChecklist'));
      await ok(submit(projectId, editor, 'ReviewChecklist'));
    });

    it('a program change never corrupts a project in flight: new rules apply from the next request, stored values stay', async () => {
      const projectId = await newProject();
      await ok(upload(projectId, 'SitePlan'));
      await ok(draft(projectId, { ...APPLICATION, CustomerName: 'Pat', MeterNumber: 'M-1' }));
      // The program gains a rule this draft breaks and makes MeterNumber calculated.
      const data = parse(readFileSync(DEMO_PROGRAM_PATH, 'utf8')) as { fields: Record<string, unknown>[]; forms: { customId: string; fields: unknown[] }[] };
      const form = data.forms.find((f) => f.customId === 'Application')!;
      form.fields[0] = { field: 'CustomerName', required: true, validations: [{ rule: 'size(CustomerName) >= 5', message: 'Give the full name.' }] };
      data.fields[data.fields.findIndex((f) => f.customId === 'MeterNumber')] = {
        customId: 'MeterNumber', name: 'Meter number', type: 'calculated', resultType: 'text', group: 'Utility', formula: '"M-" + ServiceType',
      };
      const report = await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, validateProgramFile(data));
      assert.deepEqual(report.changes.map(describeChange), ['updated field MeterNumber (maxLength, formula)', 'updated form Application (rules)']);
      model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram(model.program.id))!);
      // The draft is as it was, and saving something else is not blocked by the rule it broke before.
      const kept = await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`));
      assert.equal(value(kept, 'CustomerName'), 'Pat');
      assert.equal(value(kept, 'MeterNumber'), 'M-1');
      await ok(draft(projectId, { CustomerPhone: '555-0100' }));
      // The save computed the now calculated field; the submission checks every rule.
      assert.equal(value(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`)), 'MeterNumber'), 'M-1P-120-240');
      const before = await state(projectId);
      const refused = await submit(projectId);
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(fieldErrors(refused), ['CustomerName:RULE']);
      assert.deepEqual(await state(projectId), before);
      await ok(draft(projectId, { CustomerName: 'Pat Homeowner' }));
      await ok(submit(projectId));
      // Restore the demo program for the tests after this one.
      await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(readFileSync(DEMO_PROGRAM_PATH, 'utf8')));
      model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram(model.program.id))!);
    });

    it('a rule that costs too much on the stored values refuses the save, naming the rule, and writes nothing', async () => {
      // 300 rows saved under a version without maxRows; the next version allows 10 and adds a rule that compares
      // every row with every other: cheap for 10 rows (it imports), 90,000 rounds for the 300 stored (it must stop).
      const data = parse(readFileSync(DEMO_PROGRAM_PATH, 'utf8')) as { fields: Record<string, unknown>[]; forms: { customId: string; fields: unknown[] }[] };
      const inverters = data.fields.find((f) => f.customId === 'Inverters')!;
      delete inverters.maxRows;
      const reimport = async () => {
        await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, validateProgramFile(data));
        model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram(model.program.id))!);
      };
      await reimport();
      const projectId = await newProject();
      await ok(draft(projectId, { SystemSizeKwDc: '3', SystemSizeKwAc: '3' }));
      const rows = Array.from({ length: 300 }, (_, i) => ({ Make: 'SMA', Model: `M-${i}`, Quantity: '1', RatedKwAc: '0.01' }));
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', rows)));
      inverters.maxRows = 10;
      const form = data.forms.find((f) => f.customId === 'Application')!;
      form.fields[form.fields.findIndex((f) => (f as { field?: string }).field === 'Inverters')] = {
        field: 'Inverters', validations: [{ rule: 'Inverters.all(a, Inverters.exists_one(b, b.Model == a.Model))', message: 'List each model once.' }],
      };
      await reimport();
      try {
        const before = await state(projectId);
        const started = Date.now();
        const xml = await draft(projectId, { CustomerPhone: '555-0100' });
        assert.equal(xml.statusCode, 422, xml.body);
        assert.ok(Date.now() - started < 2000, `the refusal took ${Date.now() - started} ms`);
        assert.deepEqual(fieldErrors(xml), ['Inverters:RULE_TOO_COSTLY']);
        const json = assertJsonAnswer(await call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, jsonData({ CustomerPhone: '555-0100' }), true), ErrorResponse, 422);
        assert.equal(json.Code, 'VALIDATION_FAILED');
        assert.match(json.Message, /^The validation of Inverters on form Interconnection Application costs more than the 100000 units a rule may cost on these values, so nothing was changed/);
        assert.deepEqual(await state(projectId), before);
        // The form can still be read (the rule is undecided there), and a save that drops the rows goes through.
        assert.equal(value(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Draft/Data`)), 'CustomerPhone'), undefined);
        await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', rows.slice(0, 3))));
      } finally {
        await importProgram({ store: demo.db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(readFileSync(DEMO_PROGRAM_PATH, 'utf8')));
        model = await demo.db.store.programs.loadProgramModel((await demo.db.store.programs.findProgram(model.program.id))!);
      }
    });

    it('a save runs the rules before the write lock, and again inside only when the project changed in between', async () => {
      const projectId = await newProject();
      await ok(draft(projectId, { SystemSizeKwDc: '7.6' }));
      // Count the form drafts the rules read inside transactions (the demo's access groups read the submitted values in
      // every change, for the project's membership, never the draft); `interleave` runs another request just before one is opened.
      const store = demo.db.store;
      const transaction = store.transaction;
      let reads = 0;
      let interleave: (() => Promise<unknown>) | null = null;
      const counted = <T extends object>(target: T): T => new Proxy(target, {
        get: (t, key) => {
          if (key === 'getDraft') reads++;
          const v = Reflect.get(t, key) as unknown;
          return typeof v === 'function' ? v.bind(t) : v;
        },
      });
      store.transaction = (async (fn: (tx: object) => Promise<unknown>) => {
        const before = interleave;
        interleave = null;
        if (before) await before();
        return transaction.call(store, (tx: object) => fn(new Proxy(tx, { get: (t, key) => (key === 'projects' ? counted(Reflect.get(t, key) as object) : Reflect.get(t, key)) })));
      }) as typeof store.transaction;
      try {
        await ok(draft(projectId, { CustomerName: 'Pat' }));
        assert.equal(reads, 0, 'the rules ran inside the lock although nothing had changed');
        // Another save lands between this save's rules and its lock: the rules run again on the locked project, and
        // its 9 kW AC is more than 1.25 times the 7 kW DC this save sets.
        interleave = () => ok(draft(projectId, { SystemSizeKwAc: '9' }));
        const before = await state(projectId);
        const refused = await draft(projectId, { SystemSizeKwDc: '7' });
        assert.equal(refused.statusCode, 422, refused.body);
        assert.deepEqual(fieldErrors(refused), ['SystemSizeKwAc:RULE']);
        assert.ok(reads > 0);
        const after = await state(projectId) as { version: number };
        assert.equal(after.version, (before as { version: number }).version + 1, 'only the interleaved save was written');
      } finally {
        store.transaction = transaction;
      }
    });

    it('GetFormSchema version 2 gives each field its formula and rules, in XML and JSON', async () => {
      const xml = await ok(call(applicant, 'GET', 'Forms/Application/Schema?version=2'));
      assert.match(xml, /<Formula>round\(SystemSizeKwDc \/ SystemSizeKwAc, 2\)<\/Formula>/);
      assert.match(xml, /<Rules><VisibleIf>HasBattery<\/VisibleIf><Validation Message="A battery&apos;s capacity must be more than 0 kWh."><Rule>BatteryCapacityKwh &gt; 0.0<\/Rule><\/Validation><\/Rules>/);
      const json = JSON.parse(await ok(call(applicant, 'GET', 'Forms/Application/Schema?version=2', undefined, true))) as {
        Form: { DataFields: { DataField: { CustomId: string; Formula?: string; Rules?: { RequiredIf?: string } }[] } };
      };
      const fields = json.Form.DataFields.DataField;
      assert.equal(fields.find((f) => f.CustomId === 'InstallerLicense')?.Rules?.RequiredIf, 'SystemSizeKwDc > 10.0');
      assert.equal(fields.find((f) => f.CustomId === 'IncentiveEstimate')?.Formula?.startsWith('(SystemSizeKwDc <= 10.0'), true);
    });
  });
}
