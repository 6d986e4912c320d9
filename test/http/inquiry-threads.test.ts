import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { isoTimestamp } from '../../src/model/clock.ts';
import { InquiryNotesResponse, InquiryThreadResponse, InquiryThreadsResponse } from '../../src/wire/documents/inquiries.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_BODY, xmlAnswerValue } from '../support/json-answers.ts';
import {
  ADMIN_ONLY, assertRow, createProject, rowLabel as label, PROGRAM, send, sharedHarness,
} from './http-helpers.ts';
import {
  addNote, externalIdRequest, inquiryState, inquiryUrls, type NoteSpec, noteRequest, noteTexts, OTHER, OTHER_PROGRAM, openThread,
  seedOtherProgram, setThreadStatus, threadStatusRequest, xmlText,
} from './inquiry-helpers.ts';
import { changedSince, elements } from './workflow-helpers.ts';

// GetInquiryThreads:          GET  /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads                       (admin only)
// GetNotesInInquiryThread:    GET  /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/Notes      (admin only)
// SetInquiryNote:             POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryNotes                         (admin only)
//   body <SetInquiryNoteRequest xmlns="…" [ThreadId] [Subject] [VisibleToApplicant]><Text>…</Text></SetInquiryNoteRequest>
// SetInquiryThreadStatus:     POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/Status     (admin only)
//   body <SetInquiryThreadStatusRequest xmlns="…" Status="Open|AwaitingResponse|Resolved|Closed"/>
// SetInquiryThreadExternalId: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/InquiryThreads/{ThreadId}/ExternalId (admin only)
//   body <SetInquiryThreadExternalIdRequest xmlns="…" [ExternalId]/>


/** The moves SetInquiryThreadStatus allows, as docs/interface.md states them. */
const MOVES: Record<string, string[]> = {
  Open: ['AwaitingResponse', 'Resolved', 'Closed'],
  AwaitingResponse: ['Open', 'Resolved', 'Closed'],
  Resolved: ['Open', 'Closed'],
  Closed: ['Open'],
};
const STATUSES = Object.keys(MOVES);

/** The error message of an error answer, decoded. */
const message = (res: LightMyRequestResponse) => xmlText(attr(res.body, 'ErrorResponse', 'Message') ?? '');

/** The one InquiryThread element of an answer, as plain attributes. */
const threadOf = (res: LightMyRequestResponse) => elements(res.body, 'InquiryThread')[0]!;

