import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { REGROUP_PAGE } from '../../src/domain/access-groups/keep-access-groups.ts';
import { grantFollowers } from '../../src/domain/wiring/grant-followers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramGrant } from '../../src/model/model.ts';
import { assignment, GROUPS, importGroups, NORTH_KW, SOUTH_KW } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, project, T0, user } from '../support/fixtures.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { formToken, WebVisitor } from '../support/web-visitor.ts';
import { createSubmitted, sharedHarness } from './http-helpers.ts';
import { assigneeRequest, urls } from './workflow-helpers.ts';

// Access groups (issue 34, §4): a grant narrowed to fewer groups, moved to a role that does not read every project, or
// removed unassigns, in the grant change's transaction, the projects of the program its holder is assignee of and can
// no longer read (src/domain/access-groups/unassign-unreadable.ts, `reason: grant`); what they still read stays theirs,
// and a refused grant change changes nothing. Disabling a user unassigns all of theirs (`reason: disabled`).

const PERSON = '/MvcProjects/Console/People';
/** An editor limited to both territories; an agency admin who also holds a limited grant; two more editors. */
const LIMITED = 'USER00000051';
const AGENCY_ADMIN = 'USER00000052';
const SOUTHERN = 'USER00000053';
const UNLIMITED = 'USER00000054';
/** An editor and an agency admin with no grant, to be disabled. */
const LEAVING = 'USER00000055';
const LEAVING_ADMIN = 'USER00000056';
/** An editor with more projects than one page. */
const BUSY = 'USER00000057';
const email = (id: string) => `${id.toLowerCase()}@example.org`;

/** A submitted project with this capacity, assigned by the agency admin to `assigneeId`. */
async function assignedProject(h: HttpHarness, kw: string, assigneeId: string): Promise<string> {
  const { projectId } = await createSubmitted(h, 'applicant', { kw });
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(email(assigneeId)) });
  assert.equal(res.statusCode, 200, res.body);
  return projectId;
}

