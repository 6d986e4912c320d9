import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertValidXml, type HttpHarness, type Who } from '../support/http-harness.ts';
import { createProject, sharedHarness } from './http-helpers.ts';
import {
  addNote, csrfToken, hasReplyForm, inquiryState, inquiryUrls, landingPage, noteTexts, openThread, pageNotes, postReply, SAME_ORIGIN, setThreadStatus,
} from './inquiry-helpers.ts';
import { elements } from './workflow-helpers.ts';

// The conversation between staff and applicant: staff write through the admin-only API, the applicant reads the
// notes meant for them on the project's landing page and answers there with POST /MvcProjects/InquiryReply
// (form fields ProgramId, ProjectId, ThreadId, Text; same-origin only; 303 back to the landing page).

function assertHtml(res: LightMyRequestResponse, status: number): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
}

/** The landing page of a project as `who`, expected to answer 200. */
async function page(h: HttpHarness, projectId: string, who: Who): Promise<string> {
  const res = await landingPage(h, projectId, who);
  assertHtml(res, 200);
  return res.body;
}

/** The current status of a thread, from the store. */
async function statusOf(h: HttpHarness, projectId: string, threadId: string): Promise<string | undefined> {
  return (await h.store.inquiries.getThread(projectId, threadId))?.status;
}

