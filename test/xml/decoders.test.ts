import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ApiError, type ErrorCode } from '../../src/domain/api-error.ts';
import { ProjectDataRequest, projectDataInput } from '../../src/wire/documents/project-data.ts';
import { ProjectByNumberRequest, projectNumbersInput, SetProjectOwnerRequest } from '../../src/wire/documents/projects.ts';
import { readXmlDocument } from '../../src/wire/wire-xml-reader.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { NS } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
const decodeProjectDataRequest = (body: string | Uint8Array, ns: string, registry: SchemaRegistry) =>
  projectDataInput(readXmlDocument(ProjectDataRequest, body, ns, registry));
const decodeProjectByNumberRequest = (body: string | Uint8Array, ns: string, registry: SchemaRegistry) =>
  projectNumbersInput(readXmlDocument(ProjectByNumberRequest, body, ns, registry));
const decodeSetProjectOwnerRequest = (body: string | Uint8Array, ns: string, registry: SchemaRegistry) =>
  ({ ownerEmail: readXmlDocument(SetProjectOwnerRequest, body, ns, registry).OwnerEmail });
after(() => schemas.dispose());

const doc = (root: string, inner: string) => `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${NS}">${inner}</${root}>`;
const dataBody = (fields: string) => doc('ProjectDataRequest', `<Project ProjectId="p-1" FormId="f-1"><DataFields>${fields}</DataFields></Project>`);
const decodeData = (fields: string) => decodeProjectDataRequest(dataBody(fields), NS, schemas).fields;

