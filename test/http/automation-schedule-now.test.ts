import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runSchedules } from '../../src/domain/automations/schedule-runner.ts';
import { addDays, localDateOf, startOfLocalDay } from '../../src/domain/calendar/local-date.ts';
import type { Automation } from '../../src/model/automation.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { AutomationScheduleResponse, AutomationScheduleRunResponse } from '../../src/wire/documents/automations.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, authHeaders, type HttpHarness, type Identity, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { roleWith, roleWithout, seedProgramRoles } from '../support/program-roles.ts';
import { workflowProgramRows } from '../support/workflow-fixtures.ts';
import { COMPLETE, createProject, PROGRAM, setDraft, submitPath } from './http-helpers.ts';
import { sharedWorkflowHarness } from './workflow-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

// GetAutomationSchedule and RunAutomationSchedule (docs/interface.md; docs/programs.md, "Daily schedules"): a program
// admin sees which projects a daily schedule selects now and runs it now, audited, and still once per project and day
// with the daily run itself.

const ZONE = 'America/Los_Angeles';
const HOUR = 3_600_000;

/** Every evening at 23:00 Los Angeles time: submitted projects of 5 kW or more; an event, so each run is a change. */
const NIGHTLY: Automation = {
  customId: 'nightly', name: 'Nightly check of larger systems',
  when: { trigger: 'schedule', at: '23:00', formId: null, statusId: IDS.submitted, fieldId: null, attachmentId: null, approval: null, by: null },
  if: 'kw >= 5.0', actions: [{ do: 'emitEvent', name: 'nightly' }],
};
const ON_SUBMIT: Automation = {
  customId: 'on-submit', name: 'Not a schedule', if: null, actions: [{ do: 'emitEvent', name: 'x' }],
  when: { trigger: 'form.submitted', formId: null, statusId: null, fieldId: null, attachmentId: null, approval: null, by: null },
};

const schedulePath = (automation = 'nightly') => `${PROGRAM}/Automations/${automation}/Schedule`;

