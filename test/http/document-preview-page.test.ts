import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PREVIEW_CLOCK_STEP_MS } from '../../src/domain/documents/preview-time.ts';
import type { Store } from '../../src/store/store.ts';
import { reviewPath } from '../../src/web/pages/work-queue-page.tsx';
import { DOC_IDS, documentProgramRows, template, withDocuments } from '../support/document-fixtures.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { pdfPageTexts } from '../support/pdf-text.ts';
import { createSubmitted } from './http-helpers.ts';
import { assertPdfAnswersRanges } from './ranged-pdf-checks.ts';
import { webGet } from './web-page-helpers.ts';

// Previewing a document on the review page (docs/web.md, "Documents"): a program's admins open a document rendered
// by the real renderer over the project as it is now, inline in the browser; other staff are refused, a project the
// caller may not read is not found, and a preview writes nothing, on both databases.

/** A letter naming the project's number, so the preview shows it was rendered over this project. */
const LETTER = { ...template('ApprovalLetter', DOC_IDS.letter, true), body: '# Approval letter\n\nProject {{ project.number }} is approved.' };

const preview = (projectId: string, doc = 'ApprovalLetter') => `${reviewPath('solar', projectId)}/Documents/${doc}/Preview`;

/** Everything a preview could have written: requests, file versions, audit rows and events of the project. */
async function written(store: Store, projectId: string) {
  return {
    requests: await store.documents.listProjectDocumentRequests(projectId),
    files: await store.attachments.listActiveAttachments(projectId),
    audit: await store.audit.list({ projectId }),
    events: await store.events.listProjectEvents(projectId),
  };
}

forEachDialect('HTTP previewing a document on the review page', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  let store: Store;
  before(async () => {
    db = await openTestStore(dialect);
    store = withDocuments(db.store, [LETTER]);
    h = await startHttp({ ...db, store });
    await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows()));
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  describe('the review page', () => {
    it('links Preview for the program\'s admins (agency admins too) and for no other staff', async () => {
      const { projectId } = await createSubmitted(h);
      const link = `<a href="${reviewPath(IDS.program, projectId)}/Documents/ApprovalLetter/Preview" aria-label="Preview ApprovalLetter document in the browser">Preview</a>`;
      for (const who of ['admin', 'programAdmin'] as Who[]) assert.ok((await webGet(h, reviewPath('solar', projectId), who)).body.includes(link), who);
      for (const who of ['editor', 'reader'] as Who[]) {
        const page = await webGet(h, reviewPath('solar', projectId), who);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /<h2 id="documents-title">Documents<\/h2>/);
        assert.doesNotMatch(page.body, /\/Preview"/, who);
      }
    });
  });

  describe('the preview', () => {
    it('shows an admin the document rendered over the project inline, as a viewed PDF file, and writes nothing', async () => {
      const { projectId, number } = await createSubmitted(h);
      const before = await written(store, projectId);
      for (const who of ['admin', 'programAdmin'] as Who[]) {
        const res = await webGet(h, preview(projectId), who);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'application/pdf');
        const fileName = `${number}-ApprovalLetter-preview.pdf`;
        assert.equal(res.headers['content-disposition'], `inline; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(String(res.headers['content-security-policy']), /script-src 'none'.*object-src 'self'/);
        assert.equal(res.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
        assert.match((await pdfPageTexts(res.rawPayload)).join(' '), new RegExp(`Project ${number} is approved\\.`));
      }
      assert.deepEqual(await written(store, projectId), before, 'no request, version, audit row or event');
    });

    it('refuses staff who are not admins (403) and applicants as the review page does (403), changing nothing', async () => {
      const { projectId } = await createSubmitted(h);
      const before = await written(store, projectId);
      for (const who of ['editor', 'reader', 'applicant'] as Who[]) {
        const res = await webGet(h, preview(projectId), who);
        assert.equal(res.statusCode, 403, `${who}: ${res.body}`);
        assert.doesNotMatch(String(res.headers['content-type']), /pdf/);
        assert.equal((await webGet(h, reviewPath('solar', projectId), who)).statusCode, who === 'applicant' ? 403 : 200, who);
      }
      assert.deepEqual(await written(store, projectId), before);
    });

    it('answers one range (206), 416 past the end, HEAD, and If-Range against the strong ETag of the rendered bytes', async () => {
      const { projectId } = await createSubmitted(h);
      await assertPdfAnswersRanges(h, preview(projectId), 'admin');
    });

    it('renders the same bytes all through a quarter hour, so that a viewer\'s ranges join; the next quarter renders anew', async () => {
      const { projectId, number } = await createSubmitted(h);
      const etag = async () => (await webGet(h, preview(projectId), 'admin')).headers.etag;
      h.clock.time = Math.ceil(h.clock.time / PREVIEW_CLOCK_STEP_MS) * PREVIEW_CLOCK_STEP_MS + 1000;
      const first = await etag();
      h.clock.advance(PREVIEW_CLOCK_STEP_MS - 2000);
      assert.equal(await etag(), first, 'the same quarter hour: the same PDF');
      h.clock.advance(2000);
      const next = await webGet(h, preview(projectId), 'admin');
      assert.notEqual(next.headers.etag, first, 'the next quarter hour: its own time in the PDF');
      assert.match((await pdfPageTexts(next.rawPayload)).join(' '), new RegExp(`Project ${number} is approved\\.`));
    });

    it('answers 404 for a project the caller may not read, an unknown project and an unknown document', async () => {
      const { projectId } = await createSubmitted(h);
      assert.equal((await webGet(h, preview(projectId), 'otherApplicant')).statusCode, 404);
      assert.equal((await webGet(h, preview('PROJ99999999'), 'admin')).statusCode, 404);
      assert.equal((await webGet(h, preview(projectId, 'NoSuchLetter'), 'admin')).statusCode, 404);
    });
  });
});
