import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0 } from '../support/fixtures.ts';
import { assertError, authHeaders, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { eventually } from './http-helpers.ts';

// Authentication reads credentials and grants from the read caches: a revoked key, a disabled user, a changed
// password and a removed grant must take effect with the next request on the instance that made the change, and
// on every other instance on the same database: at once on SQLite (another process's commit), within a
// notification's delay on PostgreSQL (docs/architecture.md, "Read caches").

const STATUSES = `/services/v2/Programs/${IDS.program}/Projects?limit=1`;

forEachDialect('HTTP: credential changes reach every instance', ({ open, dialect }) => {
  const within = dialect === 'sqlite' ? 0 : 2000;

  async function twoInstances(): Promise<{ h: HttpHarness; other: (who: Who, headers?: Record<string, string>) => Promise<LightMyRequestResponse>; close: () => Promise<void> }> {
    const db = await open();
    const h = await startHttp(db);
    const store = await db.reopen();
    const app = await buildApp({ config: h.config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: new DatabaseBlobStore(store, h.clock) });
    const other = (who: Who, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: STATUSES, headers: { ...authHeaders(h.who[who]), ...headers } });
    return { h, other, close: async () => {
      await app.close();
      await h.close();
    } };
  }

  it('a revoked key, a disabled user and a removed grant are refused by the other instance', async () => {
    const { h, other, close } = await twoInstances();
    try {
      for (const who of ['editor', 'reader', 'programAdmin'] as const) {
        assert.equal((await other(who)).statusCode, 200);
        assert.equal((await other(who)).statusCode, 200, 'served from the caches');
      }
      await h.store.transaction((tx) => tx.accounts.revokeApiKey(`KEY${h.who.editor.id.slice(-9)}`, T0 + 1));
      assertError(h, await eventually(() => other('editor'), 401, within), 401, 'INVALID_CREDENTIALS');
      await h.store.transaction((tx) => tx.accounts.updateUser(h.who.reader.id, { disabled: true }, T0 + 1));
      assertError(h, await eventually(() => other('reader'), 401, within), 401, 'INVALID_CREDENTIALS');
      await h.store.transaction((tx) => tx.accounts.deleteGrant(h.who.programAdmin.id, IDS.program));
      assertError(h, await eventually(() => other('programAdmin'), 403, within), 403, 'FORBIDDEN');
    } finally {
      await close();
    }
  });

  it('a changed password is refused by the instance that changed it at once, and by the other', async () => {
    const { h, other, close } = await twoInstances();
    try {
      const asAdmin = () => h.request({ method: 'GET', url: STATUSES, as: 'admin' });
      assert.equal((await asAdmin()).statusCode, 200);
      assert.equal((await other('admin')).statusCode, 200);
      const { hashSecret } = await import('../../src/domain/accounts/secrets.ts');
      const passwordHash = await hashSecret('a new password of the admin');
      await h.store.transaction((tx) => tx.accounts.updateUser(h.who.admin.id, { passwordHash }, T0 + 1));
      assertError(h, await asAdmin(), 401, 'INVALID_CREDENTIALS');
      assertError(h, await eventually(() => other('admin'), 401, within), 401, 'INVALID_CREDENTIALS');
    } finally {
      await close();
    }
  });
});
