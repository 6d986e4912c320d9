import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, type Who } from '../support/http-harness.ts';
import { createProject, projectPath, projectState, setDraft, sharedHarness, submitPath } from './http-helpers.ts';
import { openThread } from './inquiry-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// The staff review page: GET /MvcProjects/Programs/{p}/Projects/{id}/Review and its POST actions below it.

const PNG = Buffer.from('\x89PNG\r\n\x1a\n-a-tiny-image', 'latin1');
const HOSTILE_NAME = '<img src=x onerror=alert(1)>.png';

function review(projectId: string): string {
  return `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review`;
}

/** A submitted project of the applicant with an uploaded photo (named with markup) and an edited draft. */
async function reviewable(h: HttpHarness): Promise<string> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { name: 'Jane Doe', size: ['S'], kw: '7.5' });
  h.clock.advance();
  const upload = await h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: PNG,
    headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': `attachment; filename="${HOSTILE_NAME}"` },
  });
  assert.equal(upload.statusCode, 200, upload.body);
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  assert.equal(res.statusCode, 200, res.body);
  await setDraft(h, projectId, { kw: '9' }, 'admin');
  return projectId;
}

async function fullState(h: HttpHarness, projectId: string) {
  const threads = await h.store.inquiries.listThreads(projectId);
  return {
    ...(await projectState(h, projectId)),
    files: await h.store.attachments.listActiveAttachments(projectId),
    threads, notes: await Promise.all(threads.map((t) => h.store.inquiries.listNotes(t.id))),
  };
}

const STAFF: Who[] = ['admin', 'programAdmin', 'editor', 'reader'];
const EVERYONE: Who[] = [...STAFF, 'applicant', 'otherApplicant', 'outsider'];

/** An action of the page, the form it posts (built from the project as it is now), and who may take it. */
interface ActionCase { action: string; form: (h: HttpHarness, projectId: string) => Promise<Record<string, string>>; allowed: Who[] }

const ACTIONS: ActionCase[] = [
  {
    action: 'Status', allowed: ['admin', 'programAdmin'],
    form: async (h, id) => ({ StatusId: (await h.store.projects.getProject(IDS.program, id))!.statusId === IDS.draft ? IDS.submitted : IDS.draft }),
  },
  // Another staff member each time: assigning the current assignee again changes nothing.
  {
    action: 'Assignee', allowed: ['admin', 'programAdmin', 'editor'],
    form: async (h, id) => ({ Email: (await h.store.projects.getProject(IDS.program, id))!.assigneeId === h.who.reader.id ? h.who.editor.email : h.who.reader.email }),
  },
  // Whoever may write the project may hand it on, its applicant owner too (SetProjectOwner's rule).
  { action: 'Owner', allowed: ['admin', 'programAdmin', 'editor', 'applicant'], form: async (h) => ({ Email: h.who.applicant.email }) },
  { action: 'Attachment', allowed: ['admin', 'programAdmin'], form: async () => ({ AttachmentId: IDS.photo, Action: 'Approve', Note: 'ok' }) },
  { action: 'InquiryNote', allowed: ['admin', 'programAdmin'], form: async () => ({ Subject: 'Question', Text: 'Why?', Visible: 'true' }) },
];

