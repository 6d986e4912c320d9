import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { ownerRefusal } from '../../src/domain/webhooks/owner-access.ts';
import { backfillSummaries } from '../../src/store/dashboard-queries.ts';
import { openDatabase } from '../../src/store/database.ts';
import type { Database } from '../../src/store/tables.ts';
import type { AutomationSpec } from '../../src/domain/automations/automation-file.ts';
import { GROUPS, importGroups, NORTH_KW, seedReviewers, SOUTH_KW, type Territory } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, attrs, authHeaders, dataRequest, type HttpHarness, type Identity, type Who } from '../support/http-harness.ts';
import { API, COMPLETE, draftPath, eventually, PROGRAM, projectPath, sharedHarness, submitPath } from './http-helpers.ts';
import { addNote, noteRequest } from './inquiry-helpers.ts';
import { csrfFrom, webGet, webPost } from './web-page-helpers.ts';

// Access groups' BOLA matrix (issue 34, §4): an editor whose grant is limited to North, against a South project, on
// every project operation of the API (the OpenAPI description is walked, so a later operation is covered too), the
// lists and searches, the change feed, the work queue with its counts and CSV, the dashboard (counting only the
// groups' projects), the project pages and their forms, a self-service webhook's owner check, assignment (the API,
// the review page's and the bulk form's choices, bulk assign) and mail to a role's members. Refused as any unreadable
// project is (404, or 403 where a privilege is checked first), reading the state back after each refusal; on a North
// project the limited editor answers exactly as an unlimited editor does.

type Json = Record<string, Record<string, { operationId: string }>>;

const PNG = Buffer.from('\x89PNG\r\n\x1a\na tiny picture', 'latin1');

function bodyOf(operationId: string): { payload: string | Buffer; type: string } | undefined {
  const xml = (payload: string) => ({ payload, type: 'application/xml' });
  switch (operationId) {
    case 'SetProjectData': case 'SetProjectDraftData': return xml(dataRequest({ [IDS.name]: 'Changed by someone' }));
    case 'SetProjectOwner': return xml(`<SetProjectOwnerRequest xmlns="http://service.powerclerk.com/api/v1/"><OwnerEmail>${IDS.admin.toLowerCase()}@example.org</OwnerEmail></SetProjectOwnerRequest>`);
    case 'SetInquiryNote': return xml(noteRequest({ subject: 'Hello', text: 'A note' }));
    case 'SetProjectAttachment': return { payload: PNG, type: 'image/png' };
    case 'SetProjectStatus': return xml(`<SetProjectStatusRequest xmlns="http://service.powerclerk.com/api/v1/" StatusId="draft"/>`);
    case 'SetAssignee': return xml(`<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>user00000004@example.org</AssigneeEmail></SetAssigneeRequest>`);
    default: return undefined;
  }
}

interface Rich { projectId: string; attachmentId: string; threadId: string }

