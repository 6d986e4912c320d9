import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PRUNED_MARK } from '../../src/store/event-queries.ts';
import { EventsResponse } from '../../src/wire/documents/events.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, dataRequest, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { assertJsonError, assertSameAnswer, JSON_ANSWER } from '../support/json-answers.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { WF } from '../support/workflow-fixtures.ts';
import {
  API, COMPLETE, createProject, draftPath, ownerRequest, programState, projectPath, send, setDraft, submitPath,
} from './http-helpers.ts';
import { addNote, setThreadStatus } from './inquiry-helpers.ts';
import { assigneeRequest, elements, setStatus, sharedWorkflowHarness, statusRequest, urls } from './workflow-helpers.ts';

// GetEvents: GET /services/v2/Events?after=…&limit=…&program=…&type=…
//   answer <EventsResponse NextCursor HasMore><Event Sequence EventId Type Timestamp ProgramId ProjectId Actor …/></EventsResponse>

const EVENTS = `${API}/Events`;

/** GetEvents as `who` with the query `query`; expects 200 and a valid answer. */
async function feed(h: HttpHarness, who: Who, query = ''): Promise<{ res: LightMyRequestResponse; events: Record<string, string>[]; next: number; hasMore: boolean }> {
  const res = await h.request({ method: 'GET', url: `${EVENTS}${query ? `?${query}` : ''}`, as: who });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, 'EventsResponse');
  return { res, events: elements(res.body, 'Event'), next: Number(attr(res.body, 'EventsResponse', 'NextCursor')), hasMore: attr(res.body, 'EventsResponse', 'HasMore') === 'true' };
}

/** Every event `who` may read after `after`, page by page. */
async function readAll(h: HttpHarness, who: Who, after: number, extra = ''): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  let cursor = after;
  for (;;) {
    const page = await feed(h, who, `after=${cursor}&limit=7${extra}`);
    out.push(...page.events);
    cursor = page.next;
    if (!page.hasMore) return out;
  }
}

function upload(h: HttpHarness, projectId: string, who: Who = 'applicant') {
  h.clock.advance();
  return h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: TINY_PDF,
    headers: { ...authHeaders(h.who[who]), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="secret-site-plan.png"' },
  });
}

