import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { compileOnce } from '../../src/store/compile-once.ts';
import type { DatabaseConfig } from '../../src/config.ts';
import { type OpenDatabase, type OpenOptions, openDatabase } from '../../src/store/database.ts';
import type { Database } from '../../src/store/tables.ts';
import { isTransientDbError } from '../../src/store/transient-db-error.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, T0, user } from '../support/fixtures.ts';

// A second handle on the test's database, as another instance would open it, closed again after `work`.
async function withOpened<T>(config: DatabaseConfig, options: OpenOptions, work: (opened: OpenDatabase) => Promise<T>): Promise<T> {
  const opened = await openDatabase(config, options);
  try {
    return await work(opened);
  } finally {
    await opened.changes.close();
    await opened.db.destroy();
  }
}

// compileOnce compiles a query the first time and then only binds new values: each call must still answer for its
// own values, on both databases, and a builder that does not bind a parameter as a value is refused.
forEachDialect('store: queries compiled once', ({ open, dialect }) => {
  it('answers each call with its own values, constants kept', async () => {
    const { store, config } = await open();
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(IDS.admin), 'hash-1', T0);
      await tx.accounts.insertUser(user(IDS.applicant, { disabled: true }), 'hash-2', T0);
    });
    await withOpened(config, {}, async (opened) => {
      const byId = compileOnce((db: Kysely<Database>, id: string, disabled: number) =>
        db.selectFrom('users').select(['id', 'email']).where('id', '=', id).where('disabled', '=', disabled).where('agency_id', '=', IDS.agency));
      assert.deepEqual(await byId(opened.db, IDS.admin, 0), [{ id: IDS.admin, email: user(IDS.admin).email }]);
      assert.deepEqual(await byId(opened.db, IDS.applicant, 1), [{ id: IDS.applicant, email: user(IDS.applicant).email }]);
      assert.deepEqual(await byId(opened.db, IDS.applicant, 0), []);
      const among = compileOnce((db: Kysely<Database>, ...ids: string[]) => db.selectFrom('users').select('id').where('id', 'in', ids).orderBy('id'));
      assert.deepEqual(await among(opened.db, IDS.applicant), [{ id: IDS.applicant }], 'one id');
      assert.deepEqual(await among(opened.db, IDS.admin, IDS.applicant, 'nobody'), [{ id: IDS.admin }, { id: IDS.applicant }], 'three ids: a shape of its own');
      assert.deepEqual(await among(opened.db, IDS.admin), [{ id: IDS.admin }], 'the one-id shape again');
      const literal = compileOnce((db: Kysely<Database>, id: string) => db.selectFrom('users').select('id').where('id', '=', sql.lit(id)));
      await assert.rejects(literal(opened.db, IDS.admin), /every parameter must be bound once/);
    });
  });

  // On PostgreSQL each connection keeps a compiled read prepared (statement-names.ts), so the server parses and plans
  // it once; any other statement runs unnamed. APAS_DB_PREPARED_STATEMENTS=false (preparedStatements) names none.
  it('keeps a compiled read prepared on PostgreSQL, unless told not to', async (t) => {
    if (dialect !== 'postgres') return void t.diagnostic('SQLite caches every prepared statement itself (database.ts)');
    const { store, config } = await open();
    await store.transaction((tx) => tx.accounts.insertAgency(agency(), T0));
    const byId = compileOnce((db: Kysely<Database>, id: string) => db.selectFrom('agencies').select('id').where('id', '=', id));
    const prepared = (db: Kysely<Database>) => sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'apas\_%'`.execute(db).then((r) => r.rows.map((row) => row.statement));
    for (const preparedStatements of [true, false]) {
      await withOpened(config, { poolSize: 1, migrate: false, preparedStatements }, async (opened) => {
        for (let i = 0; i < 3; i++) assert.deepEqual(await byId(opened.db, IDS.agency), [{ id: IDS.agency }]);
        await sql`select 1`.execute(opened.db);
        const kept = await prepared(opened.db);
        if (preparedStatements) {
          assert.equal(kept.length, 1, 'the one compiled read, once');
          assert.match(kept[0]!, /^\/\* apas:prepared \*\/ select "id" from "agencies"/);
        } else {
          assert.deepEqual(kept, []);
        }
        // A change step's bounded handle shares the names: the same text runs under the same name there.
        await opened.bounded(5_000).transaction().execute(async (tx) => assert.deepEqual(await byId(tx, IDS.agency), [{ id: IDS.agency }]));
        assert.equal((await prepared(opened.db)).length, preparedStatements ? 1 : 0);
      });
    }
  });

  // Another process migrating under a running instance changes a table a kept statement reads with `select *`: that
  // statement can never run again on its connection, so the connection goes (a retryable 503) and the next prepares anew.
  it('drops a connection whose kept statement a schema change made stale, and the next read prepares it again', async (t) => {
    if (dialect !== 'postgres') return void t.diagnostic('PostgreSQL only: SQLite prepares again by itself');
    const { store, config } = await open();
    await store.transaction((tx) => tx.accounts.insertAgency(agency(), T0));
    await withOpened(config, { poolSize: 1, migrate: false }, async (opened) => {
      const everything = compileOnce((db: Kysely<Database>, id: string) => db.selectFrom('agencies').selectAll().where('id', '=', id));
      assert.equal((await everything(opened.db, IDS.agency)).length, 1);
      await sql`alter table agencies add column added_by_another_process text`.execute(opened.db);
      const stale = await everything(opened.db, IDS.agency).then(() => null, (error: unknown) => error);
      assert.ok(stale instanceof Error && isTransientDbError(stale), `a retryable error, not ${String(stale)}`);
      assert.match(stale.message, /tables changed under a prepared statement/);
      const [row] = await everything(opened.db, IDS.agency);
      assert.equal(row?.id, IDS.agency);
      assert.ok(row !== undefined && 'added_by_another_process' in row, 'the new connection prepared the statement over the new shape');
    });
  });
});
