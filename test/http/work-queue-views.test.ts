import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { sampleBytes } from '../support/blob-fixtures.ts';
import { COMPLETE, createProject, projectPath, setDraft, sharedHarness, submitPath } from './http-helpers.ts';
import { setStatus } from './workflow-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';
import { postReply } from './inquiry-helpers.ts';
import { demoApi, demoUser } from '../support/demo-api.ts';

// Saved views, chosen columns, the bounded count and needs attention on the staff work queue (issue 22 items 1-2).

const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}`;
const VIEWS = '/Projects/ProjectList/Views';

/** Whether the queue filtered by needs attention `kind` lists the project (its review link names it). */
async function flagged(h: HttpHarness, kind: 'reply' | 'files', projectId: string): Promise<boolean> {
  const res = await webGet(h, `${QUEUE}&attention=${kind}&size=100`, 'admin');
  assert.equal(res.statusCode, 200, res.body);
  return res.body.includes(`Projects/${projectId}/Review`);
}

/** A note in a thread (a new one without `threadId`) through SetInquiryNote; returns the thread's id. */
async function note(h: HttpHarness, who: Who, projectId: string, visible: boolean, threadId?: string): Promise<string> {
  const body = `<SetInquiryNoteRequest xmlns="${NS}"${threadId ? ` ThreadId="${threadId}"` : ' Subject="Roof"'} VisibleToApplicant="${visible}"><Text>Note</Text></SetInquiryNoteRequest>`;
  const res = await h.request({ method: 'POST', url: `${projectPath(projectId)}/InquiryNotes`, as: who, body, headers: { 'content-type': 'application/xml' } });
  assert.equal(res.statusCode, 200, res.body);
  return /ThreadId="([^"]+)"/.exec(res.body)![1]!;
}

forEachDialect('HTTP work queue views', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  describe('saved views', () => {
    it('saves a personal view that only its owner sees and changes; a refused delete changes nothing', async () => {
      const h = harness();
      await createProject(h, 'applicant');
      const saved = await webPost(h, VIEWS, 'editor', { ProgramId: IDS.program, name: 'Mine only', query: 'col=status&col=daysInStatus&order=created-asc' });
      assert.equal(saved.statusCode, 303, saved.body);
      const viewId = /view=([^&]+)/.exec(String(saved.headers.location))?.[1];
      assert.ok(viewId);
      const own = await webGet(h, String(saved.headers.location), 'editor');
      assert.equal(own.statusCode, 200);
      assert.match(own.body, />Mine only</);
      assert.match(own.body, /<th scope="col">Days in status<\/th>/);
      const other = await webGet(h, QUEUE, 'reader');
      assert.doesNotMatch(other.body, /Mine only/);
      const refused = await webPost(h, `${VIEWS}/Delete`, 'reader', { ProgramId: IDS.program, viewId });
      assert.equal(refused.statusCode, 404);
      const renamed = await webPost(h, VIEWS, 'reader', { ProgramId: IDS.program, viewId, name: 'Taken', query: '' });
      assert.equal(renamed.statusCode, 404);
      const after = await webGet(h, QUEUE, 'editor');
      assert.match(after.body, />Mine only</);
      assert.doesNotMatch(after.body, /Taken/);
    });

    it('refuses to share a view without the privilege assign, and stores nothing', async () => {
      const h = harness();
      const res = await webPost(h, VIEWS, 'reader', { ProgramId: IDS.program, name: 'Shared by reader', shared: '1', query: '' });
      assert.equal(res.statusCode, 403);
      assert.doesNotMatch((await webGet(h, QUEUE, 'reader')).body, /Shared by reader/);
    });
  });

  describe('count and needs attention', () => {
    it('shows the count and refuses an unknown column with 400', async () => {
      const h = harness();
      await createProject(h, 'applicant');
      const res = await webGet(h, QUEUE, 'reader');
      assert.match(res.body, /<p id="queue-count">\d+ projects? match/);
      const bad = await webGet(h, `${QUEUE}&col=nosuch`, 'reader');
      assert.equal(bad.statusCode, 400);
      const attention = await webGet(h, `${QUEUE}&attention=any`, 'reader');
      assert.equal(attention.statusCode, 200);
      assert.match(attention.body, /id="attention-any">\d+</);
    });
  });
  describe('a refused choice of columns', () => {
    const demo = demoApi(dialect);

    it('shows only the refusal, with the columns ticked as they were: no count, no rows, no "No projects match"', async () => {
      await demo.submitted();
      const reviewer = demoUser('reviewer');
      const queue = `/Projects/ProjectList?ProgramId=${demo.model.program.id}`;
      const choices = [...(await demo.webGet(reviewer, queue)).body.matchAll(/<input class="usa-checkbox__input" type="checkbox" id="col-[^"]+" name="col" value="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(choices.length > 21, `the demo offers ${choices.length} columns`);
      const chosen = choices.slice(0, 21);
      const res = await demo.webGet(reviewer, `${queue}&${chosen.map((c) => `col=${encodeURIComponent(c)}`).join('&')}`);
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /Choose at most 20 columns; got 21\./);
      assert.doesNotMatch(res.body, /projects? match/i, 'neither a count nor "No projects match"');
      assert.doesNotMatch(res.body, /id="queue-count"|<tbody>/);
      const ticked = [...res.body.matchAll(/<input class="usa-checkbox__input" type="checkbox" id="col-[^"]+" name="col" value="([^"]+)" checked\/>/g)].map((m) => m[1]);
      assert.deepEqual(ticked, chosen, 'the columns ticked are kept, to untick some');
      assert.match(res.body, /Columns \(21 chosen\)/);
      // An unknown column is refused the same way, keeping the others.
      const unknown = await demo.webGet(reviewer, `${queue}&col=status&col=nosuch`);
      assert.equal(unknown.statusCode, 400);
      assert.doesNotMatch(unknown.body, /projects? match/i);
      assert.match(unknown.body, /value="status" checked\/>/);
    });
  });

  describe('kept needs-attention flags', () => {
    it('pages the attention filter by keyset across its branches: each flagged project once, newest change first', async () => {
      const h = harness();
      const made: string[] = [];
      for (let i = 0; i < 6; i++) {
        h.clock.advance(1000);
        made.push(await createProject(h, 'applicant'));
      }
      // Kept as a change would keep them: answered (0, 3), a file (1, 3), both (4); 2 and 5 need nothing.
      const set = (id: string, c: { reply: boolean | null; recountFiles: boolean }) => h.store.transaction((tx) => tx.queueViews.keepQueueAttention(id, { applicantAt: null, recountDeadlines: null, ...c }));
      for (const i of [0, 3, 4]) await set(made[i]!, { reply: true, recountFiles: false });
      const upload = (id: string) => h.app.inject({
        method: 'POST', url: `${projectPath(id)}/Forms/application/Attachments/photo`, payload: sampleBytes(300, 5, '\x89PNG\r\n\x1a\n'),
        headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' },
      });
      for (const i of [1, 3, 4]) {
        assert.equal((await upload(made[i]!)).statusCode, 200);
        // Submitted: a draft's file awaits nobody's review.
        await setDraft(h, made[i]!, { ...COMPLETE, size: [...COMPLETE.size] });
        assert.equal((await h.request({ method: 'POST', url: submitPath(made[i]!), as: 'applicant' })).statusCode, 200);
      }
      const query = { programId: IDS.program, fields: [], sort: 'updated' as const, direction: 'desc' as const, attention: { kinds: ['reply' as const, 'files' as const] } };
      const whole = (await h.store.projects.workQueuePage({ ...query, limit: 100 })).map((r) => r.project.id);
      const mine = whole.filter((id) => made.includes(id));
      assert.deepEqual(new Set(mine), new Set([made[0], made[1], made[3], made[4]]));
      const walked: string[] = [];
      let after: { at: number; id: string } | undefined;
      for (;;) {
        const page = await h.store.projects.workQueuePage({ ...query, limit: 2, ...(after ? { after } : {}) });
        walked.push(...page.map((r) => r.project.id));
        if (page.length < 2) break;
        const last = page.at(-1)!;
        after = { at: last.project.updatedAt, id: last.project.id };
      }
      assert.deepEqual(walked, whole);
      const stored = await Promise.all(whole.map((id) => h.store.projects.getProject(IDS.program, id)));
      const keys = stored.map((p) => [p!.updatedAt, p!.id] as const);
      assert.deepEqual(keys, [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)), 'newest change first');
      // A page filtered to a tab shows that tab's count (taken from the tabs' counts), which is the kind's own.
      for (const [tab, kinds] of [['any', ['reply', 'files', 'deadline', 'connection']], ['reply', ['reply']], ['files', ['files']], ['deadline', ['deadline']]] as const) {
        const own = await h.store.projects.countWorkQueue({ programId: IDS.program, fields: [], attention: { kinds: [...kinds] } }, 1000);
        const page = await webGet(h, `${QUEUE}&attention=${tab}`, 'admin');
        assert.equal(page.statusCode, 200, page.body);
        assert.equal(/<p id="queue-count">(\d+) projects? match/.exec(page.body)?.[1], String(own), `${tab}: the page's count`);
        assert.equal(/id="attention-([a-z]+)">(\d+)</.exec(page.body.slice(page.body.indexOf(`id="attention-${tab}"`)))?.[2], String(own), `${tab}: its tab`);
      }
    });

    it('an upload of a submitted project sets "file awaits review" and a review clears it (a draft\'s upload does not); an applicant\'s reply sets "answered", an internal note keeps it, a note the applicant sees clears it', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      assert.deepEqual([await flagged(h, 'files', projectId), await flagged(h, 'reply', projectId)], [false, false]);
      const upload = await h.app.inject({
        method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: sampleBytes(500, 3, '\x89PNG\r\n\x1a\n'),
        headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="roof.png"' },
      });
      assert.equal(upload.statusCode, 200, upload.body);
      assert.equal(await flagged(h, 'files', projectId), false, 'an unsubmitted draft\'s file awaits nobody\'s review');
      const counts = async () => /id="attention-files">(\d+)</.exec((await webGet(h, QUEUE, 'admin')).body)?.[1];
      const draftCount = await counts();
      // Submitted, the file awaits review (and counts); back in the initial status, it does not.
      await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] });
      assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
      assert.equal(await flagged(h, 'files', projectId), true);
      assert.equal(Number(await counts()), Number(draftCount) + 1);
      await setStatus(h, projectId, 'draft');
      assert.equal(await flagged(h, 'files', projectId), false, 'returned to the applicant');
      assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
      assert.equal(await flagged(h, 'files', projectId), true);
      const review = await h.request({
        method: 'POST', url: `${projectPath(projectId)}/Attachments/photo/Metadata`, as: 'programAdmin',
        body: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve"/>`, headers: { 'content-type': 'application/xml' },
      });
      assert.equal(review.statusCode, 200, review.body);
      assert.equal(await flagged(h, 'files', projectId), false);

      const thread = await note(h, 'admin', projectId, true);
      assert.equal(await flagged(h, 'reply', projectId), false, 'a question of staff is no answer');
      // The applicant's reply from the project page (applicants write no notes through the API).
      assert.equal((await postReply(h, 'applicant', { ProgramId: IDS.program, ProjectId: projectId, ThreadId: thread, Text: 'Thirty degrees' })).statusCode, 303);
      assert.equal(await flagged(h, 'reply', projectId), true);
      await note(h, 'admin', projectId, false, thread);
      assert.equal(await flagged(h, 'reply', projectId), true, 'an internal note answers nobody');
      await note(h, 'admin', projectId, true, thread);
      assert.equal(await flagged(h, 'reply', projectId), false);
    });
  });
});
