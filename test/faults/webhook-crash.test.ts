import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FaultDialect } from '../../scripts/faults/fault-database.ts';
import { seedFrom } from '../../scripts/faults/seeded-random.ts';
import { runWebhookCrashCycles } from '../../scripts/faults/webhook-crash-cycles.ts';

// A receiver subscribed to the demo program, down (503) for the first 1.5 s of the load; the server is killed with
// SIGKILL under write load and restarted, twice. Afterwards every committed event reaches the receiver at least once
// (what it refused while down too), verified with standardwebhooks, in order per project; every event belongs to a
// project that exists. `npm run faults:webhooks` kills 10 times.

const seed = seedFrom('FAULTS_SEED');

describe(`webhook crash: kill -9 under write load (seed ${seed})`, () => {
  for (const dialect of ['sqlite', 'postgres'] as FaultDialect[]) {
    it(`delivers every committed event at least once, in order per project, after 2 kills [${dialect}]`, async (t) => {
      const report = await runWebhookCrashCycles({ dialect, kills: 2, workers: 4, seed });
      t.diagnostic(`${report.events} events committed, ${report.received} deliveries received (${report.duplicates} duplicates, ${report.refusedWhileDown} refused while down) in ${report.ms} ms`);
      assert.deepEqual(report.problems, [], `seed ${seed}`);
      assert.ok(report.events > 0, 'the load made events');
    });
  }
});
