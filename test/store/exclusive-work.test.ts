import assert from 'node:assert/strict';
import { it } from 'node:test';
import { seedDemo } from '../../src/domain/programs/demo.ts';
import { DEMO_CLAIMED, seedDemoProjects } from '../../src/domain/wiring/demo-projects.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect, testSecretBox } from '../support/databases.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// Store.exclusively: start-up work that instances on one database take turns at (issue 31, G: three instances
// starting together each seeded the demo, racing, and every lost race started the seeding over).

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachDialect('store: work done exclusively across instances', ({ dialect, open }) => {
  it('runs the work and gives its result; a failure passes through and frees the lock', async () => {
    const { store } = await open();
    assert.equal(await store.exclusively('test lock', async () => 42), 42);
    await assert.rejects(store.exclusively('test lock', async () => Promise.reject(new Error('broke'))), /broke/);
    assert.equal(await store.exclusively('test lock', async () => 'again'), 'again');
  });

  // On SQLite too: processes (or stores) on one file take turns by a lock file beside it (sqlite-exclusive.ts).
  it('lets one instance at a time in; other names do not wait', async () => {
    const { store, reopen } = await open();
    const stores = [store, await reopen(), await reopen()];
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(stores.map((s, i) => s.exclusively('test lock', async () => {
      inside++;
      most = Math.max(most, inside);
      await delay(300);
      order.push(i);
      inside--;
    })));
    assert.equal(most, 1, 'never two at once');
    assert.equal(order.length, 3);
    // A lock of another name is free while this one is held.
    let otherRan = false;
    await stores[0]!.exclusively('test lock', async () => {
      await stores[1]!.exclusively('another lock', async () => {
        otherRan = true;
      });
    });
    assert.ok(otherRan);
  });

  it('seeds the demo once when three instances start together: no race lost, the others find it complete, one claim per project', async () => {
    const { store, reopen } = await open();
    let lost = 0;
    // Every lost race is a transaction rolled back on a unique violation, after which that instance started over.
    const counted = (s: Store): Store => ({
      ...s,
      transaction: (work) => s.transaction(work).catch((error: unknown) => {
        lost++;
        throw error;
      }),
    });
    const stores = [store, await reopen(), await reopen()].map(counted);
    const reports = await Promise.all(stores.map((s) => seedDemo({ store: s, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() })));
    assert.equal(lost, 0, 'no instance lost a race and started over');
    assert.equal(reports.filter((r) => r.created).length, 1, JSON.stringify(reports.map((r) => r.actions)));
    assert.equal(new Set(reports.map((r) => r.programId)).size, 1);
    // Then its sample projects and claims (src/domain/wiring/demo-projects.ts): one instance makes them, the others find them.
    const made = await Promise.all(stores.map((s) => seedDemoProjects({ store: s, clock: systemClock, ids: new RandomIdGenerator(), publicUrl: 'http://apas.test', maxNumbersPerRequest: 100 })));
    assert.equal(lost, 0, 'no instance lost a race while seeding the projects');
    assert.deepEqual(made.map((m) => m.length).sort(), [0, 0, 7], JSON.stringify(made));
    const program = (await store.programs.findProgram(reports[0]!.programId))!;
    const projects = await store.imports.findExternalIds(program.id, ['demo-1', 'demo-2', 'demo-3', 'demo-4', 'demo-5']);
    assert.equal(projects.size, 5);
    const claims = await Promise.all([...projects.values()].map((id) => store.relations.listProjectRelations(id)));
    assert.deepEqual(claims.map((c) => c.length).sort(), [0, 0, 0, 1, 1], 'one claim each for two interconnections');
  });

  it('two seedings of the demo\'s projects at once on one new database make one incentive claim per interconnection', async () => {
    const { store, reopen } = await open();
    const { programId } = await seedDemo({ store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() });
    // Two instances (two connections to one SQLite file, or two pools) starting at the same moment. Each, having found
    // that a project has no claim yet, waits up to 500 ms for the other to look too: racing, both would then make one.
    const looked = new Map<string, number>();
    const meeting = (s: Store): Store => ({
      ...s,
      relations: {
        ...s.relations,
        listProjectRelations: async (projectId) => {
          const found = await s.relations.listProjectRelations(projectId);
          looked.set(projectId, (looked.get(projectId) ?? 0) + 1);
          for (let waited = 0; looked.get(projectId)! < 2 && waited < 500; waited += 20) await delay(20);
          return found;
        },
      },
    });
    const stores = [store, await reopen()].map(meeting);
    await Promise.all(stores.map((s) => seedDemoProjects({ store: s, clock: systemClock, ids: new RandomIdGenerator(), publicUrl: 'http://apas.test', maxNumbersPerRequest: 100 })));
    const projects = await store.imports.findExternalIds(programId, [...DEMO_CLAIMED]);
    for (const [externalId, projectId] of projects) {
      assert.equal((await store.relations.listProjectRelations(projectId)).length, 1, `the claims of ${externalId}`);
    }
    assert.equal(projects.size, DEMO_CLAIMED.length);
  });

  if (dialect !== 'postgres') return;

  it('holds its lock outside the pool: work that needs the only pooled connection (APAS_PG_POOL_SIZE=1) runs', async () => {
    const { config } = await open();
    const single = createKyselyStore(await openDatabase(config, { poolSize: 1, migrate: false }), { secrets: testSecretBox() });
    try {
      const work = single.exclusively('test lock', () => single.transaction(async (tx) => tx.accounts.findAgency('nobody')));
      const late = delay(10_000).then(() => 'waited for a connection the lock holds');
      assert.equal(await Promise.race([work, late]), null);
    } finally {
      await single.close();
    }
  });
});
