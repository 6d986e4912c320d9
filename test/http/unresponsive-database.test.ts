import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/http/app.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { SqliteBinding as BetterSqlite3 } from '../../src/store/sqlite-binding.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { StoreError } from '../../src/store/store-error.ts';
import type { Store } from '../../src/store/store.ts';
import { openTestStore, type TestStore, testSecretBox } from '../support/databases.ts';
import { IDS, seedProgram, T0, user } from '../support/fixtures.ts';
import { type FreezingProxy, startFreezingProxy } from '../support/freezing-proxy.ts';
import { assertError, dataRequest, type HttpHarness, requester, startHttp } from '../support/http-harness.ts';
import { createProject, draftPath, projectState } from './http-helpers.ts';

// A database that stops answering (a SIGSTOPped PostgreSQL, a cut network) must not hang the service: readiness,
// reads and writes answer 503 in bounded time, and a refused change changes nothing. The shared test server is not
// stopped: a proxy in front of it freezes instead, keeping the connections open and passing nothing on.

/** Resolves with `work`'s result and how long it took, or fails once `limitMs` passed without an answer. */
async function timed<T>(limitMs: number, what: string, work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    const value = await Promise.race([work, late]);
    return { value, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** A Store on `db`'s database through the proxy, with the given bounds. */
async function storeThrough(db: TestStore, proxy: FreezingProxy, statementTimeoutMs: number): Promise<Store> {
  if (db.config.kind !== 'postgres') throw new Error('postgres only');
  const url = new URL(db.config.url);
  url.port = String(proxy.port);
  return createKyselyStore(await openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 4, connectTimeoutMs: 1000, statementTimeoutMs, migrate: false }), { secrets: testSecretBox() });
}

/** A second app like `h`'s (same config, clock and identities) over another store: the callers of `h`, through it. */
async function overStore(h: HttpHarness, store: Store): Promise<HttpHarness> {
  const app = await buildApp({ config: h.config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: new DatabaseBlobStore(store, h.clock) });
  return { ...h, app, store, request: requester(app, h.who), close: () => app.close() };
}

describe('a PostgreSQL that stops answering', () => {
  let db: TestStore;
  let proxy: FreezingProxy;
  before(async () => {
    db = await openTestStore('postgres');
    const url = new URL(db.config.kind === 'postgres' ? db.config.url : '');
    proxy = await startFreezingProxy(url.hostname, Number(url.port));
  });
  after(async () => {
    proxy.thaw();
    await proxy.close();
    await db.close();
  });

  it('answers /readyz, a read and a write with 503 within their bounds, and the refused write changed nothing', async () => {
    const store = await storeThrough(db, proxy, 2000);
    let direct: HttpHarness | undefined;
    let h: HttpHarness | undefined;
    try {
      // The project is made without the proxy: its 2 s statement bound and 1 s connect bound are for the frozen
      // database, and a CI machine under load took longer than that over the live one.
      direct = await startHttp(db);
      const projectId = await createProject(direct);
      h = await overStore(direct, store);
      assert.equal((await h.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      const before = await projectState(direct, projectId);
      proxy.freeze();
      const ready = await timed(10_000, '/readyz', h.app.inject({ method: 'GET', url: '/readyz' }));
      assert.equal(ready.value.statusCode, 503, ready.value.body);
      assert.match(ready.value.body, /database not reachable/);
      assert.ok(ready.ms < 4000, `/readyz took ${ready.ms} ms`);
      // The statement bound (2 s) plus the client's grace (2 s); slack for a loaded machine.
      const write = await timed(40_000, 'the write', h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Frozen' }) }));
      assertError(h, write.value, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(write.ms < 10_000, `the write took ${write.ms} ms`);
      const read = await timed(40_000, 'the read', h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' }));
      assertError(h, read.value, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(read.ms < 10_000, `the read took ${read.ms} ms`);
      proxy.thaw();
      assert.deepEqual(await projectState(direct, projectId), before, 'the refused write changed nothing');
      // Once the database answers again, so does the service: connections left broken were not kept.
      const again = await timed(20_000, 'the read after', h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' }));
      assert.equal(again.value.statusCode, 200, again.value.body);
    } finally {
      proxy.thaw();
      await h?.close();
      await direct?.close();
      await store.close();
    }
  });

  it('rolls back a change whose database stops answering midway, within the 30 s write limit, with no statement bound', async () => {
    const store = await storeThrough(db, proxy, 0);
    try {
      await seedProgram(db.store).catch(() => {});
      const change = store.transaction(async (tx) => {
        await tx.accounts.insertUser(user('USER00000099'), 'hash', T0);
        proxy.freeze();
        await tx.accounts.findUserById(IDS.admin);
      });
      const outcome = await timed(45_000, 'the change', change.then(() => null, (error: unknown) => error));
      assert.ok(outcome.value instanceof StoreError && outcome.value.code === 'TRANSACTION_TOO_LONG', String(outcome.value));
      assert.ok(outcome.ms < 33_000, `the change took ${outcome.ms} ms`);
      proxy.thaw();
      assert.equal(await db.store.accounts.findUserById('USER00000099'), null, 'the first write of the abandoned change was rolled back');
      // The pool works again: the broken connection was thrown away, not handed to the next change.
      await store.transaction(async (tx) => tx.accounts.insertUser(user('USER00000098'), 'hash', T0));
      assert.ok(await db.store.accounts.findUserById('USER00000098'));
      assert.equal(await db.store.accounts.findUserById('USER00000099'), null);
    } finally {
      proxy.thaw();
      await store.close();
    }
  });
});

describe('a SQLite database another process holds locked', () => {
  it('answers a write with 503 within the busy timeout, and /readyz (reads still work) at once', async () => {
    const db = await openTestStore('sqlite');
    const h = await startHttp(db);
    const other = new BetterSqlite3(db.config.kind === 'sqlite' ? db.config.file : '');
    try {
      const projectId = await createProject(h);
      const before = await projectState(h, projectId);
      other.exec('begin immediate');
      const write = await timed(20_000, 'the write', h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Locked' }) }));
      assertError(h, write.value, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(write.ms < 10_000, `the write took ${write.ms} ms`);
      const ready = await timed(10_000, '/readyz', h.app.inject({ method: 'GET', url: '/readyz' }));
      assert.equal(ready.value.statusCode, 200, ready.value.body);
      assert.ok(ready.ms < 2000, `/readyz took ${ready.ms} ms`);
      other.exec('rollback');
      assert.deepEqual(await projectState(h, projectId), before, 'the refused write changed nothing');
    } finally {
      other.close();
      await h.close();
      await db.close();
    }
  });
});
