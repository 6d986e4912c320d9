import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fireDueDeadlines } from '../../src/domain/deadlines/deadline-poller.ts';
import { deadlineMarksTask, recountDeadlineMarks } from '../../src/domain/queue/deadline-marks-task.ts';
import type { Store } from '../../src/store/store.ts';
import { ProjectDeadlineResponse, ProjectDeadlinesResponse } from '../../src/wire/documents/deadlines.ts';
import { counterIds } from '../cli/test-store.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { assertError, assertValidXml, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { IDS, T0 } from '../support/fixtures.ts';
import { seedWorkflowProgram, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createSubmitted, projectPath } from './http-helpers.ts';
import { webGet } from './web-page-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

// Deadlines over the API on both databases: staff with manageDeadlines start, satisfy and cancel them, applicants
// see the ones shown to them; a refused request changes nothing; the poller fires a due deadline exactly once, also
// with two instances polling at once and after a transaction that died before its commit.

const deadlines = (projectId: string) => `${projectPath(projectId)}/Deadlines`;
const act = (projectId: string, deadline: string, what: 'Start' | 'Satisfy' | 'Cancel') => `${deadlines(projectId)}/${deadline}/${what}`;

/** Everything a refused deadline request could have changed: the project row, its deadlines, audit rows and events. */
async function state(h: HttpHarness, projectId: string) {
  return {
    project: await h.store.projects.getProject(IDS.program, projectId),
    deadlines: await h.store.deadlines.listProjectDeadlines(projectId),
    audit: await h.store.audit.list({ projectId }),
    events: await h.store.events.listProjectEvents(projectId),
  };
}

