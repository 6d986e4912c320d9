import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Project } from '../../src/model/model.ts';
import type { OwnerScope, ProjectQuery, SearchTuning } from '../../src/model/records.ts';
import { GROUP_PLAN_TTL_MS, GroupPlans, planGroupPage, planGroups } from '../../src/store/access-group-plan.ts';
import { openDatabase } from '../../src/store/database.ts';
import { ATTENTION } from '../../src/store/queue-view-queries.ts';
import type { Store } from '../../src/store/store.ts';
import type { QueueKey, WorkQueueQuery } from '../../src/store/work-queue-queries.ts';
import { forEachDialect, onDatabase, type TestStore } from '../support/databases.ts';
import { IDS, project, seedProgram, T0, value } from '../support/fixtures.ts';

// A list read by a staff caller limited to access groups runs one of three plans: probing each project it walks in
// its own order; for a group holding few of the program's projects, testing each against a set of the members read
// once; or (a deep page) reading the members and sorting them. `tuning.groupPlan` forces each, so every read below
// runs all three ways against what it must find; the last test checks which plan the store picks by itself.

const N = 80;
/** Each project's groups: `tiny` 2 projects, `small` 7, `large` half, `other` a third, overlapping `large`. */
function groupsOf(i: number): string[] {
  const out: string[] = [];
  if (i === 13 || i === 70) out.push('tiny');
  if (i % 11 === 4) out.push('small');
  if (i % 2 === 0) out.push('large');
  if (i % 3 === 0) out.push('other');
  return out;
}

interface Row { p: Project; groups: string[]; reply: boolean; kw: number }

function rowOf(i: number): Row {
  // Ids run against creation order and two projects share each creation time, so order ties are broken by id.
  const p = project(`PROJECT${String(1000 - i).padStart(5, '0')}`, {
    createdAt: T0 + Math.floor(i / 2) * 1000, updatedAt: T0 + ((i * 7) % 30) * 500, statusId: i % 3 === 1 ? IDS.submitted : IDS.draft,
  });
  return { p, groups: groupsOf(i), reply: i % 4 === 1, kw: i % 10 };
}

const ROWS = Array.from({ length: N }, (_, i) => rowOf(i));

async function load(store: Store): Promise<void> {
  await seedProgram(store);
  await store.transaction(async (tx) => {
    for (const r of ROWS) {
      await tx.projects.insertProject(r.p);
      await tx.projects.upsertValues(r.p.id, IDS.form, [value(IDS.kw, String(r.kw))]);
      await tx.projects.setProjectAccessGroups(IDS.program, r.p.id, r.groups, []);
      if (r.reply) await tx.queueViews.keepQueueAttention(r.p.id, { applicantAt: null, reply: true, recountFiles: false, recountDeadlines: null });
    }
  });
}

/** The caller's groups of each case: a small group, a large one, two overlapping ones (a project in both counts once), none of the program's. */
const SCOPES: string[][] = [['small'], ['large'], ['small', 'other'], ['large', 'other'], ['nowhere']];
const PLANS: SearchTuning[] = [{ groupPlan: 'members' }, { groupPlan: 'drive' }, { groupPlan: 'probe' }];

const scope = (groups: string[]): OwnerScope => ({ ownerId: null, organizationIds: [], groups });
const inScope = (groups: string[]) => (r: Row) => r.groups.some((g) => groups.includes(g));
const byCreation = (a: Project, b: Project) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
const ids = (ps: { id: string }[]) => ps.map((p) => p.id);

