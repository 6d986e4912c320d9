import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, T0, user } from '../support/fixtures.ts';

// The reads every request makes (credentials, grants, sign-in counters, programs) are cached until the change signal
// says their tables changed: a change through the same Store, through another Store on the same database (another
// instance, a CLI command) or while PostgreSQL's listening connection is down is seen by the next read.

async function seed(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.accounts.insertAgency(agency(), T0);
    await tx.accounts.insertUser(user(IDS.admin), 'hash-1', T0);
  });
}

const email = user(IDS.admin).email;

/** Reads until `check` holds, for at most `ms` (another instance's change reaches PostgreSQL listeners by NOTIFY). */
async function eventually(read: () => Promise<boolean>, ms: number): Promise<boolean> {
  // The next request comes in a later turn of the event loop, where SQLite's signal looks again.
  await new Promise((resolve) => setImmediate(resolve));
  const until = Date.now() + ms;
  for (;;) {
    if (await read()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}

forEachDialect('store: cached reads', ({ open, dialect }) => {
  it('sees a change made through the same store at once', async () => {
    const { store } = await open();
    await seed(store);
    assert.equal((await store.accounts.findUserByEmail(email))?.disabled, false);
    assert.equal((await store.accounts.findUserByEmail(email))?.disabled, false, 'a second read, from the cache');
    await store.transaction((tx) => tx.accounts.updateUser(IDS.admin, { disabled: true }, T0 + 1));
    assert.equal((await store.accounts.findUserByEmail(email))?.disabled, true);
  });

  it('sees a change made through another store on the same database', async () => {
    const opened = await open();
    const { store } = opened;
    await seed(store);
    const other = await opened.reopen();
    assert.equal((await store.accounts.findUserByEmail(email))?.passwordHash, 'hash-1');
    await other.transaction((tx) => tx.accounts.updateUser(IDS.admin, { passwordHash: 'hash-2' }, T0 + 1));
    // SQLite sees another connection's commit through data_version at the next read; PostgreSQL through NOTIFY.
    const within = dialect === 'sqlite' ? 0 : 2000;
    assert.ok(await eventually(async () => (await store.accounts.findUserByEmail(email))?.passwordHash === 'hash-2', within));
    const counted = await other.counters.countRequest('signin:user:x', 0);
    assert.equal(counted, 1);
    assert.ok(await eventually(async () => (await store.counters.peekRequestCount('signin:user:x', 0)) === 1, within));
    await other.transaction((tx) => tx.accounts.insertAgency({ id: 'AGENCY000002', customId: 'second', name: 'Second' }, T0));
    assert.ok(await eventually(async () => (await store.accounts.findAgency('second'))?.id === 'AGENCY000002', within));
  });

  it('sees a membership added or removed, through the same store or another one, at the next read of a caller\'s organizations', async () => {
    const opened = await open();
    const { store } = opened;
    await seed(store);
    const other = await opened.reopen();
    const org = { id: 'ORG000000001', agencyId: agency().id, name: 'Bright Roofs', defaults: {}, createdAt: T0, createdBy: IDS.admin };
    await store.transaction((tx) => tx.organizations.insertOrganization(org));
    assert.deepEqual(await store.organizations.organizationIdsOf(IDS.admin), []);
    assert.deepEqual(await store.organizations.organizationIdsOf(IDS.admin), [], 'a second read, from the cache');
    await store.transaction((tx) => tx.organizations.addMember(org.id, IDS.admin, 'member', T0 + 1));
    assert.deepEqual(await store.organizations.organizationIdsOf(IDS.admin), [org.id], 'added through the same store');
    // Another instance removes the member: this one's cached ids must go (PostgreSQL: the trigger of migration 040).
    await other.transaction((tx) => tx.organizations.removeMember(org.id, IDS.admin));
    const within = dialect === 'sqlite' ? 0 : 2000;
    assert.ok(await eventually(async () => (await store.organizations.organizationIdsOf(IDS.admin)).length === 0, within), 'removed through another store');
  });

  it('hands out results that cannot be changed by one caller for the next', async () => {
    const { store } = await open();
    await seed(store);
    await store.accounts.findUserByEmail(email);
    const cached = await store.accounts.findUserByEmail(email);
    assert.throws(() => {
      (cached as { disabled: boolean }).disabled = true;
    }, TypeError);
  });

  if (dialect === 'postgres') {
    it('reads the database while the listening connection is down, and again serves from the cache once it is back', async () => {
      const opened = await open();
      const { store } = opened;
      await seed(store);
      const other = await opened.reopen();
      await store.accounts.findUserByEmail(email);
      const url = (opened.config as { url: string }).url;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // Ends every listening connection on this database (both stores'); the pools' connections stay.
        await client.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`);
        await other.transaction((tx) => tx.accounts.updateUser(IDS.admin, { passwordHash: 'hash-3' }, T0 + 1));
        // Without a listener, no notification reached `store`; it must not serve its cached copy.
        assert.ok(await eventually(async () => (await store.accounts.findUserByEmail(email))?.passwordHash === 'hash-3', 2000));
        const back = await eventually(async () => {
          const { rows } = await client.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`);
          return rows[0].n >= 2;
        }, 5000);
        assert.ok(back, 'the listeners reconnect');
        await other.transaction((tx) => tx.accounts.updateUser(IDS.admin, { passwordHash: 'hash-4' }, T0 + 2));
        assert.ok(await eventually(async () => (await store.accounts.findUserByEmail(email))?.passwordHash === 'hash-4', 2000));
      } finally {
        await client.end();
      }
    });
  }
});
