import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import pg from 'pg';
import { ChangeCounts, WriteWatchPlugin } from '../../src/store/change-signal.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, T0, user } from '../support/fixtures.ts';

// When a key was last used or a user last signed in (migration 048) is written once a minute per active key; it
// changes nothing a cache holds, so neither this process's write watch nor PostgreSQL's notifications may call the
// credentials stale for it, or every instance's credentials caches would empty once a minute per key.

it('this process\'s write watch counts no change of credentials for an update that sets only usage marks', async () => {
  const counts = new ChangeCounts();
  const db = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new SqliteIntrospector(k), createQueryCompiler: () => new SqliteQueryCompiler() },
    plugins: [new WriteWatchPlugin(counts)],
  });
  await db.updateTable('api_keys').set({ last_used_at: 1 }).where('id', '=', 'K').execute();
  await db.updateTable('oauth_clients').set({ last_used_at: 1 }).where('id', '=', 'C').execute();
  await db.updateTable('users').set({ last_sign_in_at: 1 }).where('id', '=', 'U').execute();
  assert.equal(counts.of('credentials'), 0);
  await db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', 'K').execute();
  assert.equal(counts.of('credentials'), 1, 'a revocation is a change');
  await db.updateTable('users').set({ last_sign_in_at: 2, disabled: 1 }).where('id', '=', 'U').execute();
  assert.equal(counts.of('credentials'), 2, 'an update that sets a mark and more is a change');
});

forEachDialect('store: usage marks', ({ open, dialect }) => {
  if (dialect !== 'postgres') return;
  it('notify no instance on PostgreSQL, while a revocation does', async () => {
    const opened = await open();
    const { store } = opened;
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(IDS.admin), 'hash', T0);
      await tx.accounts.insertApiKey({ id: 'KEY1', userId: IDS.admin, name: 'k', secretHash: 's', createdAt: T0, revokedAt: null });
    });
    const client = new pg.Client({ connectionString: (opened.config as { url: string }).url });
    await client.connect();
    const heard: string[] = [];
    client.on('notification', (m) => heard.push(m.payload ?? ''));
    await client.query('listen apas_changes');
    try {
      await store.sessions.markApiKeyUsed('KEY1', T0 + 1);
      await store.sessions.recordSignIn(IDS.admin, T0 + 1);
      // A notification of a commit arrives within milliseconds; a round trip on the listening connection flushes it.
      await new Promise((r) => setTimeout(r, 300));
      await client.query('select 1');
      assert.deepEqual(heard, []);
      await store.transaction((tx) => tx.accounts.revokeApiKey('KEY1', T0 + 2));
      await new Promise((r) => setTimeout(r, 300));
      await client.query('select 1');
      assert.deepEqual(heard, ['credentials']);
    } finally {
      await client.end();
    }
  });
});