forEachDialect('running a daily schedule now', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);
  let roles: Record<string, Identity>;
  before(async () => {
    const rows = workflowProgramRows();
    roles = await seedProgramRoles(harness().store, { ...rows, program: { ...rows.program, automations: [NIGHTLY, ON_SUBMIT] } }, [
      { customId: 'with-runAutomations', privileges: roleWith('runAutomations') },
      { customId: 'without-runAutomations', privileges: roleWithout('runAutomations') },
    ]);
  });
  const send = (h: HttpHarness, method: 'GET' | 'POST', as: Identity, path = schedulePath(), headers: Record<string, string> = {}) => {
    h.clock.advance();
    return h.app.inject({ method, url: method === 'POST' ? `${path}/Run` : path, headers: { ...authHeaders(as), ...headers } });
  };
  /** A submitted project of the applicant with `kw`. */
  const submitted = async (h: HttpHarness, kw: string) => {
    const projectId = await createProject(h, 'applicant');
    await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size], kw });
    h.clock.advance();
    assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
    return projectId;
  };
  /** The nightly runs recorded on a project. */
  const nightlyRuns = async (h: HttpHarness, projectId: string) =>
    (await h.store.audit.list({ projectId, action: 'automation.run' })).filter((r) => r.detail?.automation === 'nightly').length;
  /** Moves the test clock to the next local day of Los Angeles at `hours` past midnight. */
  const nextDayAt = (h: HttpHarness, hours: number) => {
    h.clock.time = startOfLocalDay(addDays(localDateOf(h.clock.now(), ZONE), 1), ZONE) + hours * HOUR;
  };

  describe('preview and run', () => {
    it('the preview lists the projects the schedule selects now; a run acts on them once, a second run the same day on none, the daily run passes them by', async () => {
      const h = harness();
      nextDayAt(h, 9);
      const [large, small] = [await submitted(h, '7.5'), await submitted(h, '2')];
      const draft = await createProject(h, 'applicant');
      await setDraft(h, draft, { kw: '9' });
      const admin = h.who.programAdmin;

      const preview = await send(h, 'GET', admin);
      assert.equal(preview.statusCode, 200, preview.body);
      assertValidXml(h, preview, 'AutomationScheduleResponse');
      const day = localDateOf(h.clock.now(), ZONE);
      assert.deepEqual([attr(preview.body, 'Schedule', 'AutomationId'), attr(preview.body, 'Schedule', 'Day'), attr(preview.body, 'Schedule', 'At')], ['nightly', day, '23:00']);
      const listed = attrs(preview.body, 'Project', 'ProjectId');
      assert.ok(listed.includes(large), 'a submitted project of 7.5 kW is selected');
      assert.ok(!listed.includes(small) && !listed.includes(draft), 'not one of 2 kW, nor a draft');
      assert.match(preview.body, new RegExp(`<Project ProjectId="${large}" ProjectNumber="[^"]+" Status="submitted" DoneToday="false"/>`));
      assert.equal(await nightlyRuns(h, large), 0, 'a preview acts on nothing');

      const run = await send(h, 'POST', admin);
      assert.equal(run.statusCode, 200, run.body);
      assertValidXml(h, run, 'AutomationScheduleRunResponse');
      const acted = attrs(run.body, 'Acted', 'ProjectId');
      assert.deepEqual([...acted].sort(), [...listed].sort(), 'the run acts on what the preview listed');
      assert.deepEqual([await nightlyRuns(h, large), await nightlyRuns(h, small), await nightlyRuns(h, draft)], [1, 0, 0]);
      const change = (await h.store.audit.list({ projectId: large, action: 'automation.schedule' }))[0]!;
      assert.deepEqual([change.actorId, change.detail], ['system', { automation: 'nightly', day, requestedBy: admin.id }]);
      const audited = (await h.store.audit.list({ action: 'automation.schedule.run' }))[0]!;
      assert.equal(audited.actorId, admin.id);
      assert.deepEqual(audited.detail, { automation: 'nightly', day, acted: acted.length, failed: 0 });

      const second = await send(h, 'POST', admin);
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(attrs(second.body, 'Acted', 'ProjectId'), [], 'a second run the same day acts on none');
      assert.equal(await nightlyRuns(h, large), 1);
      assert.match((await send(h, 'GET', admin)).body, new RegExp(`<Project ProjectId="${large}"[^>]* DoneToday="true"/>`));

      // A project selected after the run now is the daily run's; the ones the run now acted on it passes by.
      const later = await submitted(h, '8');
      h.clock.time = startOfLocalDay(day, ZONE) + 23.5 * HOUR;
      await runSchedules({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), reactions: changeReactions() });
      assert.deepEqual([await nightlyRuns(h, large), await nightlyRuns(h, later)], [1, 1], 'the daily run acts on the newcomer only');
      assert.deepEqual(attrs((await send(h, 'POST', admin)).body, 'Acted', 'ProjectId'), [], 'and a run now after it on none');

      nextDayAt(h, 8);
      const tomorrow = await send(h, 'POST', admin);
      assert.ok(attrs(tomorrow.body, 'Acted', 'ProjectId').includes(large), 'the next day, once again');
      assert.equal(await nightlyRuns(h, large), 2);
    });

    it('answers the same in JSON', async () => {
      const h = harness();
      nextDayAt(h, 10);
      await submitted(h, '6');
      const xml = await send(h, 'GET', h.who.admin);
      const json = assertJsonAnswer(await send(h, 'GET', h.who.admin, schedulePath(), JSON_ANSWER), AutomationScheduleResponse);
      assert.deepEqual(json, xmlAnswerValue(h, xml, AutomationScheduleResponse));
      assert.ok(json.Schedule.Project.length > 0);
      const ran = assertJsonAnswer(await send(h, 'POST', h.who.admin, schedulePath(), JSON_ANSWER), AutomationScheduleRunResponse);
      assert.deepEqual(ran.Schedule.Acted.map((p) => p.ProjectId).sort(), json.Schedule.Project.filter((p) => !p.DoneToday).map((p) => p.ProjectId).sort());
      assert.deepEqual(ran.Schedule.Failed, []);
    });

    it('an automation that is not a daily schedule, or none, is 404 naming the schedules', async () => {
      const h = harness();
      for (const id of ['on-submit', 'no-such']) {
        const res = await send(h, 'POST', h.who.programAdmin, schedulePath(id), JSON_ANSWER);
        assert.match(assertJsonError(res, 404, 'NOT_FOUND'), /has no daily schedule "[a-z-]+" .*its schedules: nightly/);
      }
    });
  });

  describe('who may', () => {
    const refused: Who[] = ['editor', 'reader', 'applicant', 'otherApplicant'];

    it('admins and roles with runAutomations may; others are refused 403 naming the privilege, and nothing changes', async () => {
      const h = harness();
      nextDayAt(h, 11);
      const projectId = await submitted(h, '9');
      const state = async () => ({
        project: await h.store.projects.getProject(IDS.program, projectId), audit: await h.store.audit.list({ projectId }),
        runs: (await h.store.audit.list({ action: 'automation.schedule.run' })).length,
        mark: await h.store.schedules.scheduleMark(IDS.program, 'nightly', projectId),
      });
      const before = await state();
      for (const who of [...refused.map((w) => h.who[w]), roles['without-runAutomations']!]) {
        for (const method of ['GET', 'POST'] as const) {
          assert.match(assertJsonError(await send(h, method, who, schedulePath(), JSON_ANSWER), 403, 'FORBIDDEN'), /needs the privilege runAutomations/);
          assertError(h, await send(h, method, who), 403, 'FORBIDDEN');
        }
      }
      assertError(h, await send(h, 'POST', h.who.outsider), 403, 'FORBIDDEN');
      assert.deepEqual(await state(), before, 'a refused run changes nothing');
      for (const who of [h.who.admin, roles['with-runAutomations']!]) assert.equal((await send(h, 'GET', who)).statusCode, 200);
      const run = await send(h, 'POST', roles['with-runAutomations']!);
      assert.equal(run.statusCode, 200, run.body);
      assert.ok(attrs(run.body, "Acted", "ProjectId").includes(projectId), run.body);
    });
  });
});
