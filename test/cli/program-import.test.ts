import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { formatImportReport, type ImportReport, importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { spyOnSaves, type TestEnv, testEnv } from './test-store.ts';

let env: TestEnv;
let agencyNo = 0;
let agency = '';

before(async () => {
  env = await testEnv();
});
after(async () => {
  await env.cleanup();
});
// Each test gets its own agency, so programs of one test never meet those of another.
beforeEach(async () => {
  agency = `agency${++agencyNo}`;
  await env.store.transaction((tx) => tx.accounts.insertAgency({ id: `AG${String(agencyNo).padStart(10, '0')}`, customId: agency, name: agency }, 1));
});

function load(program: Record<string, unknown>) {
  return validateProgramFile(program);
}

async function run(program: Record<string, unknown>, options = {}): Promise<ImportReport> {
  return importProgram(env, agency, load(program), options);
}

function lines(report: ImportReport): string[] {
  return report.changes.map(describeChange);
}

async function definition(programId: string) {
  const def = await env.store.programs.loadProgramDefinition(programId);
  assert.ok(def);
  return def;
}

async function model(programId: string) {
  const program = await env.store.programs.findProgram(programId);
  assert.ok(program);
  return env.store.programs.loadProgramModel(program);
}

test('the first import creates everything; the second reports no changes and writes nothing', async () => {
  const spy = spyOnSaves(env.store);
  const deps = { ...env, store: spy.store };
  const first = await importProgram(deps, agency, load(sampleProgram()));
  assert.equal(first.programCreated, true);
  assert.equal(first.changed, true);
  assert.ok(lines(first).includes('created program PV'));
  assert.ok(lines(first).includes('created attachment Apply/SitePlan'));
  assert.equal(spy.saves(), 1);
  const before = await definition(first.programId);

  const second = await importProgram(deps, agency, load(sampleProgram()));
  assert.equal(second.changed, false);
  assert.deepEqual(second.changes, []);
  assert.equal(second.programId, first.programId);
  assert.equal(spy.saves(), 1, 'an unchanged file must not be saved again');
  assert.match(formatImportReport(second), /^Program PV \(id \w+\): no changes\.$/);
  const after = await definition(first.programId);
  assert.deepEqual(after, before);
});

test('the import is audited once, and not at all when nothing changed', async () => {
  const { programId } = await run(sampleProgram(), { actorId: null });
  await run(sampleProgram());
  const audits = (await env.store.audit.list({ action: 'program.import', limit: 1000 })).filter((a) => a.programId === programId);
  assert.equal(audits.length, 1);
  assert.equal(audits[0]!.agencyId, (await env.store.accounts.findAgency(agency))!.id);
  assert.ok(Array.isArray(audits[0]!.detail?.changes));
});

test('a renamed field keeps its id when matched by customId', async () => {
  const { programId } = await run(sampleProgram());
  const idBefore = (await model(programId)).fields.find((f) => f.customId === 'Customer')!.id;
  const renamed = sampleProgram();
  renamed.fields[0]!.name = 'Applicant name';
  renamed.fields[0]!.maxLength = 120;
  const report = await run(renamed);
  assert.deepEqual(lines(report), ['updated field Customer (name, maxLength)']);
  const field = (await model(programId)).fields.find((f) => f.customId === 'Customer')!;
  assert.equal(field.id, idBefore);
  assert.equal(field.name, 'Applicant name');
});

test('parts without a customId are matched by name', async () => {
  const program = sampleProgram();
  delete program.fields[1]!.customId;
  const { programId } = await run(program);
  const id = (await model(programId)).fields.find((f) => f.name === 'System size')!.id;
  const again = sampleProgram();
  delete again.fields[1]!.customId;
  again.fields[1]!.max = 80;
  assert.deepEqual(lines(await run(again)), ['updated field System size (max)']);
  // Giving it a customId later still finds it by name.
  assert.deepEqual(lines(await run(sampleProgram())), ['updated field Size (customId, max)']);
  assert.equal((await model(programId)).fields.find((f) => f.customId === 'Size')!.id, id);
});

test('a removed field is retired and comes back with the same id', async () => {
  const { programId } = await run(sampleProgram());
  const serialsId = (await model(programId)).fields.find((f) => f.customId === 'Serials')!.id;
  const without = sampleProgram();
  without.fields.splice(4, 1);
  without.forms[1]!.fields = [];
  const removed = await run(without);
  assert.deepEqual(lines(removed), ['retired field Serials', 'updated form Finish (fields)']);
  assert.equal((await model(programId)).fields.some((f) => f.id === serialsId), false);
  assert.ok((await definition(programId)).fields.some((f) => f.id === serialsId), 'retired rows are kept');

  const restored = await run(sampleProgram());
  assert.deepEqual(lines(restored), ['restored field Serials', 'updated form Finish (fields)']);
  assert.equal((await model(programId)).fields.find((f) => f.customId === 'Serials')!.id, serialsId);
});

test('a removed list, status, form and attachment are retired and restored too', async () => {
  const { programId } = await run(sampleProgram());
  const ids = new Set((await definition(programId)).forms.flatMap((f) => [f.id, ...f.attachments.map((a) => a.id)]));
  const smaller = sampleProgram();
  smaller.forms.splice(1, 1);
  smaller.forms[0]!.attachments = [];
  smaller.statuses[1]!.next = ['Approved'];
  smaller.statuses.splice(3, 1);
  smaller.fields.splice(2, 1);
  smaller.forms[0]!.fields = ['Customer', 'Size'];
  smaller.customLists = [];
  const report = await run(smaller);
  for (const line of ['retired list Makes', 'retired status Rejected', 'retired form Finish', 'retired attachment Apply/SitePlan', 'retired field Make']) {
    assert.ok(lines(report).includes(line), `missing "${line}" in ${lines(report).join('; ')}`);
  }
  const back = await run(sampleProgram());
  for (const line of ['restored list Makes', 'restored status Rejected', 'restored form Finish', 'restored attachment Apply/SitePlan']) {
    assert.ok(lines(back).includes(line), `missing "${line}" in ${lines(back).join('; ')}`);
  }
  const now = new Set((await model(programId)).forms.flatMap((f) => [f.id, ...f.attachments.map((a) => a.id)]));
  assert.deepEqual(now, ids);
});

test('moving parts around is one "reordered" line, not an update of each', async () => {
  await run(sampleProgram());
  const program = sampleProgram();
  program.fields.reverse();
  assert.deepEqual(lines(await run(program)), ['reordered fields']);
});

test('program-level changes are reported by property', async () => {
  await run(sampleProgram());
  const program = sampleProgram();
  program.name = 'Small PV systems';
  program.numberDigits = 6;
  assert.deepEqual(lines(await run(program)), ['updated program PV (name, numberDigits)']);
});

test('notification templates are imported, reported as a program change, exported and round-trip unchanged', async () => {
  await run(sampleProgram());
  const notifications = {
    question: { text: 'Please look at {{link}}', subject: 'Question on {{projectNumber}}' },
    statusChanged: { subject: '{{projectNumber}}: {{status}}', text: 'Now {{status}}.\n{{link}}' },
  };
  const report = await run({ ...sampleProgram(), notifications });
  assert.deepEqual(lines(report), ['updated program PV (notifications)']);
  const stored = await env.store.programs.findProgram('PV', report.agencyId);
  assert.deepEqual(stored?.notifications, { statusChanged: notifications.statusChanged, question: { subject: 'Question on {{projectNumber}}', text: 'Please look at {{link}}' } });
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(await exportProgram(env.store, agency, 'PV'), format);
    assert.match(text, /Question on \{\{projectNumber\}\}/);
    assert.equal((await importProgram(env, agency, parseProgramFile(text, format))).changed, false, format);
  }
  assert.deepEqual(lines(await run(sampleProgram())), ['updated program PV (notifications)']);
  assert.equal((await env.store.programs.findProgram('PV', report.agencyId))?.notifications, null);
});

