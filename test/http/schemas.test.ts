import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { assertError, assertValidXml, attr, NS } from '../support/http-harness.ts';
import { byNumberRequest, PROGRAM, sharedHarness } from './http-helpers.ts';

// The schemas: GET /schemas/ (the list), GET /schemas/{Type}.xsd, GET /schemas/program.schema.json. No credentials.

const EXPECTED = [
  'AllProjectDataResponse', 'AttachmentMetadataResponse', 'CreateMfaSessionTokenRequest', 'CreateMfaSessionTokenResponse', 'CustomListChoicesResponse', 'ErrorResponse', 'FormSchemaResponse',
  'FormSchemaResponseV2', 'FormsResponse', 'InquiryNotesResponse', 'InquiryThreadResponse', 'InquiryThreadsResponse',
  'NewProjectResponse', 'ProgramsResponse', 'ProjectByDataRequest',
  'ProjectByNumberRequest', 'ProjectDataGetResponse', 'ProjectDataRequest', 'ProjectDataSetResponse',
  'ProjectExportDataGetResponse', 'ProjectExportDataGetResponseV2', 'ProjectStatusHistoryResponse',
  'ProjectSubmitResponse', 'ProjectsResponse', 'ProjectsResponseExtended', 'SetAssigneeRequest',
  'SetAssigneeResponse', 'SetAttachmentMetadata', 'SetInquiryNoteRequest', 'SetInquiryThreadExternalIdRequest', 'SetInquiryThreadStatusRequest',
  'SetProjectOwnerRequest', 'SetProjectOwnerResponse', 'SetProjectStatusHistoryReportAs',
  'SetProjectStatusRequest', 'StatusHistoryReportAsResponse', 'StatusListResponse', 'StatusSetResponse',
];

forEachDialect('HTTP schemas', ({ dialect }) => {
  describe('default namespace', () => {
    const harness = sharedHarness(dialect);

    it('lists every schema by file name, without credentials', async () => {
      const h = harness();
      const res = await h.app.inject({ method: 'GET', url: '/schemas/' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      const names = res.body.trim().split('\n');
      for (const name of EXPECTED) assert.ok(names.includes(`${name}.xsd`), `${name}.xsd is listed`);
      assert.ok(names.includes('program.schema.json'));
    });

    it('serves ProjectsResponse.xsd with the configured namespace as its target namespace', async () => {
      const h = harness();
      const res = await h.app.inject({ method: 'GET', url: '/schemas/ProjectsResponse.xsd' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/xml/);
      assert.equal(attr(res.body, 'xs:schema', 'targetNamespace'), NS);
      assert.doesNotMatch(res.body, /\{xml_namespace\}/);
    });

    it('serves every listed XSD as a schema document', async () => {
      const h = harness();
      const list = await h.app.inject({ method: 'GET', url: '/schemas/' });
      for (const name of list.body.trim().split('\n').filter((n) => n.endsWith('.xsd'))) {
        const res = await h.app.inject({ method: 'GET', url: `/schemas/${name}` });
        assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
        assert.match(res.body, /<xs:schema\b/, name);
        assert.equal(attr(res.body, 'xs:schema', 'targetNamespace'), NS, name);
        assert.equal(res.body, h.schemas.source(name.replace(/\.xsd$/, '')), `${name} is the schema the service validates with`);
      }
    });

    it('serves the program file JSON Schema', async () => {
      const h = harness();
      const res = await h.app.inject({ method: 'GET', url: '/schemas/program.schema.json' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/schema\+json/);
      assert.equal(typeof JSON.parse(res.body), 'object');
    });

    for (const url of ['/schemas/Nope.xsd', '/schemas/ProjectsResponse', '/schemas/ProjectsResponse.json', '/schemas/..%2Fsrc%2Fconfig.ts', '/schemas/..%2F..%2Fpackage.json']) {
      it(`answers ${url} with 404 NOT_FOUND as XML`, async () => {
        const h = harness();
        const res = await h.app.inject({ method: 'GET', url });
        assertError(h, res, 404, 'NOT_FOUND');
      });
    }
  });

  describe('configured namespace (APAS_XML_NAMESPACE=urn:example:apas:v1)', () => {
    const ns = 'urn:example:apas:v1';
    const harness = sharedHarness(dialect, { APAS_XML_NAMESPACE: ns });

    it('puts the configured namespace into the schemas, the answers and what requests must use', async () => {
      const h = harness();
      const xsd = await h.app.inject({ method: 'GET', url: '/schemas/ProjectsResponse.xsd' });
      assert.equal(attr(xsd.body, 'xs:schema', 'targetNamespace'), ns);

      const ok = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/ByNumber`, body: byNumberRequest(['SOL--00001'], ns) });
      assert.equal(ok.statusCode, 200, ok.body);
      assertValidXml(h, ok, 'ProjectsResponse');
      assert.equal(attr(ok.body, 'ProjectsResponse', 'xmlns'), ns);

      const old = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/ByNumber`, body: byNumberRequest(['SOL--00001'], NS) });
      assertError(h, old, 400, 'WRONG_NAMESPACE');
      assert.equal(attr(old.body, 'ErrorResponse', 'xmlns'), ns);
    });
  });
});
