import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { ProjectQuery } from '../../src/model/records.ts';
import { systemClock } from '../../src/model/clock.ts';
import { GroupPlans } from '../../src/store/access-group-plan.ts';
import { openDatabase } from '../../src/store/database.ts';
import { findListingsByNumbersJson, listProjectListingsJson } from '../../src/store/listing-page-json.ts';
import { findListingsByNumbers, listProjectListings } from '../../src/store/project-queries.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, project, seedProgram, T0 } from '../support/fixtures.ts';

// GetProjects' page read as one JSON text built by the database (listing-page-json.ts) must be the page the rows read
// gives (listProjectListings in project-queries.ts): same projects, same order, same columns, for every kind of page.

const N = 40;
const GROUPS = (i: number) => [...(i % 9 === 2 ? ['few'] : []), ...(i % 2 === 0 ? ['half'] : [])];

async function load(store: Store): Promise<void> {
  await seedProgram(store);
  await store.transaction(async (tx) => {
    for (let i = 0; i < N; i++) {
      // Ids run against creation order and pairs share a creation time, so ties are broken by id; some have a number.
      const p = project(`PROJECT${String(500 - i).padStart(5, '0')}`, {
        createdAt: T0 + Math.floor(i / 2) * 1000, updatedAt: T0 + ((i * 7) % 25) * 400, statusAt: T0 + i,
        statusId: i % 3 === 1 ? IDS.submitted : IDS.draft, number: i % 4 === 0 ? `SOL-${String(i).padStart(5, '0')}` : null,
        ownerId: i % 5 === 0 ? IDS.admin : IDS.applicant,
      });
      await tx.projects.insertProject(p);
      await tx.projects.setProjectAccessGroups(IDS.program, p.id, GROUPS(i), []);
    }
  });
}

/** Counts the statements run through a Kysely instance, and the rows each returned. */
class Counter implements KyselyPlugin {
  rows: number[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode { return args.node; }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows.push(args.result.rows.length);
    return args.result;
  }
}

forEachDialect('store: project pages as one JSON text', ({ dialect, open }) => {
  it('reads the same page as the rows read: offsets, after, changed_since, owners, access groups, empty pages, by number', async () => {
    const opened = await open();
    await load(opened.store);
    const { db } = await openDatabase(opened.config, { migrate: false });
    try {
      const base: ProjectQuery = { programId: IDS.program, limit: 101, offset: 0 };
      const all = await listProjectListings(db, base);
      assert.equal(all.length, N);
      const mid = all[17]!;
      const pages: ProjectQuery[] = [
        base, { ...base, limit: 7 }, { ...base, limit: 7, offset: 5 }, { ...base, offset: N - 3 }, { ...base, offset: N + 5 }, { ...base, limit: 0 },
        { ...base, programId: 'no-such-program' },
        { ...base, limit: 6, after: { createdAt: mid.createdAt, id: mid.id } }, { ...base, after: { createdAt: all.at(-1)!.createdAt, id: all.at(-1)!.id } },
        { ...base, changedSince: T0 + 6000 }, { ...base, changedSince: T0 + 6000, limit: 3, offset: 2 }, { ...base, changedSince: T0 + 99_000 },
        { ...base, owner: { ownerId: IDS.applicant, organizationIds: [] } }, { ...base, owner: { ownerId: IDS.admin, organizationIds: [] }, limit: 3, offset: 1 },
        ...(['probe', 'members', 'drive'] as const).flatMap((groupPlan) => [['few'], ['half'], ['few', 'half'], ['nowhere']].flatMap((groups) => {
          const q: ProjectQuery = { ...base, owner: { ownerId: null, organizationIds: [], groups }, tuning: { groupPlan } };
          return [q, { ...q, limit: 2, offset: 1 }, { ...q, limit: 4, after: { createdAt: mid.createdAt, id: mid.id } }, { ...q, changedSince: T0 + 6000 }];
        })),
      ];
      for (const q of pages) {
        const rows = await listProjectListings(db, q);
        assert.deepEqual(await listProjectListingsJson(db, q), rows, JSON.stringify(q));
        assert.deepEqual(await opened.store.projects.listProjectListings(q), rows, `through the store: ${JSON.stringify(q)}`);
      }
      assert.ok(all.some((p) => p.number === null) && all.some((p) => p.number !== null), 'numbers both null and set are listed');
      // GetProjectsByNumber: the numbers in any order, repeated or unknown; an owner's; none.
      const numbers = all.flatMap((p) => (p.number ? [p.number] : [])).reverse();
      const staffInGroup = { ownerId: null, organizationIds: [], groups: ['half'] };
      for (const [asked, owner] of [
        [numbers, undefined], [[numbers[3]!, 'SOL-99999', numbers[3]!, numbers[0]!], undefined], [numbers, { ownerId: IDS.admin, organizationIds: [] }],
        [numbers, staffInGroup], [['SOL-99999'], undefined], [[], undefined],
      ] as const) {
        const rows = await findListingsByNumbers(db, IDS.program, [...asked], owner);
        assert.deepEqual(await findListingsByNumbersJson(db, IDS.program, [...asked], owner), rows, `by number: ${asked.join(',')} ${JSON.stringify(owner)}`);
        assert.deepEqual(await opened.store.projects.findListingsByNumbers(IDS.program, [...asked], owner), rows);
      }
      assert.equal((await findListingsByNumbers(db, IDS.program, numbers)).length, N / 4);
    } finally {
      await db.destroy();
    }
  });

  it('reads a page in one statement of one row once the plan caches are warm', async () => {
    const opened = await open();
    await load(opened.store);
    const { db } = await openDatabase(opened.config, { migrate: false });
    try {
      const counter = new Counter();
      const counted = db.withPlugin(counter);
      const pages: ProjectQuery[] = [
        { programId: IDS.program, limit: 21, offset: 0 }, { programId: IDS.program, limit: 21, offset: 10 },
        { programId: IDS.program, limit: 21, offset: 0, after: { createdAt: T0, id: 'PROJECT00500' } },
        { programId: IDS.program, limit: 21, offset: 0, owner: { ownerId: null, organizationIds: [], groups: ['few'] } },
      ];
      // The access groups' plan is counted once and kept by the store's GroupPlans, as the store's own reads do.
      const plans = new GroupPlans(systemClock);
      for (const q of pages) {
        await listProjectListingsJson(counted, await plans.pageQuery(counted, q));
        counter.rows = [];
        const page = await listProjectListingsJson(counted, await plans.pageQuery(counted, q));
        assert.ok(page.length > 1, JSON.stringify(q));
        assert.deepEqual(counter.rows, [1], `one statement, one row: ${JSON.stringify(q)}`);
      }
      // PostgreSQL counts a poll's changes first (few are read by the last-change index): that count and the page.
      counter.rows = [];
      await listProjectListingsJson(counted, { programId: IDS.program, limit: 21, offset: 0, changedSince: T0 + 6000 });
      assert.deepEqual(counter.rows, dialect === 'postgres' ? [1, 1] : [1]);
    } finally {
      await db.destroy();
    }
  });
});
