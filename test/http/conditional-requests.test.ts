import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { isoTimestamp } from '../../src/model/clock.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, authHeaders, dataRequest, type HttpHarness, NS } from '../support/http-harness.ts';
import {
  COMPLETE, createProject, createSubmitted, dataPath, draftPath, type MatrixRow, ownerRequest, projectPath, projectState, rowLabel, send,
  setDraft, submitPath, UNAUTHENTICATED,
} from './http-helpers.ts';
import { externalIdRequest, inquiryUrls, noteRequest, threadStatusRequest } from './inquiry-helpers.ts';
import { assigneeRequest, reportAsRequest, sharedWorkflowHarness, statusRequest, urls } from './workflow-helpers.ts';

// Conditional requests (RFC 9110 §13): every answer about one project carries ETag "<project id>.<version>"; a write
// with a stale If-Match is refused 412 PRECONDITION_FAILED inside the change step and changes nothing; a GET with a
// matching If-None-Match is answered 304 without a body, after access has been decided.

const photoPath = (projectId: string) => `${projectPath(projectId)}/Attachments/photo`;
const metadataRequest = (status: string) => `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="${status}"/>`;

/** The project's ETag as the service makes it, from the stored version. */
async function currentEtag(h: HttpHarness, projectId: string): Promise<string> {
  const project = await h.store.projects.getProject(IDS.program, projectId);
  assert.ok(project);
  return `"${projectId}.${project.version}"`;
}

function etagOf(res: LightMyRequestResponse): string {
  const etag = res.headers.etag;
  assert.equal(typeof etag, 'string', `no ETag on ${res.statusCode} ${res.body}`);
  return etag as string;
}

/** Uploads a small PNG to the project's photo definition as `who`. */
function upload(h: HttpHarness, projectId: string, headers: Record<string, string> = {}, who: 'admin' | 'applicant' = 'applicant') {
  return h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: Buffer.from('not really a png'),
    headers: { ...authHeaders(h.who[who]), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="site.png"', ...headers },
  });
}

/** Everything a refused write could have changed, attachments and inquiry threads included. */
async function fullState(h: HttpHarness, projectId: string) {
  return {
    ...(await projectState(h, projectId)),
    photo: await h.store.attachments.getAttachment(projectId, IDS.photo),
    threads: await h.store.inquiries.listThreads(projectId),
  };
}

/** A project with something for every write to change, and its ETag. */
interface Rich { h: HttpHarness; projectId: string; threadId: string; submittedAt: number; etag: string }