test('selfService.signUp is imported, reported, exported only when on, and round-trips', async () => {
  const { agencyId } = await run(sampleProgram());
  assert.equal((await env.store.programs.findProgram('PV', agencyId))?.selfSignUp, false);
  assert.doesNotMatch(formatProgramFile(await exportProgram(env.store, agency, 'PV'), 'yaml'), /selfService/);
  assert.deepEqual(lines(await run({ ...sampleProgram(), selfService: { signUp: true } })), ['updated program PV (selfSignUp)']);
  assert.equal((await env.store.programs.findProgram('PV', agencyId))?.selfSignUp, true);
  const text = formatProgramFile(await exportProgram(env.store, agency, 'PV'), 'yaml');
  assert.match(text, /selfService: \{ signUp: true \}/);
  assert.equal((await importProgram(env, agency, parseProgramFile(text, 'yaml'))).changed, false);
});

test('public ids are generated once and kept; an explicit one replaces it', async () => {
  const { programId } = await run(sampleProgram());
  const publicIds = (await model(programId)).statuses.map((s) => s.publicId);
  assert.deepEqual(publicIds, ['unsubmitted', 'review', 'approved', 'rejected']);
  const program = sampleProgram();
  program.statuses[1]!.name = 'Under review';
  await run(program);
  assert.equal((await model(programId)).statuses[1]!.publicId, 'review');
  program.statuses[1]!.publicId = 'under-review';
  assert.deepEqual(lines(await run(program)), ['updated status Review (publicId)']);
});

test('a dry run reports the changes and writes nothing', async () => {
  const report = await run(sampleProgram(), { dryRun: true });
  assert.equal(report.changed, true);
  assert.match(formatImportReport(report), /would be created/);
  assert.equal(await env.store.programs.findProgram('PV', (await env.store.accounts.findAgency(agency))!.id), null);
});

