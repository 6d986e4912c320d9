import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { fireDueDeadlines } from '../../src/domain/deadlines/deadline-poller.ts';
import { backfillSummaries, weekOf } from '../../src/store/dashboard-queries.ts';
import { openDatabase } from '../../src/store/database.ts';
import type { Database } from '../../src/store/tables.ts';
import { counterIds } from '../cli/test-store.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { type HttpHarness, startHttp } from '../support/http-harness.ts';
import { WF, seedWorkflowProgram, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { rezoneIfMoved } from '../../src/domain/dashboards/dashboard-zones-task.ts';
import { createProject, createSubmitted, type MatrixRow, projectPath, rowLabel } from './http-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';
import { demoApi, demoUser } from '../support/demo-api.ts';
import { assigneeRequest, setStatus, urls } from './workflow-helpers.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';

// A program's dashboard: GET /Projects/Dashboard?ProgramId=… (HTML; figure=…&format=csv downloads one figure).

const DASHBOARD = `/Projects/Dashboard?ProgramId=${IDS.program}`;
const csvOf = (figure: string) => `${DASHBOARD}&figure=${figure}&format=csv`;
const deadline = (projectId: string, d: string, what: string) => `${projectPath(projectId)}/Deadlines/${d}/${what}`;

const MATRIX: readonly MatrixRow[] = [
  { who: 'admin', status: 200 }, { who: 'programAdmin', status: 200 }, { who: 'editor', status: 200 }, { who: 'reader', status: 200 },
  { who: 'applicant', status: 403 }, { who: 'otherApplicant', status: 403 }, { who: 'outsider', status: 403 },
];

async function withRaw<T>(db: TestStore, work: (k: Kysely<Database>) => Promise<T>): Promise<T> {
  const raw = await openDatabase(db.config);
  try {
    return await work(raw.db as Kysely<Database>);
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

/** Every summary count and fact, in one order, as plain values. */
async function summaries(k: Kysely<Database>) {
  const counts = await k.selectFrom('dashboard_counts').selectAll().orderBy('program_id').orderBy('kind').orderBy('k1').orderBy('k2').orderBy('k3').execute();
  const facts = await k.selectFrom('dashboard_facts').selectAll().orderBy('project_id').execute();
  return { counts: counts.map((c) => ({ ...c, n: Number(c.n) })), facts };
}

function csvRows(body: string): string[][] {
  return body.trim().split('\r\n').map((line) => line.split(','));
}

forEachDialect('HTTP dashboards', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  const ids: string[] = [];
  before(async () => {
    db = await openTestStore(dialect);
    h = await startHttp(db);
    await seedWorkflowProgram(h.store);
    // A sequence of changes of every kind the dashboards count: creation, submission, moves (back and on),
    // assignment, deadlines started, satisfied and passed (by the poller), and a draft that stays a draft.
    for (let i = 0; i < 4; i++) ids.push((await createSubmitted(h)).projectId);
    await createProject(h, 'applicant');
    await setStatus(h, ids[0]!, WF.approved);
    h.clock.advance(3 * 86_400_000);
    await setStatus(h, ids[1]!, IDS.draft);
    await setStatus(h, ids[1]!, IDS.submitted);
    await setStatus(h, ids[1]!, WF.approved, 'programAdmin');
    for (const p of [ids[2]!, ids[3]!]) {
      const res = await h.request({ method: 'POST', url: urls.assignee(p), as: 'admin', body: assigneeRequest(h.who.editor.email) });
      assert.equal(res.statusCode, 200, res.body);
    }
    for (const [p, d] of [[ids[2]!, 'answer'], [ids[3]!, 'internal'], [ids[0]!, 'internal']] as const) {
      assert.equal((await h.request({ method: 'POST', url: deadline(p, d, 'Start'), as: 'admin' })).statusCode, 200);
    }
    assert.equal((await h.request({ method: 'POST', url: deadline(ids[2]!, 'answer', 'Satisfy'), as: 'admin' })).statusCode, 200);
    h.clock.advance(5 * 86_400_000);
    await fireDueDeadlines({ store: h.store, clock: h.clock, ids: counterIds('D'), reactions: changeReactions() });
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  describe('a program with nothing to count yet', () => {
    const demo = demoApi(dialect);

    it('labels its empty value axes 0, never 0.000000', async () => {
      const res = await demo.webGet(demoUser('reviewer'), `/Projects/Dashboard?ProgramId=${demo.model.program.id}`);
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.equal([...res.body.matchAll(/<svg role="img"/g)].length, 6);
      assert.doesNotMatch(res.body, /0\.0000/);
      assert.match(res.body, /<text[^>]*>0<\/text>/);
    });
  });

  describe('summary tables', () => {
    it('equal a recount from scratch after the changes, and count what the projects say', async () => {
      await withRaw(db, async (k) => {
        const kept = await summaries(k);
        assert.ok(kept.counts.length > 0);
        await k.deleteFrom('dashboard_counts').execute();
        await k.deleteFrom('dashboard_facts').execute();
        await backfillSummaries(k, 2);
        assert.deepEqual(await summaries(k), kept);
        // Independently of the facts: projects by status now, and first submissions, straight from their rows.
        const byStatus = await k.selectFrom('projects').select(['status_id']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('status_id').execute();
        const counted = new Map<string, number>();
        for (const c of kept.counts.filter((x) => x.kind === 't')) counted.set(c.k1, (counted.get(c.k1) ?? 0) + c.n);
        assert.deepEqual(counted, new Map(byStatus.map((r) => [r.status_id, Number(r.n)])));
        assert.equal(kept.counts.filter((x) => x.kind === 'w').reduce((n, c) => n + c.n, 0), 4);
        const deadlines = kept.counts.filter((x) => x.kind === 'd').map((c) => [c.k2, c.k3, c.n]).sort();
        assert.deepEqual(deadlines, [['answer', 'satisfied', 1], ['internal', 'passed', 2]]);
      });
    });

    it('a deleted draft takes its count away, in the deletion\'s own transaction', async () => {
      const draft = await createProject(h, 'applicant');
      await withRaw(db, async (k) => {
        const before = await summaries(k);
        assert.ok(before.facts.some((f) => f.project_id === draft));
        const deleted = await webPost(h, '/MvcProjects/DeleteDraft', 'applicant', { ProgramId: IDS.program, ProjectId: draft });
        assert.equal(deleted.statusCode, 303, deleted.body);
        const after = await summaries(k);
        assert.equal(after.facts.length, before.facts.length - 1);
        assert.ok(!after.facts.some((f) => f.project_id === draft));
        const drafts = (s: typeof before) => s.counts.filter((c) => c.kind === 't' && c.k1 === IDS.draft).reduce((n, c) => n + c.n, 0);
        assert.equal(drafts(after), drafts(before) - 1);
        // And still what a recount from scratch gives.
        await k.deleteFrom('dashboard_counts').execute();
        await k.deleteFrom('dashboard_facts').execute();
        await backfillSummaries(k, 3);
        assert.deepEqual(await summaries(k), after);
      });
    });
  });

  describe('access', () => {
    for (const row of MATRIX) {
      it(`GET the dashboard and a figure's CSV: ${rowLabel(row)}`, async () => {
        const res = await webGet(h, DASHBOARD, row.who as never);
        assert.equal(res.statusCode, row.status, res.body.slice(0, 400));
        assert.match(String(res.headers['content-type']), /^text\/html/);
        if (row.status === 200) assert.match(res.body, /<h1>Dashboard<\/h1>/);
        const csv = await webGet(h, csvOf('status'), row.who as never);
        assert.equal(csv.statusCode, row.status);
        if (row.status === 200) assert.match(String(csv.headers['content-type']), /^text\/csv/);
      });
    }

    it('sends a visitor who is not signed in to the sign-in page', async () => {
      const res = await webGet(h, DASHBOARD, null);
      assert.equal(res.statusCode, 303);
    });

    it('answers an unknown program with 404 and an unknown figure with 400', async () => {
      assert.equal((await webGet(h, '/Projects/Dashboard?ProgramId=NOSUCHPROGRM', 'admin')).statusCode, 404);
      const bad = await webGet(h, csvOf('pie'), 'admin');
      assert.equal(bad.statusCode, 400);
      assert.match(String(bad.headers['content-type']), /^text\/html/);
    });
  });

  describe('figures', () => {
    it('shows every figure as an SVG image with a title and description, its table beside it, and no script or style', async () => {
      const res = await webGet(h, DASHBOARD, 'reader');
      assert.equal(res.statusCode, 200);
      const svgs = [...res.body.matchAll(/<svg role="img" aria-labelledby="([^"]+)" aria-describedby="([^"]+)"[^>]*><title id="\1">([^<]+)<\/title><desc id="\2">/g)];
      assert.deepEqual(svgs.map((m) => m[3]), [
        'Projects by status now', 'Submissions per week, last 26 weeks', 'Cycle time from submission to each status, by month',
        'Time in the current status', 'Deadlines met and missed, by month', 'Workload and throughput per person',
      ]);
      assert.equal((res.body.match(/<caption>/g) ?? []).length, 6);
      assert.doesNotMatch(res.body, /<script|style="/);
      assert.match(String(res.headers['content-security-policy']), /style-src 'self'/);
    });

    it('downloads each figure as CSV with the rows the page shows', async () => {
      const status = csvRows((await webGet(h, csvOf('status'), 'editor')).body);
      assert.deepEqual(status, [['Status', 'Projects'], ['Draft', '1'], ['Submitted', '2'], ['Approved', '2']]);
      const weeks = csvRows((await webGet(h, csvOf('submissions'), 'editor')).body);
      assert.equal(weeks.length, 27);
      // Weeks of the program's calendar (Los Angeles), whose Monday may be another than UTC's.
      assert.deepEqual(weeks.at(-1)?.[0], weekOf(h.clock.now(), 'America/Los_Angeles'));
      const total = weeks.slice(1).reduce((n, r) => n + Number(r[1]), 0);
      assert.equal(total, 4);
      const cycle = csvRows((await webGet(h, csvOf('cycle'), 'editor')).body);
      assert.deepEqual(cycle[0], ['Month', 'Status reached', 'Projects', 'Median days', '90th percentile days']);
      // A return to Draft is no milestone (the project was there before it was submitted); the resubmission is no new submission.
      // The first approval came on 31 December in Los Angeles (1 January UTC), the second in January: two months.
      assert.deepEqual(cycle.slice(1).map((r) => [r[0], r[1], r[2]]), [['2025-12', 'Approved', '1'], ['2026-01', 'Approved', '1']]);
      const deadlines = csvRows((await webGet(h, csvOf('deadlines'), 'editor')).body);
      assert.deepEqual(deadlines.slice(1).map((r) => r.slice(1)), [['Answer due', '1', '0', '0'], ['Internal check', '0', '2', '0']]);
      const reviewers = csvRows((await webGet(h, csvOf('reviewers'), 'editor')).body);
      assert.equal(reviewers[1]?.[1], '2', 'the editor, with two open projects assigned, comes first');
      assert.equal(reviewers.slice(1).reduce((n, r) => n + Number(r[2]), 0), 4, 'four moves after submission');
      const aging = csvRows((await webGet(h, csvOf('aging'), 'editor')).body);
      assert.deepEqual(aging.map((r) => r[0]), ['Status', 'Draft', 'Submitted']);
    });

    it('ages the projects in their status by whole days; days before the oldest bucket come summed into it', async () => {
      const aging = async () => Object.fromEntries(csvRows((await webGet(h, csvOf('aging'), 'editor')).body).slice(1).map((r) => [r[0], r.slice(1).map(Number)]));
      const total = (row: number[] | undefined) => (row ?? []).reduce((n, x) => n + x, 0);
      const now = await aging();
      assert.deepEqual([total(now.Draft), total(now.Submitted)], [1, 2]);
      h.clock.advance(100 * 86_400_000);
      assert.deepEqual(await aging(), { Draft: [0, 0, 0, 0, 0, 1], Submitted: [0, 0, 0, 0, 0, 2] });
      await createProject(h, 'applicant');
      assert.deepEqual(await aging(), { Draft: [1, 0, 0, 0, 0, 1], Submitted: [0, 0, 0, 0, 0, 2] }, 'a new draft today');
      h.clock.advance(20 * 86_400_000);
      assert.deepEqual(await aging(), { Draft: [0, 0, 1, 0, 0, 1], Submitted: [0, 0, 0, 0, 0, 2] }, 'the draft 20 days, the others over 90');
    });

    it('counts moves and ended deadlines within their figure\'s window, and running deadlines whatever their age', async () => {
      // After the aging test, the moves are 128 days old: past the 12 weeks of throughput, within the 12 months.
      const moves = async () => csvRows((await webGet(h, csvOf('reviewers'), 'editor')).body).slice(1).reduce((n, r) => n + Number(r[2]), 0);
      const ended = async () => csvRows((await webGet(h, csvOf('deadlines'), 'editor')).body).slice(1).map((r) => r.slice(1));
      assert.equal(await moves(), 0);
      assert.deepEqual(await ended(), [['Answer due', '1', '0', '0'], ['Internal check', '0', '2', '0']]);
      assert.equal((await h.request({ method: 'POST', url: deadline(ids[1]!, 'answer', 'Start'), as: 'admin' })).statusCode, 200);
      assert.match((await webGet(h, DASHBOARD, 'editor')).body, /Running now: Answer due: 1\./);
      h.clock.advance(400 * 86_400_000);
      assert.deepEqual(await ended(), [], 'ended more than 12 months ago');
      assert.match((await webGet(h, DASHBOARD, 'editor')).body, /Running now: Answer due: 1\./, 'still running, a year on');
    });
  });

  describe("the program calendar's time zone", () => {
    it('counts weeks in the zone of the calendar (Los Angeles), and moves the counts when an import changes the zone', async () => {
      // A Monday 03:00 UTC, after every earlier test's clock: Sunday evening in Los Angeles, so last week there.
      let at = Date.UTC(2030, 0, 7, 3);
      while (at <= h.clock.now() || new Date(at).getUTCDay() !== 1) at += 86_400_000;
      h.clock.time = at;
      await createSubmitted(h);
      const thisMonday = new Date(at).toISOString().slice(0, 10);
      const lastMonday = new Date(at - 7 * 86_400_000).toISOString().slice(0, 10);
      const weekly = async () => {
        const res = await webGet(h, csvOf('submissions'), 'editor');
        return new Map(csvRows(res.body).slice(1).map((r) => [r[0], Number(r[1])]));
      };
      const la = await weekly();
      assert.deepEqual([la.get(lastMonday), la.get(thisMonday)], [1, undefined], 'in Los Angeles the submission was on Sunday, the week before');
      assert.match((await webGet(h, DASHBOARD, 'editor')).body, /weeks start on Monday, America\/Los_Angeles/);
      // An import moves the calendar to UTC: the dashboard zones task moves the counts, every project once.
      const rows = workflowProgramRows(Date.now());
      rows.program = { ...rows.program, calendar: { ...rows.program.calendar!, timeZone: 'UTC' } };
      await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
      assert.ok(await rezoneIfMoved(h.store, IDS.program) > 0);
      assert.equal(await rezoneIfMoved(h.store, IDS.program), 0, 'nothing left to move');
      const utc = await weekly();
      assert.deepEqual([utc.get(lastMonday) ?? 0, utc.get(thisMonday)], [0, 1]);
      // The counts are what a count from scratch in the new zone gives.
      await withRaw(db, async (k) => {
        const kept = await summaries(k);
        await k.deleteFrom('dashboard_counts').execute();
        await k.deleteFrom('dashboard_facts').execute();
        await backfillSummaries(k, 2);
        assert.deepEqual(await summaries(k), kept);
      });
    });
  });
});
