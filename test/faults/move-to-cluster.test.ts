import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMoveToCluster } from '../../scripts/faults/move-to-cluster-run.ts';

// Issue 35's "Done means": an installation built through the API on one machine (SQLite, files in a directory) is
// moved with `apas move --blobs s3` into the test run's PostgreSQL and an S3 bucket (s3rver), and three instances serve
// it: every project, draft, history, deadline, subscription and file as before, the feed continuing from a saved
// cursor, writes through one instance seen by the others, the webhook queue carrying on.

describe('growing from one machine to a cluster', () => {
  it('moves SQLite with local files to PostgreSQL with files in S3, served by three instances with nothing lost', async (t) => {
    const report = await runMoveToCluster({ log: (line) => t.diagnostic(line) });
    assert.deepEqual(report.problems, []);
    assert.ok(report.projects >= 3 && report.files >= 4 && report.events > 0, JSON.stringify(report));
  });
});