forEachDialect('HTTP conditional requests', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);

  /** A submitted project of the applicant with a photo and one inquiry thread; its current ETag. */
  async function richProject(h: HttpHarness): Promise<Rich> {
    const { projectId } = await createSubmitted(h, 'applicant');
    h.clock.advance();
    const up = await upload(h, projectId, {}, 'admin');
    assert.equal(up.statusCode, 200, up.body);
    h.clock.advance();
    const note = await h.request({ method: 'POST', url: inquiryUrls.addNote(projectId), body: noteRequest({ subject: 'Roof', text: 'Which roof?' }) });
    assert.equal(note.statusCode, 200, note.body);
    const threadId = /ThreadId="([^"]+)"/.exec(note.body)?.[1];
    assert.ok(threadId);
    const submittedAt = (await h.store.projects.getHistory(projectId)).find((e) => e.statusId === IDS.submitted)!.changedAt;
    return { h, projectId, threadId, submittedAt, etag: await currentEtag(h, projectId) };
  }

  describe('ETag', () => {
    it('is on every answer that describes one project, "<id>.<version>", the same for every view of one version', async () => {
      const h = harness();
      const { projectId, threadId, etag } = await richProject(h);
      assert.match(etag, /^"[0-9A-Z]{12}\.\d+"$/);
      const reads = [
        draftPath(projectId), dataPath(projectId), urls.allData(projectId), urls.export(projectId), `${urls.export(projectId)}?version=2`,
        urls.history(projectId), `${photoPath(projectId)}/Metadata`, inquiryUrls.threads(projectId), inquiryUrls.notes(projectId, threadId),
      ];
      for (const url of reads) {
        const res = await h.request({ method: 'GET', url });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        assertValidXml(h, res, url.endsWith('version=2') ? 'ProjectExportDataGetResponseV2' : undefined);
        assert.equal(etagOf(res), etag, url);
      }
    });

    it('changes with every write, and a write answers with the ETag the next read carries', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const created = await currentEtag(h, projectId);
      const first = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      assert.equal(etagOf(first), created);
      h.clock.advance();
      const write = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Ann' }) });
      assert.equal(write.statusCode, 200, write.body);
      assert.notEqual(etagOf(write), created);
      assert.equal(etagOf(write), await currentEtag(h, projectId));
      const again = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      assert.equal(etagOf(again), etagOf(write));
    });

    it('comes with CreateNewProject, and the project\'s first write may name it in If-Match', async () => {
      const h = harness();
      const res = await h.request({ method: 'POST', url: '/services/v2/Programs/solar/NewProject', as: 'applicant' });
      assert.equal(res.statusCode, 200, res.body);
      const projectId = /ProjectId="([^"]+)"/.exec(res.body)![1]!;
      assert.equal(etagOf(res), await currentEtag(h, projectId));
      const write = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Ann' }), headers: { 'if-match': etagOf(res) } });
      assert.equal(write.statusCode, 200, write.body);
    });

    it('is not on lists, searches, catalog answers or errors', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      for (const url of ['/services/v2/Programs/solar/Projects', '/services/v2/Programs/solar/Forms', '/services/v2/Programs/solar/Statuses']) {
        const res = await h.request({ method: 'GET', url });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers.etag, undefined, url);
      }
      const refused = await h.request({ method: 'GET', url: draftPath(projectId), as: 'otherApplicant' });
      assertError(h, refused, 404, 'NOT_FOUND');
      assert.equal(refused.headers.etag, undefined);
    });
  });

  describe('If-None-Match on reads', () => {
    it('answers 304 with the ETag and no body to the current tag, 200 with the body to a stale one', async () => {
      const h = harness();
      const { projectId, threadId, etag } = await richProject(h);
      const reads = [
        draftPath(projectId), dataPath(projectId), urls.allData(projectId), urls.export(projectId), urls.history(projectId),
        `${photoPath(projectId)}/Metadata`, inquiryUrls.threads(projectId), inquiryUrls.notes(projectId, threadId),
      ];
      const stale = `"${projectId}.0"`;
      for (const url of reads) {
        const fresh = await h.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
        assert.equal(fresh.statusCode, 304, `${url}: ${fresh.body}`);
        assert.equal(fresh.body, '');
        assert.equal(etagOf(fresh), etag);
        const old = await h.request({ method: 'GET', url, headers: { 'if-none-match': stale } });
        assert.equal(old.statusCode, 200, `${url}: ${old.body}`);
        assertValidXml(h, old);
        assert.equal(etagOf(old), etag);
      }
    });

    it('matches "*", a list naming the tag, and the weak form of the tag (weak comparison)', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const etag = await currentEtag(h, projectId);
      for (const value of ['*', `"other", ${etag}`, ` ,${etag} , `, `W/${etag}`]) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': value } });
        assert.equal(res.statusCode, 304, `${value}: ${res.body}`);
      }
      for (const value of ['"other"', `"${projectId}.999"`, 'W/"x", "y"']) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': value } });
        assert.equal(res.statusCode, 200, `${value}: ${res.body}`);
      }
    });

    it('after a write the old tag no longer matches', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const etag = await currentEtag(h, projectId);
      await setDraft(h, projectId, { kw: '4.25' });
      const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': etag } });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /Value="4.25"/);
    });

    it('refuses a malformed If-None-Match with 400 INVALID_REQUEST', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      for (const value of ['abc', '"open', '*, "x"', '"a" "b"', '', ',']) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': value } });
        assertError(h, res, 400, 'INVALID_REQUEST');
        assert.match(res.body, /If-None-Match/);
        assert.equal(res.headers.etag, undefined);
      }
    });

    // Access is decided first: the current tag (or "*") tells a caller who may not read the project nothing.
    const readers: MatrixRow[] = [
      { who: 'admin', status: 304 }, { who: 'programAdmin', status: 304 }, { who: 'editor', status: 304 }, { who: 'reader', status: 304 },
      { who: 'applicant', status: 304 }, { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' }, { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of readers) {
      for (const match of ['current', '*'] as const) {
        it(`GetProjectData with If-None-Match ${match}: ${rowLabel(row)}`, async () => {
          const h = harness();
          const projectId = await createProject(h, 'applicant');
          const value = match === '*' ? '*' : await currentEtag(h, projectId);
          const res = await send(h, row.who, { method: 'GET', url: draftPath(projectId), headers: { 'if-none-match': value } });
          if (row.code) {
            assertError(h, res, row.status, row.code);
            assert.equal(res.headers.etag, undefined);
          } else assert.equal(res.statusCode, 304, res.body);
        });
      }
    }

    it('admin-only reads stay 403 for staff who are not admins, whatever If-None-Match says', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const etag = await currentEtag(h, projectId);
      for (const url of [urls.allData(projectId), urls.export(projectId), urls.history(projectId)]) {
        for (const who of ['editor', 'reader', 'applicant'] as const) {
          const res = await h.request({ method: 'GET', url, as: who, headers: { 'if-none-match': etag } });
          assertError(h, res, 403, 'FORBIDDEN');
        }
      }
    });
  });

  describe('If-Match on writes', () => {
    /** Every write of one project, as a request the admin may send to the rich project. */
    const writes: { name: string; request: (c: Rich) => { url: string; body?: string } }[] = [
      { name: 'SetProjectData (draft)', request: ({ projectId: p }) => ({ url: draftPath(p), body: dataRequest({ name: 'Changed' }) }) },
      { name: 'SetProjectData (submitted)', request: ({ projectId: p }) => ({ url: dataPath(p), body: dataRequest({ ...COMPLETE, size: [...COMPLETE.size], name: 'Changed' }) }) },
      { name: 'SetProjectStatus', request: ({ projectId: p }) => ({ url: urls.status(p), body: statusRequest('draft') }) },
      { name: 'SetProjectStatusReportAs', request: ({ projectId: p, submittedAt }) => ({ url: urls.reportAs(p), body: reportAsRequest('submitted', isoTimestamp(submittedAt), 'suppress') }) },
      { name: 'SetAssignee', request: ({ h, projectId: p }) => ({ url: urls.assignee(p), body: assigneeRequest(h.who.editor.email) }) },
      { name: 'SetProjectOwner', request: ({ h, projectId: p }) => ({ url: `${projectPath(p)}/Owner`, body: ownerRequest(h.who.otherApplicant.email) }) },
      { name: 'SetAttachmentMetadata', request: ({ projectId: p }) => ({ url: `${photoPath(p)}/Metadata`, body: metadataRequest('Approve') }) },
      { name: 'SetInquiryNote', request: ({ projectId: p, threadId: t }) => ({ url: inquiryUrls.addNote(p), body: noteRequest({ threadId: t, text: 'More?' }) }) },
      { name: 'SetInquiryThreadStatus', request: ({ projectId: p, threadId: t }) => ({ url: inquiryUrls.status(p, t), body: threadStatusRequest('Closed') }) },
      { name: 'SetInquiryThreadExternalId', request: ({ projectId: p, threadId: t }) => ({ url: inquiryUrls.externalId(p, t), body: externalIdRequest(`T-${p}`) }) },
    ];

    for (const write of writes) {
      it(`${write.name}: a stale If-Match is refused 412 and changes nothing; the current one succeeds and answers the new ETag`, async () => {
        const h = harness();
        const rich = await richProject(h);
        const { projectId, etag } = rich;
        const stale = `"${projectId}.1"`;
        const before = await fullState(h, projectId);
        h.clock.advance();
        const refused = await h.request({ method: 'POST', ...write.request(rich), headers: { 'if-match': stale } });
        assertError(h, refused, 412, 'PRECONDITION_FAILED');
        assert.match(refused.body, /has changed since/);
        assert.deepEqual(await fullState(h, projectId), before, 'a refused write changes nothing, not even the audit log');
        const done = await h.request({ method: 'POST', ...write.request(rich), headers: { 'if-match': etag } });
        assert.equal(done.statusCode, 200, done.body);
        assertValidXml(h, done);
        assert.notEqual(etagOf(done), etag);
        assert.equal(etagOf(done), await currentEtag(h, projectId));
      });
    }

    it('SubmitProject and SetProjectAttachment: stale → 412 with nothing changed, current → 200', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] });
      const etag = await currentEtag(h, projectId);
      const stale = `"${projectId}.0"`;
      const before = await fullState(h, projectId);
      assertError(h, await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant', headers: { 'if-match': stale } }), 412, 'PRECONDITION_FAILED');
      assertError(h, await upload(h, projectId, { 'if-match': stale }), 412, 'PRECONDITION_FAILED');
      assert.deepEqual(await fullState(h, projectId), before);
      h.clock.advance();
      const uploaded = await upload(h, projectId, { 'if-match': etag });
      assert.equal(uploaded.statusCode, 200, uploaded.body);
      h.clock.advance();
      const submitted = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant', headers: { 'if-match': etagOf(uploaded) } });
      assert.equal(submitted.statusCode, 200, submitted.body);
      assert.equal(etagOf(submitted), await currentEtag(h, projectId));
    });

    it('"*" matches any version; a list matches when it names the current tag; weak and foreign tags never match', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const other = await createProject(h, 'applicant');
      const write = (ifMatch: string) =>
        h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'X' }), headers: { 'if-match': ifMatch } });
      assert.equal((await write('*')).statusCode, 200);
      const etag = await currentEtag(h, projectId);
      assert.equal((await write(`"${projectId}.0", ${etag}`)).statusCode, 200);
      const now = await currentEtag(h, projectId);
      const before = await fullState(h, projectId);
      for (const value of [`W/${now}`, await currentEtag(h, other), '"something-else"', `"${projectId}.${'9'.repeat(20)}"`]) {
        assertError(h, await write(value), 412, 'PRECONDITION_FAILED');
      }
      assert.deepEqual(await fullState(h, projectId), before);
    });

    it('refuses a malformed If-Match with 400 INVALID_REQUEST and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await fullState(h, projectId);
      for (const value of ['abc', `${projectId}.0`, '"unclosed', '*, "x"', '"a" "b"', '"a b"', '', ' , ']) {
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'X' }), headers: { 'if-match': value } });
        assertError(h, res, 400, 'INVALID_REQUEST');
        assert.match(res.body, /If-Match header is not valid/);
      }
      assert.deepEqual(await fullState(h, projectId), before);
    });

    it('a write without If-Match is not conditional: it succeeds on any version, as before', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { name: 'One' });
      await setDraft(h, projectId, { name: 'Two' });
      assert.equal(await currentEtag(h, projectId), `"${projectId}.2"`);
    });

    // Access comes before the precondition: a caller who may not change (or see) the project learns nothing from it.
    const writers: MatrixRow[] = [
      { who: 'admin', status: 412, code: 'PRECONDITION_FAILED' }, { who: 'editor', status: 412, code: 'PRECONDITION_FAILED' },
      { who: 'applicant', status: 412, code: 'PRECONDITION_FAILED' }, { who: 'reader', status: 403, code: 'FORBIDDEN' },
      { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' }, { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of writers) {
      it(`SetProjectData (draft) with a stale If-Match: ${rowLabel(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { name: 'Seen' });
        const before = await fullState(h, projectId);
        const res = await send(h, row.who, { method: 'POST', url: draftPath(projectId), body: dataRequest({ name: 'X' }), headers: { 'if-match': `"${projectId}.0"` } });
        assertError(h, res, row.status, row.code!);
        assert.deepEqual(await fullState(h, projectId), before);
      });
    }

    it('of concurrent writes sending the same If-Match exactly one wins; the others get 412 and change nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const etag = await currentEtag(h, projectId);
      const names = Array.from({ length: 6 }, (_, i) => `Writer ${i}`);
      const answers = await Promise.all(names.map((name) =>
        h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name }), headers: { 'if-match': etag } })));
      const won = answers.flatMap((r, i) => (r.statusCode === 200 ? [names[i]!] : []));
      assert.equal(won.length, 1, answers.map((r) => `${r.statusCode}`).join(' '));
      for (const r of answers.filter((a) => a.statusCode !== 200)) assertError(h, r, 412, 'PRECONDITION_FAILED');
      assert.equal(await currentEtag(h, projectId), `"${projectId}.1"`, 'one change');
      assert.equal((await h.store.audit.list({ projectId, action: 'project.draft.set' })).length, 1);
      const saved = (await h.store.projects.getDraft(projectId, IDS.form)).find((v) => v.fieldId === IDS.name)?.value;
      assert.equal(saved, won[0]);
    });

    it('a change committed between a client\'s read and its write is caught: the late write gets 412', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const read = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      await setDraft(h, projectId, { name: 'Editor was here' }, 'editor');
      const late = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Mine' }), headers: { 'if-match': etagOf(read) } });
      assertError(h, late, 412, 'PRECONDITION_FAILED');
      const saved = (await h.store.projects.getDraft(projectId, IDS.form)).find((v) => v.fieldId === IDS.name)?.value;
      assert.equal(saved, 'Editor was here');
    });
  });
});
