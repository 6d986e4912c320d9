import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runDocumentCrashCycles } from '../../scripts/faults/document-crash-cycles.ts';
import type { FaultDialect } from '../../scripts/faults/fault-database.ts';
import { seedFrom } from '../../scripts/faults/seeded-random.ts';

// A program with a letter long enough to take a second to render; GenerateDocument (with an Idempotency-Key) is
// asked, and the server is killed with SIGKILL while the request is claimed and rendering, then restarted after the
// claim ran out (APAS_DOCUMENT_LEASE_MS). The request is rendered again into exactly one version whose SHA-256 is that
// of the bytes served; the same GenerateDocument again answers the same request; after the orphan sweep every stored
// file belongs to a version. `npm run faults:documents` kills 5 times.

const seed = seedFrom('FAULTS_SEED');

describe(`document generation: kill -9 while rendering (seed ${seed})`, () => {
  for (const dialect of ['sqlite', 'postgres'] as FaultDialect[]) {
    it(`makes exactly one version per request across a kill [${dialect}]`, async (t) => {
      const report = await runDocumentCrashCycles({ dialect, kills: 1, seed });
      for (const c of report.cycles) t.diagnostic(`cycle ${c.index}: killed ${c.killedAfterClaimMs} ms after the claim, rendered again ${c.renderedAgainInMs} ms after the restart`);
      t.diagnostic(`${report.sweptOrphans} orphaned files swept; ${report.ms} ms`);
      assert.deepEqual(report.problems, [], `seed ${seed}`);
      assert.equal(report.cycles.length, 1);
    });
  }
});
