import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ApiError, type ErrorCode } from '../../src/domain/api-error.ts';
import type { AttachmentMetadataView } from '../../src/domain/views.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import {
  AttachmentMetadataResponse, attachmentMetadataValue, attachmentReviewInput, SetAttachmentMetadata,
} from '../../src/wire/documents/attachment-metadata.ts';
import { readXmlDocument } from '../../src/wire/wire-xml-reader.ts';
import { writeXmlDocument } from '../../src/wire/wire-xml-writer.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { kid, NS, readBack } from './xml-test-helpers.ts';

const encodeAttachmentMetadataResponse = (view: AttachmentMetadataView, ns: string) =>
  writeXmlDocument(AttachmentMetadataResponse, attachmentMetadataValue(view), ns);
const decodeSetAttachmentMetadata = (body: string, ns: string, schemas: SchemaRegistry) =>
  attachmentReviewInput(readXmlDocument(SetAttachmentMetadata, body, ns, schemas));

// AttachmentMetadataResponse (SetProjectAttachment, GetAttachmentMetadata, SetAttachmentMetadata) and the
// SetAttachmentMetadata request.

const schemas = new SchemaRegistry(NS);
after(() => schemas.dispose());

const T1 = Date.UTC(2026, 4, 4, 16, 20, 1, 250);
const T2 = Date.UTC(2026, 4, 5, 9, 0, 0, 0);
const SHA = 'a'.repeat(64);

const view = (overrides: Partial<AttachmentMetadataView> = {}): AttachmentMetadataView => ({
  attachmentId: 'ATT1', attachmentName: 'Site plan <main> & "roof"', fileName: 'plan "v2" <final>.pdf', fileSize: 23485, contentType: 'application/pdf',
  sha256: SHA, version: 2, uploadedBy: 'pat@example.org', uploadedTimestamp: T1, approvalStatus: 'Pending', note: null,
  reviewedBy: null, reviewedTimestamp: null, ...overrides,
});

const request = (attrs: string, ns = NS) => `<?xml version="1.0" encoding="utf-8"?>\n<SetAttachmentMetadata xmlns="${ns}"${attrs}/>`;
const decode = (attrs: string) => decodeSetAttachmentMetadata(request(attrs), NS, schemas);

function refused(run: () => unknown, code: ErrorCode): void {
  assert.throws(run, (error: unknown) => error instanceof ApiError && error.code === code);
}

test('AttachmentMetadataResponse: a pending upload validates and reads back; review attributes are left out', () => {
  const xml = encodeAttachmentMetadataResponse(view(), NS);
  assert.deepEqual(schemas.validate('AttachmentMetadataResponse', xml), []);
  const root = readBack(xml);
  assert.equal(root.name, 'AttachmentMetadataResponse');
  assert.equal(root.namespace, NS);
  assert.deepEqual(kid(root, 'AttachmentMetadata').attrs, {
    AttachmentId: 'ATT1', AttachmentName: 'Site plan <main> & "roof"', FileName: 'plan "v2" <final>.pdf', FileSize: '23485',
    ContentType: 'application/pdf', Sha256: SHA, Version: '2', UploadedBy: 'pat@example.org', UploadedTimestamp: isoTimestamp(T1),
    ApprovalStatus: 'Pending',
  });
});

test('AttachmentMetadataResponse: a reviewed file carries Note, ReviewedBy and ReviewedTimestamp', () => {
  const xml = encodeAttachmentMetadataResponse(view({ approvalStatus: 'Approved', note: 'In order\nline 2', reviewedBy: 'admin@example.org', reviewedTimestamp: T2 }), NS);
  assert.deepEqual(schemas.validate('AttachmentMetadataResponse', xml), []);
  const attrs = kid(readBack(xml), 'AttachmentMetadata').attrs;
  assert.deepEqual([attrs.ApprovalStatus, attrs.Note, attrs.ReviewedBy, attrs.ReviewedTimestamp], ['Approved', 'In order\nline 2', 'admin@example.org', isoTimestamp(T2)]);
});

test('AttachmentMetadataResponse.xsd refuses an unknown status, a bad checksum and version 0', () => {
  for (const bad of [view({ approvalStatus: 'Maybe' }), view({ sha256: 'ABC' }), view({ version: 0 })]) {
    assert.notDeepEqual(schemas.validate('AttachmentMetadataResponse', encodeAttachmentMetadataResponse(bad, NS)), []);
  }
});

test('SetAttachmentMetadata: the documented example', () => {
  assert.deepEqual(decode(' AttachmentStatus="Approve" Note="Document is in order"'), { action: 'Approve', note: 'Document is in order' });
});

test('SetAttachmentMetadata: the four actions in any letter case; Note absent is null, empty is empty', () => {
  assert.deepEqual(decode(' AttachmentStatus="reject"'), { action: 'Reject', note: null });
  assert.deepEqual(decode(' AttachmentStatus=" UNMARK "'), { action: 'Unmark', note: null });
  assert.deepEqual(decode(' AttachmentStatus="Save" Note=""'), { action: 'Save', note: '' });
  assert.deepEqual(decode(' Note="kept &amp; &lt;sent&gt; as is" AttachmentStatus="sAvE"'), { action: 'Save', note: 'kept & <sent> as is' });
});

test('SetAttachmentMetadata: refused without a status, with another one, with unknown attributes, a long note or another namespace', () => {
  refused(() => decode(''), 'INVALID_REQUEST');
  refused(() => decode(' AttachmentStatus="Accept"'), 'INVALID_REQUEST');
  refused(() => decode(' AttachmentStatus="Approve" Colour="red"'), 'INVALID_REQUEST');
  refused(() => decode(` AttachmentStatus="Approve" Note="${'x'.repeat(4001)}"`), 'INVALID_REQUEST');
  assert.equal(decode(` AttachmentStatus="Approve" Note="${'x'.repeat(4000)}"`).note?.length, 4000);
  refused(() => decodeSetAttachmentMetadata(request(' AttachmentStatus="Approve"', 'urn:other'), NS, schemas), 'WRONG_NAMESPACE');
  refused(() => decodeSetAttachmentMetadata('<SetAttachmentMetadata', NS, schemas), 'MALFORMED_XML');
});
