import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import type { HttpHarness, Who } from '../support/http-harness.ts';
import { authHeaders } from '../support/http-harness.ts';
import { createProject, createSubmitted, projectPath, projectState, setDraft, sharedHarness } from './http-helpers.ts';
import { openThread } from './inquiry-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// My projects (GET /MvcProjects/MyProjects), copying an application, deleting a draft and withdrawing a project,
// through app.inject on both databases. The fixture program is saved again with its name and capacity fields marked
// as summary fields (the name no longer sensitive) and a Withdrawn status (withdrawal: true) after Submitted.

const WITHDRAWN = 'STATUS000003';
const MY = `/MvcProjects/MyProjects?ProgramId=${IDS.program}`;

async function markSummaryFields(h: HttpHarness): Promise<void> {
  const rows = programRows(T0 + 1);
  rows.fields = rows.fields.map((f) => (f.id === IDS.name ? { ...f, sensitive: false, summary: true } : f.id === IDS.kw ? { ...f, summary: true } : f));
  rows.statuses = [
    ...rows.statuses.map((s) => (s.id === IDS.submitted ? { ...s, next: [IDS.draft, WITHDRAWN] } : s)),
    { id: WITHDRAWN, customId: 'withdrawn', publicId: 'WITHDRAWN', name: 'Withdrawn', isInitial: false, position: 2, next: [], withdrawal: true },
  ];
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

/** The project ids a My projects page links to, in order (each row links its project page once). */
function listed(html: string): string[] {
  return [...html.matchAll(/LandingPage\?ProgramId=[A-Z0-9]+&amp;ProjectId=([A-Z0-9]+)"/g)].map((m) => m[1]!);
}

async function page(h: HttpHarness, who: Who, query = ''): Promise<{ status: number; html: string; ids: string[]; next: string | null }> {
  const res = await webGet(h, `${MY}${query}`, who);
  const next = /<a href="([^"]+)" rel="next" class="usa-pagination__link usa-pagination__next-page">/.exec(res.body)?.[1]?.replaceAll('&amp;', '&') ?? null;
  return { status: res.statusCode, html: res.body, ids: listed(res.body), next };
}

forEachDialect('My projects, copy, delete and withdraw (web)', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let jane: { projectId: string; number: string };
  let zed: string;
  let empty: string;
  let others: string;

  before(async () => {
    const h = harness();
    await markSummaryFields(h);
    jane = await createSubmitted(h, 'applicant');
    zed = await createProject(h, 'applicant');
    await setDraft(h, zed, { name: 'Zed Fourier', kw: '12' });
    empty = await createProject(h, 'applicant');
    others = await createProject(h, 'otherApplicant');
    await setDraft(h, others, { name: 'Jane Other', kw: '7.5' }, 'otherApplicant');
  });

  it('searches the applicant\'s own projects by number and summary fields (drafts\' changes too), never another\'s', async () => {
    const h = harness();
    const all = await page(h, 'applicant');
    assert.equal(all.status, 200, all.html);
    // The search hint names the summary fields by their labels as written (units keep their case).
    assert.match(all.html, /<p id="q-hint" class="usa-hint">Project number, Applicant name, Capacity \(kW\)<\/p>/);
    assert.deepEqual(all.ids, [empty, zed, jane.projectId], 'newest change first, only the caller\'s');
    assert.match(all.html, /<th scope="col">Applicant name<\/th>/);
    assert.match(all.html, /<th scope="col">Capacity \(kW\)<\/th>/);
    assert.match(all.html, /Draft — not submitted/);
    assert.deepEqual((await page(h, 'applicant', '&q=JANE')).ids, [jane.projectId], 'a summary field\'s submitted value, any case');
    assert.deepEqual((await page(h, 'applicant', '&q=fourier')).ids, [zed], 'a draft\'s change of a summary field');
    assert.deepEqual((await page(h, 'applicant', `&q=${encodeURIComponent(jane.number.toLowerCase())}`)).ids, [jane.projectId], 'the number');
    assert.deepEqual((await page(h, 'applicant', '&q=12')).ids, [zed], 'a number field marked summary');
    assert.deepEqual((await page(h, 'applicant', '&q=%25')).ids, [], 'a LIKE wildcard is searched as itself');
    // BOLA: the other applicant's "Jane Other" and 7.5 kW never show, nor do the applicant's projects to them.
    assert.deepEqual((await page(h, 'otherApplicant', '&q=jane')).ids, [others]);
    assert.deepEqual((await page(h, 'otherApplicant')).ids, [others]);
  });

  it('filters by status, drafts, submitted and needs my action', async () => {
    const h = harness();
    assert.deepEqual((await page(h, 'applicant', '&Show=drafts')).ids, [empty, zed]);
    assert.deepEqual((await page(h, 'applicant', '&Show=submitted')).ids, [jane.projectId]);
    assert.deepEqual((await page(h, 'applicant', `&Status=${IDS.submitted}`)).ids, [jane.projectId]);
    // Drafts wait for the applicant (their form is open); the submitted one only once a question awaits their answer.
    assert.deepEqual((await page(h, 'applicant', '&Show=action')).ids, [empty, zed]);
    const asked = await createSubmitted(h, 'applicant');
    await openThread(h, asked.projectId, { subject: 'Roof pitch', visible: true });
    assert.ok((await page(h, 'applicant', '&Show=action')).ids.includes(asked.projectId));
    assert.ok(!(await page(h, 'applicant', '&Show=action')).ids.includes(jane.projectId));
    for (const bad of ['&Show=everything', '&Status=STATUS999999', `&q=${'x'.repeat(201)}`, '&After=not-a-cursor', '&After=WzEsIlgiLDEsIlkiXQ']) {
      assert.equal((await page(h, 'applicant', bad)).status, 400, bad);
    }
    assert.equal((await page(h, 'editor')).status, 403, 'staff use the work queue');
    assert.equal((await page(h, 'outsider')).status, 403);
  });

  it('pages by cursor: every project once, however the pages fall', async () => {
    const h = harness();
    const made: string[] = [];
    for (let i = 0; i < 27; i++) made.push(await createProject(h, 'applicant'));
    const seen: string[] = [];
    let query = '';
    let pages = 0;
    for (;;) {
      const p = await page(h, 'applicant', query);
      assert.equal(p.status, 200, p.html);
      seen.push(...p.ids);
      pages++;
      if (!p.next) break;
      query = p.next.slice(p.next.indexOf('&'));
      assert.match(query, /After=/);
    }
    assert.ok(pages >= 2, `${pages} pages`);
    assert.equal(new Set(seen).size, seen.length, 'no project twice');
    for (const id of [...made, jane.projectId, zed]) assert.ok(seen.includes(id), id);
    assert.ok(!seen.includes(others));
    // A cursor carries a place only: with another applicant's page it shows them only their own.
    const second = (await page(h, 'applicant')).next!;
    const otherView = await page(h, 'otherApplicant', second.slice(second.indexOf('&')));
    assert.ok(otherView.ids.every((id) => id === others), 'another applicant\'s cursor lists only the caller\'s projects');
  });

  it('deletes the applicant\'s own draft with its files and keeps the audit; refuses a submitted project and another\'s draft', async () => {
    const h = harness();
    const draft = await createProject(h, 'applicant');
    await setDraft(h, draft, { name: 'To delete', kw: '3' });
    const upload = await h.app.inject({
      method: 'POST', url: `${projectPath(draft)}/Forms/application/Attachments/photo`, payload: Buffer.from('89504e470d0a1a0a', 'hex'),
      headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' },
    });
    assert.equal(upload.statusCode, 200, upload.body);
    const [file] = await h.store.attachments.listActiveAttachments(draft);
    assert.ok(file);
    assert.ok(await h.store.blobs.readBlobChunk(file.blobKey, 0), 'the file is stored');

    // Refused: someone else's draft (not found, as for a project that does not exist), without the CSRF token, a submitted project.
    const before = await projectState(h, draft);
    const stranger = await webPost(h, '/MvcProjects/DeleteDraft', 'otherApplicant', { ProgramId: IDS.program, ProjectId: draft });
    assert.equal(stranger.statusCode, 404, stranger.body);
    assert.equal((await webPost(h, '/MvcProjects/DeleteDraft', 'applicant', { ProgramId: IDS.program, ProjectId: draft }, false)).statusCode, 403);
    assert.equal((await webGet(h, `/MvcProjects/RemoveProject?ProgramId=${IDS.program}&ProjectId=${draft}`, 'otherApplicant')).statusCode, 404);
    assert.deepEqual(await projectState(h, draft), before, 'the refused requests changed nothing');
    const submittedBefore = await projectState(h, jane.projectId);
    const submitted = await webPost(h, '/MvcProjects/DeleteDraft', 'applicant', { ProgramId: IDS.program, ProjectId: jane.projectId });
    assert.equal(submitted.statusCode, 409, submitted.body);
    assert.deepEqual(await projectState(h, jane.projectId), submittedBefore);

    const confirm = await webGet(h, `/MvcProjects/RemoveProject?ProgramId=${IDS.program}&ProjectId=${draft}`, 'applicant');
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /action="\/MvcProjects\/DeleteDraft"/);
    const deleted = await webPost(h, '/MvcProjects/DeleteDraft', 'applicant', { ProgramId: IDS.program, ProjectId: draft });
    assert.equal(deleted.statusCode, 303, deleted.body);
    assert.equal(await h.store.projects.getProject(IDS.program, draft), null);
    assert.deepEqual(await h.store.projects.getDraft(draft, IDS.form), []);
    assert.deepEqual(await h.store.attachments.listActiveAttachments(draft), []);
    assert.equal(await h.store.blobs.readBlobChunk(file.blobKey, 0), null, 'the file\'s blob is released');
    const audit = await h.store.audit.list({ projectId: draft });
    assert.ok(audit.some((a) => a.action === 'project.delete' && a.actorId === h.who.applicant.id), 'the deletion is audited');
    assert.ok(audit.some((a) => a.action === 'project.create'), 'the earlier audit rows stay');
    assert.ok(!(await page(h, 'applicant')).ids.includes(draft));
    assert.equal((await webGet(h, `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${draft}`, 'admin')).statusCode, 404, 'gone for staff too');
  });

  it('withdraws a submitted project along the workflow, once; refuses drafts and another\'s project', async () => {
    const h = harness();
    const target = await createSubmitted(h, 'applicant');
    const before = await projectState(h, target.projectId);
    assert.equal((await webPost(h, '/MvcProjects/WithdrawProject', 'otherApplicant', { ProgramId: IDS.program, ProjectId: target.projectId })).statusCode, 404);
    assert.equal((await webPost(h, '/MvcProjects/WithdrawProject', 'applicant', { ProgramId: IDS.program, ProjectId: target.projectId }, false)).statusCode, 403);
    assert.deepEqual(await projectState(h, target.projectId), before);
    const draftBefore = await projectState(h, zed);
    assert.equal((await webPost(h, '/MvcProjects/WithdrawProject', 'applicant', { ProgramId: IDS.program, ProjectId: zed })).statusCode, 409);
    assert.deepEqual(await projectState(h, zed), draftBefore);

    const confirm = await webGet(h, `/MvcProjects/RemoveProject?ProgramId=${IDS.program}&ProjectId=${target.projectId}`, 'applicant');
    assert.match(confirm.body, /action="\/MvcProjects\/WithdrawProject"/);
    const res = await webPost(h, '/MvcProjects/WithdrawProject', 'applicant', { ProgramId: IDS.program, ProjectId: target.projectId });
    assert.equal(res.statusCode, 303, res.body);
    const after = await h.store.projects.getProject(IDS.program, target.projectId);
    assert.equal(after?.statusId, WITHDRAWN);
    assert.equal((await h.store.projects.getHistory(target.projectId))[0]?.statusId, WITHDRAWN);
    // Withdrawn has no withdrawal next: the page offers nothing and the server refuses a second withdrawal.
    const again = await projectState(h, target.projectId);
    assert.equal((await webPost(h, '/MvcProjects/WithdrawProject', 'applicant', { ProgramId: IDS.program, ProjectId: target.projectId })).statusCode, 409);
    assert.deepEqual(await projectState(h, target.projectId), again);
    assert.equal((await webGet(h, `/MvcProjects/RemoveProject?ProgramId=${IDS.program}&ProjectId=${target.projectId}`, 'applicant')).statusCode, 403);
  });

  it('copies the chosen forms into a new draft: never the files, number, questions or status', async () => {
    const h = harness();
    const source = await createSubmitted(h, 'applicant');
    await openThread(h, source.projectId, { subject: 'Question', visible: true });
    const upload = await h.app.inject({
      method: 'POST', url: `${projectPath(source.projectId)}/Forms/application/Attachments/photo`, payload: Buffer.from('89504e470d0a1a0a', 'hex'),
      headers: { ...authHeaders(h.who.admin), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' },
    });
    assert.equal(upload.statusCode, 200, upload.body);
    // Another's project cannot be copied (nor its copy page read); a copy of no form is refused.
    assert.equal((await webGet(h, `/MvcProjects/CopyProject?ProgramId=${IDS.program}&ProjectId=${source.projectId}`, 'otherApplicant')).statusCode, 404);
    const count = (await h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).length;
    assert.equal((await webPost(h, '/MvcProjects/CopyProject', 'otherApplicant', { ProgramId: IDS.program, ProjectId: source.projectId, FormId: IDS.form })).statusCode, 404);
    assert.equal((await webPost(h, '/MvcProjects/CopyProject', 'applicant', { ProgramId: IDS.program, ProjectId: source.projectId })).statusCode, 400);
    assert.equal((await h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).length, count, 'nothing was created');

    const page = await webGet(h, `/MvcProjects/CopyProject?ProgramId=${IDS.program}&ProjectId=${source.projectId}`, 'applicant');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /name="FormId" value="FORM00000001"/);
    const res = await webPost(h, '/MvcProjects/CopyProject', 'applicant', { ProgramId: IDS.program, ProjectId: source.projectId, FormId: IDS.form });
    assert.equal(res.statusCode, 303, res.body);
    const copyId = /Projects\/([A-Z0-9]+)\/Forms/.exec(String(res.headers.location))?.[1];
    assert.ok(copyId && copyId !== source.projectId, String(res.headers.location));
    const copy = await h.store.projects.getProject(IDS.program, copyId);
    assert.equal(copy?.number, null);
    assert.equal(copy?.statusId, IDS.draft);
    assert.equal(copy?.ownerId, h.who.applicant.id);
    const draft = new Map((await h.store.projects.getDraft(copyId, IDS.form)).map((v) => [v.fieldId, v.value ?? v.values]));
    assert.equal(draft.get(IDS.name), 'Jane Doe');
    assert.equal(draft.get(IDS.kw), '7.5');
    assert.deepEqual(draft.get(IDS.size), ['S', 'M']);
    assert.deepEqual(await h.store.projects.getValues(copyId, [IDS.name, IDS.size, IDS.kw]), [], 'nothing submitted');
    assert.deepEqual(await h.store.attachments.listActiveAttachments(copyId), [], 'no files');
    assert.deepEqual(await h.store.inquiries.listThreads(copyId), [], 'no questions');
    const created = (await h.store.audit.list({ projectId: copyId })).find((a) => a.action === 'project.create');
    assert.equal((created?.detail as Record<string, unknown>).copiedFrom, source.projectId);
  });
});
