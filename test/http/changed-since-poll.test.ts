import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { CHANGE_VISIBILITY_MARGIN_MS } from '../../src/domain/projects/project-service.ts';
import { buildApp } from '../../src/http/app.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { MAX_WRITE_TRANSACTION_MS } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertValidXml, attr, attrs, authHeaders, dataRequest } from '../support/http-harness.ts';
import { createProject, draftPath, PROGRAM, slowHarness } from './http-helpers.ts';

// GetProjects' RequestTimestamp, sent back as changed_since, finds every change, even one whose transaction was
// still open (stamped, not yet committed) while the previous poll read.

forEachDialect('HTTP GetProjects polling with changed_since', ({ open }) => {
  it('finds a change that committed after a poll which started between the change\'s timestamp and its commit', async () => {
    const { h, db, setSlow } = await slowHarness(open);
    // The poller is a second instance on the same database, so its read runs while the write's transaction is open.
    const poller = await buildApp({ config: h.config, store: await db.reopen(), clock: h.clock, logger: false, sleep: async () => {} });
    const poll = async (since: string): Promise<LightMyRequestResponse> => {
      const res = await poller.inject({ method: 'GET', url: `${PROGRAM}/Projects?changed_since=${encodeURIComponent(since)}`, headers: authHeaders(h.who.admin) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectsResponse');
      return res;
    };
    try {
      const projectId = await createProject(h);
      const before = isoTimestamp(h.clock.advance(CHANGE_VISIBILITY_MARGIN_MS));
      // A first sign-in records its attempt (a write); signed in once, the poller only reads, as a real poller
      // would while another instance's write is open.
      await poll(before);
      let during: LightMyRequestResponse | undefined;
      setSlow(async () => {
        // The write has stamped its change; half the transaction bound later a poll reads, then the write commits.
        h.clock.advance(MAX_WRITE_TRANSACTION_MS / 2);
        during = await poll(before);
        h.clock.advance(MAX_WRITE_TRANSACTION_MS / 2);
      });
      const stampedAt = h.clock.advance();
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Slow Writer' }) });
      setSlow(null);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.updatedAt, stampedAt, 'the change carries the time it was stamped inside its transaction');

      assert.ok(during);
      assert.deepEqual(attrs(during.body, 'Project', 'ProjectId'), [], 'the poll during the write did not see the uncommitted change');
      const mark = attr(during.body, 'ProjectsResponse', 'RequestTimestamp')!;
      assert.equal(mark, isoTimestamp(stampedAt + MAX_WRITE_TRANSACTION_MS / 2 - CHANGE_VISIBILITY_MARGIN_MS));
      h.clock.advance();
      const next = await poll(mark);
      assert.deepEqual(attrs(next.body, 'Project', 'ProjectId'), [projectId], 'the next poll, from the RequestTimestamp, finds the change');
    } finally {
      await poller.close();
      await h.close();
    }
  });
});
