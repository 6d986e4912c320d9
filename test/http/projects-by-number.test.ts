import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ProjectsResponse, ProjectsResponseExtended } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { assertError, assertValidXml, attr, attrs, NS } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, assertSameAnswer, JSON_BODY } from '../support/json-answers.ts';
import { byNumberRequest, createProject, createSubmitted, type MatrixRow, PROGRAM, send, sharedHarness, UNAUTHENTICATED } from './http-helpers.ts';

// GetProjectsByNumber: POST /services/v2/Programs/{ProgramId}/Projects/ByNumber?version={n}
// (and the version 1.1 URL POST …/Programs/{ProgramId}/ProjectsByNumber)

const BY_NUMBER = `${PROGRAM}/Projects/ByNumber`;
const LEGACY = `${PROGRAM}/ProjectsByNumber`;

forEachDialect('HTTP GetProjectsByNumber', ({ dialect }) => {
  describe('lookup', () => {
    const harness = sharedHarness(dialect);
    // p1 (SOL--00001) is the applicant's, p2 (SOL--00002) the other applicant's; p3 has no number yet.
    let p1 = '';
    let p2 = '';

    before(async () => {
      const h = harness();
      const first = await createSubmitted(h, 'applicant');
      const second = await createSubmitted(h, 'otherApplicant');
      assert.deepEqual([first.number, second.number], ['SOL--00001', 'SOL--00002']);
      p1 = first.projectId;
      p2 = second.projectId;
      await createProject(h, 'admin');
    });

    const asked = byNumberRequest(['SOL--00002', 'SOL--00001', 'SOL--09999']);
    const matrix: (MatrixRow & { sees?: () => string[] })[] = [
      { who: 'admin', status: 200, sees: () => [p1, p2] },
      { who: 'programAdmin', status: 200, sees: () => [p1, p2] },
      { who: 'editor', status: 200, sees: () => [p1, p2] },
      { who: 'reader', status: 200, sees: () => [p1, p2] },
      { who: 'applicant', status: 200, sees: () => [p1] },
      { who: 'otherApplicant', status: 200, sees: () => [p2] },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const url of [BY_NUMBER, LEGACY]) {
      for (const row of matrix) {
        it(`${url.endsWith('/ByNumber') ? 'ByNumber' : '1.1 URL ProjectsByNumber'}: lists only readable projects, unknown numbers left out: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
          const h = harness();
          const res = await send(h, row.who, { method: 'POST', url, body: asked });
          if (row.code) return assertError(h, res, row.status, row.code);
          assert.equal(res.statusCode, 200, res.body);
          assertValidXml(h, res, 'ProjectsResponse');
          assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), row.sees!());
        });
      }
    }

    it('answers in creation order, lists a number asked twice once, and collapses whitespace around numbers', async () => {
      const h = harness();
      const res = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(['SOL--00002', ' SOL--00001 ', 'SOL--00002']) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectsResponse');
      assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), [p1, p2]);
      assert.deepEqual(attrs(res.body, 'Project', 'ProjectNumber'), ['SOL--00001', 'SOL--00002']);
      assert.deepEqual(attrs(res.body, 'Project', 'Status'), ['Submitted', 'Submitted']);
      assert.ok(attr(res.body, 'ProjectsResponse', 'RequestTimestamp'));
    });

    it('answers an empty list for a request without numbers', async () => {
      const h = harness();
      const res = await h.request({ method: 'POST', url: BY_NUMBER, body: `<ProjectByNumberRequest xmlns="${NS}"/>` });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectsResponse');
      assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), []);
    });

    for (const [query, schema, version] of [['', 'ProjectsResponse', '1.0'], ['?version=1', 'ProjectsResponse', '1.0'], ['?version=2', 'ProjectsResponseExtended', '2.0']] as const) {
      for (const url of [BY_NUMBER, LEGACY]) {
        it(`answers SchemaVersion ${version} for ${query || 'no version'} at ${url.slice(PROGRAM.length)}`, async () => {
          const h = harness();
          const res = await h.request({ method: 'POST', url: `${url}${query}`, body: byNumberRequest(['SOL--00001']) });
          assert.equal(res.statusCode, 200, res.body);
          assertValidXml(h, res, schema);
          assert.equal(attr(res.body, 'ProjectsResponse', 'SchemaVersion'), version);
          assert.equal(attr(res.body, 'Project', 'StatusCustomId'), version === '2.0' ? 'submitted' : undefined);
        });
      }
    }

    it('refuses an unsupported version with 400 INVALID_PARAMETER', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'POST', url: `${BY_NUMBER}?version=3`, body: asked }), 400, 'INVALID_PARAMETER');
    });

    it('accepts 1000 numbers and refuses 1001 with 400 TOO_MANY_NUMBERS', async () => {
      const h = harness();
      const numbers = (n: number) => Array.from({ length: n }, (_, i) => `SOL--${String(i + 1).padStart(5, '0')}`);
      const ok = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(numbers(1000)) });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(attrs(ok.body, 'Project', 'ProjectId'), [p1, p2]);
      assertError(h, await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(numbers(1001)) }), 400, 'TOO_MANY_NUMBERS');
    });

    const badBodies: [string, string | undefined, Record<string, string>, number, string][] = [
      ['malformed XML', '<ProjectByNumberRequest xmlns="' + NS + '"><Project ProjectNumber="SOL--00001">', {}, 400, 'MALFORMED_XML'],
      ['a DOCTYPE', `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "SOL--00001">]><ProjectByNumberRequest xmlns="${NS}"><Project ProjectNumber="&x;"/></ProjectByNumberRequest>`, {}, 400, 'MALFORMED_XML'],
      ['a wrong namespace', byNumberRequest(['SOL--00001'], 'http://example.org/other/'), {}, 400, 'WRONG_NAMESPACE'],
      ['no namespace', '<ProjectByNumberRequest><Project ProjectNumber="SOL--00001"/></ProjectByNumberRequest>', {}, 400, 'WRONG_NAMESPACE'],
      ['another root element', `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>x@example.org</OwnerEmail></SetProjectOwnerRequest>`, {}, 400, 'INVALID_REQUEST'],
      ['a Project without ProjectNumber', `<ProjectByNumberRequest xmlns="${NS}"><Project/></ProjectByNumberRequest>`, {}, 400, 'INVALID_REQUEST'],
      ['text/plain', byNumberRequest(['SOL--00001']), { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['an empty body', '', {}, 400, 'INVALID_REQUEST'],
      ['no body at all', undefined, {}, 400, 'INVALID_REQUEST'],
    ];
    for (const [what, body, headers, status, code] of badBodies) {
      it(`refuses ${what} with ${status} ${code}`, async () => {
        const h = harness();
        assertError(h, await h.request({ method: 'POST', url: BY_NUMBER, body, headers }), status, code);
      });
    }

    it('reads a JSON request and answers in JSON with the values of the XML answer', async () => {
      const h = harness();
      const numbers = ['SOL--00002', ' SOL--00001 ', 'SOL--09999'];
      const body = JSON.stringify({ Project: numbers.map((n) => ({ ProjectNumber: n })) });
      const json = await h.request({ method: 'POST', url: `${BY_NUMBER}?version=2`, body, headers: JSON_BODY });
      const xml = await h.request({ method: 'POST', url: `${BY_NUMBER}?version=2`, body: byNumberRequest(numbers) });
      const value = assertSameAnswer(h, xml, json, ProjectsResponseExtended);
      assert.deepEqual(value.Projects.Project.map((p) => [p.ProjectId, p.ProjectNumber, p.StatusCustomId]), [[p1, 'SOL--00001', 'submitted'], [p2, 'SOL--00002', 'submitted']]);
      const none = await h.request({ method: 'POST', url: LEGACY, body: '{}', headers: JSON_BODY });
      assert.deepEqual(assertJsonAnswer(none, ProjectsResponse).Projects.Project, [], 'an object without Project asks for nothing');
    });

    for (const [what, body] of [
      ['a blank number', '{"Project":[{"ProjectNumber":"   "}]}'],
      ['an unknown property', '{"Project":[{"ProjectNumber":"SOL--00001","Number":1}]}'],
      ['a number that is not a string', '{"Project":[{"ProjectNumber":1}]}'],
    ]) {
      it(`refuses a JSON request with ${what} with 400 INVALID_REQUEST, in JSON`, async () => {
        const h = harness();
        const message = assertJsonError(await h.request({ method: 'POST', url: BY_NUMBER, body, headers: JSON_BODY }), 400, 'INVALID_REQUEST');
        assert.match(message, /ProjectByNumberRequest JSON Schema/);
      });
    }

    it('accepts text/xml and application/xml with a charset', async () => {
      const h = harness();
      for (const type of ['text/xml', 'application/xml; charset=utf-8']) {
        const res = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(['SOL--00001']), headers: { 'content-type': type } });
        assert.equal(res.statusCode, 200, `${type}: ${res.body}`);
        assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), [p1]);
      }
    });
  });

  describe('configured limits (APAS_MAX_NUMBERS_PER_REQUEST=2, APAS_BODY_LIMIT_BYTES=2048)', () => {
    const harness = sharedHarness(dialect, { APAS_MAX_NUMBERS_PER_REQUEST: '2', APAS_BODY_LIMIT_BYTES: '2048' });

    it('accepts two numbers and refuses three with 400 TOO_MANY_NUMBERS', async () => {
      const h = harness();
      const ok = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(['SOL--00001', 'SOL--00002']) });
      assert.equal(ok.statusCode, 200, ok.body);
      assertValidXml(h, ok, 'ProjectsResponse');
      const res = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(['SOL--00001', 'SOL--00002', 'SOL--00003']) });
      assertError(h, res, 400, 'TOO_MANY_NUMBERS');
    });

    it('refuses a body over the size limit with 413 PAYLOAD_TOO_LARGE', async () => {
      const h = harness();
      const body = `<ProjectByNumberRequest xmlns="${NS}"><!-- ${'x'.repeat(2100)} --></ProjectByNumberRequest>`;
      assertError(h, await h.request({ method: 'POST', url: BY_NUMBER, body }), 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('the highest setting (APAS_MAX_NUMBERS_PER_REQUEST=100000), past what one SQL statement may bind', () => {
    const harness = sharedHarness(dialect, { APAS_MAX_NUMBERS_PER_REQUEST: '100000', APAS_BODY_LIMIT_BYTES: String(8 * 1024 * 1024) });

    it('answers 100000 numbers (SQLite binds at most 32766 parameters, PostgreSQL 65535) with the projects found', async () => {
      const h = harness();
      const first = await createSubmitted(h, 'applicant');
      const second = await createSubmitted(h, 'otherApplicant');
      // Unknown numbers first, so the known ones fall in the last chunk of a lookup that is split up.
      const numbers = [...Array.from({ length: 99_998 }, (_, i) => `NONE-${i}`), second.number, first.number];
      const res = await h.request({ method: 'POST', url: BY_NUMBER, body: byNumberRequest(numbers) });
      assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
      assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), [first.projectId, second.projectId], 'in creation order');
    });
  });
});