/** A store whose transactions do their work and then die before the commit, as a crash between claim and commit would. */
function dyingStore(store: Store): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'transaction') {
        return (work: Parameters<Store['transaction']>[0]) => target.transaction(async (tx) => {
          await work(tx);
          throw new Error('the instance died before its commit');
        });
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

forEachDialect('HTTP deadlines', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  before(async () => {
    db = await openTestStore(dialect);
    h = await startHttp(db);
    await seedWorkflowProgram(h.store);
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  const send = (method: string, url: string, as: Who, json = false) =>
    h.request({ method, url, as, headers: json ? { ...JSON_ANSWER } : {} });

  describe('start, read, satisfy, cancel', () => {
    it('StartProjectDeadline runs 10 business days of the Los Angeles calendar, skipping Thanksgiving and the day after', async () => {
      const { projectId } = await createSubmitted(h);
      // Wednesday 25 November 2026, 10:00 in Los Angeles.
      h.clock.time = Math.max(h.clock.time, Date.parse('2026-11-25T18:00:00Z'));
      const res = await send('POST', act(projectId, 'answer', 'Start'), 'admin');
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res);
      const d = xmlAnswerValue(h, res, ProjectDeadlineResponse).Deadline;
      if (h.clock.time === Date.parse('2026-11-25T18:00:00Z')) {
        assert.deepEqual([d.DueDate, d.DueAt], ['2026-12-11', '2026-12-12T08:00:00.000+00:00']);
      }
      assert.equal(d.State, 'running');
      assert.equal(d.Overdue, false);
      const events = await h.store.events.listProjectEvents(projectId);
      const started = events.find((e) => e.type === 'deadline.started');
      assert.deepEqual(started?.data, { deadlineId: 'answer', dueAt: Date.parse(d.DueAt) });
      assert.equal(started?.audience, 'all');
    });

    it('GetProjectDeadlines: staff see every deadline, the applicant only those shown to applicants; XML and JSON agree', async () => {
      const { projectId } = await createSubmitted(h);
      for (const d of ['answer', 'internal']) assert.equal((await send('POST', act(projectId, d, 'Start'), 'admin')).statusCode, 200);
      const staff = await send('GET', deadlines(projectId), 'admin');
      assertValidXml(h, staff);
      assert.deepEqual(xmlAnswerValue(h, staff, ProjectDeadlinesResponse).Project.Deadline.map((d) => d.DeadlineId).sort(), ['answer', 'internal']);
      const applicant = assertJsonAnswer(await send('GET', deadlines(projectId), 'applicant', true), ProjectDeadlinesResponse);
      assert.deepEqual(applicant.Project.Deadline.map((d) => d.DeadlineId), ['answer']);
      const internal = (await h.store.events.listProjectEvents(projectId)).find((e) => e.type === 'deadline.started' && e.data.deadlineId === 'internal');
      assert.equal(internal?.audience, 'staff', 'a hidden deadline\'s events are staff-only');
      // Another applicant's project is not found, as any project one may not read.
      assertError(h, await send('GET', deadlines(projectId), 'otherApplicant'), 404, 'NOT_FOUND');
    });

    it('a running deadline past its due time reads as overdue before the poller fires it', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', act(projectId, 'internal', 'Start'), 'admin');
      h.clock.advance(5 * 86_400_000);
      const view = assertJsonAnswer(await send('GET', deadlines(projectId), 'admin', true), ProjectDeadlinesResponse);
      assert.deepEqual(view.Project.Deadline.map((d) => [d.State, d.Overdue]), [['running', true]]);
    });

    it('satisfy and cancel end a running deadline with their events; starting a running one restarts it', async () => {
      const { projectId } = await createSubmitted(h);
      await send('POST', act(projectId, 'answer', 'Start'), 'admin');
      h.clock.advance(86_400_000);
      const again = xmlAnswerValue(h, await send('POST', act(projectId, 'answer', 'Start'), 'admin'), ProjectDeadlineResponse);
      assert.equal(Date.parse(again.Deadline.StartedAt), h.clock.time);
      assert.equal((await h.store.deadlines.listProjectDeadlines(projectId)).length, 1, 'one row per deadline');
      const restart = (await h.store.audit.list({ projectId, action: 'project.deadline.start' }));
      assert.equal(restart.length, 2);
      assert.ok(restart.some((a) => (a.detail as { restarted?: boolean }).restarted === true));
      const satisfied = xmlAnswerValue(h, await send('POST', act(projectId, 'answer', 'Satisfy'), 'admin'), ProjectDeadlineResponse);
      assert.equal(satisfied.Deadline.State, 'satisfied');
      await send('POST', act(projectId, 'internal', 'Start'), 'admin');
      const cancelled = assertJsonAnswer(await send('POST', act(projectId, 'internal', 'Cancel'), 'admin', true), ProjectDeadlineResponse);
      assert.equal(cancelled.Deadline.State, 'cancelled');
      const types = (await h.store.events.listProjectEvents(projectId)).map((e) => e.type).filter((t) => t.startsWith('deadline.'));
      assert.deepEqual(types, ['deadline.started', 'deadline.started', 'deadline.satisfied', 'deadline.started', 'deadline.cancelled']);
    });
  });

  describe('refusals change nothing', () => {
    const cases: { name: string; who: Who; path: (p: string) => string; status: number; code: string; match?: RegExp; prepare?: (p: string) => Promise<void> }[] = [
      { name: 'the applicant (no manageDeadlines)', who: 'applicant', path: (p) => act(p, 'answer', 'Start'), status: 403, code: 'FORBIDDEN', match: /manageDeadlines/ },
      { name: 'an editor (no manageDeadlines)', who: 'editor', path: (p) => act(p, 'answer', 'Start'), status: 403, code: 'FORBIDDEN', match: /manageDeadlines/ },
      { name: 'an unknown deadline', who: 'admin', path: (p) => act(p, 'nothing', 'Start'), status: 404, code: 'NOT_FOUND', match: /answer, internal, install/ },
      { name: 'satisfying one never started', who: 'admin', path: (p) => act(p, 'answer', 'Satisfy'), status: 409, code: 'CONFLICT', match: /never started/ },
      {
        name: 'cancelling one already satisfied', who: 'admin', path: (p) => act(p, 'answer', 'Cancel'), status: 409, code: 'CONFLICT', match: /satisfied/,
        prepare: async (p) => {
          await send('POST', act(p, 'answer', 'Start'), 'admin');
          await send('POST', act(p, 'answer', 'Satisfy'), 'admin');
        },
      },
      { name: 'untilField with no date', who: 'admin', path: (p) => act(p, 'install', 'Start'), status: 409, code: 'CONFLICT', match: /no submitted date/ },
      { name: 'a bad deadline id', who: 'admin', path: (p) => `${deadlines(p)}/${'x'.repeat(300)}/Start`, status: 400, code: 'INVALID_PARAMETER' },
    ];
    for (const c of cases) {
      it(`${c.name}: ${c.status} ${c.code}`, async () => {
        const { projectId } = await createSubmitted(h);
        await c.prepare?.(projectId);
        const before = await state(h, projectId);
        h.clock.advance();
        const xml = await send('POST', c.path(projectId), c.who);
        assertError(h, xml, c.status, c.code);
        const message = assertJsonError(await send('POST', c.path(projectId), c.who, true), c.status, c.code);
        if (c.match) assert.match(message, c.match);
        assert.deepEqual(await state(h, projectId), before);
      });
    }
  });

  describe('the poller fires each due deadline exactly once', () => {
    it('not before its due time; once at it, with deadline.passed; never again', async () => {
      const { projectId } = await createSubmitted(h);
      const started = xmlAnswerValue(h, await send('POST', act(projectId, 'internal', 'Start'), 'admin'), ProjectDeadlineResponse);
      const dueAt = Date.parse(started.Deadline.DueAt);
      const deps = { store: h.store, clock: h.clock, ids: counterIds('P'), reactions: changeReactions() };
      h.clock.time = dueAt - 1;
      await fireDueDeadlines(deps);
      assert.equal((await h.store.deadlines.listProjectDeadlines(projectId))[0]?.state, 'running');
      h.clock.time = dueAt + 10_000;
      await fireDueDeadlines(deps);
      await fireDueDeadlines(deps);
      const [row] = await h.store.deadlines.listProjectDeadlines(projectId);
      assert.equal(row?.state, 'passed');
      assert.equal(row?.endedAt, dueAt + 10_000);
      const passed = (await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'deadline.passed');
      assert.deepEqual(passed.map((e) => [e.data.deadlineId, e.data.dueAt, e.actorId, e.audience]), [['internal', dueAt, 'system', 'staff']]);
      assert.equal((await h.store.audit.list({ projectId, action: 'project.deadline.pass' })).length, 1);
      // Satisfying it now is too late.
      assertError(h, await send('POST', act(projectId, 'internal', 'Satisfy'), 'admin'), 409, 'CONFLICT');
    });

    it('a transaction that dies before its commit leaves the deadline to fire on the next poll', async () => {
      const { projectId } = await createSubmitted(h);
      const started = xmlAnswerValue(h, await send('POST', act(projectId, 'internal', 'Start'), 'admin'), ProjectDeadlineResponse);
      h.clock.time = Date.parse(started.Deadline.DueAt) + 1000;
      await fireDueDeadlines({ store: dyingStore(h.store), clock: h.clock, ids: counterIds('D'), reactions: changeReactions() });
      assert.equal((await h.store.deadlines.listProjectDeadlines(projectId))[0]?.state, 'running');
      assert.equal((await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'deadline.passed').length, 0);
      await fireDueDeadlines({ store: h.store, clock: h.clock, ids: counterIds('E'), reactions: changeReactions() });
      assert.equal((await h.store.deadlines.listProjectDeadlines(projectId))[0]?.state, 'passed');
      assert.equal((await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'deadline.passed').length, 1);
    });

    it('two instances on one database polling at once fire each deadline once', async () => {
      const projects: string[] = [];
      let dueAt = 0;
      for (let i = 0; i < 4; i++) {
        const { projectId } = await createSubmitted(h);
        projects.push(projectId);
        const started = xmlAnswerValue(h, await send('POST', act(projectId, 'internal', 'Start'), 'admin'), ProjectDeadlineResponse);
        dueAt = Math.max(dueAt, Date.parse(started.Deadline.DueAt));
      }
      h.clock.time = dueAt + 1000;
      const second = await db.reopen();
      await Promise.all([
        fireDueDeadlines({ store: h.store, clock: h.clock, ids: counterIds('A'), reactions: changeReactions() }),
        fireDueDeadlines({ store: second, clock: h.clock, ids: counterIds('B'), reactions: changeReactions() }),
        fireDueDeadlines({ store: second, clock: h.clock, ids: counterIds('C'), reactions: changeReactions() }),
      ]);
      for (const projectId of projects) {
        assert.equal((await h.store.deadlines.listProjectDeadlines(projectId))[0]?.state, 'passed');
        assert.equal((await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'deadline.passed').length, 1, projectId);
        assert.equal((await h.store.audit.list({ projectId, action: 'project.deadline.pass' })).length, 1);
      }
    });
  });

  describe('the work queue\'s "Deadline near or passed"', () => {
    const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}&size=100`;
    /** Whether the queue filtered by the deadline kind lists the project, and the label its row shows. */
    async function near(projectId: string): Promise<boolean> {
      const res = await webGet(h, `${QUEUE}&attention=deadline&col=attention`, 'admin');
      assert.equal(res.statusCode, 200, res.body);
      const row = res.body.split('<tr').find((r) => r.includes(`Projects/${projectId}/Review`));
      if (row) assert.match(row, /Deadline near or passed/);
      return row !== undefined;
    }
    const dueOf = async (projectId: string, deadlineId: string) => (await h.store.deadlines.listProjectDeadlines(projectId)).find((d) => d.deadlineId === deadlineId)!.dueAt;

    it('time brings a running deadline near (the near-deadline task marks it); a deadline change recounts it; satisfied, it clears', async () => {
      const { projectId } = await createSubmitted(h);
      assert.equal((await send('POST', act(projectId, 'answer', 'Start'), 'admin')).statusCode, 200);
      assert.equal(await near(projectId), false, 'ten working days away');
      const marks = deadlineMarksTask({ store: h.store, clock: h.clock });
      await marks.run();
      assert.equal(await near(projectId), false);
      h.clock.time = (await dueOf(projectId, 'answer')) - 3_600_000;
      assert.equal(await near(projectId), false, 'no change has been made: the mark waits for the task');
      await marks.run();
      assert.equal(await near(projectId), true, 'an hour before its due time');
      assert.equal((await send('POST', act(projectId, 'answer', 'Satisfy'), 'admin')).statusCode, 200);
      assert.equal(await near(projectId), false, 'satisfied: the change step clears it');

      // A deadline change recounts every running deadline of the project: restarting one that is near sets the mark at once.
      const other = (await createSubmitted(h)).projectId;
      assert.equal((await send('POST', act(other, 'answer', 'Start'), 'admin')).statusCode, 200);
      h.clock.time = (await dueOf(other, 'answer')) - 3_600_000;
      assert.equal(await near(other), false);
      assert.equal((await send('POST', act(other, 'internal', 'Start'), 'admin')).statusCode, 200);
      assert.equal(await near(other), true);
    });

    it('a passed deadline keeps the project flagged while its status has a move onward (overdue, kept by the task when a definition changes that), and the task clears a stale near mark', async () => {
      const { projectId } = await createSubmitted(h);
      assert.equal((await send('POST', act(projectId, 'internal', 'Start'), 'admin')).statusCode, 200);
      h.clock.time = (await dueOf(projectId, 'internal')) + 1000;
      await fireDueDeadlines({ store: h.store, clock: h.clock, ids: counterIds('N'), reactions: changeReactions() });
      assert.equal((await h.store.deadlines.listProjectDeadlines(projectId))[0]?.state, 'passed');
      assert.equal(await near(projectId), true, 'Submitted moves on: overdue');
      const page = await webGet(h, `${QUEUE}&attention=deadline`, 'admin');
      const count = Number(/id="attention-deadline">(\d+)</.exec(page.body)?.[1]);
      assert.ok(count >= 1, page.body.slice(0, 200));

      // A definition (as an import saves it) that leaves Submitted without a move onward: the task's next look clears
      // the overdue mark, and sets it again when the move comes back.
      const marks = deadlineMarksTask({ store: h.store, clock: h.clock });
      await marks.run();
      const submittedWithout = (next: string[], updatedAt: number) => {
        const rows = workflowProgramRows(updatedAt);
        return { ...rows, statuses: rows.statuses.map((st) => (st.id === IDS.submitted ? { ...st, next } : st)) };
      };
      await h.store.transaction((tx) => tx.programs.saveProgramDefinition(submittedWithout([], T0 + 2)));
      h.clock.advance(61_000);
      await marks.run();
      assert.equal(await near(projectId), false, 'Submitted no longer moves on');
      await h.store.transaction((tx) => tx.programs.saveProgramDefinition(workflowProgramRows(T0 + 3)));
      h.clock.advance(61_000);
      await marks.run();
      assert.equal(await near(projectId), true, 'Submitted moves on again');

      // A mark no running deadline justifies (as a calendar changed by an import would leave) goes at the task's next look.
      const far = (await createSubmitted(h)).projectId;
      assert.equal((await send('POST', act(far, 'answer', 'Start'), 'admin')).statusCode, 200);
      await recountDeadlineMarks(h.store, IDS.program, { openStatusIds: [], nearBy: Number.MAX_SAFE_INTEGER }, { near: true, overdue: false });
      assert.equal(await near(far), true);
      await deadlineMarksTask({ store: h.store, clock: h.clock }).run();
      assert.equal(await near(far), false);
    });
  });
});