function reviewFile(h: HttpHarness, projectId: string, status: string) {
  h.clock.advance();
  return h.request({ method: 'POST', url: `${projectPath(projectId)}/Attachments/photo/Metadata`, body: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="${status}"/>` });
}

/** The highest sequence in the outbox now. */
const head = (h: HttpHarness) => h.store.events.lastSequence();

forEachDialect('HTTP GetEvents', ({ dialect }) => {
  // The follower below polls as fast as it can.
  const harness = sharedWorkflowHarness(dialect, { APAS_RATE_LIMIT_MAX: '1000000' });

  /** The applicant cycle and a staff review of one project; returns its id and the sequence before it. */
  async function walk(h: HttpHarness): Promise<{ projectId: string; start: number }> {
    const start = await head(h);
    const projectId = await createProject(h, 'applicant');
    await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] });
    assert.equal((await upload(h, projectId)).statusCode, 200);
    h.clock.advance();
    assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
    h.clock.advance();
    assert.equal((await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(h.who.editor.email) })).statusCode, 200);
    assert.equal((await reviewFile(h, projectId, 'Approve')).statusCode, 200);
    const { threadId } = await addNote(h, projectId, { subject: 'Roof', text: 'SECRET-QUESTION: which roof?', visible: true });
    await addNote(h, projectId, { threadId, text: 'SECRET-INTERNAL: call the installer', visible: false });
    assert.equal((await setThreadStatus(h, projectId, threadId, 'Closed')).statusCode, 200);
    assert.equal((await setStatus(h, projectId, WF.approved)).statusCode, 200);
    return { projectId, start };
  }

  it('reports every change of the applicant cycle and a staff review, in order, with ids and states but no values', async () => {
    const h = harness();
    const { projectId, start } = await walk(h);
    const events = await readAll(h, 'reader', start);
    assert.deepEqual(events.map((e) => e.Type), [
      'project.created', 'project.draft_saved', 'attachment.uploaded', 'project.submitted', 'project.status_changed',
      'project.assignee_changed', 'attachment.reviewed', 'inquiry.note_added', 'inquiry.note_added', 'inquiry.thread_status_changed',
      'project.status_changed',
    ]);
    const seqs = events.map((e) => Number(e.Sequence));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'in sequence order');
    assert.equal(new Set(events.map((e) => e.EventId)).size, events.length);
    for (const e of events) assert.deepEqual([e.ProgramId, e.ProjectId], [IDS.program, projectId]);
    const [created, , uploaded, submitted, moved, assigned, reviewed, asked, internal, closed, approved] = events;
    assert.deepEqual([created?.Actor, created?.ToStatusId], [h.who.applicant.email, IDS.draft]);
    assert.deepEqual([uploaded?.AttachmentId, uploaded?.AttachmentVersion], [IDS.photo, '1']);
    assert.deepEqual([submitted?.FormId, submitted?.FromStatusId, submitted?.ToStatusId], [IDS.form, IDS.draft, IDS.submitted]);
    assert.match(submitted?.ProjectNumber ?? '', /\d{5}$/);
    assert.deepEqual([moved?.FromStatusId, moved?.ToStatusId], [IDS.draft, IDS.submitted]);
    assert.deepEqual([assigned?.Actor, assigned?.FromUser, assigned?.ToUser], [h.who.admin.email, undefined, h.who.editor.email]);
    assert.deepEqual([reviewed?.FromApprovalStatus, reviewed?.ToApprovalStatus], ['Pending', 'Approved']);
    assert.deepEqual([asked?.VisibleToApplicant, asked?.ByStaff, internal?.VisibleToApplicant], ['true', 'true', 'false']);
    assert.deepEqual([asked?.ToThreadStatus, internal?.ToThreadStatus], ['AwaitingResponse', undefined], 'a question awaits the applicant');
    assert.deepEqual([closed?.FromThreadStatus, closed?.ToThreadStatus], ['AwaitingResponse', 'Closed']);
    assert.deepEqual([approved?.FromStatusId, approved?.ToStatusId], [IDS.submitted, WF.approved]);
    // Nothing a field, a file name or a note holds reaches the outbox.
    const stored = JSON.stringify(await h.store.events.listProjectEvents(projectId));
    for (const secret of [COMPLETE.name, 'secret-site-plan', 'SECRET-QUESTION', 'SECRET-INTERNAL']) assert.ok(!stored.includes(secret), secret);
  });

  it('shows applicants only their own projects, without internal notes and thread states; outsiders nothing', async () => {
    const h = harness();
    const { projectId, start } = await walk(h);
    const mine = await readAll(h, 'applicant', start);
    assert.ok(mine.length > 0);
    assert.ok(mine.every((e) => e.ProjectId === projectId));
    assert.ok(!mine.some((e) => e.Type === 'inquiry.thread_status_changed' || e.VisibleToApplicant === 'false'));
    assert.equal(mine.filter((e) => e.Type === 'inquiry.note_added').length, 1);
    assert.deepEqual(await readAll(h, 'otherApplicant', start), []);
    assert.deepEqual(await readAll(h, 'outsider', start), []);
    assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?program=solar`, as: 'outsider' }), 403, 'FORBIDDEN');
    assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?program=nope`, as: 'admin' }), 404, 'NOT_FOUND');
    // Staff of the program, through a grant or the agency, see all of it.
    for (const who of ['reader', 'editor', 'programAdmin', 'admin'] as const) assert.equal((await readAll(h, who, start)).length, 11, who);
    // A project handed to another applicant leaves the first one's feed and enters the other's.
    h.clock.advance();
    assert.equal((await h.request({ method: 'POST', url: `${projectPath(projectId)}/Owner`, body: ownerRequest(h.who.otherApplicant.email) })).statusCode, 200);
    assert.deepEqual(await readAll(h, 'applicant', start), []);
    const theirs = await readAll(h, 'otherApplicant', start);
    assert.deepEqual(theirs.at(-1)?.Type, 'project.owner_changed');
    assert.deepEqual([theirs.at(-1)?.FromUser, theirs.at(-1)?.ToUser], [h.who.applicant.email, h.who.otherApplicant.email]);
  });

  it('pages by cursor: NextCursor, HasMore, limit, type and program filters', async () => {
    const h = harness();
    const { start } = await walk(h);
    const first = await feed(h, 'reader', `after=${start}&limit=4`);
    assert.equal(first.events.length, 4);
    assert.equal(first.hasMore, true);
    assert.equal(first.next, Number(first.events.at(-1)?.Sequence));
    const rest = await readAll(h, 'reader', first.next);
    assert.equal(rest.length, 7);
    const end = await feed(h, 'reader', `after=${Number(rest.at(-1)?.Sequence)}`);
    assert.deepEqual([end.events, end.hasMore, end.next], [[], false, Number(rest.at(-1)?.Sequence)]);
    const statuses = await readAll(h, 'reader', start, '&type=project.status_changed,project.created');
    assert.deepEqual(statuses.map((e) => e.Type), ['project.created', 'project.status_changed', 'project.status_changed']);
    assert.equal((await readAll(h, 'reader', start, '&program=solar')).length, 11);
    assert.equal((await readAll(h, 'reader', start, `&program=${IDS.program}`)).length, 11);
  });

  it('answers the same feed in JSON', async () => {
    const h = harness();
    const { start } = await walk(h);
    const url = `${EVENTS}?after=${start}&limit=5`;
    const xml = await h.request({ method: 'GET', url, as: 'editor' });
    const json = await h.request({ method: 'GET', url, as: 'editor', headers: JSON_ANSWER });
    const value = assertSameAnswer(h, xml, json, EventsResponse);
    assert.equal(value.Event.length, 5);
    assert.equal(typeof value.Event[0]?.Sequence, 'number');
  });

  for (const [query, why] of [
    ['after=-1', 'a negative cursor'], ['after=abc', 'a cursor that is no number'], ['after=99999999999999999', 'a cursor beyond 2^53'],
    ['limit=0', 'an empty page'], ['limit=1001', 'a page over 1000'], ['type=project.deleted', 'an unknown type'], ['type=,', 'no type'],
    ['after=1&after=2', 'a repeated cursor'],
  ] as const) {
    it(`refuses ${why} with 400 INVALID_PARAMETER`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?${query}`, as: 'admin' }), 400, 'INVALID_PARAMETER');
    });
  }

  it('asks for credentials like every operation', async () => {
    const h = harness();
    assertError(h, await h.request({ method: 'GET', url: EVENTS, as: null }), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('writes no event for a refused or empty change', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const before = await programState(h);
    h.clock.advance();
    assertError(h, await send(h, 'applicant', { method: 'POST', url: submitPath(projectId) }), 422, 'FORM_INCOMPLETE');
    assertError(h, await send(h, 'reader', { method: 'POST', url: draftPath(projectId), body: dataRequest({ kw: '3' }) }), 403, 'FORBIDDEN');
    assertError(h, await send(h, 'admin', { method: 'POST', url: urls.status(projectId), body: statusRequest(WF.approved) }), 409, 'TRANSITION_NOT_ALLOWED');
    assertError(h, await send(h, 'applicant', { method: 'POST', url: draftPath(projectId), body: dataRequest({ kw: 'many' }) }), 422, 'VALIDATION_FAILED');
    // Asking for what already is (nobody assigned) changes nothing.
    assert.equal((await send(h, 'admin', { method: 'POST', url: urls.assignee(projectId), body: assigneeRequest(null) })).statusCode, 200);
    assert.deepEqual((await programState(h)).events, before.events);
  });

  it('refuses a cursor older than the retention mark with 410 EVENTS_EXPIRED', async () => {
    const h = harness();
    await walk(h);
    const top = await head(h);
    await h.store.transaction((tx) => tx.events.moveCursor(PRUNED_MARK, top - 3));
    try {
      assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?after=${top - 4}`, as: 'admin' }), 410, 'EVENTS_EXPIRED');
      assert.equal((await feed(h, 'admin', `after=${top - 3}`)).events.length, 3);
    } finally {
      await h.store.transaction((tx) => tx.events.moveCursor(PRUNED_MARK, 0));
    }
  });

  it('refuses a cursor beyond the feed\'s last sequence (another installation, before a restore) with 409 EVENTS_CURSOR_UNKNOWN', async () => {
    const h = harness();
    await walk(h);
    const top = await head(h);
    // The head itself is a cursor the feed gives (NextCursor of the last page), by every reader's scope.
    assert.equal((await feed(h, 'admin', `after=${top}`)).next, top);
    assert.equal((await feed(h, 'applicant', `after=${top}`)).next, top);
    for (const who of ['admin', 'applicant'] as const) {
      for (const after of [top + 1, top + 1_000_000]) {
        const res = await h.request({ method: 'GET', url: `${EVENTS}?after=${after}`, as: who });
        assertError(h, res, 409, 'EVENTS_CURSOR_UNKNOWN');
        assert.match(res.body, new RegExp(`after=${top}\\b`), 'the message names the last sequence to start again from');
      }
    }
    const json = await h.request({ method: 'GET', url: `${EVENTS}?after=${top + 1}`, as: 'admin', headers: { accept: 'application/json' } });
    assertJsonError(json, 409, 'EVENTS_CURSOR_UNKNOWN');
    // After the retention sweep deleted every event, the mark still tells how far the feed went.
    await h.store.transaction((tx) => tx.events.moveCursor(PRUNED_MARK, top + 5));
    try {
      assert.equal((await feed(h, 'admin', `after=${top + 5}`)).events.length, 0);
      assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?after=${top + 6}`, as: 'admin' }), 409, 'EVENTS_CURSOR_UNKNOWN');
    } finally {
      await h.store.transaction((tx) => tx.events.moveCursor(PRUNED_MARK, 0));
    }
  });

  it('prunes events past their retention only once every consumer has read them', async () => {
    const h = harness();
    await walk(h);
    const top = await head(h);
    await h.store.transaction((tx) => tx.events.moveCursor('test-consumer', top - 2));
    try {
      const deleted = await h.store.transaction((tx) => tx.events.pruneEvents(h.clock.now() + 1));
      assert.ok(deleted > 0);
      assert.equal(await h.store.events.readCursor(PRUNED_MARK), top - 2);
      assert.equal((await h.store.events.listAfter(0, 100)).length, 2, 'the two the consumer has not read are kept');
      assertError(h, await h.request({ method: 'GET', url: `${EVENTS}?after=0`, as: 'admin' }), 410, 'EVENTS_EXPIRED');
    } finally {
      await h.store.transaction(async (tx) => {
        await tx.events.moveCursor(PRUNED_MARK, 0);
        await tx.events.moveCursor('test-consumer', Number.MAX_SAFE_INTEGER);
      });
    }
  });

  it('misses nothing and reorders nothing while many changes commit at once', async () => {
    const h = harness();
    const projects = await Promise.all(Array.from({ length: 6 }, () => createProject(h, 'applicant')));
    const start = await head(h);
    let writing = true;
    const seen: number[] = [];
    const reader = (async () => {
      let cursor = start;
      for (;;) {
        const last = !writing;
        const page = await feed(h, 'reader', `after=${cursor}&limit=1000`);
        seen.push(...page.events.map((e) => Number(e.Sequence)));
        cursor = page.next;
        if (last && !page.hasMore) return;
        if (!page.hasMore) await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await Promise.all(projects.map(async (projectId) => {
      for (let i = 0; i < 15; i++) {
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ kw: String(i + 1) }) });
        assert.equal(res.statusCode, 200, res.body);
      }
    }));
    writing = false;
    await reader;
    const all = (await h.store.events.listAfter(start, 10_000)).map((e) => e.seq);
    assert.equal(all.length, 6 * 15);
    assert.deepEqual(seen, all, 'the follower saw every event once, in sequence order');
  });
});
