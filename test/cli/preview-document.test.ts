import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { stringify } from 'yaml';
import { runApasInProcess } from '../support/run-apas.ts';
import { pdfPageTexts } from '../support/pdf-text.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { testEnv } from './test-store.ts';

// apas program preview-document: the PDF of a document template of a program file over a sample project, without a
// database; problems of the file are reported as an import reports them, and a real project is looked up by number.

let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'apas-preview-document-'));
  const documents = [{
    customId: 'Letter', name: 'Approval letter', title: 'Approval', form: 'Apply', footer: 'Page {{ page }} of {{ pages }}',
    body: '# Approval of {{ project.number }}\n\nDear {{ fields.Customer }}, status {{ project.status }}.\n',
  }];
  writeFileSync(path.join(dir, 'pv.yaml'), stringify({ ...sampleProgram(), documents }));
  writeFileSync(path.join(dir, 'bad.yaml'), stringify({ ...sampleProgram(), documents: [{ ...documents[0], body: '{{ fields.Nope }}' }] }));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) => runApasInProcess(['program', 'preview-document', ...args], { cwd: dir, env });

test('writes the PDF of a document over the sample project', async () => {
  const r = await run(['pv.yaml', '--document', 'Letter', '--out', 'letter.pdf']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Wrote document Letter \(template version [0-9a-f]{12}, \d+ bytes\) of the sample project to letter\.pdf\./);
  const bytes = readFileSync(path.join(dir, 'letter.pdf'));
  assert.equal((await PDFDocument.load(bytes, { updateMetadata: false })).getTitle(), 'Approval');
  const text = (await pdfPageTexts(bytes)).join('');
  for (const expected of ['Approval of PV-00042', 'Dear [Customer name], status In review.', 'Page 1 of 1']) assert.ok(text.includes(expected), `${expected} in ${text}`);
});

test('refuses an unknown document, a missing option, a file with problems and an unknown project', async () => {
  const unknown = await run(['pv.yaml', '--document', 'Nope', '--out', 'x.pdf']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /has no document "Nope"; its documents are Letter/);
  const missing = await run(['pv.yaml', '--document', 'Letter']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--out/);
  const bad = await run(['bad.yaml', '--document', 'Letter', '--out', 'x.pdf']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /bad\.yaml is not a valid program \(1 problem\):\n {2}- document "Letter" \(line \d+, column \d+\): body: unknown variable "fields\.Nope"/);
  const db = path.join(dir, 'apas.db');
  const real = await run(['pv.yaml', '--document', 'Letter', '--project', 'PV-00001', '--out', 'x.pdf'], { DATABASE_URL: db });
  assert.equal(real.code, 1, real.stderr);
  assert.match(real.stderr, /program "PV" is not in the database; import the file first/);
});

test('with --project, renders a stored project of the imported program as it is now, changing nothing', async () => {
  const env = await testEnv();
  try {
    const at = Date.UTC(2026, 2, 3);
    await env.store.transaction((tx) => tx.accounts.insertAgency({ id: 'AGENCYDOC001', customId: 'docs', name: 'Docs' }, at));
    const report = await importProgram(env, 'docs', parseProgramFile(readFileSync(path.join(dir, 'pv.yaml'), 'utf8')));
    const program = (await env.store.programs.findProgram(report.programId))!;
    const model = await env.store.programs.loadProgramModel(program);
    const review = model.statuses.find((s) => s.customId === 'Review')!;
    const customer = model.fields.find((f) => f.customId === 'Customer')!;
    const apply = model.forms.find((f) => f.customId === 'Apply')!;
    await env.store.transaction(async (tx) => {
      await tx.accounts.insertUser({ id: 'USERDOC00001', agencyId: 'AGENCYDOC001', email: 'grace@example.org', name: 'Grace Hopper', agencyAdmin: false, disabled: false }, 'x', at);
      await tx.projects.insertProject({
        id: 'PROJDOC00001', programId: program.id, number: 'PV-00007', statusId: review.id, statusAt: at, createdAt: at, createdBy: 'USERDOC00001',
        updatedAt: at, updatedBy: 'USERDOC00001', ownerId: 'USERDOC00001', assigneeId: null, version: 3,
      });
      await tx.projects.upsertValues('PROJDOC00001', apply.id, [{ fieldId: customer.id, value: 'Grace Hopper', values: null, updatedAt: at, updatedBy: 'USERDOC00001' }]);
    });
    const before = await env.store.projects.getProject(program.id, 'PROJDOC00001');
    const r = await run(['pv.yaml', '--document', 'Letter', '--project', 'PV-00007', '--out', 'real.pdf'], { DATABASE_URL: env.file });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /of project PV-00007 to real\.pdf\./);
    const text = (await pdfPageTexts(readFileSync(path.join(dir, 'real.pdf')))).join('');
    for (const expected of ['Approval of PV-00007', 'Dear Grace Hopper, status In review.']) assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.deepEqual(await env.store.projects.getProject(program.id, 'PROJDOC00001'), before);
    const unknown = await run(['pv.yaml', '--document', 'Letter', '--project', 'PV-00099', '--out', 'x.pdf'], { DATABASE_URL: env.file });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /program PV has no project "PV-00099"/);
  } finally {
    await env.cleanup();
  }
});
