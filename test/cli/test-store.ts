import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../src/model/clock.ts';
import type { IdGenerator } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { openSecretBox } from '../../src/store/open-secret-box.ts';
import type { Store, StoreWriter } from '../../src/store/store.ts';
import type { ProgramChecker } from '../../src/domain/programs/program-parts.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

/** A store on a fresh SQLite file plus predictable ids and time, and the program checks; `cleanup` closes and deletes it. */
export interface TestEnv { dir: string; file: string; store: Store; clock: Clock; ids: IdGenerator; checkers: readonly ProgramChecker[]; cleanup(): Promise<void> }

/** Ids T00000000001, T00000000002, … so tests can tell new ids from old ones. */
export function counterIds(prefix = 'T'): IdGenerator {
  let n = 0;
  return { next: () => `${prefix}${String(++n).padStart(11, '0')}` };
}

/** A clock that moves one second forward at each reading. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): Clock {
  let now = start;
  return { now: () => (now += 1000) };
}

/** Opens a migrated SQLite store in a new temporary directory. */
export async function testEnv(): Promise<TestEnv> {
  const dir = mkdtempSync(path.join(tmpdir(), 'apas-cli-'));
  const file = path.join(dir, 'test.db');
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file }), {
    // The key file the CLI makes beside the database, so that the test and the commands it runs share it.
    secrets: openSecretBox({ database: { kind: 'sqlite', file }, secretKeys: { keys: null, file: null } }),
  });
  return {
    dir, file, store, clock: steppingClock(), ids: counterIds(), checkers: programCheckers(),
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Wraps a store so that a test can count the saveProgramDefinition calls made inside its transactions. */
export function spyOnSaves(store: Store): { store: Store; saves: () => number } {
  let saves = 0;
  const spied: Store = {
    ...store,
    transaction: (work) => store.transaction((tx) => work({
      ...tx,
      programs: {
        ...tx.programs,
        saveProgramDefinition: (rows) => {
          saves++;
          return tx.programs.saveProgramDefinition(rows);
        },
      },
    } as StoreWriter)),
  };
  return { store: spied, saves: () => saves };
}
