import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAbortedBodies } from '../../scripts/faults/aborted-bodies.ts';
import type { FaultDialect } from '../../scripts/faults/fault-database.ts';
import { seedFrom } from '../../scripts/faults/seeded-random.ts';

// Request bodies that break off: a spawned `apas serve` gets XML and JSON documents, binary uploads and the form page's
// multipart post, with and without an Idempotency-Key, each cut at a random byte and then reset or closed. The server
// must survive every one (an unhandled stream 'error' used to end it: issue 31, A.1), change nothing (every table as
// before, no blob file left, the previous file still active with its SHA-256), log no error, and leave every key free:
// the same request sent again whole with its key succeeds. FAULTS_SEED=N repeats the cut points; `npm run
// faults:hostile` runs more of them.

const seed = seedFrom('FAULTS_SEED');

describe(`aborted request bodies (seed ${seed})`, () => {
  for (const [i, dialect] of (['sqlite', 'postgres'] as FaultDialect[]).entries()) {
    it(`30 bodies broken off at random points kill nothing and store nothing [${dialect}]`, async (t) => {
      const report = await runAbortedBodies({ dialect, tries: 30, seed: seed + i, log: (line) => t.diagnostic(line) });
      assert.deepEqual(report.problems.slice(0, 20), [], `seed ${seed + i}`);
      assert.equal(report.tries.length, 30);
      assert.ok(report.retried > 0 && report.retried === report.retriedOk, 'every keyed request was sent again and succeeded');
    });
  }
});
