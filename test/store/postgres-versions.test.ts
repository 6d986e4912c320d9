import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import type { Store } from '../../src/store/store.ts';
import { testSecretBox } from '../support/databases.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../support/embedded-postgres.ts';
import { attr, type HttpHarness, startHttp } from '../support/http-harness.ts';
import { createSubmitted, projectPath } from '../http/http-helpers.ts';

// apas supports PostgreSQL 16 to 18 (docs/operations.md, "Several instances"). The whole suite runs on the test run's
// embedded server (18); this file migrates a new database on PostgreSQL 16 and takes a project through a submission,
// a read and the change feed there, so a statement or a migration that needs a newer server fails here.

describe('PostgreSQL 16 (the oldest major version apas supports)', () => {
  let server: EmbeddedPostgres;
  let store: Store;
  let h: HttpHarness;
  before(async () => {
    server = await startEmbeddedPostgres({ package: 'embedded-postgres-16' });
    const opened = await openDatabase({ kind: 'postgres', url: server.url }, { poolSize: 4 });
    store = createKyselyStore(opened, { secrets: testSecretBox() });
    h = await startHttp({ store, config: { kind: 'postgres', url: server.url }, reopen: async () => store, close: async () => {} });
  });
  after(async () => {
    await h?.close();
    await store?.close();
    await server?.stop();
  });

  it('is a 16 server', () => {
    assert.match(server.version, /^16\./);
  });

  it('takes a project through submission, a read and the change feed', async () => {
    const { projectId, number } = await createSubmitted(h, 'applicant');
    const read = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Data`, as: 'admin' });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(attr(read.body, 'Project', 'ProjectNumber'), number);
    const feed = await h.request({ method: 'GET', url: '/services/v2/Events?after=0&limit=1000', as: 'admin' });
    assert.equal(feed.statusCode, 200, feed.body);
    assert.match(feed.body, new RegExp(projectId));
  });
});