function refused(run: () => unknown, code: ErrorCode, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

test('ProjectByNumberRequest gives the project numbers in order', () => {
  const body = doc('ProjectByNumberRequest', '<Project ProjectNumber="APP-1"/>\n<Project ProjectNumber="  007  "/><Project ProjectNumber="APP-1"/>');
  assert.deepEqual(decodeProjectByNumberRequest(body, NS, schemas), ['APP-1', '007', 'APP-1']);
  assert.deepEqual(decodeProjectByNumberRequest(Buffer.from(doc('ProjectByNumberRequest', '')), NS, schemas), []);
  assert.deepEqual(decodeProjectByNumberRequest(`<ProjectByNumberRequest xmlns="${NS}"/>`, NS, schemas), []);
});

test('ProjectByNumberRequest refuses blank and over-long numbers', () => {
  refused(() => decodeProjectByNumberRequest(doc('ProjectByNumberRequest', '<Project ProjectNumber="   "/>'), NS, schemas), 'INVALID_REQUEST');
  refused(() => decodeProjectByNumberRequest(doc('ProjectByNumberRequest', `<Project ProjectNumber="${'9'.repeat(101)}"/>`), NS, schemas), 'INVALID_REQUEST');
  assert.deepEqual(decodeProjectByNumberRequest(doc('ProjectByNumberRequest', `<Project ProjectNumber="${'9'.repeat(100)}"/>`), NS, schemas), ['9'.repeat(100)]);
});

test('SetProjectOwnerRequest gives the trimmed e-mail address', () => {
  const body = doc('SetProjectOwnerRequest', '<OwnerEmail>\n  owner@example.com  \n</OwnerEmail>');
  assert.deepEqual(decodeSetProjectOwnerRequest(body, NS, schemas), { ownerEmail: 'owner@example.com' });
  refused(() => decodeSetProjectOwnerRequest(doc('SetProjectOwnerRequest', '<OwnerEmail>  </OwnerEmail>'), NS, schemas), 'INVALID_REQUEST');
  refused(() => decodeSetProjectOwnerRequest(doc('SetProjectOwnerRequest', `<OwnerEmail>${'a'.repeat(321)}</OwnerEmail>`), NS, schemas), 'INVALID_REQUEST');
  refused(() => decodeSetProjectOwnerRequest(doc('SetProjectOwnerRequest', ''), NS, schemas), 'INVALID_REQUEST');
  refused(() => decodeSetProjectOwnerRequest(doc('ProjectByNumberRequest', ''), NS, schemas), 'INVALID_REQUEST', /SetProjectOwnerRequest/);
});

test('ProjectDataRequest: Value, Values, clear and empty values', () => {
  const inputs = decodeData([
    '<DataField DataFieldId="d-1" Name="Name" Value="  Zoë &amp; &lt;co&gt; \u{1F600} "/>',
    '<DataField DataFieldId="d-2" Value="007"/>',
    '<DataField DataFieldId="d-3" Value="true"/>',
    '<DataField DataFieldId="d-4"/>',
    '<DataField DataFieldId="d-5"><Values><Value>red</Value><Value/><Value>  padded\n line </Value><Value><![CDATA[<raw & cdata>]]></Value><Value>1e3</Value></Values></DataField>',
    '<DataField DataFieldId="d-6"><Values/></DataField>',
    '<DataField DataFieldId="d-7" Value=""/>',
    '<DataField DataFieldId="d-8" Value="a&#10;b&#9;c"/>',
  ].join('\n'));
  assert.deepEqual(inputs, [
    { dataFieldId: 'd-1', value: '  Zoë & <co> \u{1F600} ', values: null },
    { dataFieldId: 'd-2', value: '007', values: null },
    { dataFieldId: 'd-3', value: 'true', values: null },
    { dataFieldId: 'd-4', value: null, values: null },
    { dataFieldId: 'd-5', value: null, values: ['red', '', '  padded\n line ', '<raw & cdata>', '1e3'] },
    { dataFieldId: 'd-6', value: null, values: [] },
    { dataFieldId: 'd-7', value: '', values: null },
    { dataFieldId: 'd-8', value: 'a\nb\tc', values: null },
  ]);
});

test('ProjectDataRequest: an empty DataFields list or none at all gives no inputs', () => {
  assert.deepEqual(decodeData(''), []);
  assert.deepEqual(decodeProjectDataRequest(doc('ProjectDataRequest', '<Project/>'), NS, schemas), { projectId: null, formId: null, fields: [] });
});

test('ProjectDataRequest: the Project element\'s ProjectId and FormId are read for the service to check against the path', () => {
  const input = decodeProjectDataRequest(dataBody('<DataField DataFieldId="d-1" Value="x"/>'), NS, schemas);
  assert.deepEqual(input, { projectId: 'p-1', formId: 'f-1', fields: [{ dataFieldId: 'd-1', value: 'x', values: null }] });
});

test('ProjectDataRequest: Value and Values together are refused', () => {
  refused(() => decodeData('<DataField DataFieldId="d-1" Value="x"><Values><Value>y</Value></Values></DataField>'), 'INVALID_REQUEST', /both/);
  refused(() => decodeData('<DataField DataFieldId="d-1" Value=""><Values/></DataField>'), 'INVALID_REQUEST', /both/);
});

test('ProjectDataRequest: the same DataFieldId twice without Instance is refused', () => {
  refused(() => decodeData('<DataField DataFieldId="d-1" Value="a"/><DataField DataFieldId="d-1" Value="b"/>'), 'INVALID_REQUEST', /more than once/);
  refused(() => decodeData('<DataField DataFieldId="d-1" Value="a"/><DataField DataFieldId="d-1" Instance="0" Value="b"/>'), 'INVALID_REQUEST', /more than once/);
  refused(() => decodeData('<DataField DataFieldId="d-1" Instance="0" Value="b"/><DataField DataFieldId="d-1" Value="a"/>'), 'INVALID_REQUEST', /more than once/);
});

test('ProjectDataRequest: legacy Instance entries merge into one input ordered by Instance', () => {
  const inputs = decodeData([
    '<DataField DataFieldId="m" Instance="2" Value="third"/>',
    '<DataField DataFieldId="s" Value="single"/>',
    '<DataField DataFieldId="m" Instance="0" Value="first"/>',
    '<DataField DataFieldId="m" Instance="1" Value=""/>',
    '<DataField DataFieldId="n" Instance="10" Value="ten"/>',
    '<DataField DataFieldId="n" Instance="9" Value="nine"/>',
    '<DataField DataFieldId="o" Instance=" 0 " Value="only"/>',
  ].join(''));
  assert.deepEqual(inputs, [
    { dataFieldId: 'm', value: null, values: ['first', '', 'third'] },
    { dataFieldId: 's', value: 'single', values: null },
    { dataFieldId: 'n', value: null, values: ['nine', 'ten'] },
    { dataFieldId: 'o', value: null, values: ['only'] },
  ]);
});

test('ProjectDataRequest: bad or repeated Instance values are refused', () => {
  refused(() => decodeData('<DataField DataFieldId="m" Instance="0" Value="a"/><DataField DataFieldId="m" Instance="0" Value="b"/>'), 'INVALID_REQUEST', /repeats Instance 0/);
  refused(() => decodeData('<DataField DataFieldId="m" Instance="1" Value="a"/><DataField DataFieldId="m" Instance="01" Value="b"/>'), 'INVALID_REQUEST', /repeats Instance 1/);
  refused(() => decodeData('<DataField DataFieldId="m" Instance="-1" Value="a"/>'), 'INVALID_REQUEST');
  refused(() => decodeData('<DataField DataFieldId="m" Instance="x" Value="a"/>'), 'INVALID_REQUEST');
  refused(() => decodeData('<DataField DataFieldId="m" Instance="1.5" Value="a"/>'), 'INVALID_REQUEST');
  refused(() => decodeData('<DataField DataFieldId="m" Instance="0"/>'), 'INVALID_REQUEST', /Value/);
  refused(() => decodeData('<DataField DataFieldId="m" Instance="0"><Values/></DataField>'), 'INVALID_REQUEST', /Value/);
  refused(() => decodeData('<DataField DataFieldId="m" Instance="99999999999999999999" Value="a"/>'), 'INVALID_REQUEST', /non-negative integer/);
});

test('ProjectDataRequest: schema rules (DataFieldId required, no unknown elements or attributes)', () => {
  refused(() => decodeData('<DataField Value="a"/>'), 'INVALID_REQUEST', /DataFieldId/);
  refused(() => decodeData('<DataField DataFieldId="" Value="a"/>'), 'INVALID_REQUEST');
  refused(() => decodeData('<DataField DataFieldId="d" Foo="a"/>'), 'INVALID_REQUEST', /Foo/);
  refused(() => decodeData('<DataField DataFieldId="d"><Values><Value><b>x</b></Value></Values></DataField>'), 'INVALID_REQUEST');
  refused(() => decodeProjectDataRequest(doc('ProjectDataRequest', ''), NS, schemas), 'INVALID_REQUEST', /Project/);
});
