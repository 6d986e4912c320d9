import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSchedules } from '../../src/domain/automations/schedule-runner.ts';
import { addDays, localDateOf, startOfLocalDay } from '../../src/domain/calendar/local-date.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DIALECTS } from '../support/databases.ts';
import { DEMO_APPLICATION, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest } from '../support/http-harness.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

// The daily `schedule` trigger (docs/programs.md, "Daily schedules"), through the demo's DraftReminderDaily: every
// morning at 08:00 Los Angeles time, a draft left unsubmitted for 30 days reminds its owner, and again every 7 days
// while it stays a draft. Runs are driven by the test clock; each project is acted on at most once a day, across
// repeated rounds, two runners at once, and a runner that died holding the day's run.

const DAY = 86_400_000;
const ZONE = 'America/Los_Angeles';

/** The instant of a local time (HH:MM, Los Angeles) on the local day `days` after the local day of `at`. */
function localTime(at: number, days: number, hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return startOfLocalDay(addDays(localDateOf(at, ZONE), days), ZONE) + (h * 60 + m) * 60_000;
}

for (const dialect of DIALECTS) {
  describe(`the daily schedule of automations [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const { ok, newProject, clock } = demo;
    const applicant = demoUser('applicant');
    const ids = new RandomIdGenerator();
    const run = (owner?: string) => runSchedules({ store: demo.db.store, clock, ids, owner, publicUrl: 'http://apas.test', reactions: changeReactions() });
    /** What the automation did on a project: its run records and the reminder mails that link to it. */
    const remindersOf = async (projectId: string) => ({
      runs: (await demo.db.store.audit.list({ projectId, action: 'automation.run' })).filter((r) => (r.detail as { automation?: string }).automation === 'DraftReminderDaily'),
      mails: (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.text.includes(projectId)),
    });
    const created = async (projectId: string) => (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.createdAt;

    it('reminds the owner of a 30-day-old draft at 08:00 local time, once that day, then every 7 days; not a younger draft or a submitted project', async () => {
      const old = await newProject();
      const sent = await newProject();
      assert.equal((await demo.upload(sent, 'SitePlan')).statusCode, 200);
      await ok(demo.call(applicant, 'POST', `Projects/${sent}/Forms/Application/Draft/Data`, dataRequest(DEMO_APPLICATION)));
      await ok(demo.call(applicant, 'POST', `Projects/${sent}/Forms/Application/Draft/Submit`));
      const t = await created(old);
      clock.time = t + 20 * DAY;
      const young = await newProject();

      clock.time = localTime(t, 30, '07:59');
      await run();
      assert.equal((await remindersOf(old)).runs.length, 0, 'not before 08:00');
      clock.time = localTime(t, 30, '08:01');
      await run();
      const first = await remindersOf(old);
      assert.equal(first.runs.length, 1, 'the run is recorded on the project');
      assert.deepEqual(first.mails.map((m) => m.to), [applicant.email], 'one reminder, to the owner');
      assert.match(first.mails[0]!.subject, /your application is not submitted yet/);
      assert.equal((await remindersOf(young)).runs.length, 0, 'a 10-day-old draft is not reminded');
      assert.equal((await remindersOf(sent)).runs.length, 0, 'a submitted project is not a draft');
      const version = (await demo.db.store.projects.getProject(demo.model.program.id, old))!.version;

      clock.time = localTime(t, 30, '17:00');
      await run();
      assert.equal((await remindersOf(old)).runs.length, 1, 'once a day');
      clock.time = localTime(t, 31, '08:30');
      await run();
      assert.equal((await remindersOf(old)).runs.length, 1, 'day 31: the condition does not hold, and nothing is written');
      assert.equal((await demo.db.store.projects.getProject(demo.model.program.id, old))!.version, version);
      clock.time = localTime(t, 37, '09:00');
      await run();
      assert.equal((await remindersOf(old)).mails.length, 2, 'day 37: reminded again');
    });

    it('two runners at once act on each selected project once', async () => {
      clock.time += 400 * DAY;
      const projects = [await newProject(), await newProject(), await newProject()];
      clock.time = localTime(await created(projects[0]!), 30, '08:05');
      await Promise.all([run('instance-a'), run('instance-b'), run('instance-a')]);
      for (const p of projects) {
        const done = await remindersOf(p);
        assert.equal(done.runs.length, 1, `project ${p}: one run`);
        assert.equal(done.mails.length, 1, `project ${p}: one mail`);
      }
    });

    it('a run whose runner died is taken over when its lease lapses, and the project it finished is not acted on again', async () => {
      clock.time += 400 * DAY;
      const [finished, left] = [await newProject(), await newProject()];
      clock.time = localTime(await created(finished), 30, '08:10');
      const key = { programId: demo.model.program.id, automation: 'DraftReminderDaily', day: localDateOf(clock.time, ZONE) };
      // The dead runner took the day's run and committed its change of `finished` (the mark), then died.
      assert.equal(await demo.db.store.schedules.claimScheduleRun(key, 'dead', clock.time, clock.time + 120_000), null);
      await demo.db.store.transaction((tx) => tx.schedules.markScheduled(key.programId, key.automation, finished, key.day));
      await run('alive');
      assert.equal((await remindersOf(left)).runs.length, 0, 'the lease is held');
      clock.time += 121_000;
      await run('alive');
      assert.equal((await remindersOf(left)).runs.length, 1, 'taken over');
      assert.equal((await remindersOf(finished)).runs.length, 0, 'the finished project is not acted on twice');
      assert.equal(await demo.db.store.schedules.scheduleRunDone(key), true);
    });
  });
}
