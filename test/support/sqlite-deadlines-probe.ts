/**
 * Run by test/store/deadline-storage.test.ts in a process of its own: opens a SQLite store, makes a change and probes
 * readiness, then prints whether the PostgreSQL guard's deadlines (AsyncLocalStorage) were started.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/store/database.ts';
import { deadlinesStarted } from '../../src/store/guarded-pool.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { agency, T0 } from './fixtures.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-deadlines-'));
try {
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: path.join(dir, 'apas.db') }), {
    secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'probe')),
  });
  await store.transaction((tx) => tx.accounts.insertAgency(agency(), T0));
  const changed = (await store.accounts.findAgency(agency().id)) !== null;
  await store.ping();
  process.stdout.write(JSON.stringify({ changed, ready: true, deadlinesStarted: deadlinesStarted() }));
  await store.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
