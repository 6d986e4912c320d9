import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type GenerationDeps, generateDueDocuments, type GenerationPolicy } from '../../src/domain/documents/document-generation-task.ts';
import { mailDocumentFiles } from '../../src/domain/documents/mail-document-files.ts';
import { MAIL_FILE_WAIT_MS, sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import type { OutgoingMail } from '../../src/domain/mail/mailer.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { startSmtpCapture } from '../support/smtp-capture.ts';
import type { Automation } from '../../src/model/automation.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import type { Store } from '../../src/store/store.ts';
import { DocumentRequestResponse, ProjectDocumentsResponse } from '../../src/wire/documents/generated-documents.ts';
import { DOC_IDS, documentProgramRows, FakeRenderer, tinyDocument, withDocuments } from '../support/document-fixtures.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { createSubmitted, dataPath, projectPath } from './http-helpers.ts';
import { statusRequest } from './workflow-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';
import { reviewPath } from '../../src/web/pages/work-queue-page.tsx';

// Generating documents (docs/programs.md, "Documents and signatures", "Generation"), on both databases: staff with
// generateDocuments ask over the API (XML and JSON, idempotent per Idempotency-Key), the request is recorded in the
// change step and rendered after the commit by the generation task, which stores exactly one attachment version per
// request even when a render fails, hangs past its claim or runs twice; refused callers change nothing.

const documents = (projectId: string) => `${projectPath(projectId)}/Documents`;
const generate = (projectId: string, doc: string) => `${documents(projectId)}/${doc}/Generate`;
const FAST: GenerationPolicy = { batch: 5, leaseMs: 60_000, maxAttempts: 3, firstDelayMs: 1_000, maxDelayMs: 10_000 };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Back to Draft: the letter is generated and mailed to the owner with it. */
const LETTER_ON_RETURN: Automation = {
  customId: 'letter-on-return', name: 'A returned project gets its letter', if: null,
  when: { trigger: 'status.entered', statusId: IDS.draft, formId: null, fieldId: null, attachmentId: null, approval: null, by: null },
  actions: [
    { do: 'generateDocument', documentId: 'ApprovalLetter' },
    { do: 'sendMail', to: 'owner', role: null, subject: 'Your letter', text: 'Your letter is attached.', template: null, attach: ['ApprovalLetter'] },
  ],
};

/** Everything a refused request could have changed: the project row, its requests, versions, audit rows and events. */
async function state(store: Store, projectId: string) {
  return {
    project: await store.projects.getProject(IDS.program, projectId),
    requests: await store.documents.listProjectDocumentRequests(projectId),
    files: await store.attachments.listActiveAttachments(projectId),
    audit: await store.audit.list({ projectId }),
    events: await store.events.listProjectEvents(projectId),
  };
}

forEachDialect('HTTP document generation', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  let store: Store;
  let renderer: FakeRenderer;
  let deps: GenerationDeps;
  before(async () => {
    db = await openTestStore(dialect);
    store = withDocuments(db.store);
    h = await startHttp({ ...db, store });
    await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows()));
    renderer = new FakeRenderer();
    deps = { store, clock: h.clock, ids: new RandomIdGenerator(), reactions: changeReactions(), renderer, blobs: new DatabaseBlobStore(db.store, h.clock) };
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  const send = (method: string, url: string, as: Who, headers: Record<string, string> = {}) => h.request({ method, url, as, headers });
  const versionsOf = async (projectId: string, definitionId: string) => {
    const out = [];
    for (let v = 1; ; v++) {
      const row = await store.attachments.getAttachment(projectId, definitionId, v);
      if (!row) return out;
      out.push(row);
    }
  };

  describe('by staff over the API', () => {
    it('GenerateDocument queues a request in the change step; the task renders it after the commit into a system-generated version', async () => {
      const { projectId } = await createSubmitted(h);
      h.clock.advance();
      const res = await send('POST', generate(projectId, 'ApprovalLetter'), 'admin');
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res);
      const answer = xmlAnswerValue(h, res, DocumentRequestResponse).DocumentRequest;
      assert.deepEqual([answer.DocumentId, answer.State, answer.AttachmentId, answer.AttachmentVersion], ['ApprovalLetter', 'queued', DOC_IDS.letter, undefined]);
      // Nothing rendered inside the change: a queued request, no file, and the renderer not called.
      assert.equal(renderer.calls, 0);
      assert.deepEqual((await store.documents.listProjectDocumentRequests(projectId)).map((r) => [r.id, r.state]), [[answer.RequestId, 'queued']]);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null);
      assert.equal((await store.audit.list({ projectId, action: 'project.document.request' })).length, 1);

      assert.equal(await generateDueDocuments(deps, FAST), false);
      const [file] = await versionsOf(projectId, DOC_IDS.letter);
      const pdf = tinyDocument(projectId, 'ApprovalLetter');
      assert.ok(file);
      assert.deepEqual([file.version, file.uploadedBy, file.contentType, file.sha256, file.sizeBytes, file.documentRequestId, file.templateVersion],
        [1, 'system', 'application/pdf', sha256(pdf), pdf.length, answer.RequestId, 'v-ApprovalLetter']);
      // Listed and served like any file.
      const meta = await send('GET', `${projectPath(projectId)}/Attachments/ApprovalLetter/Metadata`, 'admin');
      assert.equal(meta.statusCode, 200, meta.body);
      assert.match(meta.body, new RegExp(`Sha256="${sha256(pdf)}"`));
      const bytes = await send('GET', `${projectPath(projectId)}/Attachments/ApprovalLetter`, 'admin');
      assert.equal(bytes.statusCode, 200);
      assert.deepEqual(new Uint8Array(bytes.rawPayload), pdf);
      // Announced on the change feed (and so to webhooks), for everyone since the applicant sees the letter.
      const event = (await store.events.listProjectEvents(projectId)).find((e) => e.type === 'document.generated');
      assert.deepEqual([event?.data, event?.audience], [{ documentId: 'ApprovalLetter', attachmentId: DOC_IDS.letter, attachmentVersion: 1 }, 'all']);
      const listed = assertJsonAnswer(await send('GET', documents(projectId), 'admin', JSON_ANSWER), ProjectDocumentsResponse).Project;
      const letter = listed.Document.find((d) => d.DocumentId === 'ApprovalLetter');
      assert.deepEqual([listed.CanGenerate, letter?.DocumentRequest?.State, letter?.DocumentRequest?.AttachmentVersion], [true, 'generated', 1]);
      // A second round finds nothing to do.
      await generateDueDocuments(deps, FAST);
      assert.equal((await versionsOf(projectId, DOC_IDS.letter)).length, 1);
    });

    it('a retry with the same Idempotency-Key answers the same request and queues nothing more (XML and JSON)', async () => {
      const { projectId } = await createSubmitted(h);
      const key = { 'idempotency-key': `gen-${projectId}` };
      const first = assertJsonAnswer(await send('POST', generate(projectId, 'InternalMemo'), 'programAdmin', { ...key, ...JSON_ANSWER }), DocumentRequestResponse);
      const again = assertJsonAnswer(await send('POST', generate(projectId, 'InternalMemo'), 'programAdmin', { ...key, ...JSON_ANSWER }), DocumentRequestResponse);
      assert.equal(again.DocumentRequest.RequestId, first.DocumentRequest.RequestId);
      assert.equal((await store.documents.listProjectDocumentRequests(projectId)).length, 1);
      await generateDueDocuments(deps, FAST);
      assert.equal((await versionsOf(projectId, DOC_IDS.memo)).length, 1);
      // A request without a key is a new request: a new version.
      assert.equal((await send('POST', generate(projectId, 'InternalMemo'), 'programAdmin')).statusCode, 200);
      await generateDueDocuments(deps, FAST);
      assert.deepEqual((await versionsOf(projectId, DOC_IDS.memo)).map((v) => v.version), [1, 2]);
    });

    it('callers without generateDocuments, the applicant and outsiders are refused and nothing changes', async () => {
      const { projectId } = await createSubmitted(h);
      const before = await state(store, projectId);
      for (const who of ['editor', 'reader', 'applicant'] as Who[]) assertError(h, await send('POST', generate(projectId, 'ApprovalLetter'), who), 403, 'FORBIDDEN');
      assertError(h, await send('POST', generate(projectId, 'ApprovalLetter'), 'outsider'), 403, 'FORBIDDEN');
      assertError(h, await send('POST', generate(projectId, 'NoSuchDocument'), 'admin'), 404, 'NOT_FOUND');
      assertError(h, await send('POST', generate('NOSUCHPROJECT', 'ApprovalLetter'), 'admin'), 404, 'NOT_FOUND');
      await generateDueDocuments(deps, FAST);
      assert.deepEqual(await state(store, projectId), before);
    });
  });

  describe('exactly one version per request', () => {
    it('a render that fails is retried after its backoff; the request keeps its reason meanwhile', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', generate(projectId, 'ApprovalLetter'), 'admin');
      renderer.fail = 1;
      await generateDueDocuments(deps, FAST);
      const [waiting] = await store.documents.listProjectDocumentRequests(projectId);
      assert.deepEqual([waiting?.state, waiting?.attempts, waiting?.lastError], ['queued', 1, 'rendering failed: the renderer fell over']);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null);
      await generateDueDocuments(deps, FAST);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null, 'not before its backoff');
      h.clock.advance(FAST.firstDelayMs);
      await generateDueDocuments(deps, FAST);
      assert.deepEqual((await versionsOf(projectId, DOC_IDS.letter)).map((v) => v.version), [1]);
      assert.equal((await store.documents.listProjectDocumentRequests(projectId))[0]?.state, 'generated');
    });

    it('a worker that hangs past its claim: another takes the request over, and the late one stores nothing', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', generate(projectId, 'ApprovalLetter'), 'admin');
      const held = renderer.holdNext();
      const stuck = generateDueDocuments(deps, FAST);
      await held.started;
      // While the first worker renders, its claim keeps others off; once it has run out, the next round takes over.
      await generateDueDocuments(deps, FAST);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null);
      h.clock.advance(FAST.leaseMs + 1);
      await generateDueDocuments(deps, FAST);
      assert.equal((await versionsOf(projectId, DOC_IDS.letter)).length, 1);
      held.release();
      await stuck;
      const versions = await versionsOf(projectId, DOC_IDS.letter);
      assert.equal(versions.length, 1, 'the late worker made no second version');
      assert.equal((await store.audit.list({ projectId, action: 'project.document.generate' })).length, 1);
    });

    it('what must happen with a stored version (an envelope) runs in its change: once per request, and a failure there stores nothing', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', generate(projectId, 'ApprovalLetter'), 'admin');
      const seen: number[] = [];
      let fail = true;
      const hooked: GenerationDeps = {
        ...deps,
        onStored: async (s) => {
          // Inside the change: the version is there for it to use, and it commits (or not) with it.
          seen.push((await s.tx.attachments.getAttachmentOfRequest(s.request.id))?.version ?? 0);
          if (fail) throw new Error('the envelope could not be made');
        },
      };
      await generateDueDocuments(hooked, FAST);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null, 'rolled back with it');
      const [waiting] = await store.documents.listProjectDocumentRequests(projectId);
      assert.deepEqual([waiting?.state, waiting?.attempts, waiting?.lastError], ['queued', 1, 'storing failed: the envelope could not be made']);
      fail = false;
      h.clock.advance(FAST.firstDelayMs);
      await generateDueDocuments(hooked, FAST);
      await generateDueDocuments(hooked, FAST);
      assert.deepEqual(seen, [1, 1]);
      assert.deepEqual((await versionsOf(projectId, DOC_IDS.letter)).map((v) => v.version), [1]);
    });

    it('after its last attempt a request is failed with its reason, shown to staff (not to the applicant)', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', generate(projectId, 'ApprovalLetter'), 'admin');
      renderer.fail = FAST.maxAttempts;
      for (let i = 0; i < FAST.maxAttempts; i++) {
        await generateDueDocuments(deps, FAST);
        h.clock.advance(FAST.maxDelayMs);
      }
      const staff = assertJsonAnswer(await send('GET', documents(projectId), 'admin', JSON_ANSWER), ProjectDocumentsResponse).Project.Document;
      const failed = staff.find((d) => d.DocumentId === 'ApprovalLetter')?.DocumentRequest;
      assert.deepEqual([failed?.State, failed?.Attempts, failed?.Error], ['failed', FAST.maxAttempts, 'rendering failed: the renderer fell over']);
      const own = assertJsonAnswer(await send('GET', documents(projectId), 'applicant', JSON_ANSWER), ProjectDocumentsResponse).Project;
      assert.deepEqual(own.Document.map((d) => [d.DocumentId, d.DocumentRequest?.State, d.DocumentRequest?.Error]), [['ApprovalLetter', 'failed', undefined]]);
      assert.equal(own.CanGenerate, false);
      assert.equal(renderer.fail, 0);
      await generateDueDocuments(deps, FAST);
      assert.equal(await store.attachments.getAttachment(projectId, DOC_IDS.letter), null);
    });
  });

  describe('by an automation, and mailed', () => {
    it('generateDocument asks within the change that triggered it; sendMail with attach waits for the file and carries it', async () => {
      const { projectId } = await createSubmitted(h);
      await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows([LETTER_ON_RETURN], h.clock.time + 1)));
      const calls = renderer.calls;
      try {
        h.clock.advance();
        const move = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Status`, as: 'admin', body: statusRequest('draft') });
        assert.equal(move.statusCode, 200, move.body);
        const [request] = await store.documents.listProjectDocumentRequests(projectId);
        assert.deepEqual([request?.state, request?.automation, request?.requestedBy], ['queued', 'letter-on-return', h.who.admin.id]);
        const asked = await store.audit.list({ projectId, action: 'project.document.request' });
        assert.deepEqual(asked.map((a) => a.detail), [{ documentId: 'ApprovalLetter', requestId: request!.id, automation: 'letter-on-return' }]);
        assert.equal(renderer.calls, calls, 'nothing is rendered inside the change');

        // Through SMTP to a capturing server: the PDF arrives as the mail's attachment.
        const smtp = await startSmtpCapture();
        const mailer = smtpMailer(smtp.url, 'apas@example.org');
        const mail = { store, clock: h.clock, mailer, files: mailDocumentFiles(store, deps.blobs) };
        const sent = smtp.messages;
        // Before the document exists the mail waits, without spending an attempt.
        await sendDueMail(mail);
        assert.equal(sent.length, 0);
        const queued = (await store.mail.listMail()).filter((m) => m.attachments?.some((a) => a.requestId === request!.id));
        assert.deepEqual(queued.map((m) => [m.status, m.attempts, m.lastError]), [['pending', 0, 'waiting: the document ApprovalLetter is still being generated']]);
        await generateDueDocuments(deps, FAST);
        const [file] = await versionsOf(projectId, DOC_IDS.letter);
        assert.equal(file?.documentRequestId, request!.id);
        h.clock.advance(MAIL_FILE_WAIT_MS);
        await sendDueMail(mail);
        mailer.close();
        await smtp.stop();
        assert.equal(sent.length, 1);
        assert.deepEqual(sent[0]!.parsed.attachments.map((a) => [a.filename, a.contentType, sha256(a.content)]), [['ApprovalLetter.pdf', 'application/pdf', file!.sha256]]);
        assert.equal(sent[0]!.to, `${IDS.applicant.toLowerCase()}@example.org`);
      } finally {
        await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows([], h.clock.time + 2)));
      }
    });

    it('a mail whose document failed is failed with the reason', async () => {
      const { projectId } = await createSubmitted(h);
      await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows([LETTER_ON_RETURN], h.clock.time + 1)));
      try {
        h.clock.advance();
        assert.equal((await h.request({ method: 'POST', url: `${projectPath(projectId)}/Status`, as: 'admin', body: statusRequest('draft') })).statusCode, 200);
        renderer.fail = FAST.maxAttempts;
        for (let i = 0; i < FAST.maxAttempts; i++) {
          await generateDueDocuments(deps, FAST);
          h.clock.advance(FAST.maxDelayMs);
        }
        const sent: OutgoingMail[] = [];
        await sendDueMail({ store, clock: h.clock, mailer: { send: async (m: OutgoingMail) => { sent.push(m); }, close: () => {} }, files: mailDocumentFiles(store, deps.blobs) });
        assert.equal(sent.length, 0);
        const [request] = await store.documents.listProjectDocumentRequests(projectId);
        const mails = (await store.mail.listMail()).filter((m) => m.attachments?.some((a) => a.requestId === request!.id));
        assert.deepEqual(mails.map((m) => [m.status, m.lastError]),
          [['failed', 'the document ApprovalLetter it carries could not be generated: rendering failed: the renderer fell over']]);
      } finally {
        await store.transaction((tx) => tx.programs.saveProgramDefinition(documentProgramRows([], h.clock.time + 2)));
      }
    });
  });

  describe('what applicants see', () => {
    it('a document the template shows to applicants is theirs to read; one it keeps from them is not', async () => {
      const { projectId } = await createSubmitted(h);
      for (const doc of ['ApprovalLetter', 'InternalMemo']) assert.equal((await send('POST', generate(projectId, doc), 'admin')).statusCode, 200);
      await generateDueDocuments(deps, FAST);
      const att = (doc: string) => `${projectPath(projectId)}/Attachments/${doc}`;
      assert.equal((await send('GET', att('ApprovalLetter'), 'applicant')).statusCode, 200);
      assert.equal((await send('GET', `${att('ApprovalLetter')}/Metadata`, 'applicant')).statusCode, 200);
      assertError(h, await send('GET', att('InternalMemo'), 'applicant'), 404, 'NOT_FOUND');
      assertError(h, await send('GET', `${att('InternalMemo')}/Metadata`, 'applicant'), 404, 'NOT_FOUND');
      assert.equal((await send('GET', att('InternalMemo'), 'reader')).statusCode, 200, 'staff read it');
      // GetProjectData lists the letter's file to the applicant, and the memo to staff only.
      const own = await send('GET', dataPath(projectId, 'letters'), 'applicant');
      assert.equal(own.statusCode, 200, own.body);
      assert.ok(own.body.includes(DOC_IDS.letter) && !own.body.includes(DOC_IDS.memo), own.body);
      const staff = await send('GET', dataPath(projectId, 'letters'), 'reader');
      assert.ok(staff.body.includes(DOC_IDS.letter) && staff.body.includes(DOC_IDS.memo), staff.body);
      const memoEvent = (await store.events.listProjectEvents(projectId)).find((e) => e.type === 'document.generated' && e.data.documentId === 'InternalMemo');
      assert.equal(memoEvent?.audience, 'staff');
      // Nobody uploads over a generated document.
      const upload = await h.request({
        method: 'POST', url: `${projectPath(projectId)}/Forms/letters/Attachments/ApprovalLetter`, as: 'admin',
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' }, body: 'not mine',
      });
      assertError(h, upload, 403, 'FORBIDDEN');
    });
  });

  describe('the review page', () => {
    it('offers "Generate document" to staff with the privilege (a plain form post) and shows each document\'s state', async () => {
      const { projectId } = await createSubmitted(h);
      const page = reviewPath('solar', projectId);
      const first = await webGet(h, page, 'admin');
      assert.equal(first.statusCode, 200);
      assert.match(first.body, /<h2 id="documents-title">Documents<\/h2>/);
      assert.match(first.body, /aria-label="Generate document ApprovalLetter document"/);
      const posted = await webPost(h, `${page}/Document`, 'admin', { DocumentId: 'ApprovalLetter' });
      assert.equal(posted.statusCode, 303, posted.body);
      assert.match(String(posted.headers.location), /notice=document/);
      assert.match((await webGet(h, page, 'admin')).body, /<tr id="document-ApprovalLetter"><th scope="row">ApprovalLetter document<\/th><td>Being generated/);
      await generateDueDocuments(deps, FAST);
      const done = (await webGet(h, page, 'admin')).body;
      assert.match(done, new RegExp(`<tr id="document-ApprovalLetter">.*?Generated .*?<a href="[^"]*/Review/Attachments/${DOC_IDS.letter}">version 1</a>`));
      // A failed one says why.
      renderer.fail = FAST.maxAttempts;
      await webPost(h, `${page}/Document`, 'admin', { DocumentId: 'InternalMemo' });
      for (let i = 0; i < FAST.maxAttempts; i++) {
        await generateDueDocuments(deps, FAST);
        h.clock.advance(FAST.maxDelayMs);
      }
      assert.match((await webGet(h, page, 'admin')).body, /<tr id="document-InternalMemo">.*?Failed<\/strong>: rendering failed: the renderer fell over/);
    });

    it('staff without the privilege see the states but no form, and their post is refused with nothing changed', async () => {
      const { projectId } = await createSubmitted(h);
      const page = reviewPath('solar', projectId);
      const seen = await webGet(h, page, 'editor');
      assert.equal(seen.statusCode, 200);
      assert.match(seen.body, /<h2 id="documents-title">Documents<\/h2>/);
      assert.doesNotMatch(seen.body, /Generate document/);
      const before = await state(store, projectId);
      const refused = await webPost(h, `${page}/Document`, 'editor', { DocumentId: 'ApprovalLetter' });
      assert.equal(refused.statusCode, 403);
      assert.deepEqual(await state(store, projectId), before);
    });
  });
});
