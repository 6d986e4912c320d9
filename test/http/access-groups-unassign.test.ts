import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import type { AutomationSpec } from '../../src/domain/automations/automation-file.ts';
import { programFileOf } from '../../src/domain/programs/program-export.ts';
import type { ProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram, type ImportOptions } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { AccessGroup } from '../../src/model/model.ts';
import { GROUPS, importGroups, NORTH_KW, seedReviewers, SOUTH_KW, type Territory } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0, user } from '../support/fixtures.ts';
import { dataRequest, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { createSubmitted, dataPath, sharedHarness } from './http-helpers.ts';
import { assigneeRequest, urls } from './workflow-helpers.ts';

// Access groups (issue 34, §4): the paths besides a change's own writes that move a project out of its assignee's
// groups, and so unassign it as that change does (keep-access-groups.ts): a program import that changes or removes a
// group's condition (the recount), and an automation that moves the project's status later in the same change.

/** A staff member whose editor grant is limited to the access group `review` (submitted projects). */
const DESK = 'USER00000041';

/** A submitted project of the fixture program with this capacity. */
async function submittedWith(h: HttpHarness, kw: string): Promise<string> {
  return (await createSubmitted(h, 'applicant', { kw })).projectId;
}

/** Imports the fixture program with `groups` as the console would (importGroups with the importer and options). */
async function importAs(h: HttpHarness, groups: AccessGroup[], options: ImportOptions): Promise<void> {
  const program = (await h.store.programs.findProgram(IDS.program))!;
  const file: ProgramFile = programFileOf(await h.store.programs.loadProgramModel(program));
  const statuses = file.statuses.map((s) => (s.initial ? { ...s, name: 'Unsubmitted' } : s));
  await importProgram({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, 'acme', { ...file, statuses, accessGroups: groups }, options);
}

/** What the store holds of a project's assignment: its assignee, version, stamp, groups, clearings and their events. */
async function assignment(h: HttpHarness, projectId: string) {
  const p = (await h.store.projects.getProject(IDS.program, projectId))!;
  const cleared = (await h.store.audit.list({ projectId, action: 'project.assignee.set' })).filter((r) => r.detail?.to === null)
    .map((r) => ({ detail: r.detail, actorId: r.actorId, at: r.at }));
  const events = (await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'project.assignee_changed' && e.data.toUserId === null)
    .map((e) => ({ from: e.data.fromUserId, actorId: e.actorId, at: e.at }));
  return { assigneeId: p.assigneeId, version: p.version, updatedAt: p.updatedAt, groups: p.accessGroups ?? [], cleared, events };
}

forEachDialect('Access groups: an import or an automation that moves a project out of its assignee\'s groups unassigns it', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let reviewers: Record<Territory, Identity>;

  before(async () => {
    const h = harness();
    reviewers = await seedReviewers(h.store);
    await h.store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(DESK), 'x', T0);
      await tx.accounts.setGrant({ userId: DESK, programId: IDS.program, role: 'editor', sensitive: false, accessGroups: ['review'] });
    });
  });

  const assign = async (h: HttpHarness, projectId: string, email: string) => {
    h.clock.advance();
    const res = await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(email) });
    assert.equal(res.statusCode, 200, res.body);
  };

  it('an import that changes or removes a group unassigns the projects it moves out of their assignee\'s groups, all or nothing', async () => {
    const h = harness();
    await importGroups(h.store, h.clock, GROUPS);
    const unlimited = 'USER00000004';
    const leaves = await submittedWith(h, NORTH_KW);
    const stays = await submittedWith(h, '3');
    const others = await submittedWith(h, NORTH_KW);
    const south = await submittedWith(h, SOUTH_KW);
    await assign(h, leaves, reviewers.north.email);
    await assign(h, stays, reviewers.north.email);
    await assign(h, others, `${unlimited.toLowerCase()}@example.org`);
    await assign(h, south, reviewers.south.email);
    const ids = [leaves, stays, others, south];
    const before = await Promise.all(ids.map((p) => assignment(h, p)));
    // North becomes the systems under 5 kW and a new group takes those under 8: 7.5 kW leaves North, 3 kW stays in it.
    const changed: AccessGroup[] = [{ ...GROUPS[0]!, if: 'kw < 5.0' }, GROUPS[1]!, { customId: 'small', name: 'Small', if: 'kw < 8.0' }];
    try {
      // Refused or not written: a dry run, and an import that fails after its recount (here its last writes) change nothing.
      h.clock.advance();
      await importAs(h, changed, { actorId: IDS.admin, dryRun: true });
      await assert.rejects(importAs(h, changed, { actorId: IDS.admin, alsoIn: async () => { throw new ApiError('CONFLICT', 'refused after the recount'); } }), /refused after the recount/);
      assert.deepEqual(await Promise.all(ids.map((p) => assignment(h, p))), before, 'a refused import changes nothing');

      h.clock.advance();
      const at = h.clock.now();
      await importAs(h, changed, { actorId: IDS.admin, requestId: 'REQ-IMPORT' });
      const [left, kept, other, southern] = await Promise.all(ids.map((p) => assignment(h, p)));
      assert.deepEqual(left!.groups, ['small']);
      assert.equal(left!.assigneeId, null, 'out of North: its North reviewer no longer reaches it');
      assert.equal(left!.version, before[0]!.version + 1);
      assert.equal(left!.updatedAt, at);
      assert.deepEqual(left!.cleared, [{ detail: { from: reviewers.north.id, to: null, reason: 'accessGroups' }, actorId: IDS.admin, at }]);
      assert.deepEqual(left!.events, [{ from: reviewers.north.id, actorId: IDS.admin, at }]);
      const audit = await h.store.audit.list({ projectId: leaves, action: 'project.assignee.set' });
      assert.equal(audit.find((r) => r.detail?.to === null)?.requestId, 'REQ-IMPORT');
      // Moved, but still in North; moved with an unlimited assignee; not moved: each keeps its assignee, and nothing is recorded.
      assert.deepEqual(kept!.groups, ['north', 'small']);
      assert.deepEqual({ ...kept!, groups: before[1]!.groups }, before[1], 'still in one of its assignee\'s groups: stays assigned');
      assert.deepEqual(other!.groups, ['small']);
      assert.deepEqual({ ...other!, groups: before[2]!.groups }, before[2]);
      assert.deepEqual(southern, before[3]);
      const queue = (await h.store.projects.workQueuePage({ programId: IDS.program, fields: [], assigneeId: null, sort: 'created', direction: 'asc', limit: 1000 })).map((r) => r.project.id);
      assert.ok(queue.includes(leaves) && !queue.includes(stays), 'it waits in the unassigned queue');

      // North removed: the 3 kW project is in no group its North reviewer has, so that import unassigns it, as the operator.
      h.clock.advance();
      await importGroups(h.store, h.clock, [GROUPS[1]!, changed[2]!]);
      const removed = await assignment(h, stays);
      assert.equal(removed.assigneeId, null);
      assert.deepEqual(removed.cleared, [{ detail: { from: reviewers.north.id, to: null, reason: 'accessGroups' }, actorId: 'system', at: h.clock.now() }]);
      assert.equal(removed.events.length, 1);
      assert.equal((await assignment(h, others)).assigneeId, unlimited);
      assert.equal((await assignment(h, south)).assigneeId, reviewers.south.id);
    } finally {
      await importGroups(h.store, h.clock, GROUPS);
    }
  });

  it('an automation that moves the project\'s status out of its assignee\'s groups unassigns it in the same change', async () => {
    const h = harness();
    // `review`: the submitted projects, the desk's; an automation sends a project back to its applicant when it grows over 8 kW.
    const groups: AccessGroup[] = [...GROUPS, { customId: 'review', name: 'In review', if: 'project.status == "submitted"' }];
    const when = { trigger: 'field.changed' as const, form: null, status: null, field: 'kw', attachment: null, approval: null, by: null, visibleToApplicant: null, deadline: null, at: null };
    const automations: AutomationSpec[] = [{ customId: 'sendBack', name: 'Send larger systems back', when, if: 'kw > 8.0', actions: [{ do: 'moveStatus', to: 'draft' }] }];
    await importGroups(h.store, h.clock, groups, { automations });
    try {
      const desk = await submittedWith(h, NORTH_KW);
      const north = await submittedWith(h, NORTH_KW);
      await assign(h, desk, user(DESK).email);
      await assign(h, north, reviewers.north.email);
      const setKw = async (projectId: string, kw: string) => {
        h.clock.advance();
        const res = await h.request({ method: 'POST', url: dataPath(projectId), as: 'programAdmin', body: dataRequest({ [IDS.kw]: kw }) });
        assert.equal(res.statusCode, 200, res.body);
      };
      assert.deepEqual((await assignment(h, desk)).groups, ['north', 'review']);
      const before = await assignment(h, desk);
      // 9 kW keeps it in North and in review as the change's own writes leave it; the automation's move then takes it
      // out of review, the desk's one group.
      await setKw(desk, '9');
      const after = await assignment(h, desk);
      assert.equal((await h.store.projects.getProject(IDS.program, desk))?.statusId, IDS.draft, 'the automation moved it');
      assert.deepEqual(after.groups, ['north']);
      assert.equal(after.assigneeId, null);
      assert.equal(after.version, before.version + 1, 'one change: one version');
      assert.deepEqual(after.cleared, [{ detail: { from: DESK, to: null, reason: 'accessGroups' }, actorId: h.who.programAdmin.id, at: after.updatedAt }]);
      assert.deepEqual(after.events, [{ from: DESK, actorId: h.who.programAdmin.id, at: after.updatedAt }]);
      // Recorded after the automation's move, as the change step records a follow-up's rows (events in their order).
      const told = (await h.store.events.listProjectEvents(desk)).filter((e) => e.at === after.updatedAt).map((e) => e.type);
      assert.ok(told.includes('project.status_changed') && told.indexOf('project.status_changed') < told.indexOf('project.assignee_changed'), told.join(', '));
      // The same move keeps the other project in North, its reviewer's group: it stays assigned.
      await setKw(north, '9');
      const kept = await assignment(h, north);
      assert.deepEqual(kept.groups, ['north']);
      assert.equal(kept.assigneeId, reviewers.north.id);
      assert.deepEqual(kept.cleared, []);
    } finally {
      await importGroups(h.store, h.clock, GROUPS, { automations: [] });
    }
  });
});