forEachDialect('HTTP inquiry threads', ({ dialect }) => {
  describe('GetInquiryThreads', () => {
    const harness = sharedHarness(dialect);

    for (const row of ADMIN_ONLY) {
      it(`lists the threads of the applicant's project: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId, { visible: true });
        const before = await inquiryState(h, projectId);
        const res = await send(h, row.who, { method: 'GET', url: inquiryUrls.threads(projectId) });
        assertRow(h, res, row, 'InquiryThreadsResponse');
        if (row.code) assert.doesNotMatch(res.body, new RegExp(threadId));
        else assert.deepEqual(attrs(res.body, 'InquiryThread', 'ThreadId'), [threadId]);
        assert.deepEqual(await inquiryState(h, projectId), before, 'reading changes nothing');
      });
    }

    it('lists every thread in creation order with subject, status, external id, times and note count (hidden notes counted)', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const first = await openThread(h, projectId, { subject: 'Site plan', visible: true });
      const firstAt = h.clock.now();
      const second = await openThread(h, projectId, { subject: 'Meter  <&>  "access"' });
      const secondAt = h.clock.now();
      const third = await openThread(h, projectId, { subject: 'Fees' });
      const thirdAt = h.clock.now();
      await addNote(h, projectId, { threadId: first, text: 'internal', visible: false });
      const noteAt = h.clock.now();
      h.clock.advance();
      const linked = await h.request({ method: 'POST', url: inquiryUrls.externalId(projectId, third), body: externalIdRequest('CRM-1') });
      assert.equal(linked.statusCode, 200, linked.body);
      const linkedAt = h.clock.now();

      const res = await h.request({ method: 'GET', url: inquiryUrls.threads(projectId), as: 'programAdmin' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'InquiryThreadsResponse');
      assert.equal(attr(res.body, 'InquiryThreadsResponse', 'ProjectId'), projectId);
      assert.deepEqual(elements(res.body, 'InquiryThread'), [
        { ThreadId: first, Subject: 'Site plan', Status: 'AwaitingResponse', CreatedTimestamp: isoTimestamp(firstAt), UpdatedTimestamp: isoTimestamp(noteAt), NoteCount: '2' },
        { ThreadId: second, Subject: 'Meter &lt;&amp;&gt; &quot;access&quot;', Status: 'Open', CreatedTimestamp: isoTimestamp(secondAt), UpdatedTimestamp: isoTimestamp(secondAt), NoteCount: '1' },
        { ThreadId: third, Subject: 'Fees', Status: 'Open', ExternalId: 'CRM-1', CreatedTimestamp: isoTimestamp(thirdAt), UpdatedTimestamp: isoTimestamp(linkedAt), NoteCount: '1' },
      ]);
    });

    it('answers an empty list for a project without threads', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const res = await h.request({ method: 'GET', url: inquiryUrls.threads(projectId) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'InquiryThreadsResponse');
      assert.deepEqual(elements(res.body, 'InquiryThread'), []);
    });

    it('lists only the threads of the project asked for', async () => {
      const h = harness();
      const a = await createProject(h, 'applicant');
      const b = await createProject(h, 'applicant');
      const inA = await openThread(h, a);
      const inB = await openThread(h, b);
      const res = await h.request({ method: 'GET', url: inquiryUrls.threads(b) });
      assert.deepEqual(attrs(res.body, 'InquiryThread', 'ThreadId'), [inB]);
      assert.doesNotMatch(res.body, new RegExp(inA));
    });

    it('answers 404 for an unknown project and for a project of another program, 400 for an id that cannot be one', async () => {
      const h = harness();
      const wind = await seedOtherProgram(h.store, 'WINDPROJ0001');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.threads('NOSUCHPROJCT') }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.threads(wind) }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.threads('a%20b') }), 400, 'INVALID_PARAMETER');
      const own = await h.request({ method: 'GET', url: inquiryUrls.threads(wind, OTHER_PROGRAM) });
      assert.equal(own.statusCode, 200, own.body);
    });
  });

  describe('GetNotesInInquiryThread', () => {
    const harness = sharedHarness(dialect);

    for (const row of ADMIN_ONLY) {
      it(`reads a thread with its hidden note: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId, { text: 'visible question', visible: true });
        await addNote(h, projectId, { threadId, text: 'staff only remark', visible: false });
        const before = await inquiryState(h, projectId);
        const res = await send(h, row.who, { method: 'GET', url: inquiryUrls.notes(projectId, threadId) });
        assertRow(h, res, row, 'InquiryNotesResponse');
        if (row.code) assert.doesNotMatch(res.body, /staff only remark|visible question/);
        else assert.deepEqual(noteTexts(res.body), ['visible question', 'staff only remark']);
        assert.deepEqual(await inquiryState(h, projectId), before, 'reading changes nothing');
      });
    }

    it('lists every note oldest first with author name and e-mail, time and visibility', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId, { subject: 'Inverter', text: 'one', visible: true }, 'admin');
      const oneAt = h.clock.now();
      const { noteId: two } = await addNote(h, projectId, { threadId, text: 'two' }, 'programAdmin');
      const twoAt = h.clock.now();
      const { noteId: three } = await addNote(h, projectId, { threadId, text: 'three', visible: 'true' }, 'admin');
      const threeAt = h.clock.now();
      const res = await h.request({ method: 'GET', url: inquiryUrls.notes(projectId, threadId) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'InquiryNotesResponse');
      assert.equal(attr(res.body, 'InquiryNotesResponse', 'ProjectId'), projectId);
      assert.deepEqual(threadOf(res), {
        ThreadId: threadId, Subject: 'Inverter', Status: 'AwaitingResponse', CreatedTimestamp: isoTimestamp(oneAt), UpdatedTimestamp: isoTimestamp(threeAt), NoteCount: '3',
      });
      const stored = await h.store.inquiries.listNotes(threadId);
      const name = (who: Who) => `User ${h.who[who].id}`;
      assert.deepEqual(elements(res.body, 'Note'), [
        { NoteId: stored[0]!.id, Author: name('admin'), AuthorEmail: h.who.admin.email, Timestamp: isoTimestamp(oneAt), VisibleToApplicant: 'true' },
        { NoteId: two, Author: name('programAdmin'), AuthorEmail: h.who.programAdmin.email, Timestamp: isoTimestamp(twoAt), VisibleToApplicant: 'false' },
        { NoteId: three, Author: name('admin'), AuthorEmail: h.who.admin.email, Timestamp: isoTimestamp(threeAt), VisibleToApplicant: 'true' },
      ]);
      assert.deepEqual(noteTexts(res.body), ['one', 'two', 'three']);
    });

    it('answers 404 for an unknown thread, a thread of another project and a thread of another program', async () => {
      const h = harness();
      const a = await createProject(h, 'applicant');
      const b = await createProject(h, 'applicant');
      const inB = await openThread(h, b);
      const wind = await seedOtherProgram(h.store, 'WINDPROJ0002');
      const inWind = await addNote(h, wind, { subject: 'Turbine', text: 'Height?' }, 'admin', OTHER_PROGRAM);
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(a, 'NOSUCHTHREAD') }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(a, inB) }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(a, inWind.threadId) }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(wind, inWind.threadId) }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(b, inB, OTHER_PROGRAM) }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: inquiryUrls.notes(a, 'no%20such') }), 400, 'INVALID_PARAMETER');
      const own = await h.request({ method: 'GET', url: inquiryUrls.notes(wind, inWind.threadId, OTHER_PROGRAM) });
      assert.equal(own.statusCode, 200, own.body);
      assert.deepEqual(noteTexts(own.body), ['Height?']);
    });
  });

  describe('SetInquiryNote', () => {
    const harness = sharedHarness(dialect);

    for (const row of ADMIN_ONLY) {
      it(`opens a thread on the applicant's project: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const before = await inquiryState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: inquiryUrls.addNote(projectId), body: noteRequest({ subject: 'Roof', text: 'Photo please', visible: true }) });
        assertRow(h, res, row, 'InquiryNotesResponse');
        const after = await inquiryState(h, projectId);
        if (row.code) {
          assert.deepEqual(after, before, 'a refused note changes nothing');
          return;
        }
        assert.equal(after.threads.length, 1);
        assert.equal(after.notes[0]![0]!.authorId, h.who[row.who as Who].id);
        assert.deepEqual(noteTexts(res.body), ['Photo please']);
      });
    }

    it('opens a thread: Open, or AwaitingResponse when its note is visible; answers the thread and just that note', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const hidden = await addNote(h, projectId, { subject: '  Internal   check ', text: 'staff only' });
      const hiddenAt = h.clock.now();
      assert.deepEqual(threadOf(hidden.res), {
        ThreadId: hidden.threadId, Subject: 'Internal check', Status: 'Open', CreatedTimestamp: isoTimestamp(hiddenAt), UpdatedTimestamp: isoTimestamp(hiddenAt), NoteCount: '1',
      });
      assert.deepEqual(elements(hidden.res.body, 'Note').map((n) => n.VisibleToApplicant), ['false'], 'VisibleToApplicant defaults to false');
      const shown = await addNote(h, projectId, { subject: 'For you', text: 'please answer', visible: true });
      assert.equal(threadOf(shown.res).Status, 'AwaitingResponse');
      assert.notEqual(shown.threadId, hidden.threadId);
      const stored = await h.store.inquiries.listThreads(projectId);
      assert.deepEqual(stored.map((t) => [t.id, t.subject, t.status, t.externalId, t.createdBy, t.noteCount]), [
        [hidden.threadId, 'Internal check', 'Open', null, h.who.admin.id, 1],
        [shown.threadId, 'For you', 'AwaitingResponse', null, h.who.admin.id, 1],
      ]);
    });

    it('adds notes to a thread: a visible staff note moves Open to AwaitingResponse, hidden ones move nothing, Resolved stays', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId);
      const status = async () => (await h.store.inquiries.getThread(projectId, threadId))!.status;
      await addNote(h, projectId, { threadId, text: 'hidden', visible: false });
      assert.equal(await status(), 'Open');
      const shown = await addNote(h, projectId, { threadId, text: 'shown', visible: true });
      assert.equal(threadOf(shown.res).Status, 'AwaitingResponse');
      assert.equal(threadOf(shown.res).NoteCount, '3');
      assert.deepEqual(noteTexts(shown.res.body), ['shown'], 'only the new note is answered');
      await addNote(h, projectId, { threadId, text: 'again', visible: true });
      assert.equal(await status(), 'AwaitingResponse');
      await setThreadStatus(h, projectId, threadId, 'Resolved');
      await addNote(h, projectId, { threadId, text: 'closing words', visible: true });
      assert.equal(await status(), 'Resolved');
    });

    it('writes one audit row per note without its text, moves the thread and the project (changed_since sees it)', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const since = isoTimestamp(h.clock.now());
      const secret = 'SECRET-TEXT-in-a-note';
      const { threadId, noteId } = await addNote(h, projectId, { subject: 'Subject', text: secret, visible: true });
      const at = h.clock.now();
      assert.ok((await changedSince(h, since)).ids.includes(projectId), 'a new thread is a change of the project');
      const project = await h.store.projects.getProject(IDS.program, projectId);
      assert.equal(project!.updatedAt, at);
      assert.equal(project!.updatedBy, h.who.admin.id);
      const [opened] = await h.store.audit.list({ projectId, action: 'inquiry.thread.open' });
      assert.deepEqual(opened!.detail, { threadId, noteId, visibleToApplicant: true, status: 'AwaitingResponse' });
      assert.equal(opened!.actorId, h.who.admin.id);

      const since2 = isoTimestamp(h.clock.now());
      const second = await addNote(h, projectId, { threadId, text: `${secret} again` }, 'programAdmin');
      assert.ok((await changedSince(h, since2)).ids.includes(projectId), 'a hidden note is a change of the project too');
      const [added] = await h.store.audit.list({ projectId, action: 'inquiry.note.add' });
      assert.deepEqual(added!.detail, { threadId, noteId: second.noteId, visibleToApplicant: false });
      for (const row of await h.store.audit.list({ projectId })) assert.doesNotMatch(JSON.stringify(row), /SECRET-TEXT/);
      assert.equal((await h.store.inquiries.getThread(projectId, threadId))!.updatedAt, h.clock.now());
    });

    const TEXTS: [string, NoteSpec, string][] = [
      ['leading and trailing spaces', { text: '   padded   ' }, '   padded   '],
      ['line breaks, blank lines and tabs', { text: 'line one\nline two\n\n\tindented\n' }, 'line one\nline two\n\n\tindented\n'],
      ['markup characters', { text: `<b>"quoted" & 'single'</b> <&>"'` }, `<b>"quoted" & 'single'</b> <&>"'`],
      ['unicode', { text: 'Zürich – 日本語 – 😀 – e\u0301 – \u200b' }, 'Zürich – 日本語 – 😀 – e\u0301 – \u200b'],
      ['a carriage return sent as a reference', { rawText: 'a&#13;\nb' }, 'a\r\nb'],
      ['CR LF line ends, which XML reads as LF', { rawText: 'a\r\nb' }, 'a\nb'],
      ['CDATA', { rawText: '<![CDATA[<p>as is & unescaped</p>]]>' }, '<p>as is & unescaped</p>'],
      ['one character', { text: 'x' }, 'x'],
    ];
    for (const [what, spec, expected] of TEXTS) {
      it(`keeps note text exactly: ${what}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const { threadId, res } = await addNote(h, projectId, { subject: 'Text', ...spec });
        assert.deepEqual(noteTexts(res.body), [expected]);
        assert.equal((await h.store.inquiries.listNotes(threadId))[0]!.text, expected);
        const read = await h.request({ method: 'GET', url: inquiryUrls.notes(projectId, threadId) });
        assertValidXml(h, read, 'InquiryNotesResponse');
        assert.deepEqual(noteTexts(read.body), [expected]);
      });
    }

    it('escapes note text in the answer', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const { res } = await addNote(h, projectId, { subject: 'Escapes', text: '<script>alert(1)</script> & </Text>' });
      assert.match(res.body, /<Text>&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &lt;\/Text&gt;<\/Text>/);
    });

    it('takes 20000 characters (counted as characters, not bytes) and refuses 20001', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const long = '😀'.repeat(20000);
      const { threadId } = await addNote(h, projectId, { subject: 'Long', text: long });
      assert.equal((await h.store.inquiries.listNotes(threadId))[0]!.text, long);
      const before = await inquiryState(h, projectId);
      const res = await h.request({ method: 'POST', url: inquiryUrls.addNote(projectId), body: noteRequest({ threadId, text: `${long}x` }) });
      assertError(h, res, 400, 'INVALID_REQUEST');
      assert.deepEqual(await inquiryState(h, projectId), before);
    });

    describe('refusals change nothing', () => {
      let projectId = '';
      let otherProject = '';
      let open = '';
      let closed = '';
      let elsewhere = '';
      before(async () => {
        const h = harness();
        projectId = await createProject(h, 'applicant');
        otherProject = await createProject(h, 'applicant');
        open = await openThread(h, projectId);
        closed = await openThread(h, projectId, { subject: 'Done' });
        await setThreadStatus(h, projectId, closed, 'Closed');
        elsewhere = await openThread(h, otherProject);
      });

      const cases: [string, () => { body: string; headers?: Record<string, string> }, number, string][] = [
        ['no Subject and no ThreadId', () => ({ body: noteRequest({ text: 'x' }) }), 400, 'INVALID_REQUEST'],
        ['a Subject with a ThreadId', () => ({ body: noteRequest({ threadId: open, subject: 'New', text: 'x' }) }), 400, 'INVALID_REQUEST'],
        ['a Subject of 201 characters', () => ({ body: noteRequest({ subject: 's'.repeat(201), text: 'x' }) }), 400, 'INVALID_REQUEST'],
        ['a Subject of whitespace only', () => ({ body: noteRequest({ subject: '   ', text: 'x' }) }), 400, 'INVALID_REQUEST'],
        ['VisibleToApplicant="yes"', () => ({ body: noteRequest({ threadId: open, text: 'x', visible: 'yes' }) }), 400, 'INVALID_REQUEST'],
        ['an empty Text', () => ({ body: noteRequest({ threadId: open, text: '' }) }), 400, 'INVALID_REQUEST'],
        ['a Text of whitespace only', () => ({ body: noteRequest({ threadId: open, text: ' \n\t ' }) }), 400, 'INVALID_REQUEST'],
        ['no Text element', () => ({ body: `<SetInquiryNoteRequest xmlns="${NS}" ThreadId="${open}"/>` }), 400, 'INVALID_REQUEST'],
        ['a ThreadId that cannot be an id', () => ({ body: noteRequest({ threadId: 'a/b', text: 'x' }) }), 400, 'INVALID_REQUEST'],
        ['the wrong namespace', () => ({ body: noteRequest({ threadId: open, text: 'x' }).replace(NS, 'urn:example:other') }), 400, 'WRONG_NAMESPACE'],
        ['a body that is not XML', () => ({ body: 'Text=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
        ['an unknown thread', () => ({ body: noteRequest({ threadId: 'NOSUCHTHREAD', text: 'x' }) }), 404, 'NOT_FOUND'],
        ['a thread of another project', () => ({ body: noteRequest({ threadId: elsewhere, text: 'x' }) }), 404, 'NOT_FOUND'],
        ['a closed thread', () => ({ body: noteRequest({ threadId: closed, text: 'x', visible: true }) }), 409, 'THREAD_CLOSED'],
      ];
      for (const [what, request, status, code] of cases) {
        it(`answers ${what} with ${status} ${code}`, async () => {
          const h = harness();
          const before = [await inquiryState(h, projectId), await inquiryState(h, otherProject)];
          h.clock.advance();
          const res = await h.request({ method: 'POST', url: inquiryUrls.addNote(projectId), ...request() });
          assertError(h, res, status, code);
          assert.deepEqual([await inquiryState(h, projectId), await inquiryState(h, otherProject)], before);
        });
      }

      it('takes notes on a closed thread again once it is reopened', async () => {
        const h = harness();
        await setThreadStatus(h, projectId, closed, 'Open');
        await addNote(h, projectId, { threadId: closed, text: 'reopened' });
        await setThreadStatus(h, projectId, closed, 'Closed');
      });
    });
  });

  describe('SetInquiryThreadStatus', () => {
    const harness = sharedHarness(dialect);

    for (const row of ADMIN_ONLY) {
      it(`resolves a thread: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId);
        const before = await inquiryState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: inquiryUrls.status(projectId, threadId), body: threadStatusRequest('Resolved') });
        assertRow(h, res, row, 'InquiryThreadResponse');
        const status = (await h.store.inquiries.getThread(projectId, threadId))!.status;
        if (row.code) assert.deepEqual(await inquiryState(h, projectId), before, 'a refused move changes nothing');
        else assert.equal(status, 'Resolved');
      });
    }

    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const allowed = MOVES[from]!.includes(to);
        it(`${allowed ? 'allows' : 'refuses'} ${from} → ${to}`, async () => {
          const h = harness();
          const projectId = await createProject(h, 'applicant');
          const threadId = await openThread(h, projectId);
          if (from !== 'Open') await setThreadStatus(h, projectId, threadId, from);
          const before = await inquiryState(h, projectId);
          h.clock.advance();
          const res = await h.request({ method: 'POST', url: inquiryUrls.status(projectId, threadId), body: threadStatusRequest(to) });
          if (!allowed) {
            assertError(h, res, 409, 'TRANSITION_NOT_ALLOWED');
            assert.equal(message(res), `A thread in status ${from} cannot move to ${to}; allowed next: ${MOVES[from]!.join(', ')}.`);
            assert.deepEqual(await inquiryState(h, projectId), before);
            return;
          }
          assert.equal(res.statusCode, 200, res.body);
          assertValidXml(h, res, 'InquiryThreadResponse');
          const at = h.clock.now();
          assert.equal(attr(res.body, 'InquiryThreadResponse', 'ProjectId'), projectId);
          assert.deepEqual(threadOf(res), {
            ThreadId: threadId, Subject: 'A question', Status: to, CreatedTimestamp: isoTimestamp(before.threads[0]!.createdAt),
            UpdatedTimestamp: isoTimestamp(at), NoteCount: '1',
          });
          const after = await inquiryState(h, projectId);
          assert.equal(after.threads[0]!.status, to);
          assert.equal(after.threads[0]!.updatedAt, at);
          assert.equal(after.project!.updatedAt, at);
          assert.deepEqual(after.notes, before.notes);
          assert.deepEqual(after.audit[0]!.action, 'inquiry.thread.status.set');
          assert.deepEqual(after.audit[0]!.detail, { threadId, from, to });
        });
      }
    }

    for (const [what, body, status, code] of [
      ['an unknown status', threadStatusRequest('Pending'), 400, 'INVALID_REQUEST'],
      ['a status in the wrong case', threadStatusRequest('resolved'), 400, 'INVALID_REQUEST'],
      ['no status', `<SetInquiryThreadStatusRequest xmlns="${NS}"/>`, 400, 'INVALID_REQUEST'],
      ['malformed XML', '<SetInquiryThreadStatusRequest', 400, 'MALFORMED_XML'],
    ] as const) {
      it(`answers ${what} with ${status} ${code}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId);
        const before = await inquiryState(h, projectId);
        assertError(h, await h.request({ method: 'POST', url: inquiryUrls.status(projectId, threadId), body }), status, code);
        assert.deepEqual(await inquiryState(h, projectId), before);
      });
    }
  });

  describe('SetInquiryThreadExternalId', () => {
    const harness = sharedHarness(dialect);
    const setExternal = (h: HttpHarness, projectId: string, threadId: string, id: string | null, program = PROGRAM) => {
      h.clock.advance();
      return h.request({ method: 'POST', url: inquiryUrls.externalId(projectId, threadId, program), body: externalIdRequest(id) });
    };

    for (const row of ADMIN_ONLY) {
      it(`links a thread: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId);
        const before = await inquiryState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: inquiryUrls.externalId(projectId, threadId), body: externalIdRequest(`M-${row.who}`) });
        assertRow(h, res, row, 'InquiryThreadResponse');
        if (row.code) assert.deepEqual(await inquiryState(h, projectId), before, 'a refused link changes nothing');
        else assert.equal((await h.store.inquiries.getThread(projectId, threadId))!.externalId, `M-${row.who}`);
      });
    }

    it('sets, shows, changes and clears the external id (empty or absent), with an audit row each time', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId);
      const set = await setExternal(h, projectId, threadId, '  HELP-42  ');
      assert.equal(set.statusCode, 200, set.body);
      assertValidXml(h, set, 'InquiryThreadResponse');
      assert.equal(threadOf(set).ExternalId, 'HELP-42', 'whitespace collapsed');
      assert.equal(threadOf(set).UpdatedTimestamp, isoTimestamp(h.clock.now()));
      const listed = await h.request({ method: 'GET', url: inquiryUrls.threads(projectId) });
      assert.equal(attr(listed.body, 'InquiryThread', 'ExternalId'), 'HELP-42');
      assert.equal((await setExternal(h, projectId, threadId, 'HELP-43')).statusCode, 200);
      const cleared = await setExternal(h, projectId, threadId, '');
      assert.equal(cleared.statusCode, 200, cleared.body);
      assert.equal(threadOf(cleared).ExternalId, undefined);
      assert.equal((await setExternal(h, projectId, threadId, 'HELP-44')).statusCode, 200);
      const absent = await setExternal(h, projectId, threadId, null);
      assert.equal(absent.statusCode, 200, absent.body);
      assert.equal((await h.store.inquiries.getThread(projectId, threadId))!.externalId, null);
      const audit = await h.store.audit.list({ projectId, action: 'inquiry.thread.external_id.set' });
      assert.deepEqual(audit.map((a) => [a.detail?.from, a.detail?.to]).reverse(), [
        [null, 'HELP-42'], ['HELP-42', 'HELP-43'], ['HELP-43', null], [null, 'HELP-44'], ['HELP-44', null],
      ]);
    });

    it('changes nothing when the thread already has that id', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId);
      assert.equal((await setExternal(h, projectId, threadId, 'SAME-1')).statusCode, 200);
      const before = await inquiryState(h, projectId);
      const again = await setExternal(h, projectId, threadId, 'SAME-1');
      assert.equal(again.statusCode, 200, again.body);
      assertValidXml(h, again, 'InquiryThreadResponse');
      assert.equal(threadOf(again).ExternalId, 'SAME-1');
      assert.deepEqual(await inquiryState(h, projectId), before);
    });

    it('keeps an external id unique within the program: another thread gets 409 naming the holder; unlinking frees it', async () => {
      const h = harness();
      const a = await createProject(h, 'applicant');
      const b = await createProject(h, 'applicant');
      const holder = await openThread(h, a);
      const sameProject = await openThread(h, a);
      const otherProject = await openThread(h, b);
      assert.equal((await setExternal(h, a, holder, 'TICKET-7')).statusCode, 200);
      const before = [await inquiryState(h, a), await inquiryState(h, b)];
      for (const [projectId, threadId] of [[a, sameProject], [b, otherProject]] as const) {
        const res = await setExternal(h, projectId, threadId, 'TICKET-7');
        assertError(h, res, 409, 'CONFLICT');
        assert.match(message(res), new RegExp(`"TICKET-7" is already used by inquiry thread ${holder} of project ${a}`));
      }
      assert.deepEqual([await inquiryState(h, a), await inquiryState(h, b)], before);
      assert.equal((await setExternal(h, a, holder, '')).statusCode, 200);
      assert.equal((await setExternal(h, b, otherProject, 'TICKET-7')).statusCode, 200);
      assert.equal((await h.store.inquiries.getThread(b, otherProject))!.externalId, 'TICKET-7');
    });

    it('lets two programs use the same external id, and any number of threads have none', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const ours = await openThread(h, projectId);
      await openThread(h, projectId);
      await openThread(h, projectId);
      const wind = await seedOtherProgram(h.store, 'WINDPROJ0003');
      const theirs = await addNote(h, wind, { subject: 'Blades', text: 'Length?' }, 'admin', OTHER_PROGRAM);
      assert.equal((await setExternal(h, projectId, ours, 'SHARED-1')).statusCode, 200);
      const res = await setExternal(h, wind, theirs.threadId, 'SHARED-1', OTHER_PROGRAM);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await h.store.inquiries.findThreadByExternalId(OTHER.program, 'SHARED-1'))!.id, theirs.threadId);
      assert.equal((await h.store.inquiries.findThreadByExternalId(IDS.program, 'SHARED-1'))!.id, ours);
    });

    it('gives an id asked for by two threads at once to exactly one of them', async () => {
      const h = harness();
      const a = await createProject(h, 'applicant');
      const b = await createProject(h, 'applicant');
      const ta = await openThread(h, a);
      const tb = await openThread(h, b);
      h.clock.advance();
      const answers = await Promise.all([
        h.request({ method: 'POST', url: inquiryUrls.externalId(a, ta), body: externalIdRequest('RACE-1') }),
        h.request({ method: 'POST', url: inquiryUrls.externalId(b, tb), body: externalIdRequest('RACE-1') }),
      ]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 409], answers.map((r) => r.body).join('\n'));
      for (const res of answers.filter((r) => r.statusCode === 409)) assertError(h, res, 409, 'CONFLICT');
      const holders = [(await h.store.inquiries.getThread(a, ta))!, (await h.store.inquiries.getThread(b, tb))!].filter((t) => t.externalId === 'RACE-1');
      assert.equal(holders.length, 1);
      const audit = [...(await h.store.audit.list({ projectId: a })), ...(await h.store.audit.list({ projectId: b }))];
      assert.equal(audit.filter((r) => r.action === 'inquiry.thread.external_id.set').length, 1, 'the loser left no audit row');
    });

    for (const [what, body, code] of [
      ['101 characters', externalIdRequest('x'.repeat(101)), 'INVALID_REQUEST'],
      ['another attribute', `<SetInquiryThreadExternalIdRequest xmlns="${NS}" Id="x"/>`, 'INVALID_REQUEST'],
    ] as const) {
      it(`answers ${what} with 400 ${code}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const threadId = await openThread(h, projectId);
        const before = await inquiryState(h, projectId);
        assertError(h, await h.request({ method: 'POST', url: inquiryUrls.externalId(projectId, threadId), body }), 400, code);
        assert.deepEqual(await inquiryState(h, projectId), before);
      });
    }

    it('takes 100 characters', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId);
      const res = await setExternal(h, projectId, threadId, 'é'.repeat(100));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await h.store.inquiries.getThread(projectId, threadId))!.externalId, 'é'.repeat(100));
    });
  });

  describe('threads of other projects and programs', () => {
    const harness = sharedHarness(dialect);
    let a = '';
    let b = '';
    let inB = '';
    let wind = '';
    let inWind = '';
    before(async () => {
      const h = harness();
      a = await createProject(h, 'applicant');
      b = await createProject(h, 'applicant');
      inB = await openThread(h, b);
      wind = await seedOtherProgram(h.store, 'WINDPROJ0004');
      inWind = (await addNote(h, wind, { subject: 'Tower', text: 'Permit?' }, 'admin', OTHER_PROGRAM)).threadId;
    });

    const operations: [string, (projectId: string, threadId: string, program?: string) => { method: string; url: string; body?: string }][] = [
      ['GetNotesInInquiryThread', (p, t, program) => ({ method: 'GET', url: inquiryUrls.notes(p, t, program) })],
      ['SetInquiryNote', (p, t, program) => ({ method: 'POST', url: inquiryUrls.addNote(p, program), body: noteRequest({ threadId: t, text: 'x' }) })],
      ['SetInquiryThreadStatus', (p, t, program) => ({ method: 'POST', url: inquiryUrls.status(p, t, program), body: threadStatusRequest('Closed') })],
      ['SetInquiryThreadExternalId', (p, t, program) => ({ method: 'POST', url: inquiryUrls.externalId(p, t, program), body: externalIdRequest('X-1') })],
    ];
    for (const [name, request] of operations) {
      it(`${name} answers 404 for a thread of another project or program, and changes nothing`, async () => {
        const h = harness();
        const before = [await inquiryState(h, a), await inquiryState(h, b), await inquiryState(h, wind, OTHER.program)];
        for (const [projectId, threadId, program] of [[a, inB, PROGRAM], [a, inWind, PROGRAM], [wind, inWind, PROGRAM], [b, inB, OTHER_PROGRAM]]) {
          const res = await h.request({ ...request(projectId!, threadId!, program), as: 'admin' });
          assertError(h, res, 404, 'NOT_FOUND');
        }
        assert.deepEqual([await inquiryState(h, a), await inquiryState(h, b), await inquiryState(h, wind, OTHER.program)], before);
      });
    }

    it('answers a wrong method with 405 and the allowed ones', async () => {
      const h = harness();
      const res = await h.request({ method: 'DELETE', url: inquiryUrls.status(b, inB) });
      assertError(h, res, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.allow, 'POST');
    });
  });

  describe('JSON', () => {
    const harness = sharedHarness(dialect);

    it('takes the three requests as JSON (tokens collapsed, Text as sent) and answers JSON with the values of the XML answers', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const post = (url: string, body: unknown) => h.request({ method: 'POST', url, body: JSON.stringify(body), headers: JSON_BODY });
      h.clock.advance();
      const noteAt = h.clock.now();
      const note = assertJsonAnswer(await post(inquiryUrls.addNote(projectId), {
        Subject: '  Roof   access ', VisibleToApplicant: 'true', Text: ' Two\n lines & <more> ',
      }), InquiryNotesResponse);
      const thread = note.InquiryThread;
      assert.deepEqual([thread.Subject, thread.Status, thread.NoteCount, thread.CreatedTimestamp], ['Roof access', 'AwaitingResponse', 1, isoTimestamp(noteAt)]);
      assert.deepEqual(thread.Note.map((n) => [n.Text, n.VisibleToApplicant, n.AuthorEmail]), [[' Two\n lines & <more> ', true, h.who.admin.email]]);
      const read = await h.request({ method: 'GET', url: inquiryUrls.notes(projectId, thread.ThreadId) });
      assert.deepEqual(note, xmlAnswerValue(h, read, InquiryNotesResponse));

      const status = assertJsonAnswer(await post(inquiryUrls.status(projectId, thread.ThreadId), { Status: ' Resolved ' }), InquiryThreadResponse);
      assert.equal(status.InquiryThread.Status, 'Resolved');
      const linked = assertJsonAnswer(await post(inquiryUrls.externalId(projectId, thread.ThreadId), { ExternalId: ' CRM   7 ' }), InquiryThreadResponse);
      assert.equal(linked.InquiryThread.ExternalId, 'CRM 7');
      const list = await h.request({ method: 'GET', url: inquiryUrls.threads(projectId), headers: { accept: 'application/json' } });
      const threads = assertJsonAnswer(list, InquiryThreadsResponse);
      assert.deepEqual(threads.InquiryThread, [linked.InquiryThread]);
      assert.deepEqual(threads, xmlAnswerValue(h, await h.request({ method: 'GET', url: inquiryUrls.threads(projectId) }), InquiryThreadsResponse));
      const unlinked = assertJsonAnswer(await post(inquiryUrls.externalId(projectId, thread.ThreadId), {}), InquiryThreadResponse);
      assert.equal('ExternalId' in unlinked.InquiryThread, false, 'a null value is left out');
    });

    it('refuses a JSON body its schema does not admit with a JSON ErrorResponse, changing nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId);
      const before = await inquiryState(h, projectId);
      const cases: [string, unknown, RegExp][] = [
        [inquiryUrls.status(projectId, threadId), { Status: 'Done' }, /Status must be equal to one of the allowed values/],
        [inquiryUrls.addNote(projectId), { ThreadId: threadId, VisibleToApplicant: 'yes', Text: 'x' }, /VisibleToApplicant must be boolean/],
        [inquiryUrls.addNote(projectId), { ThreadId: threadId }, /must have required property 'Text'/],
        [inquiryUrls.externalId(projectId, threadId), { ExternalId: 'x'.repeat(101) }, /ExternalId must NOT have more than 100 characters/],
      ];
      for (const [url, body, message] of cases) {
        const res = await h.request({ method: 'POST', url, body: JSON.stringify(body), headers: JSON_BODY });
        assert.match(assertJsonError(res, 400, 'INVALID_REQUEST'), message);
      }
      assert.deepEqual(await inquiryState(h, projectId), before);
    });
  });
});
