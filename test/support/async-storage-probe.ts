/**
 * Run by test/store/async-storage.test.ts in a process of its own: opens a store on the database given as JSON in
 * argv[2], makes a change, reads and probes readiness, then prints how often an AsyncLocalStorage was started.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

// Counted before the store is loaded: once one runs, Node 20 and 22 call its hooks on every promise of the process.
let started = 0;
for (const method of ['run', 'enterWith'] as const) {
  const original = AsyncLocalStorage.prototype[method] as (...args: unknown[]) => unknown;
  Object.defineProperty(AsyncLocalStorage.prototype, method, {
    value(this: AsyncLocalStorage<unknown>, ...args: unknown[]) {
      started++;
      return original.apply(this, args);
    },
  });
}

const { openDatabase } = await import('../../src/store/database.ts');
const { createKyselyStore } = await import('../../src/store/kysely-store.ts');
const { createSecretBox, newSecretKeyLine, parseSecretKeys } = await import('../../src/store/secret-box.ts');
const { agency, T0 } = await import('./fixtures.ts');

const store = createKyselyStore(await openDatabase(JSON.parse(process.argv[2]!)), {
  secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'probe')),
});
try {
  await store.transaction((tx) => tx.accounts.insertAgency(agency(), T0));
  const changed = (await store.accounts.findAgency(agency().id)) !== null;
  await store.ping();
  process.stdout.write(JSON.stringify({ changed, ready: true, storageStarted: started }));
} finally {
  await store.close();
}
