import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { DocumentTemplate } from '../../src/model/document.ts';
import type { Store } from '../../src/store/store.ts';
import { withVersion } from '../../src/domain/programs/program-documents.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import { assertError, authHeaders, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { createProject, projectPath, projectState } from './http-helpers.ts';
import { Visitor } from './web-visitor.ts';
import { csrfToken } from './inquiry-helpers.ts';

// A document template's attachment definition (migration 045): stored and read back on both databases, and closed
// to people's uploads — SetProjectAttachment answers 403 and changes nothing, the form page offers no file input.

const LETTER = 'ATTACH00000D';
const MEMO = 'ATTACH00000M';

function letter(customId = 'letter', attachmentId = LETTER, visibleToApplicant = true): DocumentTemplate {
  return withVersion({
    customId, name: `Template ${customId}`, title: 'Approval', language: 'en', body: 'Approved.', header: null, footer: null,
    visibleToApplicant, attachmentId, signers: [], order: 'sequential', disclosure: null, sensitiveFields: [], logo: null,
  });
}

/** The fixture program with a document template and its attachment definition on the fixture form. */
async function addLetter(store: Store): Promise<void> {
  const rows = programRows(T0 + 1);
  rows.program.documents = [letter(), letter('memo', MEMO, false)];
  rows.forms[0]!.attachments.push({
    id: LETTER, formId: IDS.form, customId: 'letter', name: 'Approval letter', allowedTypes: ['application/pdf'],
    maxSizeBytes: 1024 * 1024, required: false, position: 1, document: 'letter',
  }, {
    id: MEMO, formId: IDS.form, customId: 'memo', name: 'Internal memo', allowedTypes: ['application/pdf'],
    maxSizeBytes: 1024 * 1024, required: false, position: 2, document: 'memo',
  });
  await store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

forEachDialect('document attachments', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  before(async () => {
    // Opened here rather than by the suite, which closes what it opens after each test.
    db = await openTestStore(dialect);
    h = await startHttp(db);
    await addLetter(h.store);
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  it('stores the template and marks its attachment definition, and reads both back', async () => {
    const program = (await h.store.programs.findProgram(IDS.program))!;
    const model = await h.store.programs.loadProgramModel(program);
    assert.deepEqual(model.program.documents, [letter(), letter('memo', MEMO, false)]);
    const definitions = model.forms[0]!.attachments.map((a) => [a.customId, a.document ?? null]);
    assert.deepEqual(definitions, [['photo', null], ['letter', 'letter'], ['memo', 'memo']]);
  });

  for (const who of ['applicant', 'admin'] as Who[]) {
    it(`refuses ${who}'s upload to it with 403, storing nothing`, async () => {
      const projectId = await createProject(h);
      const before = { ...(await projectState(h, projectId)), file: await h.store.attachments.getAttachment(projectId, LETTER) };
      const res = await h.app.inject({
        method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/letter`, payload: Buffer.from('%PDF-1.7\n'),
        headers: { ...authHeaders(h.who[who]), 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="forged.pdf"' },
      });
      assertError(h, res, 403, 'FORBIDDEN');
      assert.match(res.body, /generates from the document template &quot;letter&quot;|generates from the document template "letter"/);
      assert.deepEqual({ ...(await projectState(h, projectId)), file: await h.store.attachments.getAttachment(projectId, LETTER) }, before);
      assert.equal(before.file, null);
    });
  }

  it('the form page offers no file input for it, but does for the others; a template not visible to applicants is shown to staff only', async () => {
    const projectId = await createProject(h);
    const v = new Visitor(h);
    await v.signIn(h.who.applicant.email, h.who.applicant.password);
    const res = await v.send('GET', `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Forms/${IDS.form}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, new RegExp(`name="file_${IDS.photo}"`));
    assert.doesNotMatch(res.body, new RegExp(`name="file_${LETTER}"`));
    assert.match(res.body, /Approval letter/);
    assert.match(res.body, /it cannot be uploaded/);
    assert.doesNotMatch(res.body, /Internal memo/);
    const staff = new Visitor(h);
    await staff.signIn(h.who.editor.email, h.who.editor.password);
    const page = await staff.send('GET', `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Forms/${IDS.form}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Internal memo/);
    assert.doesNotMatch(page.body, new RegExp(`name="file_${MEMO}"`));
  });

  // No page offers the input, so only a forged post sends one: it gets the 403 page, as any refused access does.
  it('a form post carrying a file for it anyway is refused with 403 and stores nothing', async () => {
    const projectId = await createProject(h);
    const csrf = await csrfToken(h);
    const boundary = 'xxBOUNDARYxx';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf.token}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="action"\r\n\r\nupload:${LETTER}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file_${LETTER}"; filename="forged.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n\r\n`),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const before = await projectState(h, projectId);
    const res = await h.app.inject({
      method: 'POST', url: `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Forms/${IDS.form}`, payload,
      headers: { authorization: authHeaders(h.who.applicant).authorization!, cookie: csrf.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(await h.store.attachments.getAttachment(projectId, LETTER), null);
    assert.deepEqual(await projectState(h, projectId), before);
  });
});
