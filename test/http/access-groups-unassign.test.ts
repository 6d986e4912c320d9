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
import { assignment, GROUPS, importGroups, NORTH_KW, seedReviewers, SOUTH_KW, type Territory } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0, user } from '../support/fixtures.ts';
import { dataRequest, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { createSubmitted, dataPath, sharedHarness } from './http-helpers.ts';
import { assigneeRequest, urls } from './workflow-helpers.ts';

// Access groups (issue 34, §4): the paths besides a change's own writes that move a project out of its assignee's
// groups, and so unassign it as that change does (keep-access-groups.ts): a program import that changes or removes a
// group's condition (the recount), and an automation that moves the project's status later in the same change; and an
// automation's `assign` or `sendMail` after such a move, which must reach the project the move leaves, not the one before it.

/** A staff member whose editor grant is limited to the access group `review` (submitted projects). */
const DESK = 'USER00000041';

/** A staff member whose editor grant is limited to the access group `returned` (projects sent back to their applicant). */
const RETURNS = 'USER00000042';

/** The holders of the program role `clerk` (staff: readProjects), one limited to `review`, one to `returned`. */
const CLERKS = { review: 'USER00000043', returned: 'USER00000044' } as const;

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

forEachDialect('Access groups: an import or an automation that moves a project out of its assignee\'s groups unassigns it', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let reviewers: Record<Territory, Identity>;

  before(async () => {
    const h = harness();
    reviewers = await seedReviewers(h.store);
    await h.store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(DESK), 'x', T0);
      await tx.accounts.setGrant({ userId: DESK, programId: IDS.program, role: 'editor', sensitive: false, accessGroups: ['review'] });
      await tx.accounts.insertUser(user(RETURNS), 'x', T0);
      await tx.accounts.setGrant({ userId: RETURNS, programId: IDS.program, role: 'editor', sensitive: false, accessGroups: ['returned'] });
      for (const [group, id] of Object.entries(CLERKS)) {
        await tx.accounts.insertUser(user(id), 'x', T0);
        await tx.accounts.setGrant({ userId: id, programId: IDS.program, role: 'clerk', sensitive: false, accessGroups: [group] });
      }
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

  // An automation's `assign` after a `moveStatus` of the same run (the same automation, or a later one of the same
  // change) must reach the project as the move leaves it: the groups are evaluated again for it, in the transaction.
  const review: AccessGroup = { customId: 'review', name: 'In review', if: 'project.status == "submitted"' };
  const returned: AccessGroup = { customId: 'returned', name: 'Sent back', if: 'project.status == "draft"' };
  const onKw = { trigger: 'field.changed' as const, form: null, status: null, field: 'kw', attachment: null, approval: null, by: null, visibleToApplicant: null, deadline: null, at: null };
  const intoDraft = { ...onKw, trigger: 'status.entered' as const, field: null, status: 'draft' };
  const clerk = { customId: 'clerk', name: 'Clerk', privileges: ['readProjects'], transitions: null };
  const emailOf = (id: string) => user(id).email;

  /** Imports `automations` with the groups of these cases, runs `body`, and puts the program back as it was. */
  const withAutomations = async (h: HttpHarness, automations: AutomationSpec[], body: () => Promise<void>) => {
    await importGroups(h.store, h.clock, [...GROUPS, review, returned], { automations, roles: [clerk] });
    try {
      await body();
    } finally {
      await importGroups(h.store, h.clock, GROUPS, { automations: [] });
    }
  };

  /** A submitted North project assigned to its North reviewer, then grown to 9 kW by the program admin (the trigger). */
  const grown = async (h: HttpHarness) => {
    const projectId = await submittedWith(h, NORTH_KW);
    await assign(h, projectId, reviewers.north.email);
    const before = await h.store.projects.getProject(IDS.program, projectId);
    h.clock.advance();
    const res = await h.request({ method: 'POST', url: dataPath(projectId), as: 'programAdmin', body: dataRequest({ [IDS.kw]: '9' }) });
    assert.equal(res.statusCode, 200, res.body);
    return { projectId, version: before!.version };
  };

  /** The project's assignment as the store holds it after the change: assignee, groups, its assignment rows, events and runs. */
  const afterRun = async (h: HttpHarness, projectId: string) => {
    const p = (await h.store.projects.getProject(IDS.program, projectId))!;
    const at = p.updatedAt;
    const rows = (await h.store.audit.list({ projectId, action: 'project.assignee.set' })).filter((r) => r.at === at).map((r) => r.detail);
    const events = (await h.store.events.listProjectEvents(projectId)).filter((e) => e.at === at && e.type === 'project.assignee_changed')
      .map((e) => ({ from: e.data.fromUserId, to: e.data.toUserId }));
    // The runs of one change share its time: `seq` orders them.
    const runs = (await h.store.audit.list({ projectId, action: 'automation.run' })).filter((r) => r.at === at).sort((a, b) => Number(a.detail?.seq) - Number(b.detail?.seq))
      .map((r) => ({ automation: r.detail?.automation, outcome: r.detail?.outcome, actions: ((r.detail?.actions ?? []) as Record<string, unknown>[]).map((a) => ({ do: a.do, outcome: a.outcome, ...(a.reason ? { reason: a.reason } : {}) })) }));
    return { statusId: p.statusId, assigneeId: p.assigneeId, version: p.version, groups: p.accessGroups ?? [], rows, events, runs };
  };

  it('an automation\'s assign after its move reaches the project as the move leaves it: assigned, recorded, not cleared', async () => {
    const h = harness();
    // The returns desk reads the project only once the move has sent it back (`returned`), never before (`review`).
    const automations: AutomationSpec[] = [{ customId: 'sendBack', name: 'Send larger systems back', when: onKw, if: 'kw > 8.0', actions: [{ do: 'moveStatus', to: 'draft' }, { do: 'assign', user: emailOf(RETURNS) }] }];
    await withAutomations(h, automations, async () => {
      const { projectId, version } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.statusId, IDS.draft);
      assert.deepEqual(after.groups, ['north', 'returned']);
      assert.equal(after.assigneeId, RETURNS, 'assigned to who reaches the project after the move');
      assert.equal(after.version, version + 1, 'one change: one version');
      assert.deepEqual(after.rows, [{ from: reviewers.north.id, to: RETURNS, automation: 'sendBack' }], 'the assignment, and no clearing after it');
      assert.deepEqual(after.events, [{ from: reviewers.north.id, to: RETURNS }]);
      assert.deepEqual(after.runs, [{ automation: 'sendBack', outcome: 'ran', actions: [{ do: 'moveStatus', outcome: 'ran' }, { do: 'assign', outcome: 'ran' }] }]);
    });
  });

  it('an assign of a later automation of the change, by name or by role, reaches the project as an earlier one\'s move left it', async () => {
    const h = harness();
    // One automation moves; the move's trigger runs the next, whose assign must see the project sent back.
    const automations: AutomationSpec[] = [
      { customId: 'sendBack', name: 'Send larger systems back', when: onKw, if: 'kw > 8.0', actions: [{ do: 'moveStatus', to: 'draft' }] },
      { customId: 'toReturns', name: 'Returns desk', when: intoDraft, if: 'kw < 8.5', actions: [{ do: 'assign', user: emailOf(RETURNS) }] },
      { customId: 'toClerk', name: 'A clerk who reads it', when: intoDraft, if: 'kw >= 8.5', actions: [{ do: 'assign', role: 'clerk', pick: 'roundRobin' }] },
    ];
    await withAutomations(h, automations, async () => {
      const byName = await submittedWith(h, NORTH_KW);
      await assign(h, byName, reviewers.north.email);
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(byName), as: 'programAdmin', body: dataRequest({ [IDS.kw]: '8.2' }) });
      assert.equal(res.statusCode, 200, res.body);
      const named = await afterRun(h, byName);
      assert.equal(named.assigneeId, RETURNS);
      assert.deepEqual(named.rows, [{ from: reviewers.north.id, to: RETURNS, automation: 'toReturns' }]);
      assert.deepEqual(named.events, [{ from: reviewers.north.id, to: RETURNS }]);
      // By role: of the clerks, only the one limited to `returned` reaches the project once it is sent back.
      const { projectId, version } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.deepEqual(after.groups, ['north', 'returned']);
      assert.equal(after.assigneeId, CLERKS.returned);
      assert.equal(after.version, version + 1);
      assert.deepEqual(after.rows, [{ from: reviewers.north.id, to: CLERKS.returned, automation: 'toClerk' }]);
      assert.deepEqual(after.events, [{ from: reviewers.north.id, to: CLERKS.returned }]);
      assert.deepEqual(after.runs.map((r) => [r.automation, r.outcome]), [['sendBack', 'ran'], ['toReturns', 'skipped'], ['toClerk', 'ran']]);
    });
  });

  it('an automation\'s assign after its move to someone who reached the project only before the move is skipped, as any unreachable assign', async () => {
    const h = harness();
    // The desk reads submitted projects (`review`): after the move to draft it cannot, so it is not assigned at all.
    const automations: AutomationSpec[] = [{ customId: 'sendBack', name: 'Send larger systems back', when: onKw, if: 'kw > 8.0', actions: [{ do: 'moveStatus', to: 'draft' }, { do: 'assign', user: emailOf(DESK) }] }];
    await withAutomations(h, automations, async () => {
      const { projectId, version } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.statusId, IDS.draft, 'the move itself ran');
      assert.deepEqual(after.groups, ['north', 'returned']);
      assert.equal(after.assigneeId, reviewers.north.id, 'the assignee is unchanged (North still holds the project)');
      assert.equal(after.version, version + 1);
      assert.deepEqual(after.rows, [], 'no assignment, and so no clearing either');
      assert.deepEqual(after.events, []);
      assert.deepEqual(after.runs, [{
        automation: 'sendBack', outcome: 'partly ran',
        actions: [{ do: 'moveStatus', outcome: 'ran' }, { do: 'assign', outcome: 'skipped', reason: `the staff member "${emailOf(DESK)}" cannot read the project (their grant is limited to access groups it is not in)` }],
      }]);
    });
  });

  it('an automation\'s assign without a move is checked against the groups as the change left them, as before', async () => {
    const h = harness();
    // No move: 9 kW keeps the project submitted, so in `review` (the desk's) and not in `returned`.
    const automations: AutomationSpec[] = [
      { customId: 'toDesk', name: 'Review desk', when: onKw, if: 'kw > 8.0', actions: [{ do: 'emitEvent', name: 'Grown' }, { do: 'assign', user: emailOf(DESK) }] },
      { customId: 'toReturns', name: 'Returns desk', when: onKw, if: 'kw > 8.0', actions: [{ do: 'assign', user: emailOf(RETURNS) }] },
    ];
    await withAutomations(h, automations, async () => {
      const { projectId, version } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.statusId, IDS.submitted);
      assert.deepEqual(after.groups, ['north', 'review']);
      assert.equal(after.assigneeId, DESK);
      assert.equal(after.version, version + 1);
      assert.deepEqual(after.rows, [{ from: reviewers.north.id, to: DESK, automation: 'toDesk' }]);
      assert.deepEqual(after.runs.map((r) => [r.automation, r.outcome, r.actions.at(-1)]), [
        ['toDesk', 'ran', { do: 'assign', outcome: 'ran' }],
        ['toReturns', 'partly ran', { do: 'assign', outcome: 'skipped', reason: `the staff member "${emailOf(RETURNS)}" cannot read the project (their grant is limited to access groups it is not in)` }],
      ]);
    });
  });

  // An automation's `sendMail` to a role or to the assignee after a `moveStatus` of the same run mails only staff who
  // reach the project as the move leaves it: nobody is mailed about a project they cannot read, and nobody who can is left out.
  const mailOf = (subject: string) => ({ do: 'sendMail' as const, subject, text: 'See {{link}}' });

  /** The automations' mails the change that left the project as it is queued, by address and subject. */
  const mailsOf = async (h: HttpHarness, projectId: string) => {
    const at = (await h.store.projects.getProject(IDS.program, projectId))!.updatedAt;
    return (await h.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.createdAt === at).map((m) => [m.to, m.subject]).sort();
  };

  it('an automation\'s mail to a role after its move goes to the holders who reach the project as the move leaves it', async () => {
    const h = harness();
    // Of the clerks, the one limited to `review` read the project only before the move, the one limited to `returned` only after it.
    const automations: AutomationSpec[] = [{ customId: 'sendBack', name: 'Send larger systems back', when: onKw, if: 'kw > 8.0', actions: [{ do: 'moveStatus', to: 'draft' }, { ...mailOf('Sent back'), to: 'role', role: 'clerk' }] }];
    await withAutomations(h, automations, async () => {
      const { projectId } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.statusId, IDS.draft);
      assert.deepEqual(after.groups, ['north', 'returned']);
      assert.deepEqual(await mailsOf(h, projectId), [[emailOf(CLERKS.returned), 'Sent back']], 'only the clerk who reads the sent-back project');
      assert.deepEqual(after.runs, [{ automation: 'sendBack', outcome: 'ran', actions: [{ do: 'moveStatus', outcome: 'ran' }, { do: 'sendMail', outcome: 'ran' }] }]);
    });
  });

  it('an automation\'s mail to the assignee after its move skips one who read the project only before it, and mails one who reads it after', async () => {
    const h = harness();
    const automations: AutomationSpec[] = [
      { customId: 'backToDesk', name: 'Tell the desk', when: onKw, if: 'kw > 8.0 && kw < 8.5', actions: [{ do: 'moveStatus', to: 'draft' }, { ...mailOf('Desk: sent back'), to: 'assignee' }] },
      { customId: 'backToReturns', name: 'Tell the returns desk', when: onKw, if: 'kw >= 8.5', actions: [{ do: 'moveStatus', to: 'draft' }, { do: 'assign', user: emailOf(RETURNS) }, { ...mailOf('Returns: sent back'), to: 'assignee' }] },
    ];
    await withAutomations(h, automations, async () => {
      // The desk (limited to `review`) holds a submitted project; the move sends it back, out of the desk's reach.
      const desk = await submittedWith(h, NORTH_KW);
      await assign(h, desk, emailOf(DESK));
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(desk), as: 'programAdmin', body: dataRequest({ [IDS.kw]: '8.2' }) });
      assert.equal(res.statusCode, 200, res.body);
      const left = await afterRun(h, desk);
      assert.equal(left.statusId, IDS.draft);
      assert.deepEqual(await mailsOf(h, desk), [], 'the desk is not mailed about a project it can no longer read');
      assert.deepEqual(left.runs.filter((r) => r.automation === 'backToDesk'), [{
        automation: 'backToDesk', outcome: 'partly ran',
        actions: [{ do: 'moveStatus', outcome: 'ran' }, { do: 'sendMail', outcome: 'skipped', reason: 'the project\'s assignee cannot read it now (their grant is limited to access groups it is not in)' }],
      }]);
      assert.equal(left.assigneeId, null, 'and the same change unassigns it');
      // The returns desk (limited to `returned`) reads the project only after the move that assigns it: it is mailed.
      const { projectId } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.assigneeId, RETURNS);
      assert.deepEqual(await mailsOf(h, projectId), [[emailOf(RETURNS), 'Returns: sent back']]);
      assert.deepEqual(after.runs.filter((r) => r.automation === 'backToReturns'), [{ automation: 'backToReturns', outcome: 'ran', actions: [{ do: 'moveStatus', outcome: 'ran' }, { do: 'assign', outcome: 'ran' }, { do: 'sendMail', outcome: 'ran' }] }]);
    });
  });

  it('an automation\'s mail without a move goes to who reaches the project as the change left it, as before', async () => {
    const h = harness();
    // No move: 9 kW keeps the project submitted, in `review` (the first clerk's) and not in `returned`.
    const automations: AutomationSpec[] = [{
      customId: 'grown', name: 'Tell the clerks and the assignee', when: onKw, if: 'kw > 8.0',
      actions: [{ do: 'emitEvent', name: 'Grown' }, { ...mailOf('Grown'), to: 'role', role: 'clerk' }, { ...mailOf('Grown: yours'), to: 'assignee' }],
    }];
    await withAutomations(h, automations, async () => {
      const { projectId } = await grown(h);
      const after = await afterRun(h, projectId);
      assert.equal(after.statusId, IDS.submitted);
      assert.deepEqual(after.groups, ['north', 'review']);
      assert.deepEqual(await mailsOf(h, projectId), [[emailOf(CLERKS.review), 'Grown'], [reviewers.north.email, 'Grown: yours']].sort());
      assert.equal(after.runs[0]?.outcome, 'ran');
    });
  });
});
