import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ProjectDataGetResponse, ProjectDataSetResponse } from '../../src/wire/documents/project-data.ts';
import { WIRE_DOCUMENTS } from '../../src/wire/documents.ts';
import { wireFromXml } from '../../src/wire/wire-xml-reader.ts';
import { readXml } from '../../src/xml/xml-reader.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, NS } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError } from '../support/json-answers.ts';
import { createProject, draftPath, projectState, setDraft, sharedHarness } from './http-helpers.ts';

// JSON beside XML: a JSON body is read wherever XML is (Content-Type), the answer is JSON when Accept prefers it, and
// both carry the same names and values; JSON bodies meet the same hostile-input rules as XML ones.

const JSON_ACCEPT = { accept: 'application/json' };
const JSON_BODY = { 'content-type': 'application/json', accept: 'application/json' };

function jsonData(fields: Record<string, unknown>[]): string {
  return JSON.stringify({ Project: { DataFields: { DataField: fields } } });
}

forEachDialect('HTTP JSON', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  describe('one project read as XML and as JSON', () => {
    it('carries the same values, typed in JSON (booleans, no null members)', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { [IDS.kw]: '7.5', [IDS.size]: ['S', 'M'] });
      const xml = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      const json = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: JSON_ACCEPT });
      assertValidXml(h, xml, 'ProjectDataGetResponse');
      const body = assertJsonAnswer(json, ProjectDataGetResponse) as { Project: Record<string, unknown> & { DataFields: { DataField: Record<string, unknown>[] } } };
      assert.equal(json.headers.etag, `${String(xml.headers.etag).slice(0, -1)}.json"`, 'one version, a strong ETag per representation');
      assert.equal(body.Project.ProjectId, projectId);
      assert.equal(body.Project.CanSubmit, false);
      assert.equal(body.Project.DataView, 'Draft');
      const kw = body.Project.DataFields.DataField.find((f) => f.DataFieldId === IDS.kw);
      assert.equal(kw?.Value, '7.5');
      const size = body.Project.DataFields.DataField.find((f) => f.DataFieldId === IDS.size);
      assert.deepEqual(size?.Values, { Value: ['S', 'M'] });
      assert.doesNotMatch(json.body, /null/, 'optional members without a value are left out, as in XML');
      // The XML answer read back the way a request would be: the same value as the JSON answer, member for member.
      const fromXml = wireFromXml(ProjectDataGetResponse, readXml(xml.body, 'ProjectDataGetResponse', NS, h.schemas));
      assert.deepEqual(fromXml, body);
    });

    it('answers XML unless Accept ranks JSON above it', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const cases: [string | undefined, RegExp][] = [
        [undefined, /^application\/xml/], ['*/*', /^application\/xml/], ['application/xml, application/json', /^application\/xml/],
        ['application/json;q=0.5, application/xml', /^application\/xml/], ['application/json', /^application\/json/],
        ['application/json, */*;q=0.1', /^application\/json/], ['text/html', /^application\/xml/],
      ];
      for (const [accept, type] of cases) {
        const res = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant', headers: accept ? { accept } : {} });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), type, `Accept: ${accept}`);
      }
    });
  });

  describe('JSON request bodies', () => {
    it('SetProjectData takes a JSON body and stores what the XML body would', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      h.clock.advance();
      const res = await h.request({
        method: 'POST', url: draftPath(projectId), as: 'applicant', headers: JSON_BODY,
        body: jsonData([{ DataFieldId: IDS.kw, Value: '9' }, { DataFieldId: IDS.size, Values: { Value: ['L'] } }]),
      });
      const body = assertJsonAnswer(res, ProjectDataSetResponse) as { Project: { DataFields: { DataField: Record<string, unknown>[] } } };
      assert.equal(body.Project.DataFields.DataField.find((f) => f.DataFieldId === IDS.kw)?.Value, '9');
      const draft = await h.store.projects.getDraft(projectId, IDS.form);
      assert.deepEqual(draft.find((v) => v.fieldId === IDS.size)?.values, ['L']);
      // Answered in XML when the client asks for nothing else.
      const xml = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', headers: { 'content-type': 'application/json' }, body: jsonData([{ DataFieldId: IDS.kw, Value: '3' }]) });
      assertValidXml(h, xml, 'ProjectDataSetResponse');
    });

    it('refuses hostile or wrong JSON with a clear 400 and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { [IDS.kw]: '1' });
      const before = await projectState(h, projectId);
      const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      const cases: [string | Buffer, string, RegExp][] = [
        ['{"Project": {}, "Project": {}}', 'INVALID_REQUEST', /more than once/],
        ['{"Project": {"__proto__": {"DataFields": 1}}}', 'INVALID_REQUEST', /__proto__/],
        ['{"Project": {"constructor": {}}}', 'INVALID_REQUEST', /constructor/],
        [deep, 'INVALID_REQUEST', /deeper than 32/],
        ['{"Project": ', 'MALFORMED_JSON', /malformed JSON/],
        ['<ProjectDataRequest/>', 'MALFORMED_JSON', /malformed JSON/],
        [Buffer.from([0x7b, 0xff, 0x7d]), 'MALFORMED_JSON', /UTF-8/],
        ['[]', 'INVALID_REQUEST', /ProjectDataRequest object/],
        ['', 'INVALID_REQUEST', /empty/],
        [jsonData([{ DataFieldId: IDS.kw, Value: 'a\u0000b' }]), 'INVALID_REQUEST', /not allowed/],
        [jsonData([{ DataFieldId: IDS.kw, Value: 5 }]), 'INVALID_REQUEST', /JSON Schema/],
        [jsonData([{ DataFieldId: IDS.kw, Colour: 'red' }]), 'INVALID_REQUEST', /Colour/],
        [JSON.stringify({ Project: {}, Extra: 1 }), 'INVALID_REQUEST', /Extra/],
        [jsonData([{ DataFieldId: IDS.kw, Instance: 1e300, Value: 'x' }]), 'INVALID_REQUEST', /Instance must be <=/],
      ];
      for (const [body, code, message] of cases) {
        const res = await h.app.inject({
          method: 'POST', url: draftPath(projectId), payload: body,
          headers: { ...JSON_BODY, authorization: `Basic ${Buffer.from(`${h.who.applicant.email}:${h.who.applicant.password}`).toString('base64')}`, 'x-apikey': h.who.applicant.apiKey },
        });
        assert.match(assertJsonError(res, 400, code), message, String(body).slice(0, 80));
      }
      assert.deepEqual(await projectState(h, projectId), before, 'no refused JSON body changed anything');
    });

    it('answers errors in the representation the client accepts', async () => {
      const h = harness();
      const json = await h.request({ method: 'GET', url: '/services/v2/Programs/solar/Nowhere', headers: JSON_ACCEPT });
      assertJsonError(json, 404, 'NOT_FOUND');
      const xml = await h.request({ method: 'GET', url: '/services/v2/Programs/solar/Nowhere' });
      assertError(h, xml, 404, 'NOT_FOUND');
      const media = await h.request({ method: 'POST', url: draftPath('p'), headers: { 'content-type': 'text/csv', accept: 'application/json' }, body: 'a,b' });
      assert.ok([404, 415].includes(media.statusCode), media.body);
    });
  });

  describe('schemas and the OpenAPI description', () => {
    it('serves a JSON Schema beside each XSD of a described document', async () => {
      const h = harness();
      const list = (await h.request({ method: 'GET', url: '/schemas/', as: null })).body.trim().split('\n');
      for (const doc of WIRE_DOCUMENTS) {
        assert.ok(list.includes(`${doc.name}.schema.json`), doc.name);
        const res = await h.request({ method: 'GET', url: `/schemas/${doc.name}.schema.json`, as: null });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^application\/schema\+json/);
        assert.equal(JSON.parse(res.body).title, doc.name);
      }
    });

    it('serves an OpenAPI 3.1 description that a validator accepts, covering every API route', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: '/openapi.json', as: null });
      assert.equal(res.statusCode, 200, res.body);
      const spec = JSON.parse(res.body) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, unknown> } };
      const result = await new Validator().validate(spec);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
      assert.equal(spec.openapi, '3.1.0');
      const data = spec.paths['/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data'];
      assert.equal(data?.get?.operationId, 'GetProjectDraftData');
      assert.ok(spec.components.schemas.ProjectDataRequest);
      const ids = Object.values(spec.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
      assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
      // Every operation of the interface is described from the route table; the OAuth endpoints (form bodies, RFC 6749
      // answers) are described by hand in openapi.ts.
      const missing = h.app.operations.undescribed().filter((r) => r.includes('/services/v2/') && !r.includes('/services/v2/oauth/'));
      assert.deepEqual(missing, []);
      assert.ok(ids.length >= 35, `${ids.length} operations`);
      const create = spec.paths['/services/v2/Programs/{ProgramId}/NewProject']?.post as unknown as { parameters: { name: string }[] };
      assert.ok(create.parameters.some((p) => p.name === 'Idempotency-Key'), 'CreateNewProject takes an Idempotency-Key');
      assert.ok(!create.parameters.some((p) => p.name === 'If-Match'), 'CreateNewProject changes no existing project, so declares no If-Match');
      assert.equal(spec.paths['/services/v2/oauth/token']?.post?.operationId, 'OAuthToken');
      assert.equal(spec.paths['/services/v2/oauth/revoke']?.post?.operationId, 'OAuthRevoke');
    });
  });
});
