import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MAX_WRITE_TRANSACTION_MS } from '../../src/store/store.ts';
import { StoreError } from '../../src/store/store-error.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, project, seedProgram, T0, user, value } from '../support/fixtures.ts';
import { TestClock } from '../support/http-harness.ts';

const CONCURRENT = 50;

forEachDialect('store: transactions, numbering and request counting', ({ open }) => {
  it(`gives ${CONCURRENT} concurrent transactions ${CONCURRENT} distinct consecutive project numbers`, async () => {
    const { store } = await open();
    await seedProgram(store);
    const numbers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => store.transaction(async (tx) => {
      const n = await tx.projects.takeProjectNumber(IDS.program);
      // A write after the take keeps each transaction open a little, so takers really overlap.
      await tx.projects.insertProject(project(`PROJECT${String(i).padStart(5, '0')}`, { number: `SOL-${String(n).padStart(5, '0')}` }));
      return n;
    })));
    assert.deepEqual([...numbers].sort((a, b) => a - b), Array.from({ length: CONCURRENT }, (_, i) => i + 1));
    assert.equal((await store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).length, CONCURRENT);
    assert.equal(await store.transaction((tx) => tx.projects.takeProjectNumber(IDS.program)), CONCURRENT + 1);
  });

  it('leaves nothing behind when the work of a transaction throws after writing', async () => {
    const { store } = await open();
    await seedProgram(store);
    const failure = new Error('boom after writing');
    const second = { id: 'AGENCY000002', customId: 'second', name: 'Second' };
    await assert.rejects(store.transaction(async (tx) => {
      await tx.accounts.insertAgency(second, T0);
      await tx.accounts.insertUser(user('USER00000009', { agencyId: second.id }), 'hash', T0);
      await tx.accounts.updateUser(IDS.admin, { name: 'Renamed' }, T0 + 1);
      assert.equal(await tx.projects.takeProjectNumber(IDS.program), 1);
      await tx.projects.insertProject(project('PROJECT00001', { number: 'SOL-00001' }));
      await tx.projects.upsertValues('PROJECT00001', IDS.form, [value(IDS.name, 'Jane')]);
      await tx.projects.insertHistory({ id: 'HIST1', projectId: 'PROJECT00001', statusId: IDS.draft, changedAt: T0, changedBy: IDS.admin, reportAs: 'normal' });
      await tx.accounts.setGrant({ userId: IDS.applicant, programId: IDS.program, role: 'applicant', sensitive: false });
      await tx.audit.write({ action: 'project.create', actorId: IDS.admin, projectId: 'PROJECT00001' }, T0, 'AUD1');
      assert.ok(await tx.projects.getProject(IDS.program, 'PROJECT00001'), 'the transaction sees its own writes');
      throw failure;
    }), (error) => error === failure);

    assert.deepEqual(await store.accounts.listAgencies(), [agency()]);
    assert.equal(await store.accounts.findUserById('USER00000009'), null);
    assert.equal((await store.accounts.findUserById(IDS.admin))?.name, user(IDS.admin).name);
    assert.equal(await store.projects.getProject(IDS.program, 'PROJECT00001'), null);
    assert.deepEqual(await store.projects.getValues('PROJECT00001', [IDS.name]), []);
    assert.deepEqual(await store.projects.getHistory('PROJECT00001'), []);
    assert.deepEqual(await store.accounts.listGrants(IDS.applicant), []);
    assert.deepEqual(await store.audit.list({}), []);
    assert.equal(await store.transaction((tx) => tx.projects.takeProjectNumber(IDS.program)), 1, 'the rolled-back number is taken again');
  });

  it(`rolls back work that ran longer than ${MAX_WRITE_TRANSACTION_MS} ms before commit with TRANSACTION_TOO_LONG (answered with a retryable SERVICE_UNAVAILABLE)`, async () => {
    const clock = new TestClock();
    const { store } = await open({ clock });
    await seedProgram(store);
    await assert.rejects(store.transaction(async (tx) => {
      await tx.projects.insertProject(project('PROJECT00001'));
      clock.advance(MAX_WRITE_TRANSACTION_MS + 1);
    }), (error) => error instanceof StoreError && error.code === 'TRANSACTION_TOO_LONG');
    assert.equal(await store.projects.getProject(IDS.program, 'PROJECT00001'), null, 'the slow transaction was rolled back');
    await store.transaction(async (tx) => {
      await tx.projects.insertProject(project('PROJECT00002'));
      clock.advance(MAX_WRITE_TRANSACTION_MS);
    });
    assert.ok(await store.projects.getProject(IDS.program, 'PROJECT00002'), 'work that took exactly the bound commits');
  });

  it('counts concurrent requests exactly, per bucket and window', async () => {
    const { store } = await open();
    const counts = await Promise.all(Array.from({ length: CONCURRENT * 2 }, () => store.counters.countRequest('key:alice', T0)));
    assert.deepEqual([...counts].sort((a, b) => a - b), Array.from({ length: CONCURRENT * 2 }, (_, i) => i + 1));
    assert.equal(await store.counters.countRequest('key:alice', T0 + 60_000), 1, 'a new window starts at one');
    assert.equal(await store.counters.countRequest('key:bob', T0), 1, 'buckets count apart');
    assert.equal(await store.transaction((tx) => tx.counters.countRequest('key:alice', T0)), CONCURRENT * 2 + 1);
  });

  it('takes counts back exactly under concurrency, never below zero, and only in its own bucket and window', async () => {
    const { store } = await open();
    await Promise.all(Array.from({ length: CONCURRENT * 2 }, () => store.counters.countRequest('signin:user:a', T0)));
    await store.counters.countRequest('signin:user:a', T0 + 60_000);
    await Promise.all(Array.from({ length: CONCURRENT }, () => store.counters.uncountRequest('signin:user:a', T0)));
    assert.equal(await store.counters.peekRequestCount('signin:user:a', T0), CONCURRENT);
    await Promise.all(Array.from({ length: CONCURRENT * 2 }, () => store.counters.uncountRequest('signin:user:a', T0)));
    assert.equal(await store.counters.peekRequestCount('signin:user:a', T0), 0, 'never below zero');
    await store.counters.uncountRequest('signin:user:nobody', T0);
    assert.equal(await store.counters.peekRequestCount('signin:user:nobody', T0), 0, 'a bucket never counted stays empty');
    assert.equal(await store.counters.peekRequestCount('signin:user:a', T0 + 60_000), 1, 'other windows are untouched');
  });

  it('sweeps request counts of windows before a given start, and answers ping', async () => {
    const { store } = await open();
    await store.ping();
    await store.counters.countRequest('key:alice', T0);
    await store.counters.countRequest('key:alice', T0);
    await store.counters.countRequest('key:alice', T0 + 60_000);
    await store.counters.sweepRequestCounts(T0 + 60_000);
    assert.equal(await store.counters.countRequest('key:alice', T0), 1, 'the swept window starts over');
    assert.equal(await store.counters.countRequest('key:alice', T0 + 60_000), 2, 'the current window is kept');
  });

  it('counts concurrent requests of two Store instances on one database exactly', async () => {
    const { store, reopen } = await open();
    const other = await reopen();
    const counts = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => (i % 2 === 0 ? store : other).counters.countRequest('ip:10.0.0.1', T0)));
    assert.deepEqual([...counts].sort((a, b) => a - b), Array.from({ length: CONCURRENT }, (_, i) => i + 1));
  });

  it('tells its listeners of each commit that wrote events, after the commit, and of nothing else', async () => {
    const { store } = await open();
    await seedProgram(store);
    await store.transaction((tx) => tx.projects.insertProject(project('PROJECT00001', { number: 'SOL-00001' })));
    const heard: number[] = [];
    const stop = store.onEventsCommitted(() => heard.push(heard.length));
    const event = (id: string) => ({
      id, type: 'project.created' as const, at: T0, agencyId: agency().id, programId: IDS.program, projectId: 'PROJECT00001',
      actorId: IDS.admin, ownerId: IDS.applicant, audience: 'all' as const, data: {},
    });
    await store.transaction(async (tx) => {
      tx.events.append(event('EVENT0000001'));
      tx.events.append(event('EVENT0000002'));
      assert.deepEqual(heard, [], 'not before the commit');
    });
    assert.deepEqual(heard, [0], 'once per transaction');
    await store.transaction((tx) => tx.projects.takeProjectNumber(IDS.program));
    await assert.rejects(store.transaction(async (tx) => {
      tx.events.append(event('EVENT0000003'));
      throw new Error('rolled back');
    }));
    assert.deepEqual(heard, [0], 'neither a transaction without events nor a rolled-back one');
    stop();
    await store.transaction(async (tx) => tx.events.append(event('EVENT0000004')));
    assert.deepEqual(heard, [0], 'not after the listener was removed');
    assert.deepEqual((await store.events.listProjectEvents('PROJECT00001')).map((e) => e.id), ['EVENT0000001', 'EVENT0000002', 'EVENT0000004']);
  });
});
