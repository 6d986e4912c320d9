import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { generatedXsds } from '../../src/wire/generated-xsds.ts';
import { createSchemaRegistry, NAMESPACE_PLACEHOLDER, SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { NS, readBack } from './xml-test-helpers.ts';

const schemas = createSchemaRegistry(NS);
after(() => schemas.dispose());

const EXPECTED = [
  'AllProjectDataResponse', 'AttachmentMetadataResponse', 'AutomationScheduleResponse', 'AutomationScheduleRunResponse',
  'CreateMfaSessionTokenRequest', 'CreateMfaSessionTokenResponse', 'CreateWebhookSubscriptionRequest', 'CreateWebhookSubscriptionResponse',
  'CustomListChoicesResponse', 'DocumentRequestResponse', 'EnvelopeResponse', 'ErrorResponse', 'EventsResponse', 'FormSchemaResponse',
  'FormSchemaResponseV2', 'FormsResponse', 'InquiryNotesResponse', 'InquiryThreadResponse', 'InquiryThreadsResponse', 'LinkProjectRequest',
  'NewProjectResponse', 'ProgramsResponse', 'ProjectAutomationRunsResponse', 'ProjectByDataRequest', 'ProjectByNumberRequest',
  'ProjectDataGetResponse', 'ProjectDataRequest', 'ProjectDataSetResponse', 'ProjectDeadlineResponse', 'ProjectDeadlinesResponse',
  'ProjectDocumentsResponse', 'ProjectEnvelopesResponse', 'ProjectExportDataGetResponse', 'ProjectExportDataGetResponseV2', 'ProjectRelationsResponse',
  'ProjectStatusHistoryResponse', 'ProjectSubmitResponse', 'ProjectsResponse', 'ProjectsResponseExtended', 'RedeliverWebhookDeliveriesRequest',
  'RelatedProjectResponse',
  'RotateWebhookSecretRequest', 'RotateWebhookSecretResponse', 'SetAssigneeRequest', 'SetAssigneeResponse', 'SetAttachmentMetadata',
  'SetInquiryNoteRequest', 'SetInquiryThreadExternalIdRequest', 'SetInquiryThreadStatusRequest', 'SetProjectOwnerRequest',
  'SetProjectOwnerResponse', 'SetProjectStatusHistoryReportAs', 'SetProjectStatusRequest', 'SetWebhookSubscriptionRequest',
  'StatusHistoryReportAsResponse', 'StatusListResponse', 'StatusSetResponse', 'WebhookDeliveriesResponse', 'WebhookDeliveryResponse',
  'WebhookSubscriptionResponse', 'WebhookSubscriptionsResponse',
];

test('list() names every described document', () => {
  assert.deepEqual(schemas.list(), EXPECTED);
});

test('generated XSDs carry the placeholder; source() carries the namespace', () => {
  for (const [name, raw] of generatedXsds()) assert.ok(raw.includes(`targetNamespace="${NAMESPACE_PLACEHOLDER}"`), name);
  for (const name of schemas.list()) {
    const source = schemas.source(name);
    assert.ok(!source.includes(NAMESPACE_PLACEHOLDER), name);
    const root = readBack(source);
    assert.equal(root.attrs['targetNamespace'], NS, name);
    assert.equal(root.attrs['elementFormDefault'], 'qualified', name);
    assert.equal(root.attrs['attributeFormDefault'], 'unqualified', name);
  }
});

test('another namespace gives schemas for that namespace', () => {
  const other = new SchemaRegistry('urn:example:other');
  try {
    const body = '<SetProjectOwnerRequest xmlns="urn:example:other"><OwnerEmail>a@b.c</OwnerEmail></SetProjectOwnerRequest>';
    assert.deepEqual(other.validate('SetProjectOwnerRequest', body), []);
    assert.notDeepEqual(schemas.validate('SetProjectOwnerRequest', body), []);
  } finally {
    other.dispose();
  }
});

test('validate() reports parse failures and schema violations as messages', () => {
  assert.deepEqual(schemas.validate('SetProjectOwnerRequest', `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>a</OwnerEmail></SetProjectOwnerRequest>`), []);
  const broken = schemas.check('SetProjectOwnerRequest', '<SetProjectOwnerRequest');
  assert.equal(broken.wellFormed, false);
  assert.ok(broken.errors.length > 0);
  const invalid = schemas.check('SetProjectOwnerRequest', `<SetProjectOwnerRequest xmlns="${NS}"/>`);
  assert.equal(invalid.wellFormed, true);
  assert.match(invalid.errors[0]!, /^line 1: .*OwnerEmail/);
});

test('unknown schema names are an error; dispose() allows later use', () => {
  assert.throws(() => schemas.source('Nope'), /unknown XML schema/);
  assert.throws(() => schemas.validate('Nope', '<a/>'), /unknown XML schema/);
  const registry = new SchemaRegistry(NS);
  registry.validate('ErrorResponse', '<a/>');
  registry.dispose();
  assert.notDeepEqual(registry.validate('ErrorResponse', '<a/>'), []);
  registry.dispose();
});