forEachDialect('store: access-group plans (driven by a small group\'s members, or probing each project walked)', ({ dialect, open }) => {
  let opened: TestStore;

  it('GetProjects finds the same projects in creation order with either plan: offsets, keyset pages, changed_since', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    const since = T0 + 7000;
    for (const groups of SCOPES) {
      const expected = ROWS.filter(inScope(groups)).map((r) => r.p).sort(byCreation);
      const changed = expected.filter((p) => p.updatedAt > since);
      for (const tuning of PLANS) {
        const base: ProjectQuery = { programId: IDS.program, owner: scope(groups), limit: 100, offset: 0, tuning };
        const at = `${groups.join('+')}, ${tuning.groupPlan}`;
        for (const [limit, offset] of [[100, 0], [3, 0], [4, 2], [10, expected.length - 2], [5, expected.length + 3], [0, 0]] as const) {
          const page = { ...base, limit, offset: Math.max(0, offset) };
          const want = ids(expected.slice(page.offset, page.offset + limit));
          assert.deepEqual(ids(await store.projects.listProjectListings(page)), want, `${at}, limit ${limit} offset ${offset}`);
          assert.deepEqual(ids(await store.projects.listProjects(page)), want, `${at}, listProjects limit ${limit} offset ${offset}`);
        }
        assert.deepEqual(ids(await store.projects.listProjectListings({ ...base, changedSince: since })), ids(changed), `${at}, changed_since`);
        // Keyset pages of 3 (`after` the last row), through every project in scope.
        const seen: string[] = [];
        let after: ProjectQuery['after'];
        for (let n = 0; n < N; n++) {
          const page = await store.projects.listProjectListings({ ...base, limit: 3, ...(after ? { after } : {}) });
          seen.push(...ids(page));
          if (page.length < 3) break;
          after = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id };
        }
        assert.deepEqual(seen, ids(expected), `${at}, keyset pages`);
      }
    }
  });

  it('the work queue pages by keyset through the same projects in its order, and counts them, with either plan', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    const filters: [string, Partial<WorkQueueQuery>, (r: Row) => boolean][] = [
      ['no filter', {}, () => true],
      ['a status', { statusIn: [IDS.submitted] }, (r) => r.p.statusId === IDS.submitted],
      ['needs attention', { attention: { kinds: ['reply'] } }, (r) => r.reply],
    ];
    for (const groups of SCOPES) {
      for (const [name, filter, matches] of filters) {
        for (const [sort, direction] of [['updated', 'desc'], ['created', 'asc'], ['due', 'asc']] as const) {
          const order = sort === 'updated' ? (a: Project, b: Project) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1) : byCreation;
          // Without deadlines the due order is the id order, every project past every due time.
          const expected = ROWS.filter((r) => inScope(groups)(r) && matches(r)).map((r) => r.p).sort(sort === 'due' ? (a, b) => (a.id < b.id ? -1 : 1) : order);
          const pages: string[][] = [];
          const counts: number[][] = [];
          for (const tuning of PLANS) {
            const at = `${groups.join('+')}, ${name}, ${sort} ${direction}, ${tuning.groupPlan}`;
            const seen: string[] = [];
            let after: QueueKey | undefined;
            for (let n = 0; n < N; n++) {
              const q: WorkQueueQuery = { programId: IDS.program, fields: [], groups, sort, direction, limit: 4, tuning, ...filter, ...(after ? { after } : {}) };
              const rows = await store.projects.workQueuePage(q);
              seen.push(...rows.map((r) => r.project.id));
              if (rows.length < 4) break;
              after = { at: rows.at(-1)!.at, id: rows.at(-1)!.project.id };
            }
            assert.deepEqual(seen, ids(expected), at);
            pages.push(seen);
            const count = (bound: number) => store.projects.countWorkQueue({ programId: IDS.program, fields: [], groups, tuning, ...filter }, bound);
            counts.push([await count(2), await count(1000)]);
            assert.deepEqual(counts.at(-1), [Math.min(expected.length, 3), expected.length], `${at}, counts bounded at 2 and 1000`);
          }
          assert.deepEqual(pages[1], pages[0]);
          assert.deepEqual(pages[2], pages[0]);
        }
      }
    }
  });

  it('the needs-attention counts of every kind, read together, are those of each kind counted alone, with either plan', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    // Every combination of the kept bits over the projects (0 for every fifth), written as the change step keeps them.
    const bitsOf = (i: number) => (i % 5 === 0 ? 0 : (i * 7) % 32);
    const { db } = await openDatabase(opened.config, 1);
    try {
      for (const [i, r] of ROWS.entries()) await db.updateTable('projects').set({ attention: bitsOf(i) }).where('id', '=', r.p.id).execute();
    } finally {
      await db.destroy();
    }
    const masks = { any: 31, reply: ATTENTION.reply, files: ATTENTION.files, deadline: ATTENTION.overdue | ATTENTION.near, connection: ATTENTION.connection } as const;
    for (const groups of [...SCOPES, undefined]) {
      const inGroups = ROWS.map((r, i) => ({ r, bits: bitsOf(i) })).filter(({ r }) => groups === undefined || inScope(groups)(r));
      for (const tuning of [...PLANS, undefined]) {
        for (const bound of [2, 5, 1000]) {
          const at = `${groups?.join('+') ?? 'every project'}, ${tuning?.groupPlan ?? 'planned'}, bound ${bound}`;
          const counts = await store.projects.countAttentionKinds({ programId: IDS.program, ...(groups ? { groups } : {}), ...(tuning ? { tuning } : {}) }, bound);
          const expected = Object.fromEntries(Object.entries(masks).map(([k, m]) => [k, Math.min(inGroups.filter((x) => (x.bits & m) !== 0).length, bound + 1)]));
          assert.deepEqual(counts, expected, at);
          for (const kind of ['reply', 'files', 'deadline', 'connection'] as const) {
            const alone = await store.projects.countWorkQueue({ programId: IDS.program, fields: [], ...(groups ? { groups } : {}), ...(tuning ? { tuning } : {}), attention: { kinds: [kind] } }, bound);
            assert.equal(alone, expected[kind], `${at}, ${kind} alone`);
          }
        }
      }
    }
  });

  it('a search limited to access groups finds the same projects with either plan, walking or driven by its filter', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    const kwAbove = (n: number) => ({ fieldId: IDS.kw, kind: 'number' as const, op: 'gt' as const, content: String(n), number: n });
    for (const groups of SCOPES) {
      const expected = ROWS.filter((r) => inScope(groups)(r) && r.kw > 3).map((r) => r.p).sort(byCreation);
      for (const plan of PLANS) {
        for (const tuning of [{ ...plan, broadAt: 1 }, { ...plan, broadAt: 1, walkWindow: 5 }, { ...plan, broadAt: 1_000_000 }]) {
          for (const [limit, offset] of [[100, 0], [3, 2], [5, expected.length - 1]] as const) {
            const found = await store.projects.searchProjects({ programId: IDS.program, owner: scope(groups), statusDates: [], fields: [kwAbove(3)], limit, offset: Math.max(0, offset), tuning });
            assert.deepEqual(ids(found), ids(expected.slice(Math.max(0, offset), Math.max(0, offset) + limit)), `${groups.join('+')}, ${JSON.stringify(tuning)}, limit ${limit} offset ${offset}`);
          }
        }
      }
    }
  });

  it('the store reads a group holding few of the program\'s projects from its members, and a broad one by probing', async () => {
    opened = await open();
    await load(opened.store);
    const { db } = await openDatabase(opened.config, 1);
    try {
      // 2 of 80 projects (under one in 20): a set of the members; 7 of 80 and 40 of 80: probing; no member at all: members.
      assert.equal(await planGroups(db, IDS.program, ['tiny']), 'members');
      assert.equal(await planGroups(db, IDS.program, ['small']), 'probe');
      assert.equal(await planGroups(db, IDS.program, ['large']), 'probe');
      assert.equal(await planGroups(db, IDS.program, ['tiny', 'small']), 'probe', 'the memberships of every group count');
      assert.equal(await planGroups(db, IDS.program, ['nowhere']), 'members');
      assert.equal(await planGroups(db, IDS.program, []), 'probe');
      assert.equal(await planGroups(db, IDS.program, ['large'], { groupPlan: 'members' }), 'members', 'tuning forces a plan');
      // A page that a walk would reach only after more projects than the members number is driven by them (on
      // SQLite; PostgreSQL's walk tests a hashed set of them instead, cheaper than its driven plan).
      assert.equal(await planGroupPage(db, IDS.program, ['tiny'], 100), dialect === 'sqlite' ? 'drive' : 'members');
      assert.equal(await planGroupPage(db, IDS.program, ['large'], 100), 'probe');
      // Which plan each read ran, seen from outside: a membership row filed under another program is read by a probe
      // (which looks the project up by id) but not from the program's members. Project 1 gets one in `tiny` and `large`.
      const stray = ROWS[1]!.p.id;
      await db.insertInto('project_access_groups').values([{ project_id: stray, group_id: 'tiny', program_id: 'STRAY' }, { project_id: stray, group_id: 'large', program_id: 'STRAY' }]).execute();
    } finally {
      await db.destroy();
    }
    const { store } = opened;
    for (const [group, plan] of [['tiny', 'members'], ['large', 'probe']] as const) {
      const at = `${group} (${plan})`;
      const inGroup = ROWS.filter(inScope([group])).map((r) => r.p.id);
      const want = plan === 'members' ? inGroup.length : inGroup.length + 1;
      const listed = await store.projects.listProjectListings({ programId: IDS.program, owner: scope([group]), limit: 100, offset: 0 });
      assert.equal(listed.length, want, `${at}: GetProjects`);
      const queue = await store.projects.workQueuePage({ programId: IDS.program, fields: [], groups: [group], sort: 'created', direction: 'asc', limit: 100 });
      assert.equal(queue.length, want, `${at}: the work queue`);
      assert.equal(await store.projects.countWorkQueue({ programId: IDS.program, fields: [], groups: [group] }, 1000), want, `${at}: its count`);
      const found = await store.projects.searchProjects({ programId: IDS.program, owner: scope([group]), statusDates: [], fields: [], statusIn: [IDS.draft, IDS.submitted], limit: 100, offset: 0 });
      assert.equal(found.length, want, `${at}: a search`);
    }
  });
});

