import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ApiError, type ErrorCode } from '../../src/domain/api-error.ts';
import type { ProjectByDataQuery } from '../../src/domain/views.ts';
import {
  MAX_FIELD_FILTERS, MAX_STATUS_DATE_FILTERS, ProjectByDataRequest, projectByDataInput,
} from '../../src/wire/documents/projects.ts';
import {
  assigneeEmailOf, reportAsInput, SetAssigneeRequest, SetProjectStatusHistoryReportAs, SetProjectStatusRequest,
} from '../../src/wire/documents/workflow.ts';
import { readXmlDocument } from '../../src/wire/wire-xml-reader.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { NS } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
after(() => schemas.dispose());
const decodeProjectByDataRequest = (body: string | Uint8Array, ns: string, registry: SchemaRegistry) =>
  projectByDataInput(readXmlDocument(ProjectByDataRequest, body, ns, registry));

// The requests described in src/wire, read into what the decoders they replaced gave.
type Body = string | Uint8Array;
const decodeSetProjectStatusRequest = (body: Body, ns: string, registry: SchemaRegistry) =>
  ({ statusRef: readXmlDocument(SetProjectStatusRequest, body, ns, registry).StatusId });
const decodeSetProjectStatusHistoryReportAs = (body: Body, ns: string, registry: SchemaRegistry) =>
  reportAsInput(readXmlDocument(SetProjectStatusHistoryReportAs, body, ns, registry));
const decodeSetAssigneeRequest = (body: Body, ns: string, registry: SchemaRegistry) =>
  ({ assigneeEmail: assigneeEmailOf(readXmlDocument(SetAssigneeRequest, body, ns, registry)) });

const doc = (root: string, inner: string, attrs = '') => `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${NS}"${attrs}>${inner}</${root}>`;
const byData = (inner: string) => decodeProjectByDataRequest(doc('ProjectByDataRequest', inner), NS, schemas);
const status = (attrs: string) => decodeSetProjectStatusRequest(doc('SetProjectStatusRequest', '', attrs), NS, schemas);
const reportAs = (attrs: string) => decodeSetProjectStatusHistoryReportAs(doc('SetProjectStatusHistoryReportAs', '', attrs), NS, schemas);
const assignee = (inner: string) => decodeSetAssigneeRequest(doc('SetAssigneeRequest', inner), NS, schemas);

