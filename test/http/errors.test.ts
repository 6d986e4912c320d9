import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, authHeaders, dataRequest } from '../support/http-harness.ts';
import { API, byNumberRequest, createSubmitted, PROGRAM, programState, projectState, sharedHarness } from './http-helpers.ts';

// The error contract: every failure is an XML ErrorResponse (valid against ErrorResponse.xsd) with a stable
// Code, the HTTP Status and a RequestId; unknown paths are 404, known paths with the wrong method 405 + Allow.

forEachDialect('HTTP errors', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let projectId = '';

  before(async () => {
    ({ projectId } = await createSubmitted(harness(), 'applicant'));
  });

  for (const [method, url] of [
    ['GET', '/nope'],
    ['GET', `${API}/Nope`],
    ['GET', `${API}/Programs/solar`],
    ['POST', `${API}/Programs/solar/Projects/PROJECT00001/Unknown`],
    ['GET', '/services/v1/Programs?Agency=acme'],
  ] as const) {
    it(`answers ${method} ${url} with 404 NOT_FOUND as XML`, async () => {
      const h = harness();
      const res = await h.request({ method, url });
      assertError(h, res, 404, 'NOT_FOUND');
      assert.equal(attr(res.body, 'ErrorResponse', 'Status'), '404');
      assert.match(attr(res.body, 'ErrorResponse', 'RequestId') ?? '', /^[0-9A-Z]{12,32}$/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    });
  }

  const wrongMethods: [string, () => string, string][] = [
    ['DELETE', () => `${PROGRAM}/Projects`, 'GET'],
    ['PUT', () => `${PROGRAM}/NewProject`, 'POST'],
    ['GET', () => `${PROGRAM}/Projects/ByNumber`, 'POST'],
    ['GET', () => `${PROGRAM}/ProjectsByNumber`, 'POST'],
    ['DELETE', () => `${PROGRAM}/Projects/${projectId}/Owner`, 'POST'],
    ['DELETE', () => `${PROGRAM}/Projects/${projectId}/Forms/application/Data`, 'GET, POST'],
    ['PATCH', () => `${PROGRAM}/Projects/${projectId}/Forms/application/Draft/Data`, 'GET, POST'],
    ['POST', () => `${API}/Programs`, 'GET'],
    ['POST', () => '/schemas/ProjectsResponse.xsd', 'GET'],
  ];
  for (const [method, url, allow] of wrongMethods) {
    it(`answers ${method} on ${url().replace(projectId, '{ProjectId}')} with 405 METHOD_NOT_ALLOWED, Allow: ${allow}, and changes nothing`, async () => {
      const h = harness();
      const before = await projectState(h, projectId);
      const programBefore = await programState(h);
      const res = await h.request({ method, url: url(), body: dataRequest({ kw: '1' }) });
      assertError(h, res, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.allow, allow);
      assert.deepEqual(await projectState(h, projectId), before);
      assert.deepEqual(await programState(h), programBefore);
    });
  }

  const long = 'A'.repeat(200);
  const tricks = ['..%2F..', '..%2F..%2Fetc%2Fpasswd', "x'%20OR%20'1'%3D'1", '%27%3B%20DROP%20TABLE%20projects%3B--', long, '%00', '%C3%A9t%C3%A9', '%252F'];
  const templates: [string, (id: string) => string][] = [
    ['ProgramId', (id) => `${API}/Programs/${id}/Projects`],
    ['ProjectId', (id) => `${PROGRAM}/Projects/${id}/Forms/application/Draft/Data`],
    ['FormId', (id) => `${PROGRAM}/Projects/${projectId}/Forms/${id}/Data`],
  ];
  for (const [where, template] of templates) {
    for (const id of tricks) {
      it(`answers ${where} "${id.length > 40 ? `${id.slice(0, 10)}…(${id.length})` : id}" with a 4xx XML error, never 5xx`, async () => {
        const h = harness();
        const before = await projectState(h, projectId);
        const programBefore = await programState(h);
        for (const method of ['GET', 'POST'] as const) {
          const res = await h.request({ method, url: template(id), body: method === 'POST' ? dataRequest({ kw: '1' }) : undefined });
          assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${method} ${template(id)} → ${res.statusCode}: ${res.body}`);
          assertValidXml(h, res, 'ErrorResponse');
          assert.equal(attr(res.body, 'ErrorResponse', 'Status'), String(res.statusCode));
        }
        assert.deepEqual(await projectState(h, projectId), before);
        assert.deepEqual(await programState(h), programBefore);
      });
    }
  }

  it('refuses a malformed percent-encoding in the path with 400 INVALID_REQUEST as XML', async () => {
    const h = harness();
    assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/%E0%A4%A/Projects` }), 400, 'INVALID_REQUEST');
  });

  for (const length of [65, 200]) {
    it(`refuses a ${length}-character path id with 400 INVALID_PARAMETER as XML, and changes nothing`, async () => {
      const h = harness();
      const programBefore = await programState(h);
      const id = 'A'.repeat(length);
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/${id}/Projects` }), 400, 'INVALID_PARAMETER');
      assertError(h, await h.request({ method: 'POST', url: `${PROGRAM}/Projects/${id}/Owner`, body: '<x/>' }), 400, 'INVALID_PARAMETER');
      assertError(h, await h.request({ method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/${id}/Draft/Submit` }), 400, 'INVALID_PARAMETER');
      assert.deepEqual(await programState(h), programBefore);
    });
  }

  it('treats SQL in query parameters and request bodies as plain text', async () => {
    const h = harness();
    const programBefore = await programState(h);
    assertError(h, await h.request({ method: 'GET', url: `${API}/Programs?Agency=${encodeURIComponent("acme' OR '1'='1")}` }), 404, 'NOT_FOUND');
    assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects?changed_since=${encodeURIComponent("' OR 1=1--")}` }), 400, 'INVALID_PARAMETER');
    const res = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/ByNumber`, body: byNumberRequest(["x&apos; OR &apos;1&apos;=&apos;1", "'); DELETE FROM projects; --"]) });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectsResponse');
    assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), []);
    const write = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/application/Draft/Data`, body: dataRequest({ "kw' OR '1'='1": '1' }) });
    assertError(h, write, 422, 'VALIDATION_FAILED');
    assert.deepEqual(await programState(h), programBefore, 'nothing was changed or deleted');
  });

  // PostgreSQL cannot store U+0000 and refuses index entries over ~2,700 bytes: such input must be refused up front.
  it('refuses NUL characters in query values and request bodies with a 4xx, and changes nothing', async () => {
    const h = harness();
    const before = await projectState(h, projectId);
    assertError(h, await h.request({ method: 'GET', url: `${API}/Programs?Agency=acme%00` }), 400, 'INVALID_PARAMETER');
    assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects?changed_since=2026-01-01%00` }), 400, 'INVALID_PARAMETER');
    for (const body of [dataRequest({ name: 'Jane\u0000Doe' }), dataRequest({ name: 'Jane&#0;Doe' }), dataRequest({ name: 'Jane\u0007Doe' })]) {
      const res = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/application/Draft/Data`, body });
      assertError(h, res, 400, 'MALFORMED_XML');
    }
    assert.deepEqual(await projectState(h, projectId), before);
  });

  it('refuses Basic user names that cannot be e-mail addresses (control characters, over 320 characters) with 401', async () => {
    const h = harness();
    const programBefore = await programState(h);
    const apiKey = authHeaders(h.who.applicant)['x-apikey']!;
    for (const name of ['applicant\u0000@example.org', `${'x'.repeat(4000)}@example.org`, 'tab\there@example.org']) {
      const authorization = `Basic ${Buffer.from(`${name}:some-password`).toString('base64')}`;
      const res = await h.request({ method: 'GET', url: `${API}/Programs?Agency=acme`, as: null, headers: { authorization, 'x-apikey': apiKey } });
      assert.equal(res.statusCode, 401, res.body);
      assertValidXml(h, res, 'ErrorResponse');
      const page = await h.request({ method: 'GET', url: `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`, as: null, headers: { authorization } });
      assert.equal(page.statusCode, 401, page.body);
    }
    assert.deepEqual(await programState(h), programBefore);
  });

  it('answers a request the service cannot parse as a whole with an XML error too (bad Content-Length)', async () => {
    const h = harness();
    const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, body: 'abc', headers: { 'content-length': '10' } });
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, res.body);
    assertValidXml(h, res, 'ErrorResponse');
  });
});
