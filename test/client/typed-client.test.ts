import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { openApiToTypeScript } from '../../scripts/openapi-to-ts.ts';
import { createApasClient } from '../../src/client/apas-client.ts';
import { createProject, sharedHarness } from '../http/http-helpers.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { injectFetch } from '../support/inject-fetch.ts';

// The typed client (src/client): its types are made from /openapi.json and must match what the service describes;
// calls go through openapi-fetch in JSON.

forEachDialect('typed client', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  it('has types that match the OpenAPI description the service serves (npm run client:types)', async () => {
    const h = harness();
    const spec = JSON.parse((await h.request({ method: 'GET', url: '/openapi.json', as: null })).body);
    const committed = readFileSync(new URL('../../src/client/api-types.ts', import.meta.url), 'utf8');
    assert.equal(committed, openApiToTypeScript(spec), 'src/client/api-types.ts is stale: run npm run client:types');
  });

  describe('calls in JSON', () => {
    it('writes and reads a draft, and gets ErrorResponse objects back as errors', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const who = h.who.applicant;
      const client = createApasClient({
        baseUrl: 'http://apas.test', apiKey: who.apiKey, credentials: { email: who.email, password: who.password }, fetch: injectFetch(h.app),
      });
      const path = { ProgramId: 'solar', ProjectId: projectId, FormId: 'application' };
      h.clock.advance();
      const set = await client.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data', {
        params: { path }, body: { Project: { DataFields: { DataField: [{ DataFieldId: IDS.kw, Value: '4.2' }] } } },
      });
      assert.equal(set.response.status, 200, JSON.stringify(set.error));
      assert.equal(set.data?.Project.DataFields.DataField.find((f) => f.DataFieldId === IDS.kw)?.Value, '4.2');
      const got = await client.GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data', { params: { path } });
      assert.equal(got.data?.Project.DataView, 'Draft');
      assert.equal(got.data?.Project.ProjectId, projectId);
      const missing = await client.GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data', {
        params: { path: { ...path, ProjectId: 'NOSUCHPROJECT' } },
      });
      assert.equal(missing.response.status, 404);
      assert.equal(missing.error?.Code, 'NOT_FOUND');
    });

    it('reads a project\'s automation runs as staff, and gets the applicant\'s refusal as an error', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const clientOf = (who: typeof h.who.reader) => createApasClient({
        baseUrl: 'http://apas.test', apiKey: who.apiKey, credentials: { email: who.email, password: who.password }, fetch: injectFetch(h.app),
      });
      const path = { ProgramId: 'solar', ProjectId: projectId };
      const runs = await clientOf(h.who.reader).GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/AutomationRuns', { params: { path } });
      assert.equal(runs.response.status, 200, JSON.stringify(runs.error));
      assert.equal(runs.data?.Project.ProjectId, projectId);
      assert.deepEqual(runs.data?.Project.AutomationRun, []);
      const refused = await clientOf(h.who.applicant).GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/AutomationRuns', { params: { path } });
      assert.equal(refused.response.status, 403);
      assert.equal(refused.error?.Code, 'FORBIDDEN');
    });
  });
});