forEachDialect('store: access-group plans are kept a minute by the store\'s clock', ({ open }) => {
  it('a group that grows keeps its counted plan until the store\'s clock has moved a minute, then is counted again', async () => {
    let now = T0;
    const { store, config } = await open({ clock: { now: () => now } });
    await load(store);
    const listed = async () => (await store.projects.listProjectListings({ programId: IDS.program, owner: scope(['tiny']), limit: 100, offset: 0 })).length;
    const queued = async () => (await store.projects.workQueuePage({ programId: IDS.program, fields: [], groups: ['tiny'], sort: 'created', direction: 'asc', limit: 100 })).length;
    assert.equal(await listed(), 2, 'tiny holds 2 of 80 projects: read from its members');
    assert.equal(await queued(), 2);
    // `tiny` grows to 41 of the 80 projects (past one in 20: probing, once counted again), and gets a stray membership
    // filed under another program, which only a probe (looking each project up by id) sees.
    const grown = ROWS.filter((r) => r.groups.includes('large') && !r.groups.includes('tiny')).map((r) => r.p.id);
    const stray = ROWS[1]!.p.id;
    await onDatabase(config, (db) => db.insertInto('project_access_groups').values([
      ...grown.map((id) => ({ project_id: id, group_id: 'tiny', program_id: IDS.program })), { project_id: stray, group_id: 'tiny', program_id: 'STRAY' },
    ]).execute());
    now += GROUP_PLAN_TTL_MS - 1;
    assert.equal(await listed(), 41, 'the kept plan reads the members still');
    assert.equal(await queued(), 41);
    now += 1;
    assert.equal(await listed(), 42, 'counted again a minute later: probing');
    assert.equal(await queued(), 42);
  });

  it('GroupPlans keeps each program\'s and groups\' count apart, a minute by its clock', async () => {
    let now = T0;
    const { store, config } = await open();
    await load(store);
    const plans = new GroupPlans({ now: () => now });
    await onDatabase(config, async (db) => {
      assert.equal(await plans.plan(db, IDS.program, ['tiny']), 'members');
      assert.equal(await plans.plan(db, IDS.program, ['small']), 'probe');
      await db.insertInto('project_access_groups').values(ROWS.filter((r) => r.groups.includes('large') && !r.groups.includes('tiny')).map((r) => ({ project_id: r.p.id, group_id: 'tiny', program_id: IDS.program }))).execute();
      now += GROUP_PLAN_TTL_MS - 1;
      assert.equal(await plans.plan(db, IDS.program, ['tiny']), 'members', 'kept');
      assert.equal(await planGroups(db, IDS.program, ['tiny']), 'probe', 'planGroups counts afresh');
      now += 1;
      assert.equal(await plans.plan(db, IDS.program, ['tiny']), 'probe', 'expired and counted again');
    });
  });
});
