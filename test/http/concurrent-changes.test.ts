import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { dataRequest, NS } from '../support/http-harness.ts';
import { createProject, draftPath, projectPath, sharedHarness } from './http-helpers.ts';
import { inquiryUrls, noteRequest } from './inquiry-helpers.ts';

// Every change of a project locks it in its transaction, so changes that sent no precondition queue behind each other
// and all succeed, on SQLite (one writer at a time) and on PostgreSQL (a row lock) alike.

const CONCURRENT = 20;

forEachDialect('HTTP concurrent changes of one project', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  it(`answers ${CONCURRENT} concurrent draft saves of one project with 200 each, bumps the version by ${CONCURRENT} and audits each`, async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const before = (await h.store.projects.getProject(IDS.program, projectId))!;
    const names = Array.from({ length: CONCURRENT }, (_, i) => `Saver ${i}`);
    const answers = await Promise.all(names.map((name) =>
      h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name }) })));
    assert.deepEqual(answers.map((r) => r.statusCode), names.map(() => 200), answers.find((r) => r.statusCode !== 200)?.body);
    const after = (await h.store.projects.getProject(IDS.program, projectId))!;
    assert.equal(after.version, before.version + CONCURRENT);
    const audit = await h.store.audit.list({ projectId, action: 'project.draft.set' });
    assert.equal(audit.length, CONCURRENT);
    const saved = (await h.store.projects.getDraft(projectId, IDS.form)).find((v) => v.fieldId === IDS.name)?.value;
    assert.ok(saved !== undefined && names.includes(saved as string), `the draft holds one of the saved names, got ${saved}`);
  });

  it('lets different kinds of changes of one project run at once: each succeeds, once', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const before = (await h.store.projects.getProject(IDS.program, projectId))!;
    const requests = [
      ...Array.from({ length: 5 }, (_, i) => ({ as: 'applicant' as const, url: draftPath(projectId), body: dataRequest({ name: `Name ${i}` }) })),
      ...Array.from({ length: 5 }, (_, i) => ({ as: 'admin' as const, url: inquiryUrls.addNote(projectId), body: noteRequest({ subject: `Q${i}`, text: `Question ${i}` }) })),
      // One assigns the editor and one the reader: in whichever order they queue, both succeed and both change it.
      ...[h.who.editor.email, h.who.reader.email].map((email) => ({
        as: 'admin' as const, url: `${projectPath(projectId)}/Assignee`,
        body: `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${email}</AssigneeEmail></SetAssigneeRequest>`,
      })),
    ];
    const answers = await Promise.all(requests.map((r) => h.request({ method: 'POST', url: r.url, as: r.as, body: r.body })));
    assert.deepEqual(answers.map((r) => r.statusCode), requests.map(() => 200), answers.find((r) => r.statusCode !== 200)?.body);
    const after = (await h.store.projects.getProject(IDS.program, projectId))!;
    assert.equal(after.version, before.version + requests.length);
    assert.equal((await h.store.inquiries.listThreads(projectId)).length, 5);
    assert.equal((await h.store.audit.list({ projectId })).length, 1 + requests.length, 'the creation and each change');
  });
});
