import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { withApplicationName } from '../../src/config.ts';
import { buildMetricsApp } from '../../src/http/metrics-app.ts';
import { openDatabase } from '../../src/store/database.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { emptyTestDatabase, forEachDialect } from '../support/databases.ts';
import { sharedHarness } from './http-helpers.ts';

// APAS_METRICS_PORT moves /metrics to a listener of its own (the proxy exposes only the API's port); the probes are
// on both. Every PostgreSQL connection names its instance (application_name), so pg_stat_activity tells them apart.

forEachDialect('a separate metrics port', ({ dialect }) => {
  const harness = sharedHarness(dialect, { APAS_METRICS_PORT: '9464' });

  it('the API port has no /metrics but keeps the probes; the metrics listener has all three, counting the API\'s requests', async () => {
    const h = harness();
    assert.equal((await h.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
    assert.equal((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    // Without its Agency parameter: a 400 is a request like any other for the counters.
    assert.equal((await h.request({ method: 'GET', url: '/services/v2/Programs', as: 'editor' })).statusCode, 400);
    const metrics = buildMetricsApp(h.store, new DatabaseBlobStore(h.store), h.app.metricsRegistry);
    try {
      const scrape = await metrics.inject({ method: 'GET', url: '/metrics' });
      assert.equal(scrape.statusCode, 200);
      assert.match(scrape.body, /apas_http_requests_total\{method="GET",route="\/services\/v2\/Programs",status="400"\} 1/);
      assert.equal((await metrics.inject({ method: 'GET', url: '/healthz' })).body, 'ok\n');
      assert.equal((await metrics.inject({ method: 'GET', url: '/readyz' })).body, 'ready\n');
      assert.equal((await metrics.inject({ method: 'GET', url: '/services/v2/Programs' })).statusCode, 404);
    } finally {
      await metrics.close();
    }
  });

  if (dialect === 'postgres') {
    it('a PostgreSQL connection carries the instance name as application_name; a name in DATABASE_URL wins', async () => {
      const target = await emptyTestDatabase('postgres');
      try {
        for (const [config, expected] of [
          [withApplicationName(target.config, 'apas@web-2:8080'), 'apas@web-2:8080'],
          [withApplicationName({ kind: 'postgres', url: `${target.url}?application_name=own` }, 'apas@web-2:8080'), 'own'],
        ] as const) {
          const opened = await openDatabase(config, { poolSize: 1 });
          try {
            const { rows } = await sql<{ name: string }>`select current_setting('application_name') as name`.execute(opened.db);
            assert.equal(rows[0]?.name, expected);
          } finally {
            await opened.changes.close();
            await opened.db.destroy();
          }
        }
      } finally {
        await target.remove();
      }
    });
  }
});
