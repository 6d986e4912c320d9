import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MAX_WRITE_TRANSACTION_MS } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { assertError, attr, dataRequest } from '../support/http-harness.ts';
import { createProject, draftPath, PROGRAM, programState, projectState, slowHarness } from './http-helpers.ts';

// A request's answer and its effect agree: an error answer (503 included) never goes with a committed change,
// and a slow request is not answered 503 while its handler commits after all.

forEachDialect('HTTP write transactions bounded in time', ({ open }) => {
  const harness = (env: Record<string, string> = {}) => slowHarness(open, env);

  it('answers a request whose handler outlasts APAS_REQUEST_TIMEOUT_MS with its real outcome, not 503 beside a commit', async () => {
    const { h, setSlow } = await harness({ APAS_REQUEST_TIMEOUT_MS: '100' });
    try {
      const before = await programState(h);
      // Three times the request timeout of wall-clock time, well within the transaction bound of the store's clock.
      setSlow(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
      setSlow(null);
      assert.equal(res.statusCode, 200, res.body);
      const projectId = attr(res.body, 'Project', 'ProjectId');
      const after = await programState(h);
      assert.deepEqual(after.projects.map((p) => p.id), [...before.projects.map((p) => p.id), projectId]);
    } finally {
      await h.close();
    }
  });

  it('rolls back a CreateNewProject whose transaction ran longer than the bound and answers 503, so nothing was created', async () => {
    const { h, setSlow } = await harness();
    try {
      const before = await programState(h);
      setSlow(async () => {
        h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1);
      });
      const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
      setSlow(null);
      assertError(h, res, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '1');
      assert.deepEqual(await programState(h), before, 'the refused CreateNewProject created nothing');
    } finally {
      await h.close();
    }
  });

  it('commits a transaction that took exactly the bound, and rolls back a draft write that took longer', async () => {
    const { h, setSlow } = await harness();
    try {
      setSlow(async () => {
        h.clock.advance(MAX_WRITE_TRANSACTION_MS);
      });
      const projectId = await createProject(h);
      setSlow(null);
      const before = await projectState(h, projectId);
      setSlow(async () => {
        h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1);
      });
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Slow Writer' }) });
      setSlow(null);
      assertError(h, res, 503, 'SERVICE_UNAVAILABLE');
      assert.deepEqual(await projectState(h, projectId), before, 'the refused draft write changed nothing');
    } finally {
      await h.close();
    }
  });
});
