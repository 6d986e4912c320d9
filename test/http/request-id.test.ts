import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { assertError, attr } from '../support/http-harness.ts';
import { assertJsonError } from '../support/json-answers.ts';
import { createProject, draftPath, PROGRAM, projectPath, sharedHarness } from './http-helpers.ts';

// Every answer names its request in X-Request-Id: the client's own id when it sent a safe one, a new one otherwise.
// The OAuth endpoints publish RFC 8414 metadata.

const GENERATED = /^[0-9A-Z]{12}$/;

forEachDialect('HTTP request ids', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  describe('X-Request-Id', () => {
    it('is on every answer: successes, errors, pages, the OAuth endpoints, health', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const answers = [
        await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' }),
        await h.request({ method: 'GET', url: `${PROGRAM}/Nowhere` }),
        await h.request({ method: 'GET', url: '/', as: null }),
        await h.request({ method: 'POST', url: '/services/v2/oauth/token', as: null }),
        await h.request({ method: 'GET', url: '/healthz', as: null }),
        await h.request({ method: 'GET', url: '/openapi.json', as: null }),
      ];
      const ids = answers.map((res) => String(res.headers['x-request-id']));
      for (const id of ids) assert.match(id, GENERATED);
      assert.equal(new Set(ids).size, ids.length, 'a new id for each request');
      // The error body names the same request as its header.
      assert.equal(attr(answers[1]!.body, 'ErrorResponse', 'RequestId'), ids[1]);
    });

    it('echoes a safe id the client sent, in the header, the error body and the audit log', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const clientId = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
      const read = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'x-request-id': clientId } });
      assert.equal(read.statusCode, 200);
      assert.equal(read.headers['x-request-id'], clientId);
      const error = await h.request({ method: 'GET', url: `${PROGRAM}/Nowhere`, headers: { 'x-request-id': 'trace:42/a+b=' } });
      assertError(h, error, 404, 'NOT_FOUND');
      assert.equal(error.headers['x-request-id'], 'trace:42/a+b=');
      assert.equal(attr(error.body, 'ErrorResponse', 'RequestId'), 'trace:42/a+b=');
      const json = await h.request({ method: 'GET', url: `${PROGRAM}/Nowhere`, headers: { 'x-request-id': 'abc', accept: 'application/json' } });
      assertJsonError(json, 404, 'NOT_FOUND');
      assert.equal(JSON.parse(json.body).RequestId, 'abc');
      const write = await h.request({
        method: 'POST', url: `${projectPath(projectId)}/Assignee`, headers: { 'x-request-id': 'assign-1' },
        body: `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${h.who.admin.email}</AssigneeEmail></SetAssigneeRequest>`,
      });
      assert.equal(write.statusCode, 200, write.body);
      assert.equal(write.headers['x-request-id'], 'assign-1');
      const audit = await h.store.audit.list({ projectId, action: 'project.assignee.set' });
      assert.deepEqual(audit.map((a) => a.requestId), ['assign-1']);
    });

    it('replaces an unsafe or over-long id by a new one', async () => {
      const h = harness();
      for (const sent of ['', ' lead', 'has space', 'quote"d', 'x'.repeat(129), 'ünï', '-starts-with-dash', 'semi;colon']) {
        const res = await h.request({ method: 'GET', url: '/healthz', as: null, headers: { 'x-request-id': sent } });
        assert.match(String(res.headers['x-request-id']), GENERATED, JSON.stringify(sent));
      }
      const longest = 'a'.repeat(128);
      assert.equal((await h.request({ method: 'GET', url: '/healthz', as: null, headers: { 'x-request-id': longest } })).headers['x-request-id'], longest);
    });
  });

  describe('RFC 8414 metadata', () => {
    it('names the token and revocation endpoints, which answer where it says', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: '/.well-known/oauth-authorization-server', as: null });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const meta = JSON.parse(res.body) as Record<string, unknown>;
      assert.equal(meta.issuer, 'http://apas.test');
      assert.equal(meta.token_endpoint, 'http://apas.test/services/v2/oauth/token');
      assert.equal(meta.revocation_endpoint, 'http://apas.test/services/v2/oauth/revoke');
      assert.deepEqual(meta.grant_types_supported, ['client_credentials']);
      assert.deepEqual(meta.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
      assert.deepEqual(meta.revocation_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
      assert.deepEqual(meta.response_types_supported, []);
      for (const endpoint of [meta.token_endpoint, meta.revocation_endpoint] as string[]) {
        const path = new URL(endpoint).pathname;
        const answer = await h.request({ method: 'POST', url: path, as: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
        assert.equal(answer.statusCode, 401, `${path}: ${answer.body}`);
        assert.equal(JSON.parse(answer.body).error, 'invalid_client');
      }
    });
  });
});
