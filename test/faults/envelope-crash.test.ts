import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runEnvelopeCrashCycles } from '../../scripts/faults/envelope-crash-cycles.ts';
import type { FaultDialect } from '../../scripts/faults/fault-database.ts';
import { seedFrom } from '../../scripts/faults/seeded-random.ts';

// A long agreement its owner signs is generated and sent in an envelope; the owner signs on the signing page, and
// the server is killed with SIGKILL while it makes the signed PDF (signature page, certificate of completion, seal),
// then restarted. The envelope is completed once: one signed version, served with its SHA-256 and a seal the
// independent verifier accepts, one envelope.completed event; no orphaned file after the sweep.
// `npm run faults:documents` kills 5 times.

const seed = seedFrom('FAULTS_SEED');

describe(`signing: kill -9 while the signed PDF is made (seed ${seed})`, () => {
  for (const dialect of ['sqlite', 'postgres'] as FaultDialect[]) {
    it(`completes the envelope once, with one sealed signed version, across a kill [${dialect}]`, async (t) => {
      const report = await runEnvelopeCrashCycles({ dialect, kills: 1, seed });
      for (const c of report.cycles) t.diagnostic(`cycle ${c.index}: killed ${c.killedAfterSignMs} ms after the last signature, completed ${c.finishedAgainInMs} ms after the restart`);
      t.diagnostic(`${report.sweptOrphans} orphaned files swept; ${report.ms} ms`);
      assert.deepEqual(report.problems, [], `seed ${seed}`);
      assert.equal(report.cycles.length, 1);
    });
  }
});
