import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { forEachDialect } from '../support/databases.ts';

// Once an AsyncLocalStorage has run, Node 20 and 22 call its hooks on every promise of the process, which cost the
// reads on PostgreSQL a fifth of their CPU when a write transaction's deadline travelled in one. The deadline now
// travels with the transaction's connection (guarded-pool.ts), so no store starts one: checked in a process of its
// own, since this one may have run other suites.
forEachDialect('a store', ({ open }) => {
  it('never starts an AsyncLocalStorage: not for a change, a read or a readiness probe', async () => {
    const { config } = await open();
    const probe = path.join(import.meta.dirname, '..', 'support', 'async-storage-probe.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', probe, JSON.stringify(config)], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(stdout), { changed: true, ready: true, storageStarted: 0 });
  });
});
