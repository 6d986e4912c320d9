import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { assertError, authHeaders, type HttpHarness } from '../support/http-harness.ts';
import { assertJsonError } from '../support/json-answers.ts';
import { IDS } from '../support/fixtures.ts';
import { createProject, draftPath, PROGRAM, projectPath, projectState, setDraft, sharedHarness } from './http-helpers.ts';

// RFC 9110: Accept is matched case-insensitively with its parameters ignored, equal weights get XML, every answer that
// depends on Accept says so (Vary), the two representations of one version carry different strong ETags, and a read
// with a stale If-Match is refused (412).

const PNG = Buffer.from('\x89PNG\r\n\x1a\nsome picture bytes', 'latin1');

function isJson(res: LightMyRequestResponse): boolean {
  return /^application\/json/.test(String(res.headers['content-type']));
}

function varies(res: LightMyRequestResponse): boolean {
  return String(res.headers.vary ?? '').split(',').some((v) => v.trim().toLowerCase() === 'accept');
}

function assignee(email: string): string {
  return `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${email}</AssigneeEmail></SetAssigneeRequest>`;
}

async function uploadPhoto(h: HttpHarness, projectId: string): Promise<void> {
  const res = await h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: PNG,
    headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="p.png"' },
  });
  assert.equal(res.statusCode, 200, res.body);
}

