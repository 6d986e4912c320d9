import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { ApiError } from '../../src/domain/api-error.ts';
import { formatProgramFile, programFileOf } from '../../src/domain/programs/program-export.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { GROUPS, importGroups, NORTH_KW, seedReviewers, SOUTH_KW, type Territory } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, dataRequest, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { COMPLETE, createProject, dataPath, setDraft, sharedHarness, submitPath } from './http-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';
import { assigneeRequest, urls } from './workflow-helpers.ts';

// Access groups (issue 34, §4): the program file's `accessGroups:`, the membership the change step keeps (and an
// import recounts), and the grant limit set with `apas grant add --groups` or the console's People page.

/** A submitted project of the fixture program with this capacity. */
async function submittedWith(h: HttpHarness, kw: string): Promise<string> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size], kw });
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  assert.equal(res.statusCode, 200, res.body);
  return projectId;
}

/** The project's groups as the store keeps them: its own column and its membership rows (which must agree). */
async function groupsOf(h: HttpHarness, projectId: string): Promise<string[]> {
  const project = await h.store.projects.getProject(IDS.program, projectId);
  const counted: string[] = [];
  for (const g of GROUPS) {
    // Read through the membership rows, as a limited caller's list filters.
    const rows = await h.store.projects.listProjects({ programId: IDS.program, owner: { ownerId: null, organizationIds: [], groups: [g.customId] }, limit: 100_000, offset: 0 });
    if (rows.some((r) => r.id === projectId)) counted.push(g.customId);
  }
  assert.deepEqual(project?.accessGroups ?? [], counted);
  return counted;
}