forEachDialect('Access groups: a grant narrowed, moved or removed unassigns the projects its holder can no longer read', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  before(async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const grant = (userId: string, accessGroups: string[] | null): ProgramGrant => ({ userId, programId: IDS.program, role: 'editor', sensitive: false, accessGroups });
    await h.store.transaction(async (tx) => {
      for (const id of [LIMITED, AGENCY_ADMIN, SOUTHERN, UNLIMITED, LEAVING, LEAVING_ADMIN, BUSY]) {
        await tx.accounts.insertUser(user(id, { agencyAdmin: id === AGENCY_ADMIN || id === LEAVING_ADMIN }), 'x', T0);
      }
      await tx.accounts.setGrant(grant(LIMITED, ['north', 'south']));
      await tx.accounts.setGrant(grant(AGENCY_ADMIN, ['north', 'south']));
      await tx.accounts.setGrant(grant(SOUTHERN, ['south']));
      await tx.accounts.setGrant(grant(UNLIMITED, null));
      await tx.accounts.setGrant(grant(LEAVING, null));
      await tx.accounts.setGrant(grant(BUSY, null));
    });
  });

  it('the console: narrowed to fewer groups unassigns what is outside them, as the admin; refused, nothing changes', async () => {
    const h = harness();
    const north = await assignedProject(h, NORTH_KW, LIMITED);
    const south = await assignedProject(h, SOUTH_KW, LIMITED);
    const admins = await assignedProject(h, SOUTH_KW, AGENCY_ADMIN);
    const ids = [north, south, admins];
    const before = await Promise.all(ids.map((p) => assignment(h, p)));
    const grantBefore = await h.store.accounts.findGrant(LIMITED, IDS.program);
    const v = new WebVisitor(h);
    assert.equal((await v.signIn(h.who.programAdmin.email, h.who.programAdmin.password)).statusCode, 303);
    const token = formToken((await v.send('GET', '/MvcProjects/')).body);
    const narrow = (userId: string, groups: string[]) => v.send('POST', `${PERSON}/${userId}/Grants`, { _csrf: token, Program: IDS.program, Role: 'editor', Group: groups });

    h.clock.advance();
    const refused = await narrow(LIMITED, ['north', 'west']);
    assert.equal(refused.statusCode, 400, refused.body.slice(0, 300));
    assert.deepEqual(await h.store.accounts.findGrant(LIMITED, IDS.program), grantBefore);
    assert.deepEqual(await Promise.all(ids.map((p) => assignment(h, p))), before, 'a refused grant change unassigns nothing');

    h.clock.advance();
    const at = h.clock.now();
    assert.equal((await narrow(LIMITED, ['north'])).statusCode, 303);
    assert.deepEqual((await h.store.accounts.findGrant(LIMITED, IDS.program))?.accessGroups, ['north']);
    const [kept, left] = await Promise.all([north, south].map((p) => assignment(h, p)));
    assert.deepEqual(kept, before[0], 'still in their one group: stays theirs, nothing recorded');
    assert.equal(left!.assigneeId, null, 'South is no longer theirs to read');
    assert.equal(left!.version, before[1]!.version + 1);
    assert.equal(left!.updatedAt, at);
    assert.deepEqual(left!.cleared, [{ detail: { from: LIMITED, to: null, reason: 'grant' }, actorId: h.who.programAdmin.id, at }]);
    assert.deepEqual(left!.events, [{ from: LIMITED, actorId: h.who.programAdmin.id, at }]);
    const queue = (await h.store.projects.workQueuePage({ programId: IDS.program, fields: [], assigneeId: null, sort: 'created', direction: 'asc', limit: 1000 })).map((r) => r.project.id);
    assert.ok(queue.includes(south) && !queue.includes(north), 'it waits in the unassigned queue');

    // An agency admin reads every project of the agency's programs whatever their grant says: narrowing it unassigns nothing.
    h.clock.advance();
    assert.equal((await narrow(AGENCY_ADMIN, ['north'])).statusCode, 303);
    assert.deepEqual(await assignment(h, admins), before[2]);

    // Removed in the console: what is left of theirs (North) goes too.
    h.clock.advance();
    const removed = await v.send('POST', `${PERSON}/${LIMITED}/Grants/Remove`, { _csrf: token, Program: IDS.program });
    assert.equal(removed.statusCode, 303);
    const gone = await assignment(h, north);
    assert.equal(gone.assigneeId, null);
    assert.deepEqual(gone.cleared, [{ detail: { from: LIMITED, to: null, reason: 'grant' }, actorId: h.who.programAdmin.id, at: h.clock.now() }]);
    assert.equal(gone.events.length, 1);
  });

  it('the command line\'s service: removal and a role that reads only its own projects unassign, as the system', async () => {
    const h = harness();
    // The account service as the CLI's context makes it (src/cli/cli-context.ts): the operator, no actor.
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), grantFollowers: grantFollowers() });
    const southern = await assignedProject(h, SOUTH_KW, SOUTHERN);
    const unlimited = [await assignedProject(h, NORTH_KW, UNLIMITED), await assignedProject(h, SOUTH_KW, UNLIMITED)];
    const before = await Promise.all([southern, ...unlimited].map((p) => assignment(h, p)));

    // Another role that still reads South (reader, limited to it): stays theirs.
    h.clock.advance();
    await accounts.grant(email(SOUTHERN), IDS.program, 'reader', false, ['south']);
    assert.deepEqual(await assignment(h, southern), before[0]);
    // A role without readProjects reads only its holder's own projects.
    h.clock.advance();
    await accounts.grant(email(SOUTHERN), IDS.program, 'applicant');
    const applicant = await assignment(h, southern);
    assert.equal(applicant.assigneeId, null);
    assert.deepEqual(applicant.cleared, [{ detail: { from: SOUTHERN, to: null, reason: 'grant' }, actorId: 'system', at: h.clock.now() }]);

    // `apas grant remove`: every project of theirs in the program, in one transaction with the grant's removal.
    h.clock.advance();
    await assert.rejects(accounts.revokeGrant(email(UNLIMITED), 'no-such-program'), /not found/);
    assert.deepEqual(await Promise.all(unlimited.map((p) => assignment(h, p))), before.slice(1), 'refused: nothing changes');
    await accounts.revokeGrant(email(UNLIMITED), IDS.program);
    for (const state of await Promise.all(unlimited.map((p) => assignment(h, p)))) {
      assert.equal(state.assigneeId, null);
      assert.deepEqual(state.cleared, [{ detail: { from: UNLIMITED, to: null, reason: 'grant' }, actorId: 'system', at: h.clock.now() }]);
      assert.deepEqual(state.events, [{ from: UNLIMITED, actorId: 'system', at: h.clock.now() }]);
    }
  });

  it('the console: disabling a user unassigns every project of theirs, also an agency admin\'s; refused, nothing changes', async () => {
    const h = harness();
    const projects = [await assignedProject(h, NORTH_KW, LEAVING), await assignedProject(h, SOUTH_KW, LEAVING_ADMIN)];
    const before = await Promise.all(projects.map((p) => assignment(h, p)));
    const visitor = async (who: 'admin' | 'programAdmin') => {
      const v = new WebVisitor(h);
      assert.equal((await v.signIn(h.who[who].email, h.who[who].password)).statusCode, 303);
      const token = formToken((await v.send('GET', '/MvcProjects/')).body);
      return (userId: string, action: 'Disable' | 'Enable') => v.send('POST', `${PERSON}/${userId}/${action}`, { _csrf: token });
    };
    const programAdmin = await visitor('programAdmin');
    h.clock.advance();
    assert.equal((await programAdmin(LEAVING, 'Disable')).statusCode, 403, 'only agency admins disable people');
    assert.deepEqual(await Promise.all(projects.map((p) => assignment(h, p))), before);

    const admin = await visitor('admin');
    h.clock.advance();
    const at = h.clock.now();
    for (const id of [LEAVING, LEAVING_ADMIN]) assert.equal((await admin(id, 'Disable')).statusCode, 303);
    for (const [i, id] of [LEAVING, LEAVING_ADMIN].entries()) {
      const state = await assignment(h, projects[i]!);
      assert.equal(state.assigneeId, null);
      assert.equal(state.version, before[i]!.version + 1);
      assert.deepEqual(state.cleared, [{ detail: { from: id, to: null, reason: 'disabled' }, actorId: h.who.admin.id, at }]);
      assert.deepEqual(state.events, [{ from: id, actorId: h.who.admin.id, at }]);
    }
    // Enabled again, they are assignable again, but nothing is given back.
    h.clock.advance();
    assert.equal((await admin(LEAVING, 'Enable')).statusCode, 303);
    assert.equal((await assignment(h, projects[0]!)).assigneeId, null);
  });

  it('a page of their projects at a time: more than a page of them are all unassigned, the others left alone', async () => {
    const h = harness();
    // Drafts in no group, assigned by hand: the grant limited to North reads none of them.
    const ids = Array.from({ length: REGROUP_PAGE + 2 }, (_, i) => `PAGED${String(i).padStart(7, '0')}`);
    const other = 'PAGEDOTHER01';
    await h.store.transaction(async (tx) => {
      for (const id of ids) await tx.projects.insertProject(project(id, { assigneeId: BUSY, version: 1 }));
      await tx.projects.insertProject(project(other, { assigneeId: UNLIMITED, version: 1 }));
    });
    const accounts = new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), grantFollowers: grantFollowers() });
    h.clock.advance();
    await accounts.grant(email(BUSY), IDS.program, 'editor', false, ['north']);
    const theirs = await h.store.projects.workQueuePage({ programId: IDS.program, fields: [], assigneeId: BUSY, sort: 'created', direction: 'asc', limit: 1000 });
    assert.equal(theirs.length, 0, 'none left assigned to them');
    for (const id of [ids[0]!, ids.at(-1)!]) {
      const state = await assignment(h, id);
      assert.deepEqual([state.version, state.cleared.length, state.events.length], [2, 1, 1], id);
    }
    assert.equal((await h.store.projects.getProject(IDS.program, other))?.assigneeId, UNLIMITED, 'another assignee\'s project is not theirs to lose');
  });
});