test('an unknown agency is NOT_FOUND', async () => {
  await assert.rejects(importProgram(env, 'no-such-agency', load(sampleProgram())), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 'NOT_FOUND');
    assert.match(e.message, /agency "no-such-agency" not found/);
    return true;
  });
});

test('retiring a status that projects are in is refused, and nothing changes', async () => {
  const { programId } = await run(sampleProgram());
  const rejected = (await model(programId)).statuses.find((s) => s.customId === 'Rejected')!;
  const agencyId = (await env.store.accounts.findAgency(agency))!.id;
  await env.store.transaction(async (tx) => {
    await tx.accounts.insertUser({ id: `U${agencyId}`, agencyId, email: `${agency}@example.org`, name: 'Owner', agencyAdmin: false, disabled: false }, 'x', 1);
    await tx.projects.insertProject({
      id: `P${agencyId}`, programId, number: 'PV-00001', statusId: rejected.id, statusAt: 1, createdAt: 1, createdBy: `U${agencyId}`,
      updatedAt: 1, updatedBy: `U${agencyId}`, ownerId: `U${agencyId}`, assigneeId: null, version: 0,
    });
  });
  const before = await definition(programId);
  const program = sampleProgram();
  program.statuses.splice(3, 1);
  program.statuses[1]!.next = ['Approved'];
  program.name = 'Also renamed';
  await assert.rejects(run(program), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 'INVALID_REQUEST');
    assert.match(e.message, /cannot retire status "Rejected" \(1 project\)/);
    return true;
  });
  assert.deepEqual(await definition(programId), before);
  // Renaming the busy status is fine: it keeps its id.
  program.statuses.push({ customId: 'Rejected', name: 'Declined' });
  program.statuses[1]!.next = ['Approved', 'Rejected'];
  assert.ok(lines(await run(program)).includes('updated status Rejected (name)'));
});

test('export then import of the export reports no changes (YAML and JSON)', async () => {
  const { programId } = await run(sampleProgram());
  for (const format of ['yaml', 'json'] as const) {
    const exported = await exportProgram(env.store, agency, 'PV');
    const text = formatProgramFile(exported, format);
    const report = await importProgram(env, agency, parseProgramFile(text, format));
    assert.equal(report.changed, false, `${format}: ${lines(report).join('; ')}`);
    assert.equal(report.programId, programId);
  }
});

test('the export is compact: defaults left out, plain strings where they suffice', async () => {
  await run(sampleProgram());
  const text = formatProgramFile(await exportProgram(env.store, agency, 'PV'), 'yaml');
  assert.match(text, /^customId: PV$/m);
  assert.match(text, /- SMA\n\s+- \{ value: ENP, label: Enphase \}/);
  assert.doesNotMatch(text, /multiValue: false/);
  assert.match(text, /- Make\n/);
  assert.match(text, /\{ field: Customer, required: true \}/);
});

test('exporting an unknown program is NOT_FOUND', async () => {
  await assert.rejects(exportProgram(env.store, agency, 'NOPE'), /program "NOPE" not found/);
});

test('rules and formulas: reported as changes, exported and imported back without a change', async () => {
  const program = sampleProgram();
  program.fields.push({ customId: 'Ratio', name: 'Ratio', type: 'calculated', resultType: 'number', formula: 'Size / 2.0' });
  const applyFields: unknown[] = [{ field: 'Customer', required: true, readOnlyIf: 'role == "reader"' }, { field: 'System size', visibleIf: 'Make == "SMA"' }, 'Make', 'Ratio'];
  program.forms[0]!.fields = applyFields;
  const { programId } = await run(program);
  assert.deepEqual(lines(await run(program)), []);
  const exported = formatProgramFile(await exportProgram(env.store, agency, programId), 'yaml');
  assert.match(exported, /type: calculated/);
  assert.match(exported, /visibleIf: Make == "SMA"/);
  assert.deepEqual(lines(await importProgram(env, agency, parseProgramFile(exported))), [], exported);

  applyFields[1] = { field: 'System size', visibleIf: 'Make == "ENP"', validations: [{ rule: 'Size > 1.0', message: 'More.' }] };
  program.fields[5]!.formula = 'Size / 4.0';
  // A field people filled in becomes calculated: its values stay until a save or submission computes them.
  program.fields[0] = { customId: 'Customer', name: 'Customer name', type: 'calculated', resultType: 'text', formula: 'Make + " customer"' };
  applyFields[0] = 'Customer';
  const dry = await run(program, { dryRun: true });
  assert.deepEqual(lines(dry), ['updated field Customer (maxLength, formula)', 'updated field Ratio (formula)', 'updated form Apply (fields, rules)']);
  assert.deepEqual(lines(await run(program)), lines(dry));
  const field = (await model(programId)).fields.find((f) => f.customId === 'Customer')!;
  assert.equal(field.formula, 'Make + " customer"');
  assert.equal(field.type, 'text');
});
