import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { withVersion } from '../../src/domain/programs/program-documents.ts';
import { createDocumentRenderer } from '../../src/domain/documents/document-renderer.ts';
import type { DocumentTemplate } from '../../src/model/document.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import { type HttpHarness, startHttp } from '../support/http-harness.ts';
import { pdfPageTexts } from '../support/pdf-text.ts';
import { COMPLETE, createSubmitted } from './http-helpers.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { counterIds, steppingClock } from '../cli/test-store.ts';
import { sampleProgram } from '../cli/sample-program.ts';

// Importing a program file's documents, and createDocumentRenderer over a stored project, on both databases: the submitted values as people read them (a
// sensitive one unsealed only because the template lists it), the project's number and status, the owner; the
// project and its version left as they were (rendering reads, holds no lock, writes nothing).

function template(customId: string, body: string, sensitive: string[]): DocumentTemplate {
  return withVersion({
    customId, name: customId, title: `Title of ${customId}`, language: 'en', body, header: null, footer: 'Page {{ page }} of {{ pages }}',
    visibleToApplicant: false, attachmentId: IDS.photo, signers: [], order: 'sequential', disclosure: null, sensitiveFields: sensitive, logo: null,
  });
}

forEachDialect('document rendering', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  before(async () => {
    db = await openTestStore(dialect);
    h = await startHttp(db);
    const rows = programRows(T0 + 1);
    rows.program.documents = [
      template('letter', '# {{ project.number }} is {{ project.status }}\n\nFor {{ fields.name }} ({{ owner.email }}): {{ fields.kw }} kW, sizes {{ fields.size }}.', [IDS.name]),
      template('bad', '{% for r in (1..3) %}{{ r.nope }}{% endfor %}', []),
    ];
    await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  it('renders a submitted project\'s data, the listed sensitive field unsealed, and changes nothing', async () => {
    const { projectId, number } = await createSubmitted(h);
    const before = await h.store.projects.getProject(IDS.program, projectId);
    const renderer = createDocumentRenderer({ store: h.store });
    const rendered = await renderer.renderForProject({ programId: IDS.program, templateId: 'letter', projectId, now: T0 + 5000 });
    assert.equal(rendered.title, 'Title of letter');
    const text = (await pdfPageTexts(rendered.pdf)).join('');
    for (const expected of [`${number} is Submitted`, `For ${COMPLETE.name} (user00000002@example.org): 7.5 kW, sizes Small, Medium.`, 'Page 1 of 1']) {
      assert.ok(text.includes(expected), `"${expected}" in ${text}`);
    }
    assert.deepEqual(await h.store.projects.getProject(IDS.program, projectId), before);
  });

  it('an import stores a program file\'s documents and their attachments, and exporting and importing again changes nothing', async () => {
    const deps = { store: h.store, clock: steppingClock(), ids: counterIds(`D${dialect[0]}`), checkers: programCheckers() };
    const file = validateProgramFile({
      ...sampleProgram(),
      documents: [{ customId: 'Letter', name: 'Approval letter', title: 'Approval', form: 'Apply', body: 'Dear {{ fields.Customer }}', signers: [{ customId: 'C', name: 'Customer', owner: true }] }],
    });
    const report = await importProgram(deps, 'acme', file);
    assert.ok(report.changes.map(describeChange).includes('created document Letter'));
    const program = (await h.store.programs.findProgram(report.programId))!;
    const model = await h.store.programs.loadProgramModel(program);
    const definition = model.forms.find((f) => f.customId === 'Apply')!.attachments.find((a) => a.document === 'Letter')!;
    assert.equal(model.program.documents![0]!.attachmentId, definition.id);
    const again = await importProgram(deps, 'acme', parseProgramFile(formatProgramFile(await exportProgram(h.store, 'acme', 'PV'), 'yaml')));
    assert.deepEqual(again.changes, []);
  });

  it('refuses an unknown template, project, and a template the data cannot render, with 4xx codes', async () => {
    const { projectId } = await createSubmitted(h);
    const renderer = createDocumentRenderer({ store: h.store });
    const refused = (templateId: string, project = projectId) => assert.rejects(
      renderer.renderForProject({ programId: IDS.program, templateId, projectId: project, now: T0 }), (e) => e instanceof ApiError && e.code !== 'INTERNAL_ERROR' && (e.code === 'NOT_FOUND' || e.code === 'INVALID_REQUEST'));
    await refused('nope');
    await refused('letter', 'NOPROJECT000');
    await assert.rejects(renderer.renderForProject({ programId: IDS.program, templateId: 'bad', projectId, now: T0 }),
      (e) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && /document "bad": body \(line 1, column \d+ of the body\)/.test(e.message));
  });
});