forEachDialect('HTTP review page', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let projectId = '';
  before(async () => {
    projectId = await reviewable(harness());
  });

  describe('access', () => {
    for (const who of EVERYONE) {
      const status = STAFF.includes(who) ? 200 : 403;
      it(`GET the review page: ${who} → ${status}`, async () => {
        const res = await webGet(harness(), review(projectId), who);
        assert.equal(res.statusCode, status, res.body.slice(0, 300));
        assert.match(String(res.headers['content-type']), /^text\/html/);
      });
    }

    it('answers a project that does not exist with 404, and a visitor with the sign-in page', async () => {
      assert.equal((await webGet(harness(), review('NOSUCHPROJCT'), 'admin')).statusCode, 404);
      const res = await webGet(harness(), review(projectId), null);
      assert.equal(res.statusCode, 303);
      assert.match(String(res.headers.location), /^\/MvcProjects\/SignIn\?next=/);
    });

    for (const a of ACTIONS) {
      for (const who of EVERYONE) {
        const allowed = a.allowed.includes(who);
        it(`POST ${a.action}: ${who} → ${allowed ? 303 : 'refused, nothing changed'}`, async () => {
          const h = harness();
          const before = await fullState(h, projectId);
          h.clock.advance();
          const res = await webPost(h, `${review(projectId)}/${a.action}`, who, await a.form(h, projectId));
          if (allowed) {
            assert.equal(res.statusCode, 303, res.body.slice(0, 400));
            assert.match(String(res.headers.location), new RegExp(`^${review(projectId)}\\?notice=`));
            assert.notDeepEqual(await fullState(h, projectId), before);
          } else {
            // otherApplicant may not even know the project exists: the page answers as for a missing one (or 403).
            assert.ok([403, 404].includes(res.statusCode), `${who}: ${res.statusCode}`);
            assert.deepEqual(await fullState(h, projectId), before);
          }
        });
      }
    }
  });

  describe('content', () => {
    it('shows submitted data and the current draft side by side, sensitive values masked', async () => {
      const res = await webGet(harness(), review(projectId), 'editor');
      assert.match(res.body, /<th scope="row">Capacity \(kW\)<\/th><td>7.5<\/td><td>9<strong class="changed"> \(changed in draft\)<\/strong><\/td>/);
      assert.match(res.body, /<th scope="row">Applicant name<\/th><td>\*\*\*\*\*\*\*\*<\/td><td>\*\*\*\*\*\*\*\*<\/td>/);
      assert.doesNotMatch(res.body, /Jane Doe/);
    });

    it('offers a reader no action at all, an editor only assignee, owner and a link to another project, an admin everything', async () => {
      const h = harness();
      const forms = (html: string) => [...html.matchAll(/<form method="post" action="[^"]*\/Review\/(\w+)"/g)].map((m) => m[1]);
      assert.deepEqual(forms((await webGet(h, review(projectId), 'reader')).body), []);
      assert.deepEqual(new Set(forms((await webGet(h, review(projectId), 'editor')).body)), new Set(['Assignee', 'Owner', 'Link']));
      const admin = (await webGet(h, review(projectId), 'admin')).body;
      assert.deepEqual(new Set(forms(admin)), new Set(['Status', 'Assignee', 'Owner', 'Link', 'Attachment', 'InquiryNote', 'InquiryStatus', 'InquiryExternalId']));
      assert.match(admin, /Export this project \(XML\)/);
      assert.doesNotMatch((await webGet(h, review(projectId), 'editor')).body, /Export this project/);
    });

    it('offers only the statuses the workflow allows next, and explains a refused transition beside the control', async () => {
      const h = harness();
      const project = (await h.store.projects.getProject(IDS.program, projectId))!;
      const page = await webGet(h, review(projectId), 'admin');
      const offered = [...(/<select class="usa-select" id="review-status"[^>]*>([\s\S]*?)<\/select>/.exec(page.body)?.[1] ?? '').matchAll(/value="(\w+)"/g)].map((m) => m[1]);
      const expected = project.statusId === IDS.draft ? [IDS.submitted] : [IDS.draft];
      assert.deepEqual(offered, expected);
      const before = await fullState(h, projectId);
      const res = await webPost(h, `${review(projectId)}/Status`, 'admin', { StatusId: project.statusId });
      assert.equal(res.statusCode, 409);
      assert.match(res.body, /<a href="#review-status">A project in status &quot;\w+&quot; cannot move to &quot;\w+&quot;; allowed next: \w+.<\/a>|<a href="#review-status">A project in status "\w+" cannot move to "\w+"; allowed next: \w+.<\/a>/);
      assert.deepEqual(await fullState(h, projectId), before);
    });

    it('shows markup in file names, notes and subjects as text', async () => {
      const h = harness();
      h.clock.advance();
      const res = await webPost(h, `${review(projectId)}/InquiryNote`, 'admin', { Subject: '<b>bold</b> subject', Text: '<script>alert("x")</script>', Visible: 'true' });
      assert.equal(res.statusCode, 303, res.body);
      const page = (await webGet(h, review(projectId), 'admin')).body;
      assert.ok(page.includes('&lt;script>alert(&quot;x&quot;)&lt;/script>') || page.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), 'the note is text');
      assert.ok(page.includes('&lt;img src=x onerror=alert(1)>.png') || page.includes('&lt;img src=x onerror=alert(1)&gt;.png'), 'the file name is text');
      assert.ok(!page.includes('<script>alert') && !page.includes('<img src=x') && !page.includes('<b>bold</b>'));
    });

    it('says what was done after an action, and nothing for a notice it does not know', async () => {
      const h = harness();
      assert.match((await webGet(h, `${review(projectId)}?notice=owner`, 'editor')).body, /<output class="usa-alert usa-alert--success usa-alert--slim display-block"><div class="usa-alert__body"><div class="usa-alert__text">The owner was changed.<\/div><\/div><\/output>/);
      assert.doesNotMatch((await webGet(h, `${review(projectId)}?notice=%3Cb%3Ehi`, 'editor')).body, /class="usa-alert/);
    });

    it('refuses a post without the CSRF token and changes nothing', async () => {
      const h = harness();
      const before = await fullState(h, projectId);
      const res = await webPost(h, `${review(projectId)}/Assignee`, 'admin', { Email: h.who.editor.email }, false);
      assert.equal(res.statusCode, 403);
      assert.match(res.body, /did not come from this site/);
      assert.deepEqual(await fullState(h, projectId), before);
    });

    it('closes and reopens a thread, links it to an external id, and adds an internal note the applicant does not see', async () => {
      const h = harness();
      const threadId = await openThread(h, projectId, { subject: 'Setbacks' });
      h.clock.advance();
      assert.equal((await webPost(h, `${review(projectId)}/InquiryExternalId`, 'admin', { ThreadId: threadId, ExternalId: 'TICKET-7' })).statusCode, 303);
      h.clock.advance();
      assert.equal((await webPost(h, `${review(projectId)}/InquiryNote`, 'admin', { ThreadId: threadId, Text: 'internal only' })).statusCode, 303);
      h.clock.advance();
      assert.equal((await webPost(h, `${review(projectId)}/InquiryStatus`, 'admin', { ThreadId: threadId, Status: 'Closed' })).statusCode, 303);
      const thread = await h.store.inquiries.getThread(projectId, threadId);
      assert.equal(thread?.status, 'Closed');
      assert.equal(thread?.externalId, 'TICKET-7');
      const notes = await h.store.inquiries.listNotes(threadId);
      assert.deepEqual(notes.map((n) => [n.text, n.visibleToApplicant]).at(-1), ['internal only', false]);
      const closed = await webPost(h, `${review(projectId)}/InquiryNote`, 'admin', { ThreadId: threadId, Text: 'too late' });
      assert.equal(closed.statusCode, 409);
      assert.match(closed.body, new RegExp(`<a href="#note-text-${threadId}">`));
      assert.doesNotMatch((await webGet(h, review(projectId), 'editor')).body, /internal only/, 'non-admins see only notes the applicant sees');
      assert.equal((await webPost(h, `${review(projectId)}/InquiryStatus`, 'admin', { ThreadId: threadId, Status: 'Open' })).statusCode, 303);
    });

    it('downloads the file as an attachment (staff), and the export (admins only)', async () => {
      const h = harness();
      const file = await webGet(h, `${review(projectId)}/Attachments/${IDS.photo}`, 'reader');
      assert.equal(file.statusCode, 200);
      assert.deepEqual(file.rawPayload, PNG);
      assert.match(String(file.headers['content-disposition']), /^attachment; /);
      assert.equal(file.headers['cache-control'], 'no-store', 'kept in no cache, as the project page\'s downloads');
      const exported = await webGet(h, `${review(projectId)}/Export`, 'admin');
      assert.equal(exported.statusCode, 200);
      assert.match(String(exported.headers['content-type']), /^application\/xml/);
      assert.match(exported.body, /<ProjectExportDataGetResponse/);
      assert.equal((await webGet(h, `${review(projectId)}/Export`, 'editor')).statusCode, 403);
    });
  });
});