function refused(run: () => unknown, code: ErrorCode, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

test('ProjectByDataRequest: the documented example', () => {
  const query = byData(`
  <FilterByCurrentStatuses Operation="Exclude"><Status Id="3X8KK600"/><Status Id="ApplicationInProcess"/></FilterByCurrentStatuses>
  <FilterByStatusDate Id="ApplicationSubmitted" DateTime="2017-06-08T18:10:01" Operator="lt"/>
  <DataFields><Field Id="9KE8MJ45" Content="12345" Operator="eq"/><Field Id="MeterNumber" Content="54321" Operator="eq"/></DataFields>
`);
  assert.deepEqual(query, {
    statuses: { operation: 'exclude', refs: ['3X8KK600', 'ApplicationInProcess'] },
    statusDates: [{ statusRef: 'ApplicationSubmitted', at: Date.UTC(2017, 5, 8, 18, 10, 1), operator: 'lt' }],
    fields: [
      { fieldRef: '9KE8MJ45', operator: 'eq', content: '12345' },
      { fieldRef: 'MeterNumber', operator: 'eq', content: '54321' },
    ],
  } satisfies ProjectByDataQuery);
});

test('ProjectByDataRequest: no filters at all, and empty DataFields', () => {
  const none = { statuses: null, statusDates: [], fields: [] };
  assert.deepEqual(byData(''), none);
  assert.deepEqual(decodeProjectByDataRequest(Buffer.from(`<ProjectByDataRequest xmlns="${NS}"/>`), NS, schemas), none);
  assert.deepEqual(byData('<DataFields/>'), none);
});

test('ProjectByDataRequest: Operation in any letter case', () => {
  for (const [text, operation] of [['Include', 'include'], ['include', 'include'], ['INCLUDE', 'include'], ['Exclude', 'exclude'], [' exclude ', 'exclude'], ['eXcLuDe', 'exclude']]) {
    const query = byData(`<FilterByCurrentStatuses Operation="${text}"><Status Id=" Under  review "/></FilterByCurrentStatuses>`);
    assert.deepEqual(query.statuses, { operation, refs: ['Under review'] }, text);
  }
  refused(() => byData('<FilterByCurrentStatuses Operation="Both"><Status Id="a"/></FilterByCurrentStatuses>'), 'INVALID_REQUEST', /Operation/);
  refused(() => byData('<FilterByCurrentStatuses><Status Id="a"/></FilterByCurrentStatuses>'), 'INVALID_REQUEST', /Operation/);
  refused(() => byData('<FilterByCurrentStatuses Operation="Include"/>'), 'INVALID_REQUEST', /Status/);
  refused(() => byData('<FilterByCurrentStatuses Operation="Include"><Status/></FilterByCurrentStatuses>'), 'INVALID_REQUEST', /Id/);
  refused(() => byData('<FilterByCurrentStatuses Operation="Include"><Status Id="  "/></FilterByCurrentStatuses>'), 'INVALID_REQUEST', /Id/);
  refused(() => byData(`<FilterByCurrentStatuses Operation="Include"><Status Id="${'x'.repeat(201)}"/></FilterByCurrentStatuses>`), 'INVALID_REQUEST', /Id/);
  const twice = '<FilterByCurrentStatuses Operation="Include"><Status Id="a"/></FilterByCurrentStatuses>';
  refused(() => byData(twice + twice), 'INVALID_REQUEST', /FilterByCurrentStatuses/);
});

test('ProjectByDataRequest: FilterByStatusDate times with and without offset, every operator', () => {
  const query = byData([
    '<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01" Operator="lt"/>',
    '<FilterByStatusDate Id="b" DateTime="2017-06-08T18:10:01Z" Operator="le"/>',
    '<FilterByStatusDate Id="c" DateTime="2017-06-08T18:10:01-07:00" Operator="gt"/>',
    '<FilterByStatusDate Id="d" DateTime="2017-06-08T18:10:01.25+02:00" Operator="ge"/>',
    '<FilterByStatusDate Id="e" DateTime="2017-06-08T18:10:01.1234567Z" Operator=" eq "/>',
  ].join(''));
  const base = Date.UTC(2017, 5, 8, 18, 10, 1);
  assert.deepEqual(query.statusDates, [
    { statusRef: 'a', at: base, operator: 'lt' },
    { statusRef: 'b', at: base, operator: 'le' },
    { statusRef: 'c', at: base + 7 * 3600_000, operator: 'gt' },
    { statusRef: 'd', at: base - 2 * 3600_000 + 250, operator: 'ge' },
    { statusRef: 'e', at: base + 123, operator: 'eq' },
  ]);
});

test('ProjectByDataRequest: FilterByStatusDate refusals', () => {
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01"/>'), 'INVALID_REQUEST', /Operator/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01" Operator="ne"/>'), 'INVALID_REQUEST', /Operator/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01" Operator="LT"/>'), 'INVALID_REQUEST', /Operator/);
  refused(() => byData('<FilterByStatusDate Id="a" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
  refused(() => byData('<FilterByStatusDate DateTime="2017-06-08T18:10:01" Operator="lt"/>'), 'INVALID_REQUEST', /Id/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="yesterday" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
  // xs:dateTime admits these; the service cannot read them as a time.
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08T24:00:00" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01.123456789Z" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
  refused(() => byData('<FilterByStatusDate Id="a" DateTime="12017-06-08T18:10:01" Operator="lt"/>'), 'INVALID_REQUEST', /DateTime/);
});

test('ProjectByDataRequest: Field operators, the default eq, and Content', () => {
  const query = byData(`<DataFields>${[
    '<Field Id="a" Content="x"/>',
    '<Field Id="b" Content="  two  spaces &amp; &lt;tag&gt; &#10;nl " Operator="ne"/>',
    '<Field Id="c" Content="5" Operator="lt"/>',
    '<Field Id="d" Content="5" Operator="le"/>',
    '<Field Id="e" Content="5" Operator="gt"/>',
    '<Field Id="f" Content="5" Operator="ge"/>',
    '<Field Id="g" Content="Zoë 😀" Operator="contains"/>',
    '<Field Id="h" Operator="empty"/>',
    '<Field Id="i" Content="ignored" Operator="notempty"/>',
    '<Field Id="j" Content=""/>',
    '<Field Id=" Meter   number " Content="1"/>',
  ].join('')}</DataFields>`);
  assert.deepEqual(query.fields, [
    { fieldRef: 'a', operator: 'eq', content: 'x' },
    { fieldRef: 'b', operator: 'ne', content: '  two  spaces & <tag> \nnl ' },
    { fieldRef: 'c', operator: 'lt', content: '5' },
    { fieldRef: 'd', operator: 'le', content: '5' },
    { fieldRef: 'e', operator: 'gt', content: '5' },
    { fieldRef: 'f', operator: 'ge', content: '5' },
    { fieldRef: 'g', operator: 'contains', content: 'Zoë 😀' },
    { fieldRef: 'h', operator: 'empty', content: null },
    { fieldRef: 'i', operator: 'notempty', content: null },
    { fieldRef: 'j', operator: 'eq', content: '' },
    { fieldRef: 'Meter number', operator: 'eq', content: '1' },
  ]);
});

test('ProjectByDataRequest: Field refusals', () => {
  for (const op of ['', ' Operator="eq"', ' Operator="ne"', ' Operator="lt"', ' Operator="le"', ' Operator="gt"', ' Operator="ge"', ' Operator="contains"']) {
    refused(() => byData(`<DataFields><Field Id="MeterNumber"${op}/></DataFields>`), 'INVALID_REQUEST', /MeterNumber: Content is required/);
  }
  refused(() => byData('<DataFields><Field Id="a" Content="x" Operator="like"/></DataFields>'), 'INVALID_REQUEST', /Operator/);
  refused(() => byData('<DataFields><Field Content="x"/></DataFields>'), 'INVALID_REQUEST', /Id/);
  refused(() => byData('<DataFields><Field Id="" Content="x"/></DataFields>'), 'INVALID_REQUEST', /Id/);
  refused(() => byData('<DataFields><Field Id="a" Value="x"/></DataFields>'), 'INVALID_REQUEST', /Value/);
  refused(() => byData('<DataFields><Field Id="a">x</Field></DataFields>'), 'INVALID_REQUEST');
});

test('ProjectByDataRequest: at most 100 Field and 20 FilterByStatusDate elements', () => {
  assert.equal(MAX_FIELD_FILTERS, 100);
  assert.equal(MAX_STATUS_DATE_FILTERS, 20);
  const fields = (n: number) => `<DataFields>${'<Field Id="a" Content="x"/>'.repeat(n)}</DataFields>`;
  const dates = (n: number) => '<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01" Operator="lt"/>'.repeat(n);
  assert.equal(byData(dates(20) + fields(100)).fields.length, 100);
  assert.equal(byData(dates(20)).statusDates.length, 20);
  refused(() => byData(fields(101)), 'INVALID_REQUEST', /at most 100 .*101/);
  refused(() => byData(dates(21)), 'INVALID_REQUEST', /at most 20 .*21/);
});

test('ProjectByDataRequest: element order, unknown content, root, namespace and well-formedness', () => {
  const current = '<FilterByCurrentStatuses Operation="Include"><Status Id="a"/></FilterByCurrentStatuses>';
  const date = '<FilterByStatusDate Id="a" DateTime="2017-06-08T18:10:01" Operator="lt"/>';
  refused(() => byData('<DataFields/>' + current), 'INVALID_REQUEST', /FilterByCurrentStatuses/);
  refused(() => byData(date + current), 'INVALID_REQUEST', /FilterByCurrentStatuses/);
  refused(() => byData('<DataFields/><DataFields/>'), 'INVALID_REQUEST', /DataFields/);
  refused(() => byData('<Unknown/>'), 'INVALID_REQUEST', /Unknown/);
  refused(() => decodeProjectByDataRequest(doc('ProjectByNumberRequest', ''), NS, schemas), 'INVALID_REQUEST', /ProjectByDataRequest/);
  refused(() => decodeProjectByDataRequest('<ProjectByDataRequest xmlns="urn:other"/>', NS, schemas), 'WRONG_NAMESPACE');
  refused(() => decodeProjectByDataRequest('<ProjectByDataRequest/>', NS, schemas), 'WRONG_NAMESPACE');
  refused(() => decodeProjectByDataRequest(`<ProjectByDataRequest xmlns="${NS}">`, NS, schemas), 'MALFORMED_XML');
  refused(() => decodeProjectByDataRequest('  ', NS, schemas), 'INVALID_REQUEST', /empty/);
});

test('SetProjectStatusRequest gives the status reference', () => {
  assert.deepEqual(status(' StatusId="3X8KK600"'), { statusRef: '3X8KK600' });
  assert.deepEqual(status(' StatusId="  Application\tIn  Process "'), { statusRef: 'Application In Process' });
  assert.deepEqual(decodeSetProjectStatusRequest(Buffer.from(`<SetProjectStatusRequest xmlns="${NS}" StatusId="a&amp;b"/>`), NS, schemas), { statusRef: 'a&b' });
  assert.deepEqual(status(` StatusId="${'x'.repeat(200)}"`), { statusRef: 'x'.repeat(200) });
});

test('SetProjectStatusRequest refusals', () => {
  refused(() => status(''), 'INVALID_REQUEST', /StatusId/);
  refused(() => status(' StatusId=""'), 'INVALID_REQUEST', /StatusId/);
  refused(() => status(' StatusId="   "'), 'INVALID_REQUEST', /StatusId/);
  refused(() => status(` StatusId="${'x'.repeat(201)}"`), 'INVALID_REQUEST', /StatusId/);
  refused(() => status(' StatusId="a" Extra="b"'), 'INVALID_REQUEST', /Extra/);
  refused(() => decodeSetProjectStatusRequest(doc('SetProjectStatusRequest', '<StatusId>a</StatusId>'), NS, schemas), 'INVALID_REQUEST');
  refused(() => decodeSetProjectStatusRequest('<SetProjectStatusRequest StatusId="a"/>', NS, schemas), 'WRONG_NAMESPACE');
  refused(() => decodeSetProjectStatusRequest(`<SetProjectStatusRequest xmlns="${NS}" StatusId="a">`, NS, schemas), 'MALFORMED_XML');
  refused(() => decodeSetProjectStatusRequest(doc('SetAssigneeRequest', ''), NS, schemas), 'INVALID_REQUEST', /SetProjectStatusRequest/);
});

test('SetProjectStatusHistoryReportAs: the documented example names the entry within that second', () => {
  assert.deepEqual(reportAs(' StatusId="ApplicationSubmitted" Timestamp="2021-04-29T16:50:08-07:00" ReportAs="suppress"'), {
    statusRef: 'ApplicationSubmitted', timestamp: Date.UTC(2021, 3, 29, 23, 50, 8), precisionMs: 1000, reportAs: 'suppress',
  });
});

test('SetProjectStatusHistoryReportAs: precision, offsets and ReportAs in any letter case', () => {
  const at = Date.UTC(2021, 3, 29, 16, 50, 8);
  const cases: [string, number, number, string, 'normal' | 'suppress'][] = [
    ['2021-04-29T16:50:08', at, 1000, 'normal', 'normal'],
    ['2021-04-29T16:50:08Z', at, 1000, 'Normal', 'normal'],
    ['2021-04-29T16:50:08.5Z', at + 500, 100, 'NORMAL', 'normal'],
    ['2021-04-29T16:50:08.12Z', at + 120, 10, 'Suppress', 'suppress'],
    ['2021-04-29T16:50:08.123Z', at + 123, 1, 'SUPPRESS', 'suppress'],
    ['2021-04-29T16:50:08.1234567+00:00', at + 123, 1, ' suppress ', 'suppress'],
    ['2021-04-29T18:50:08.000+02:00', at, 1, 'sUpPrEsS', 'suppress'],
  ];
  for (const [timestamp, expectedAt, precisionMs, text, expected] of cases) {
    assert.deepEqual(reportAs(` StatusId=" st-1 " Timestamp="${timestamp}" ReportAs="${text}"`), {
      statusRef: 'st-1', timestamp: expectedAt, precisionMs, reportAs: expected,
    }, timestamp);
  }
});

test('SetProjectStatusHistoryReportAs refusals', () => {
  const ok = { StatusId: 'a', Timestamp: '2021-04-29T16:50:08Z', ReportAs: 'normal' };
  const attrs = (over: Record<string, string | null>) => Object.entries({ ...ok, ...over })
    .filter(([, v]) => v !== null).map(([k, v]) => ` ${k}="${v}"`).join('');
  refused(() => reportAs(attrs({ StatusId: null })), 'INVALID_REQUEST', /StatusId/);
  refused(() => reportAs(attrs({ StatusId: ' ' })), 'INVALID_REQUEST', /StatusId/);
  refused(() => reportAs(attrs({ Timestamp: null })), 'INVALID_REQUEST', /Timestamp/);
  refused(() => reportAs(attrs({ Timestamp: '2021-04-29' })), 'INVALID_REQUEST', /Timestamp/);
  refused(() => reportAs(attrs({ Timestamp: '29/04/2021 16:50' })), 'INVALID_REQUEST', /Timestamp/);
  refused(() => reportAs(attrs({ Timestamp: '2021-04-29T24:00:00' })), 'INVALID_REQUEST', /Timestamp/);
  refused(() => reportAs(attrs({ Timestamp: '2021-04-29T16:50:08.123456789Z' })), 'INVALID_REQUEST', /Timestamp/);
  refused(() => reportAs(attrs({ ReportAs: null })), 'INVALID_REQUEST', /ReportAs/);
  refused(() => reportAs(attrs({ ReportAs: 'hide' })), 'INVALID_REQUEST', /ReportAs/);
  refused(() => reportAs(attrs({ ReportAs: '' })), 'INVALID_REQUEST', /ReportAs/);
  refused(() => decodeSetProjectStatusHistoryReportAs(doc('SetProjectStatusHistoryReportAsRequest', '', attrs({})), NS, schemas), 'INVALID_REQUEST', /SetProjectStatusHistoryReportAs/);
  refused(() => decodeSetProjectStatusHistoryReportAs(`<SetProjectStatusHistoryReportAs${attrs({})}/>`, NS, schemas), 'WRONG_NAMESPACE');
});

test('SetAssigneeRequest gives the collapsed e-mail address, or null to clear', () => {
  assert.deepEqual(assignee('<AssigneeEmail>\n  reviewer@example.com  \n</AssigneeEmail>'), { assigneeEmail: 'reviewer@example.com' });
  assert.deepEqual(assignee('<AssigneeEmail><![CDATA[a&b@example.com]]></AssigneeEmail>'), { assigneeEmail: 'a&b@example.com' });
  assert.deepEqual(assignee(''), { assigneeEmail: null });
  assert.deepEqual(assignee('<AssigneeEmail/>'), { assigneeEmail: null });
  assert.deepEqual(assignee('<AssigneeEmail> \t\n </AssigneeEmail>'), { assigneeEmail: null });
  assert.deepEqual(decodeSetAssigneeRequest(`<SetAssigneeRequest xmlns="${NS}"/>`, NS, schemas), { assigneeEmail: null });
  assert.deepEqual(assignee(`<AssigneeEmail>${'a'.repeat(320)}</AssigneeEmail>`), { assigneeEmail: 'a'.repeat(320) });
});

test('SetAssigneeRequest refusals', () => {
  refused(() => assignee(`<AssigneeEmail>${'a'.repeat(321)}</AssigneeEmail>`), 'INVALID_REQUEST', /AssigneeEmail/);
  refused(() => assignee('<AssigneeEmail>a</AssigneeEmail><AssigneeEmail>b</AssigneeEmail>'), 'INVALID_REQUEST', /AssigneeEmail/);
  refused(() => assignee('<OwnerEmail>a@example.com</OwnerEmail>'), 'INVALID_REQUEST', /OwnerEmail/);
  refused(() => assignee('<AssigneeEmail><b>a</b></AssigneeEmail>'), 'INVALID_REQUEST');
  refused(() => decodeSetAssigneeRequest(doc('SetProjectOwnerRequest', ''), NS, schemas), 'INVALID_REQUEST', /SetAssigneeRequest/);
  refused(() => decodeSetAssigneeRequest('<SetAssigneeRequest xmlns="urn:other"/>', NS, schemas), 'WRONG_NAMESPACE');
  refused(() => decodeSetAssigneeRequest(new Uint8Array([0x3c, 0xff, 0xfe]), NS, schemas), 'MALFORMED_XML');
  refused(() => decodeSetAssigneeRequest(`<!DOCTYPE x><SetAssigneeRequest xmlns="${NS}"/>`, NS, schemas), 'MALFORMED_XML', /DTD/);
});
