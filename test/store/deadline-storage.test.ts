import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { it } from 'node:test';

// The PostgreSQL guard bounds a change's statements by its deadline through AsyncLocalStorage, and once one runs,
// Node 20 calls its hooks on every promise of the process. A server on SQLite has no use for the deadline, so it
// must never start one: checked in a process of its own, since this one may have run PostgreSQL suites.
it('a server on SQLite never starts the deadlines\' AsyncLocalStorage: not for a change, not for a readiness probe', () => {
  const probe = path.join(import.meta.dirname, '..', 'support', 'sqlite-deadlines-probe.ts');
  const out = execFileSync(process.execPath, ['--import', 'tsx', probe], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { changed: true, ready: true, deadlinesStarted: false });
});