forEachDialect('Access groups: the program file, the kept membership and the grant limit', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let reviewers: Record<Territory, Identity>;

  before(async () => {
    const h = harness();
    reviewers = await seedReviewers(h.store);
  });

  it('an import adds the groups, reports them, and the export writes them back', async () => {
    const h = harness();
    const report = await importGroups(h.store, h.clock, GROUPS);
    assert.deepEqual(report.changes.map(describeChange).filter((c) => c.includes('access group')), ['created access group north', 'created access group south']);
    const program = (await h.store.programs.findProgram(IDS.program))!;
    assert.deepEqual(program.accessGroups, GROUPS);
    const file = programFileOf(await h.store.programs.loadProgramModel(program));
    assert.deepEqual(file.accessGroups, GROUPS);
    assert.match(formatProgramFile(file, 'yaml'), /\naccessGroups:\n {2}- \{ customId: north, name: North, if: kw < 10\.0 \}\n/);
    const again = await importGroups(h.store, h.clock, GROUPS);
    assert.equal(again.changed, false);
  });

  it('refuses conditions that are not a bool over the fields and the project, or read role or the project\'s age, naming each', async () => {
    const h = harness();
    const bad = [
      { customId: 'a', name: 'A', if: 'Territory == "North"' },
      { customId: 'b', name: 'B', if: 'role == "editor"' },
      { customId: 'c', name: 'C', if: 'kw + 1.0' },
      { customId: 'd', name: 'D', if: 'project.ageDays > 3' },
    ];
    const before = await h.store.programs.findProgram(IDS.program);
    await assert.rejects(importGroups(h.store, h.clock, bad), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.code === 'INVALID_REQUEST', String(e));
      for (const needle of ['access group "a"', 'Territory', 'access group "b"', 'role', 'access group "c"', 'bool', 'access group "d"', 'ageDays']) {
        assert.ok(e.message.includes(needle), `${needle} in ${e.message}`);
      }
      return true;
    });
    const twice = [GROUPS[0]!, { ...GROUPS[1]!, customId: 'north' }];
    await assert.rejects(importGroups(h.store, h.clock, twice), (e: unknown) => e instanceof ApiError && e.message.includes('another access group has the customId "north"'));
    assert.deepEqual(await h.store.programs.findProgram(IDS.program), before);
  });

  it('the change step keeps each project\'s groups as its values change; an import that changes a condition recounts them', async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const draft = await createProject(h, 'applicant');
    assert.deepEqual(await groupsOf(h, draft), [], 'a draft without submitted values is in no group');
    const north = await submittedWith(h, NORTH_KW);
    const south = await submittedWith(h, SOUTH_KW);
    assert.deepEqual(await groupsOf(h, north), ['north']);
    assert.deepEqual(await groupsOf(h, south), ['south']);
    h.clock.advance();
    const moved = await h.request({ method: 'POST', url: dataPath(north), as: 'programAdmin', body: dataRequest({ [IDS.kw]: '12' }) });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(await groupsOf(h, north), ['south'], 'a change of the value moves the project to the other group in the same change');
    // North becomes the systems under 25 kW: the import recounts every project in its transaction.
    const report = await importGroups(h.store, h.clock, [{ ...GROUPS[0]!, if: 'kw < 25.0' }, GROUPS[1]!]);
    assert.deepEqual(report.changes.map(describeChange).filter((c) => c.includes('access group')), ['updated access group north (if)']);
    assert.deepEqual(await groupsOf(h, north), ['north', 'south']);
    assert.deepEqual(await groupsOf(h, south), ['north', 'south']);
    await importGroups(h.store, h.clock, GROUPS);
    assert.deepEqual(await groupsOf(h, north), ['south']);
    assert.deepEqual(await groupsOf(h, south), ['south']);
    // A program without groups keeps no membership.
    await importGroups(h.store, h.clock, []);
    assert.deepEqual(await groupsOf(h, south), []);
    await importGroups(h.store, h.clock, GROUPS);
    assert.deepEqual(await groupsOf(h, south), ['south']);
    // A condition over a sensitive field (stored sealed) is recounted project by project, as the change step evaluates it.
    await importGroups(h.store, h.clock, [...GROUPS, { customId: 'janes', name: 'Janes', if: 'name.startsWith("Jane")' }]);
    const janes = await h.store.projects.listProjects({ programId: IDS.program, owner: { ownerId: null, organizationIds: [], groups: ['janes'] }, limit: 100_000, offset: 0 });
    assert.ok(janes.some((p) => p.id === south) && janes.some((p) => p.id === north) && !janes.some((p) => p.id === draft));
    assert.deepEqual((await h.store.projects.getProject(IDS.program, south))?.accessGroups, ['south', 'janes']);
    await importGroups(h.store, h.clock, GROUPS);
    assert.deepEqual((await h.store.projects.getProject(IDS.program, south))?.accessGroups, ['south']);
  });

  it('a grant is limited only to groups the program has (INVALID_PARAMETER), and replaced without the limit when none is given', async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() });
    const email = reviewers.north.email;
    await assert.rejects(accounts.grant(email, 'solar', 'editor', false, ['west']), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_PARAMETER' && /no access group "west"; its groups are north, south/.test(e.message));
    await assert.rejects(accounts.grant(email, 'solar', 'editor', false, []), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_PARAMETER');
    assert.deepEqual((await h.store.accounts.findGrant(reviewers.north.id, IDS.program))?.accessGroups, ['north'], 'a refused grant changes nothing');
    const both = await accounts.grant(email, 'solar', 'editor', false, ['north', 'south', 'north']);
    assert.deepEqual(both.accessGroups, ['north', 'south']);
    assert.deepEqual((await h.store.accounts.findGrant(reviewers.north.id, IDS.program))?.accessGroups, ['north', 'south']);
    await accounts.grant(email, 'solar', 'editor', false, ['north']);
    assert.deepEqual((await h.store.accounts.listGrantDetails({ userId: reviewers.north.id }))[0]?.accessGroups, ['north']);
  });

  it('the console\'s People page shows the program\'s groups and saves the ticked ones as the grant\'s limit', async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const path = `/MvcProjects/Console/People/${reviewers.south.id}`;
    const page = await webGet(h, path, 'admin');
    assert.equal(page.statusCode, 200, page.body.slice(0, 400));
    assert.match(page.body, /only the projects of South/);
    assert.match(page.body, /<input class="usa-checkbox__input" type="checkbox" id="group-solar-south" name="Group" value="south" checked\/>/);
    const saved = await webPost(h, `${path}/Grants`, 'admin', { Program: IDS.program, Role: 'editor', Group: 'north' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.deepEqual((await h.store.accounts.findGrant(reviewers.south.id, IDS.program))?.accessGroups, ['north']);
    // Two groups ticked: the body repeats the field.
    const pair = new URLSearchParams([['Program', IDS.program], ['Role', 'editor'], ['Group', 'north'], ['Group', 'south']]);
    const two = await webPostRaw(h, `${path}/Grants`, pair);
    assert.equal(two.statusCode, 303, two.body);
    assert.deepEqual((await h.store.accounts.findGrant(reviewers.south.id, IDS.program))?.accessGroups, ['north', 'south']);
    const unknown = await webPost(h, `${path}/Grants`, 'admin', { Program: IDS.program, Role: 'editor', Group: 'west' });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual((await h.store.accounts.findGrant(reviewers.south.id, IDS.program))?.accessGroups, ['north', 'south'], 'a refused change changes nothing');
    const none = await webPost(h, `${path}/Grants`, 'admin', { Program: IDS.program, Role: 'editor' });
    assert.equal(none.statusCode, 303);
    assert.equal((await h.store.accounts.findGrant(reviewers.south.id, IDS.program))?.accessGroups, undefined, 'nothing ticked: every project');
    await webPost(h, `${path}/Grants`, 'admin', { Program: IDS.program, Role: 'editor', Group: 'south' });
  });

  it('a project that leaves its assignee\'s groups is unassigned in the same change, audited and told as SetAssignee\'s clearing', async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const assign = async (projectId: string, email: string) => {
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(email) });
      assert.equal(res.statusCode, 200, res.body);
    };
    const setKw = async (projectId: string, kw: string) => {
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(projectId), as: 'programAdmin', body: dataRequest({ [IDS.kw]: kw }) });
      assert.equal(res.statusCode, 200, res.body);
    };
    const stored = async (projectId: string) => (await h.store.projects.getProject(IDS.program, projectId))!;
    const unassignedQueue = async () => (await h.store.projects.workQueuePage({ programId: IDS.program, fields: [], assigneeId: null, sort: 'created', direction: 'asc', limit: 1000 })).map((r) => r.project.id);
    const limited = await submittedWith(h, NORTH_KW);
    const unlimited = await submittedWith(h, NORTH_KW);
    await assign(limited, reviewers.north.email);
    await assign(unlimited, `${'USER00000004'.toLowerCase()}@example.org`);
    // A change that keeps the project in North keeps its assignee.
    await setKw(limited, '8');
    assert.equal((await stored(limited)).assigneeId, reviewers.north.id);
    const version = (await stored(limited)).version;
    // The project becomes South's: the North reviewer can no longer open it, so the same change unassigns it.
    await setKw(limited, SOUTH_KW);
    const after = await stored(limited);
    assert.deepEqual(after.accessGroups, ['south']);
    assert.equal(after.assigneeId, null);
    assert.equal(after.version, version + 1, 'one change: one version');
    const audit = (await h.store.audit.list({ projectId: limited, action: 'project.assignee.set' })).map((r) => ({ detail: r.detail, at: r.at }));
    assert.deepEqual(audit.filter((r) => r.detail?.to === null), [{ detail: { from: reviewers.north.id, to: null, reason: 'accessGroups' }, at: after.updatedAt }], 'written with the change that moved it');
    const event = (await h.store.events.listProjectEvents(limited)).filter((e) => e.type === 'project.assignee_changed').at(-1);
    assert.deepEqual({ from: event?.data.fromUserId, to: event?.data.toUserId }, { from: reviewers.north.id, to: null });
    assert.ok((await unassignedQueue()).includes(limited), 'it waits in the unassigned queue');
    const reviewerRead = await h.request({ method: 'GET', url: dataPath(limited), as: null, headers: authHeaders(reviewers.north) });
    assert.equal(reviewerRead.statusCode, 404, 'the former assignee cannot open it');
    // A staff member whose grant is not limited stays assigned wherever the project goes.
    await setKw(unlimited, SOUTH_KW);
    assert.equal((await stored(unlimited)).assigneeId, 'USER00000004');
    assert.ok(!(await unassignedQueue()).includes(unlimited));
  });
});

/** POSTs a form body with repeated fields as the admin, with the CSRF token. */
async function webPostRaw(h: HttpHarness, url: string, form: URLSearchParams): Promise<Awaited<ReturnType<typeof webPost>>> {
  const { csrfFrom } = await import('./web-page-helpers.ts');
  const { authHeaders } = await import('../support/http-harness.ts');
  const pair = await csrfFrom(h, 'admin');
  form.set('_csrf', pair.token);
  return h.app.inject({
    method: 'POST', url, payload: form.toString(),
    headers: { authorization: authHeaders(h.who.admin).authorization!, 'content-type': 'application/x-www-form-urlencoded', cookie: pair.cookie },
  });
}