forEachDialect('HTTP content negotiation', ({ dialect }) => {
  const shared = sharedHarness(dialect);

  describe('Accept', () => {
    it('matches media types case-insensitively, ignores their parameters, and gives XML on equal weights', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      const cases: [string, 'json' | 'xml'][] = [
        ['application/json; charset=utf-8', 'json'],
        ['APPLICATION/JSON', 'json'],
        ['Application/Json; Q=0.9, application/xml; q=0.5', 'json'],
        ['application/json;q=0.8, application/xml;q=0.8', 'xml'],
        ['application/xml;q=0.8, application/json;q=0.8', 'xml'],
        ['application/json, text/xml', 'xml'],
        ['text/xml;q=0.5, application/json', 'json'],
        ['application/json;q=0, */*', 'xml'],
        ['application/*;q=0.2, application/json;q=0.3', 'json'],
        ['application/json; profile="a,b", application/xml;q=0.1', 'json'],
        ['application/xml', 'xml'],
        ['*/*', 'xml'],
        ['text/html', 'xml'],
      ];
      for (const [accept, want] of cases) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { accept } });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(isJson(res) ? 'json' : 'xml', want, `Accept: ${accept}`);
        assert.ok(varies(res), `Vary: Accept with Accept: ${accept}`);
      }
    });

    it('says Vary: Accept on lists, errors and 304s too', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      const list = await h.request({ method: 'GET', url: `${PROGRAM}/Projects`, headers: { accept: 'application/json' } });
      assert.equal(list.statusCode, 200, list.body);
      assert.ok(varies(list), 'a list');
      const notFound = await h.request({ method: 'GET', url: `${PROGRAM}/Nowhere`, headers: { accept: 'APPLICATION/JSON' } });
      assertJsonError(notFound, 404, 'NOT_FOUND');
      assert.ok(varies(notFound), 'an error');
      const anonymous = await h.request({ method: 'GET', url: draftPath(projectId), as: null });
      assertError(h, anonymous, 401, 'AUTHENTICATION_REQUIRED');
      assert.ok(varies(anonymous), 'a 401');
      const first = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      const again = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assert.ok(varies(again), 'a 304');
    });
  });

  describe('ETags per representation', () => {
    it('gives XML and JSON of one version different strong tags; If-None-Match matches only its own', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      const xml = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      const json = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { accept: 'application/json' } });
      const xmlTag = String(xml.headers.etag);
      const jsonTag = String(json.headers.etag);
      assert.match(xmlTag, /^"[0-9A-Z]{12}\.\d+"$/);
      assert.equal(jsonTag, `${xmlTag.slice(0, -1)}.json"`);
      // A cache that holds the XML answer must not be told that it may serve it to a JSON request.
      const crossed = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { accept: 'application/json', 'if-none-match': xmlTag } });
      assert.equal(crossed.statusCode, 200);
      assert.ok(isJson(crossed));
      const own = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { accept: 'application/json', 'if-none-match': `W/${jsonTag}` } });
      assert.equal(own.statusCode, 304);
      assert.equal(own.headers.etag, jsonTag);
      const ownXml = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-none-match': `${jsonTag}, ${xmlTag}` } });
      assert.equal(ownXml.statusCode, 304);
      assert.equal(ownXml.headers.etag, xmlTag);
    });

    it('takes the tag of either representation in a write\'s If-Match, and refuses a stale one', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      const read = await h.request({ method: 'GET', url: draftPath(projectId), as: 'admin', headers: { accept: 'application/json' } });
      const jsonTag = String(read.headers.etag);
      const url = `${projectPath(projectId)}/Assignee`;
      const written = await h.request({ method: 'POST', url, body: assignee(h.who.admin.email), headers: { 'if-match': jsonTag, accept: 'application/json' } });
      assert.equal(written.statusCode, 200, written.body);
      assert.match(String(written.headers.etag), /\.json"$/);
      assert.ok(varies(written));
      const before = await projectState(h, projectId);
      const stale = await h.request({ method: 'POST', url, body: assignee(h.who.programAdmin.email), headers: { 'if-match': jsonTag } });
      assertError(h, stale, 412, 'PRECONDITION_FAILED');
      assert.deepEqual(await projectState(h, projectId), before, 'the refused write changed nothing');
      const xmlTag = String((await h.request({ method: 'GET', url: draftPath(projectId), as: 'admin' })).headers.etag);
      const current = await h.request({ method: 'POST', url, body: assignee(h.who.programAdmin.email), headers: { 'if-match': xmlTag } });
      assert.equal(current.statusCode, 200, current.body);
    });
  });

  describe('If-Match on reads', () => {
    it('answers 412 when the project changed since the tag, 200 while it is current', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      const first = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      const tag = String(first.headers.etag);
      const jsonTag = `${tag.slice(0, -1)}.json"`;
      for (const ifMatch of [tag, jsonTag, '*', `"other.1", ${tag}`]) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-match': ifMatch } });
        assert.equal(res.statusCode, 200, `If-Match: ${ifMatch}: ${res.body}`);
      }
      h.clock.advance();
      await setDraft(h, projectId, { [IDS.kw]: '9.5' });
      for (const ifMatch of [tag, jsonTag, `W/${tag}`]) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-match': ifMatch } });
        assertError(h, res, 412, 'PRECONDITION_FAILED');
        assert.equal(res.headers.etag, undefined, 'a 412 has no ETag');
      }
      const json = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-match': tag, accept: 'application/json' } });
      assertJsonError(json, 412, 'PRECONDITION_FAILED');
      const malformed = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: { 'if-match': 'no-quotes' } });
      assertError(h, malformed, 400, 'INVALID_REQUEST');
      // Access is decided first: someone who may not read the project learns nothing from a 412.
      const outsider = await h.request({ method: 'GET', url: draftPath(projectId), as: 'otherApplicant', headers: { 'if-match': tag } });
      assert.equal(outsider.statusCode, 404, outsider.body);
    });

    it('answers 412 for a download whose If-Match names another file', async () => {
      const h = shared();
      const projectId = await createProject(h, 'applicant');
      await uploadPhoto(h, projectId);
      const url = `${projectPath(projectId)}/Attachments/photo`;
      const file = await h.request({ method: 'GET', url, as: 'applicant' });
      assert.equal(file.statusCode, 200);
      const tag = String(file.headers.etag);
      assert.equal((await h.request({ method: 'GET', url, as: 'applicant', headers: { 'if-match': tag } })).statusCode, 200);
      const stale = await h.request({ method: 'GET', url, as: 'applicant', headers: { 'if-match': `"${'0'.repeat(64)}"` } });
      assertError(h, stale, 412, 'PRECONDITION_FAILED');
      assert.equal((await h.request({ method: 'GET', url, as: 'applicant', headers: { 'if-none-match': tag } })).statusCode, 304);
    });
  });
});