forEachDialect('Access groups: a North editor against South projects, everywhere', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let reviewers: Record<Territory, Identity>;
  const id = (h: HttpHarness, who: Who | Identity): Identity => (typeof who === 'string' ? h.who[who] : who);
  const send = (h: HttpHarness, who: Who | Identity, method: string, url: string, body?: { payload: string | Buffer; type: string }): Promise<LightMyRequestResponse> =>
    h.app.inject({
      method: method as 'GET', url, headers: { ...authHeaders(id(h, who)), ...(body ? { 'content-type': body.type, 'content-disposition': 'attachment; filename="a.png"' } : {}) },
      ...(body ? { payload: body.payload } : {}),
    });

  /** A submitted project of one territory with a file and a question, so that every operation finds something to act on. */
  async function richProject(h: HttpHarness, kw: string): Promise<Rich> {
    h.clock.advance();
    const created = await send(h, 'applicant', 'POST', `${PROGRAM}/NewProject`);
    assert.equal(created.statusCode, 200, created.body);
    const projectId = attr(created.body, 'Project', 'ProjectId')!;
    const draft = await send(h, 'applicant', 'POST', draftPath(projectId), { payload: dataRequest({ ...COMPLETE, size: [...COMPLETE.size], kw }), type: 'application/xml' });
    assert.equal(draft.statusCode, 200, draft.body);
    const upload = await send(h, 'applicant', 'POST', `${projectPath(projectId)}/Forms/application/Attachments/photo`, { payload: PNG, type: 'image/png' });
    assert.equal(upload.statusCode, 200, upload.body);
    const submitted = await send(h, 'applicant', 'POST', submitPath(projectId));
    assert.equal(submitted.statusCode, 200, submitted.body);
    const { threadId } = await addNote(h, projectId, { subject: 'A question', text: 'Please check.', visible: true });
    return { projectId, attachmentId: attr(upload.body, 'Attachment', 'AttachmentId') ?? attr(upload.body, 'AttachmentMetadata', 'AttachmentId') ?? 'NOSUCHATTACH', threadId };
  }

  function urlOf(path: string, p: Rich): string {
    return path.replace('{ProgramId}', 'solar').replace('{ProjectId}', p.projectId).replace('{FormId}', 'application')
      .replace('{AttachmentId}', path.includes('/Forms/') ? 'photo' : p.attachmentId).replace('{ThreadId}', p.threadId)
      .replace('{Version}', '1').replace('{DeadlineId}', 'NOSUCHDEADLN');
  }

  /** Everything a refused request must leave as it was. */
  async function stateOf(h: HttpHarness, projectId: string): Promise<unknown> {
    const [project, draft, values, history, threads] = await Promise.all([
      h.store.projects.getProject(IDS.program, projectId), h.store.projects.getDraft(projectId, IDS.form), h.store.projects.getAllValues(projectId),
      h.store.projects.getHistory(projectId), h.store.inquiries.listThreads(projectId),
    ]);
    return { project, draft, values, history, threads };
  }

  before(async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    reviewers = await seedReviewers(h.store);
  });

  it('every project operation: North on North answers as an unlimited editor; North on South is refused as unreadable and changes nothing', async () => {
    const h = harness();
    const spec = JSON.parse((await h.request({ method: 'GET', url: '/openapi.json', as: null })).body) as { paths: Json };
    const ops = Object.entries(spec.paths).filter(([path]) => path.includes('{ProjectId}'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })));
    assert.ok(ops.length >= 20, `only ${ops.length} project operations found`);
    for (const op of ops) {
      const body = bodyOf(op.operationId);
      const [a, b, south] = [await richProject(h, NORTH_KW), await richProject(h, NORTH_KW), await richProject(h, SOUTH_KW)];
      const unlimited = await send(h, 'editor', op.method, urlOf(op.path, a), body);
      const limited = await send(h, reviewers.north, op.method, urlOf(op.path, b), body);
      assert.equal(limited.statusCode, unlimited.statusCode, `${op.operationId}: North on North ${limited.statusCode}, an unlimited editor ${unlimited.statusCode}\n${limited.body.slice(0, 300)}`);
      const before = await stateOf(h, south.projectId);
      const refused = await send(h, reviewers.north, op.method, urlOf(op.path, south), body);
      // A body the operation refuses before it reads the project is refused alike for a project one may read.
      const sameBadBody = refused.statusCode === unlimited.statusCode && [400, 415].includes(unlimited.statusCode);
      assert.ok([403, 404].includes(refused.statusCode) || sameBadBody, `${op.operationId}: North on South got ${refused.statusCode}\n${refused.body.slice(0, 300)}`);
      if (unlimited.statusCode < 400) assert.equal(refused.statusCode, 404, `${op.operationId}: an operation the editor may use answers 404, as for a missing project`);
      assert.ok(!refused.body.includes('Jane Doe') && !refused.body.includes(`Value="${SOUTH_KW}"`), `${op.operationId}: the refusal shows the project's data`);
      assert.deepEqual(await stateOf(h, south.projectId), before, `${op.operationId} changed the South project`);
    }
  });

  it('lists, searches and lookups by number show a limited editor only the projects of their groups', async () => {
    const h = harness();
    const north = await richProject(h, NORTH_KW);
    const south = await richProject(h, SOUTH_KW);
    const numberOf = async (p: Rich) => attr((await send(h, 'admin', 'GET', `${projectPath(p.projectId)}/Forms/application/Data`)).body, 'Project', 'ProjectNumber')!;
    const numbers = [await numberOf(north), await numberOf(south)];
    const byNumber = `<ProjectByNumberRequest xmlns="http://service.powerclerk.com/api/v1/">${numbers.map((n) => `<Project ProjectNumber="${n}"/>`).join('')}</ProjectByNumberRequest>`;
    const byData = '<ProjectByDataRequest xmlns="http://service.powerclerk.com/api/v1/"><DataFields><Field Id="kw" Content="1" Operator="gt"/></DataFields></ProjectByDataRequest>';
    const cases: [Who | Identity, string, boolean, boolean][] = [['editor', 'unlimited', true, true], [reviewers.north, 'North', true, false], [reviewers.south, 'South', false, true]];
    for (const [who, label, seesNorth, seesSouth] of cases) {
      const listed = attrs((await send(h, who, 'GET', `${PROGRAM}/Projects?PageSize=1000`)).body, 'Project', 'ProjectId');
      const found = attrs((await send(h, who, 'POST', `${PROGRAM}/Projects/ByNumber`, { payload: byNumber, type: 'application/xml' })).body, 'Project', 'ProjectId');
      const searched = attrs((await send(h, who, 'POST', `${PROGRAM}/Projects/ByData`, { payload: byData, type: 'application/xml' })).body, 'Project', 'ProjectId');
      for (const [what, ids] of [['GetProjects', listed], ['GetProjectsByNumber', found], ['GetProjectsByData', searched]] as const) {
        assert.equal(ids.includes(north.projectId), seesNorth, `${what} as ${label}: the North project`);
        assert.equal(ids.includes(south.projectId), seesSouth, `${what} as ${label}: the South project`);
      }
    }
  });

  it('the change feed: a limited editor follows only their groups\' projects', async () => {
    const h = harness();
    const north = await richProject(h, NORTH_KW);
    const south = await richProject(h, SOUTH_KW);
    for (const url of [`${API}/Events?after=0&limit=1000`, `${API}/Events?after=0&limit=1000&ProgramId=solar`]) {
      for (const [who, seesNorth, seesSouth] of [['editor', true, true], [reviewers.north, true, false], [reviewers.south, false, true]] as const) {
        const res = await send(h, who, 'GET', url);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.body.includes(north.projectId), seesNorth, `${url}: the North project`);
        assert.equal(res.body.includes(south.projectId), seesSouth, `${url}: the South project`);
      }
    }
  });

  it('the work queue, its counts and its CSV hold only the groups\' projects', async () => {
    const h = harness();
    const north = await richProject(h, NORTH_KW);
    const south = await richProject(h, SOUTH_KW);
    const queue = `/Projects/ProjectList?ProgramId=${IDS.program}&PageSize=100`;
    const all = await webGet(h, queue, 'editor');
    assert.equal(all.statusCode, 200);
    const mine = await webGet(h, queue, reviewers.north);
    assert.equal(mine.statusCode, 200, mine.body.slice(0, 300));
    const ids = (html: string) => [...html.matchAll(/\/Projects\/([A-Z0-9]{12})\/Review/g)].map((m) => m[1]);
    assert.ok(ids(all.body).includes(south.projectId) && ids(all.body).includes(north.projectId));
    assert.ok(ids(mine.body).includes(north.projectId), 'the North project is in the North queue');
    assert.ok(!ids(mine.body).includes(south.projectId), 'the South project is not in the North queue');
    const northCount = (await h.store.transaction((tx) => tx.projects.projectGroupsPage(IDS.program, null, 100_000))).filter((r) => r.accessGroups?.includes('north')).length;
    assert.equal(/<p id="queue-count">(\d+) /.exec(mine.body)?.[1], String(northCount), 'the count is of the North projects');
    assert.equal(ids(mine.body).length, Math.min(northCount, 50), 'the first page is of North projects');
    const csv = await webGet(h, `${queue}&format=csv`, reviewers.north);
    assert.equal(csv.statusCode, 200);
    assert.ok(csv.body.includes(north.projectId) && !csv.body.includes(south.projectId), 'the CSV holds the North project only');
  });

  it('the dashboard of a limited editor counts only their groups\' projects, in every figure, and follows an import that moves them', async () => {
    const h = harness();
    await richProject(h, NORTH_KW);
    await richProject(h, SOUTH_KW);
    const south = await richProject(h, SOUTH_KW);
    // One South project assigned to the South editor and moved on: the per-person and cycle figures count it for South only.
    assert.equal((await send(h, 'admin', 'POST', `${projectPath(south.projectId)}/Assignee`, { payload: `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${reviewers.south.email}</AssigneeEmail></SetAssigneeRequest>`, type: 'application/xml' })).statusCode, 200);
    const dashboard = `/Projects/Dashboard?ProgramId=${IDS.program}`;
    /** The projects by status of the database itself, of one group (or every project). */
    const counted = async (group?: Territory) => {
      const projects = (await h.store.transaction((tx) => tx.projects.projectGroupsPage(IDS.program, null, 100_000)))
        .filter((p) => group === undefined || (p.accessGroups ?? []).includes(group));
      return projects.length;
    };
    /** A figure's CSV rows as one person sees them (the heading row left out). */
    const figure = async (who: Who | Identity, id: string) => {
      const res = await webGet(h, `${dashboard}&figure=${id}&format=csv`, who);
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      return res.body.trim().split('\r\n').slice(1).map((line) => line.split(','));
    };
    const total = async (who: Who | Identity, id: string, column: number) => (await figure(who, id)).reduce((n, r) => n + Number(r[column]), 0);
    const [all, inNorth, inSouth] = [await counted(), await counted('north'), await counted('south')];
    assert.ok(inNorth > 0 && inSouth > 0 && inNorth + inSouth <= all);
    assert.equal(await total('editor', 'status', 1), all, 'an unlimited editor counts every project');
    assert.equal(await total(reviewers.north, 'status', 1), inNorth, 'North counts the North projects');
    assert.equal(await total(reviewers.south, 'status', 1), inSouth, 'South counts the South projects');
    assert.ok(await total(reviewers.north, 'submissions', 1) < await total('editor', 'submissions', 1), 'North\'s submissions are fewer than all');
    const people = async (who: Who | Identity) => (await figure(who, 'reviewers')).map((r) => r[0]);
    const southName = (await h.store.accounts.findUserById(reviewers.south.id))!.name;
    assert.ok((await people(reviewers.south)).includes(southName) && (await people('editor')).includes(southName));
    assert.ok(!(await people(reviewers.north)).includes(southName), 'North does not see who works South\'s projects');
    const page = await webGet(h, dashboard, reviewers.north);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="dashboard-groups"[\s\S]*limited to the access groups North: every figure counts only their projects/);
    assert.doesNotMatch((await webGet(h, dashboard, 'editor')).body, /dashboard-groups/);
    // Those who may not see the dashboard still may not: the applicant, an outsider.
    for (const who of ['applicant', 'outsider'] as const) assert.equal((await webGet(h, dashboard, who)).statusCode, 403, who);
    // An import that swaps the territories' conditions moves every project's counts to its new group in the import's transaction.
    await importGroups(h.store, h.clock, [{ ...GROUPS[0]!, if: GROUPS[1]!.if }, { ...GROUPS[1]!, if: GROUPS[0]!.if }]);
    try {
      assert.equal(await counted('north'), inSouth);
      assert.equal(await total(reviewers.north, 'status', 1), inSouth, 'North counts the former South projects');
      assert.equal(await total(reviewers.south, 'status', 1), inNorth);
    } finally {
      await importGroups(h.store, h.clock, GROUPS);
    }
    assert.equal(await total(reviewers.north, 'status', 1), inNorth);
    // What the changes and the recounts kept equals a count from scratch (as migration 060 makes).
    const raw = await openDatabase(harness.database().config);
    try {
      const k = raw.db as Kysely<Database>;
      const kept = async () => ({
        counts: (await k.selectFrom('dashboard_group_counts').selectAll().execute()).map((c) => JSON.stringify({ ...c, n: Number(c.n) })).sort(),
        facts: (await k.selectFrom('dashboard_facts').select(['project_id', 'groups']).execute()).map((f) => `${f.project_id} ${f.groups}`).sort(),
      });
      const before = await kept();
      assert.ok(before.counts.length > 0);
      for (const table of ['dashboard_counts', 'dashboard_group_counts', 'dashboard_facts'] as const) await k.deleteFrom(table).execute();
      await backfillSummaries(k);
      assert.deepEqual(await kept(), before);
    } finally {
      await raw.changes.close();
      await raw.db.destroy();
    }
  });

  it('the project pages and their forms: the South project is not found for North, and a refused form changes nothing', async () => {
    const h = harness();
    const north = await richProject(h, NORTH_KW);
    const south = await richProject(h, SOUTH_KW);
    const review = (p: Rich) => `/MvcProjects/Programs/${IDS.program}/Projects/${p.projectId}/Review`;
    const landing = (p: Rich) => `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${p.projectId}`;
    for (const page of [review, landing, (p: Rich) => `${review(p)}/Export`, (p: Rich) => `${review(p)}/Attachments/${p.attachmentId}`]) {
      const ok = await webGet(h, page(north), reviewers.north);
      const unlimited = await webGet(h, page(north), 'editor');
      assert.equal(ok.statusCode, unlimited.statusCode, `${page(north)} as North`);
      const refused = await webGet(h, page(south), reviewers.north);
      // 404 as for a missing project; 403 where the page needs a privilege the role lacks anyway.
      assert.equal(refused.statusCode, unlimited.statusCode === 403 ? 403 : 404, `${page(south)} as North: ${refused.statusCode}`);
      assert.ok(!refused.body.includes('Jane Doe'));
    }
    const before = await stateOf(h, south.projectId);
    const forms: Record<string, Record<string, string>> = {
      Status: { StatusId: IDS.draft }, Assignee: { Email: reviewers.north.email }, Owner: { Email: `${IDS.admin.toLowerCase()}@example.org` },
      InquiryNote: { ThreadId: south.threadId, Text: 'A note', VisibleToApplicant: 'true' }, InquiryStatus: { ThreadId: south.threadId, Status: 'closed' },
      InquiryExternalId: { ThreadId: south.threadId, ExternalId: 'X-1' }, Attachment: { AttachmentId: south.attachmentId, Review: 'approved' },
    };
    const missing = { ...south, projectId: 'NOSUCHPROJCT' };
    for (const [action, form] of Object.entries(forms)) {
      const res = await webPost(h, `${review(south)}/${action}`, reviewers.north, form);
      // As for a project that does not exist: 404, or 403 where the role lacks the action's privilege anyway.
      const none = await webPost(h, `${review(missing)}/${action}`, 'editor', form);
      assert.equal(res.statusCode, none.statusCode, `${action} as North on South: ${res.statusCode}, on a missing project ${none.statusCode}`);
      assert.ok([403, 404].includes(res.statusCode), `${action}: ${res.statusCode}`);
      assert.ok(!res.body.includes('Jane Doe'));
    }
    assert.deepEqual(await stateOf(h, south.projectId), before);
  });

  it('assignment, mail to a role\'s members and a self-service webhook reach only those whose grant reaches the project', async () => {
    const h = harness();
    const north = await richProject(h, NORTH_KW);
    const south = await richProject(h, SOUTH_KW);
    // SetAssignee: a North editor cannot be given a South project.
    const assign = (p: Rich, email: string) => send(h, 'admin', 'POST', `${projectPath(p.projectId)}/Assignee`, { payload: `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${email}</AssigneeEmail></SetAssigneeRequest>`, type: 'application/xml' });
    const before = await stateOf(h, south.projectId);
    const refused = await assign(south, reviewers.north.email);
    assert.equal(refused.statusCode, 422, refused.body);
    assert.match(refused.body, /UNKNOWN_USER/);
    assert.deepEqual(await stateOf(h, south.projectId), before);
    assert.equal((await assign(north, reviewers.north.email)).statusCode, 200);
    // The review page suggests as assignee only staff who can read the project.
    const choices = async (p: Rich) => {
      const page = await webGet(h, `/MvcProjects/Programs/${IDS.program}/Projects/${p.projectId}/Review`, 'admin');
      assert.equal(page.statusCode, 200);
      const list = /<datalist id="review-assignee-choices">([\s\S]*?)<\/datalist>/.exec(page.body)?.[1] ?? '';
      return [...list.matchAll(/value="([^"]+)"/g)].map((m) => m[1]);
    };
    const [northChoices, southChoices] = [await choices(north), await choices(south)];
    assert.ok(northChoices.includes(reviewers.north.email) && !northChoices.includes(reviewers.south.email), northChoices.join(' '));
    assert.ok(southChoices.includes(reviewers.south.email) && !southChoices.includes(reviewers.north.email), southChoices.join(' '));
    assert.ok(southChoices.includes(h.who.editor.email), 'an unlimited editor is offered for every project');
    // The queue's bulk form: a North editor is not offered South's staff; an unlimited one sees each limit named.
    const bulkChoices = async (who: Who | Identity) => {
      const page = await webGet(h, `/Projects/ProjectList?ProgramId=${IDS.program}`, who);
      return /<select class="usa-select" id="bulk-assignee" name="Email">([\s\S]*?)<\/select>/.exec(page.body)?.[1] ?? '';
    };
    const forNorth = await bulkChoices(reviewers.north);
    assert.ok(forNorth.includes(reviewers.north.email) && !forNorth.includes(reviewers.south.email), forNorth);
    assert.match(await bulkChoices('editor'), new RegExp(`${reviewers.south.email}\\) — only South<`));
    // Bulk assign of a North and a South project to the North editor: the South row is refused on its own, and stays unassigned.
    const [north2, south2] = [await richProject(h, NORTH_KW), await richProject(h, SOUTH_KW)];
    const beforeBulk = await stateOf(h, south2.projectId);
    const pair = await csrfFrom(h, 'admin');
    const form = new URLSearchParams({ _csrf: pair.token, ProgramId: IDS.program, BulkKey: randomUUID(), Action: 'assign', Scope: 'selected', Email: reviewers.north.email });
    for (const p of [north2, south2]) form.append('ProjectId', p.projectId);
    const bulk = await h.app.inject({ method: 'POST', url: '/Projects/ProjectList/Bulk', payload: form.toString(), headers: { ...authHeaders(h.who.admin), 'content-type': 'application/x-www-form-urlencoded', cookie: pair.cookie } });
    assert.equal(bulk.statusCode, 303, bulk.body.slice(0, 300));
    const result = (await webGet(h, String(bulk.headers.location), 'admin')).body;
    assert.match(result, new RegExp(`cannot read project ${south2.projectId}`));
    assert.equal((await h.store.projects.getProject(IDS.program, north2.projectId))?.assigneeId, reviewers.north.id);
    assert.deepEqual(await stateOf(h, south2.projectId), beforeBulk);
    // The North editor's own bulk assign naming the South project: refused as a project they cannot read, its number not shown.
    const own = await csrfFrom(h, reviewers.north);
    const ownForm = new URLSearchParams({ _csrf: own.token, ProgramId: IDS.program, BulkKey: randomUUID(), Action: 'assign', Scope: 'selected', Email: reviewers.north.email, ProjectId: south2.projectId });
    const ownBulk = await h.app.inject({ method: 'POST', url: '/Projects/ProjectList/Bulk', payload: ownForm.toString(), headers: { ...authHeaders(reviewers.north), 'content-type': 'application/x-www-form-urlencoded', cookie: own.cookie } });
    assert.equal(ownBulk.statusCode, 303, ownBulk.body.slice(0, 300));
    const ownResult = (await webGet(h, String(ownBulk.headers.location), reviewers.north)).body;
    const southNumber = (await h.store.projects.getProject(IDS.program, south2.projectId))!.number!;
    assert.match(ownResult, /NOT_FOUND|not found|No project/i);
    assert.ok(!ownResult.includes(southNumber), 'the result does not show the South project\'s number');
    assert.deepEqual(await stateOf(h, south2.projectId), beforeBulk);
    // A North admin's clash with a South thread's external id does not name the South project or thread.
    const external = (p: Rich, who: Who | Identity, value: string) => send(h, who, 'POST', `${projectPath(p.projectId)}/InquiryThreads/${p.threadId}/ExternalId`, { payload: `<SetInquiryThreadExternalIdRequest xmlns="http://service.powerclerk.com/api/v1/" ExternalId="${value}"/>`, type: 'application/xml' });
    assert.equal((await external(south, 'admin', 'CRM-SOUTH')).statusCode, 200);
    await h.store.transaction((tx) => tx.accounts.setGrant({ userId: reviewers.north.id, programId: IDS.program, role: 'admin', sensitive: false, accessGroups: ['north'] }));
    try {
      // The grant reaches this instance's credentials cache within the change signal's delay (PostgreSQL).
      const clash = await eventually(() => external(north, reviewers.north, 'CRM-SOUTH'), 409, 3000);
      assert.equal(clash.statusCode, 409, clash.body);
      assert.ok(!clash.body.includes(south.projectId) && !clash.body.includes(south.threadId), clash.body);
      const named = await external(north, 'admin', 'CRM-SOUTH');
      assert.ok(named.body.includes(south.projectId), 'an unlimited admin is told which project holds it');
      // What reaches the whole program is not a limited admin's: its webhooks, its console, running its schedules.
      for (const [what, url] of [['GetWebhookSubscriptions', `${PROGRAM}/Webhooks`], ['GetAutomationSchedule', `${PROGRAM}/Automations/nightly/Schedule`]] as const) {
        assert.equal((await send(h, reviewers.north, 'GET', url)).statusCode, 403, `${what} as a North admin`);
        assert.notEqual((await send(h, 'admin', 'GET', url)).statusCode, 403, `${what} as an unlimited admin`);
      }
      assert.equal((await webGet(h, '/MvcProjects/Console', reviewers.north)).statusCode, 403, 'the console as a North admin');
      assert.doesNotMatch((await webGet(h, '/MvcProjects/', reviewers.north)).body, /href="\/MvcProjects\/Console"/, 'no console link in the header');
      assert.equal((await webGet(h, '/MvcProjects/Console', 'programAdmin')).statusCode, 200);
    } finally {
      await h.store.transaction((tx) => tx.accounts.setGrant({ userId: reviewers.north.id, programId: IDS.program, role: 'editor', sensitive: false, accessGroups: ['north'] }));
      await eventually(() => external(north, reviewers.north, 'CRM-NORTH'), 403, 3000);
    }
    // A self-service webhook of the North editor is not sent South's events.
    await h.store.transaction((tx) => tx.agencyPolicies.savePolicy({ agencyId: IDS.agency, ownCredentials: false, ownWebhooks: true, updatedAt: h.clock.now(), updatedBy: IDS.admin }));
    const target = (p: Rich) => ({ ownerId: reviewers.north.id, programId: IDS.program, projectId: p.projectId, audience: 'all' as const });
    assert.equal(await ownerRefusal(h.store, target(north)), null);
    assert.equal(await ownerRefusal(h.store, target(south)), 'its owner cannot read the project');
    // An automation mails the editors at each submission: the limited ones only of their own territory's projects.
    const when = { trigger: 'form.submitted' as const, form: null, status: null, field: null, attachment: null, approval: null, by: null, visibleToApplicant: null, deadline: null, at: null };
    const automations: AutomationSpec[] = [{ customId: 'tellEditors', name: 'Tell the editors', when, if: null, actions: [{ do: 'sendMail', to: 'role', role: 'editor', subject: 'New application', text: 'Please review {{projectNumber}}.' }] }];
    await importGroups(h.store, h.clock, GROUPS, { automations });
    try {
      const mailed = async (kw: string) => {
        const p = await richProject(h, kw);
        const number = (await h.store.projects.getProject(IDS.program, p.projectId))?.number;
        return (await h.store.mail.listMail(undefined, 100_000)).filter((m) => m.text === `Please review ${number}.`).map((m) => m.to).sort();
      };
      const editor = h.who.editor.email;
      assert.deepEqual(await mailed(NORTH_KW), [editor, reviewers.north.email].sort());
      assert.deepEqual(await mailed(SOUTH_KW), [editor, reviewers.south.email].sort());
    } finally {
      await importGroups(h.store, h.clock, GROUPS, { automations: [] });
    }
  });

  it('automations assign a limited editor only their groups\' projects, and do not mail an assignee a project that left their groups', async () => {
    const h = harness();
    const when = { trigger: 'form.submitted' as const, form: null, status: null, field: null, attachment: null, approval: null, by: null, visibleToApplicant: null, deadline: null, at: null };
    const automations: AutomationSpec[] = [
      { customId: 'toNorth', name: 'Assign to the North editor', when, if: null, actions: [{ do: 'assign', user: reviewers.north.email }] },
      { customId: 'tellAssignee', name: 'Tell the assignee', when: { ...when, trigger: 'field.changed', field: 'kw' }, if: null, actions: [{ do: 'sendMail', to: 'assignee', subject: 'Changed', text: 'Size of {{projectNumber}} changed.' }] },
    ];
    await importGroups(h.store, h.clock, GROUPS, { automations });
    try {
      const north = await richProject(h, NORTH_KW);
      const south = await richProject(h, SOUTH_KW);
      const assignee = async (p: Rich) => (await h.store.projects.getProject(IDS.program, p.projectId))?.assigneeId ?? null;
      assert.equal(await assignee(north), reviewers.north.id);
      assert.equal(await assignee(south), null, 'the South project is not assigned to the North editor');
      // The North project becomes South's: its North assignee is not told (they can no longer read it).
      const number = (await h.store.projects.getProject(IDS.program, north.projectId))?.number;
      const mailed = async () => (await h.store.mail.listMail(undefined, 100_000)).filter((m) => m.text === `Size of ${number} changed.`).map((m) => m.to);
      // The submission set kw after the assignment: its assignee was told then.
      assert.deepEqual(await mailed(), [reviewers.north.email]);
      const changed = await send(h, 'admin', 'POST', `${projectPath(north.projectId)}/Forms/application/Data`, { payload: dataRequest({ kw: SOUTH_KW }), type: 'application/xml' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual((await h.store.projects.getProject(IDS.program, north.projectId))?.accessGroups, ['south']);
      assert.deepEqual(await mailed(), [reviewers.north.email], 'no mail about the project once it is South\'s');
      // The same change unassigned it (keep-access-groups.ts): back in North, it has no assignee to tell.
      assert.equal(await assignee(north), null);
      assert.equal((await send(h, 'admin', 'POST', `${projectPath(north.projectId)}/Forms/application/Data`, { payload: dataRequest({ kw: NORTH_KW }), type: 'application/xml' })).statusCode, 200);
      assert.deepEqual(await mailed(), [reviewers.north.email]);
    } finally {
      await importGroups(h.store, h.clock, GROUPS, { automations: [] });
    }
  });
});