forEachDialect('HTTP inquiry conversation', ({ dialect }) => {
  describe('staff and applicant', () => {
    const harness = sharedHarness(dialect);

    it('hold a thread from the first question to closing it', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const fields = (threadId: string, text: string) => ({ ProgramId: IDS.program, ProjectId: projectId, ThreadId: threadId, Text: text });

      // The admin asks the applicant something, and adds a remark for staff only.
      const question = 'Please send the roof plan.\nWe need <both> pages & the legend.';
      const { threadId } = await addNote(h, projectId, { subject: 'Roof plan <A&B>', text: question, visible: true });
      await addNote(h, projectId, { threadId, text: 'Installer is new to us; check the licence.', visible: false }, 'programAdmin');
      assert.equal(await statusOf(h, projectId, threadId), 'AwaitingResponse');
      // A thread with hidden notes only is not shown to the applicant at all.
      const internal = await openThread(h, projectId, { subject: 'Internal only', text: 'staff talk', visible: false });

      // The applicant sees the question, never the hidden note nor the hidden thread, and a reply form.
      let html = await page(h, projectId, 'applicant');
      assert.deepEqual(pageNotes(html, threadId), [question]);
      assert.match(html, /Roof plan &lt;A&amp;B>/, 'the subject is escaped');
      assert.match(html, /We need &lt;both> pages &amp; the legend\./, 'the note is escaped');
      assert.doesNotMatch(html, /licence|staff talk|Internal only/);
      assert.equal(pageNotes(html, internal), null);
      assert.ok(hasReplyForm(html, threadId), 'a reply form for the visible thread');

      // A reply without the Origin header (as a form on another site could send it) is refused and leaves no note.
      const before = await inquiryState(h, projectId);
      assertHtml(await postReply(h, 'applicant', fields(threadId, 'forged'), {}), 403);
      assertHtml(await postReply(h, 'applicant', fields(threadId, 'forged'), { origin: 'https://evil.example' }), 403);
      assert.deepEqual(await inquiryState(h, projectId), before);

      // The applicant replies on the page; the thread is Open again, for staff to look at.
      h.clock.advance();
      const answer = '  Attached both pages.\r\nThe legend is on page 2 <see> & thanks!  ';
      const replied = await postReply(h, 'applicant', fields(threadId, answer));
      assert.equal(replied.statusCode, 303, replied.body);
      assert.equal(replied.headers.location, `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`);
      assert.equal(await statusOf(h, projectId, threadId), 'Open');
      const replyAt = h.clock.now();

      // The admin reads the whole thread through the API, oldest first, the reply exactly as typed.
      const notes = await h.request({ method: 'GET', url: inquiryUrls.notes(projectId, threadId), as: 'admin' });
      assert.equal(notes.statusCode, 200, notes.body);
      assertValidXml(h, notes, 'InquiryNotesResponse');
      assert.deepEqual(noteTexts(notes.body), [question, 'Installer is new to us; check the licence.', answer]);
      assert.deepEqual(elements(notes.body, 'Note').map((n) => [n.AuthorEmail, n.VisibleToApplicant]), [
        [h.who.admin.email, 'true'], [h.who.programAdmin.email, 'false'], [h.who.applicant.email, 'true'],
      ]);
      assert.equal(elements(notes.body, 'InquiryThread')[0]!.Status, 'Open');
      const project = await h.store.projects.getProject(IDS.program, projectId);
      assert.equal(project!.updatedAt, replyAt, "the reply moved the project's LastChangeTimestamp");
      const [audit] = await h.store.audit.list({ projectId, action: 'inquiry.note.add' });
      assert.equal(audit!.actorId, h.who.applicant.id);
      assert.doesNotMatch(JSON.stringify(audit), /legend/);

      // Both are shown to the applicant now, in order.
      html = await page(h, projectId, 'applicant');
      assert.deepEqual(pageNotes(html, threadId), [question, answer]);

      // Another applicant of the program can neither see nor answer the thread.
      assertHtml(await landingPage(h, projectId, 'otherApplicant'), 404);
      const stranger = await postReply(h, 'otherApplicant', fields(threadId, 'me too'));
      assertHtml(stranger, 404);
      assert.doesNotMatch(stranger.body, /Roof plan/);

      // The admin answers, resolves and closes the thread.
      await addNote(h, projectId, { threadId, text: 'Thanks, all there.', visible: true });
      assert.equal(await statusOf(h, projectId, threadId), 'AwaitingResponse');
      await setThreadStatus(h, projectId, threadId, 'Resolved');
      await setThreadStatus(h, projectId, threadId, 'Closed', 'programAdmin');

      // The closed thread stays readable, without a reply form; a forged reply is refused and changes nothing.
      html = await page(h, projectId, 'applicant');
      assert.deepEqual(pageNotes(html, threadId), [question, answer, 'Thanks, all there.']);
      assert.equal(hasReplyForm(html, threadId), false);
      assert.match(html, /This thread is closed\./);
      const closed = await inquiryState(h, projectId);
      const late = await postReply(h, 'applicant', fields(threadId, 'one more thing'));
      assertHtml(late, 409);
      assert.match(late.body, /THREAD_CLOSED|closed/);
      assert.deepEqual(await inquiryState(h, projectId), closed);
    });
  });

  describe('the reply form', () => {
    const harness = sharedHarness(dialect);

    /** A project of the applicant with one thread that shows the applicant a note, and one that does not. */
    async function setup(h: HttpHarness): Promise<{ projectId: string; threadId: string; hiddenThread: string; fields: (text: string, threadId?: string) => Record<string, string> }> {
      const projectId = await createProject(h, 'applicant');
      const threadId = await openThread(h, projectId, { text: 'Question', visible: true });
      const hiddenThread = await openThread(h, projectId, { text: 'Hidden', visible: false });
      return { projectId, threadId, hiddenThread, fields: (text, id = threadId) => ({ ProgramId: IDS.program, ProjectId: projectId, ThreadId: id, Text: text }) };
    }

    it('takes a same-origin post told by Sec-Fetch-Site when the browser sends no Origin', async () => {
      const h = harness();
      const { projectId, threadId, fields } = await setup(h);
      const res = await postReply(h, 'applicant', fields('ok'), { 'sec-fetch-site': 'same-origin' });
      assert.equal(res.statusCode, 303, res.body);
      assert.deepEqual((await h.store.inquiries.listNotes(threadId)).map((n) => n.text), ['Question', 'ok']);
      assert.equal(await statusOf(h, projectId, threadId), 'Open');
    });

    for (const [what, headers] of [
      ['no Origin and no Sec-Fetch-Site', {}],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Origin: null', { origin: 'null' }],
      ['the origin of another site', { origin: 'https://evil.example' }],
      ['another port of the same host', { origin: 'http://apas.test:8080' }],
      ['another origin with Sec-Fetch-Site: same-origin', { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }],
    ] as const) {
      it(`refuses a post with ${what} (403) before signing in, and changes nothing`, async () => {
        const h = harness();
        const { projectId, fields } = await setup(h);
        const before = await inquiryState(h, projectId);
        const res = await postReply(h, 'applicant', fields('forged'), { ...headers });
        assertHtml(res, 403);
        assert.equal(res.headers['www-authenticate'], undefined);
        assert.deepEqual(await inquiryState(h, projectId), before);
      });
    }

    it('refuses a same-origin post without the CSRF token (403) before signing in, and changes nothing', async () => {
      const h = harness();
      const { projectId, fields } = await setup(h);
      const before = await inquiryState(h, projectId);
      const res = await postReply(h, 'applicant', fields('forged'), SAME_ORIGIN, { csrf: false });
      assertHtml(res, 403);
      assert.equal(res.headers['www-authenticate'], undefined);
      assert.deepEqual(await inquiryState(h, projectId), before);
    });

    const refusals: [string, Who | null, (s: Awaited<ReturnType<typeof setup>>) => Record<string, string>, number][] = [
      ['no credentials', null, (s) => s.fields('x'), 401],
      ['an outsider', 'outsider', (s) => s.fields('x'), 403],
      ['a reader of the program (who may read but not change the project)', 'reader', (s) => s.fields('x'), 403],
      ['another applicant', 'otherApplicant', (s) => s.fields('x'), 404],
      ['a thread that shows the applicant nothing', 'applicant', (s) => s.fields('x', s.hiddenThread), 404],
      ['an unknown thread', 'applicant', (s) => s.fields('x', 'NOSUCHTHREAD'), 404],
      ['an unknown project', 'applicant', (s) => ({ ...s.fields('x'), ProjectId: 'NOSUCHPROJCT' }), 404],
      ['an empty text', 'applicant', (s) => s.fields(''), 400],
      ['a text of whitespace only', 'applicant', (s) => s.fields(' \r\n '), 400],
      ['a text of 20001 characters', 'applicant', (s) => s.fields('y'.repeat(20001)), 400],
      ['a control character', 'applicant', (s) => s.fields('bell \u0007'), 400],
      ['no ThreadId', 'applicant', (s) => { const { ThreadId: _t, ...rest } = s.fields('x'); return rest; }, 400],
      ['an id that cannot be an id', 'applicant', (s) => ({ ...s.fields('x'), ThreadId: '../x' }), 400],
    ];
    for (const [what, who, body, status] of refusals) {
      it(`answers ${what} with ${status} and changes nothing`, async () => {
        const h = harness();
        const s = await setup(h);
        const before = await inquiryState(h, s.projectId);
        assertHtml(await postReply(h, who, body(s)), status);
        assert.deepEqual(await inquiryState(h, s.projectId), before);
      });
    }

    it('refuses a field sent twice and a body that is not a form', async () => {
      const h = harness();
      const s = await setup(h);
      const before = await inquiryState(h, s.projectId);
      const csrf = await csrfToken(h);
      const twice = await h.app.inject({
        method: 'POST', url: '/MvcProjects/InquiryReply', payload: `${new URLSearchParams({ ...s.fields('a'), _csrf: csrf.token }).toString()}&Text=b`,
        headers: { ...SAME_ORIGIN, cookie: csrf.cookie, authorization: `Basic ${Buffer.from(`${h.who.applicant.email}:${h.who.applicant.password}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertHtml(twice, 400);
      const json = await h.app.inject({
        method: 'POST', url: '/MvcProjects/InquiryReply', payload: JSON.stringify(s.fields('a')),
        headers: { ...SAME_ORIGIN, 'x-csrf-token': csrf.token, cookie: csrf.cookie, authorization: `Basic ${Buffer.from(`${h.who.applicant.email}:${h.who.applicant.password}`).toString('base64')}`, 'content-type': 'application/json' },
      });
      assertHtml(json, 415);
      assert.deepEqual(await inquiryState(h, s.projectId), before);
    });

    it('answers errors the route never sees (a form body over the size limit) with an HTML page too, and changes nothing', async () => {
      const h = harness();
      const s = await setup(h);
      const before = await inquiryState(h, s.projectId);
      const csrf = await csrfToken(h);
      const res = await h.app.inject({
        method: 'POST', url: '/MvcProjects/InquiryReply', payload: new URLSearchParams({ ...s.fields('a'), _csrf: csrf.token, Text: 'x'.repeat(2 * 1024 * 1024) }).toString(),
        headers: { ...SAME_ORIGIN, cookie: csrf.cookie, authorization: `Basic ${Buffer.from(`${h.who.applicant.email}:${h.who.applicant.password}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertHtml(res, 413);
      assert.match(res.body, /<title>What you sent is too large · apas<\/title>/);
      assert.deepEqual(await inquiryState(h, s.projectId), before);
    });

    it('keeps reply text exactly, and the page shows markup in it as text', async () => {
      const h = harness();
      const { projectId, threadId, fields } = await setup(h);
      const text = '<script>alert("x")</script> & Zürich 😀\n  indented  ';
      assert.equal((await postReply(h, 'applicant', fields(text))).statusCode, 303);
      assert.equal((await h.store.inquiries.listNotes(threadId))[1]!.text, text);
      const html = await page(h, projectId, 'applicant');
      assert.doesNotMatch(html, /<script>/);
      assert.match(html, /&lt;script>alert\(&quot;x&quot;\)&lt;\/script> &amp; Zürich/);
      assert.deepEqual(pageNotes(html, threadId), ['Question', text]);
    });

    it('lets staff who may change the project reply; their reply counts as a staff note', async () => {
      const h = harness();
      const { projectId, threadId, fields } = await setup(h);
      assert.equal((await postReply(h, 'applicant', fields('answer'))).statusCode, 303);
      assert.equal(await statusOf(h, projectId, threadId), 'Open');
      const res = await postReply(h, 'editor', fields('from the reviewer'));
      assert.equal(res.statusCode, 303, res.body);
      assert.equal(await statusOf(h, projectId, threadId), 'AwaitingResponse');
      const notes = await h.store.inquiries.listNotes(threadId);
      assert.deepEqual(notes.map((n) => [n.authorId, n.visibleToApplicant]).slice(1), [[h.who.applicant.id, true], [h.who.editor.id, true]]);
    });

    it('shows a reader the notes but no reply form', async () => {
      const h = harness();
      const { projectId, threadId } = await setup(h);
      const html = await page(h, projectId, 'reader');
      assert.deepEqual(pageNotes(html, threadId), ['Question']);
      assert.equal(hasReplyForm(html, threadId), false);
      assert.ok(hasReplyForm(await page(h, projectId, 'editor'), threadId));
    });

    it("reopens a resolved thread with the applicant's reply", async () => {
      const h = harness();
      const { projectId, threadId, fields } = await setup(h);
      await setThreadStatus(h, projectId, threadId, 'Resolved');
      assert.ok(hasReplyForm(await page(h, projectId, 'applicant'), threadId), 'a resolved thread still takes replies');
      assert.equal((await postReply(h, 'applicant', fields('not quite'))).statusCode, 303);
      assert.equal(await statusOf(h, projectId, threadId), 'Open');
    });

    it('shows no inquiry section when no thread has a note for the applicant', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await openThread(h, projectId, { text: 'hidden', visible: false });
      const html = await page(h, projectId, 'applicant');
      assert.doesNotMatch(html, /class="inquiry"|InquiryReply/);
    });
  });
});
