import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { createBlobStore } from '../../src/store/create-blob-store.ts';
import { s3Client, S3BlobStore } from '../../src/store/s3-blob-store.ts';
import type { Store } from '../../src/store/store.ts';
import { AttachmentMetadataResponse } from '../../src/wire/documents/attachment-metadata.ts';
import { blobChunkRows, breaksAfter, filesUnder, pieces, sampleBytes } from '../support/blob-fixtures.ts';
import { DIALECTS, forEachDialect, openTestStore, type TestDialect, type TestStore } from '../support/databases.ts';
import { type S3Server, startS3Server } from '../support/s3-server.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, authHeaders, type HttpHarness, NS, startHttp, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_BODY, xmlAnswerValue } from '../support/json-answers.ts';
import {
  ADMIN_ONLY, COMPLETE, createProject, draftPath, fieldErrors, type MatrixRow, projectPath, projectState, type Sender, setDraft, submitPath, UNAUTHENTICATED,
} from './http-helpers.ts';

// SetProjectAttachment  POST …/Projects/{ProjectId}/Forms/{FormId}/Attachments/{AttachmentId}  (raw body)
// GetActiveAttachment   GET  …/Projects/{ProjectId}/Attachments/{AttachmentId}
// GetAttachmentAsAdmin  GET  …/Projects/{ProjectId}/Attachments/{AttachmentId}/Versions/{Version}
// GetAttachmentMetadata GET  …/Projects/{ProjectId}/Attachments/{AttachmentId}/Metadata
// SetAttachmentMetadata POST …/Projects/{ProjectId}/Attachments/{AttachmentId}/Metadata
// Every case runs on both databases with both blob stores.

/** A second, required attachment definition added to the fixture form: PDFs and any text/* up to 4 KiB. */
const PERMIT = 'ATTACH000002';
const PERMIT_MAX = 4096;
/** The upload cap of the harness, below the photo definition's own 5 MiB. */
const MAX_UPLOAD = 3 * 1024 * 1024;
const PNG = '\x89PNG\r\n\x1a\n';
const BLOB_KINDS = ['local', 'database', 's3'] as const;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const png = (size: number, seed: number) => sampleBytes(size, seed, PNG);

/** The fixture program with the permit definition added to its form. */
async function addPermit(store: Store): Promise<void> {
  const rows = programRows(T0 + 1);
  rows.forms[0]!.attachments.push({
    id: PERMIT, formId: IDS.form, customId: 'permit', name: 'Permit', allowedTypes: ['application/pdf', 'text/*'],
    maxSizeBytes: PERMIT_MAX, required: true, position: 1,
  });
  await store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

/** A harness with one blob store, and a way to see everything that store keeps (and its S3 server, with s3). */
interface Rig { h: HttpHarness; db: TestStore; blobDir: string; kept(): Promise<string[] | number>; s3: S3Server | null }

function sharedRig(dialect: TestDialect, kind: (typeof BLOB_KINDS)[number]): () => Rig {
  let rig: Rig | undefined;
  let dir = '';
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-attachments-'));
    const blobDir = path.join(dir, 'blobs');
    const db = await openTestStore(dialect);
    // One s3rver per rig, over its own temporary directory; the harness reaches it through APAS_S3_*.
    const s3 = kind === 's3' ? await startS3Server() : null;
    const h = await startHttp(db, { APAS_BLOB_STORE: kind, APAS_BLOB_DIR: blobDir, APAS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD), ...s3?.env });
    await addPermit(db.store);
    // Local: every file, temp files included. Database: every chunk row. S3: every object in the bucket.
    const kept = async () => (kind === 'local' ? filesUnder(blobDir) : kind === 's3' ? s3!.keys() : blobChunkRows(db.config));
    rig = { h, db, blobDir, kept, s3 };
  });
  after(async () => {
    await rig?.h.close();
    await rig?.s3?.stop();
    await rig?.db.store.close();
    if (dialect === 'postgres') await new Promise((resolve) => setTimeout(resolve, 100));
    await rig?.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!rig) throw new Error('the rig is built in before()');
    return rig;
  };
}

function credentials(h: HttpHarness, who: Sender): Record<string, string> {
  if (who === 'anonymous') return {};
  if (who === 'badKey') return { ...authHeaders(h.who.admin), 'x-apikey': h.who.admin.apiKey.replace(/_[^_]+$/, `_${'z'.repeat(32)}`) };
  return authHeaders(h.who[who]);
}

interface UploadOptions { type?: string | null; name?: string | null; disposition?: string; headers?: Record<string, string>; form?: string }

/** SetProjectAttachment as `who`: a Buffer body carries its Content-Length, a stream none (unless given in headers). */
function upload(h: HttpHarness, who: Sender, projectId: string, attachment: string, body: Buffer | Readable | undefined, o: UploadOptions = {}): Promise<LightMyRequestResponse> {
  const type = o.type === undefined ? 'image/png' : o.type;
  const name = o.name === undefined ? 'photo.png' : o.name;
  const headers: Record<string, string> = { ...credentials(h, who) };
  if (type !== null) headers['content-type'] = type;
  if (o.disposition !== undefined) headers['content-disposition'] = o.disposition;
  else if (name !== null) headers['content-disposition'] = `attachment; filename="${name}"`;
  return h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/${o.form ?? 'application'}/Attachments/${attachment}`,
    payload: body, headers: { ...headers, ...o.headers },
  });
}

const filePath = (projectId: string, attachment = 'photo') => `${projectPath(projectId)}/Attachments/${attachment}`;

function get(h: HttpHarness, who: Sender, url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'GET', url, headers: { ...credentials(h, who), ...headers } });
}

function review(h: HttpHarness, who: Sender, projectId: string, status: string, note?: string, attachment = 'photo'): Promise<LightMyRequestResponse> {
  const body = `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="${status}"${note === undefined ? '' : ` Note="${note}"`}/>`;
  return h.app.inject({
    method: 'POST', url: `${filePath(projectId, attachment)}/Metadata`, payload: body,
    headers: { ...credentials(h, who), 'content-type': 'application/xml' },
  });
}

/** Every stored version of a definition's file in a project, oldest first. */
async function versions(store: Store, projectId: string, definitionId: string = IDS.photo) {
  const out = [];
  for (let v = 1; ; v++) {
    const a = await store.attachments.getAttachment(projectId, definitionId, v);
    if (!a) return out;
    out.push(a);
  }
}

/** Everything a refused attachment request could have changed. */
async function state(r: Rig, projectId: string) {
  return {
    ...(await projectState(r.h, projectId)),
    photo: await versions(r.h.store, projectId),
    permit: await versions(r.h.store, projectId, PERMIT),
    blobs: await r.kept(),
  };
}

/** The attributes of the AttachmentMetadata element of an answer. */
function metadata(res: LightMyRequestResponse): Record<string, string> {
  const element = /<AttachmentMetadata\b[^>]*\/>/.exec(res.body)?.[0] ?? '';
  return Object.fromEntries([...element.matchAll(/\s(\w+)="([^"]*)"/g)].filter((m) => m[1] !== 'xmlns').map((m) => [m[1]!, m[2]!]));
}

function assertOk(h: HttpHarness, res: LightMyRequestResponse, schema = 'AttachmentMetadataResponse'): void {
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, schema);
}

/** A stream that records whether anyone read from it. */
function watched(bytes: Buffer): Readable & { touched: boolean } {
  const stream = new Readable({
    read() {
      stream.touched = true;
      this.push(bytes);
      this.push(null);
    },
  }) as Readable & { touched: boolean };
  stream.touched = false;
  return stream;
}

for (const kind of BLOB_KINDS) {
  forEachDialect(`HTTP attachments (${kind} blob store)`, ({ dialect }) => {
    const rig = sharedRig(dialect, kind);
    // With S3 the bucket holds the files and the database only the rows, as with local files, which run everything on
    // both databases: so S3 runs everything on the first database of the run and, on the others, the groups where the
    // file store and the database's transaction meet ("failures after the file is stored"). Database files run all on both.
    const group: (name: string, fn: () => void) => void = kind !== 's3' || dialect === DIALECTS[0] ? describe : () => undefined;

    group('SetProjectAttachment: who may upload', () => {
      const matrix: MatrixRow[] = [
        { who: 'admin', status: 200 },
        { who: 'programAdmin', status: 200 },
        { who: 'editor', status: 200 },
        { who: 'reader', status: 403, code: 'FORBIDDEN' },
        { who: 'applicant', status: 200 },
        { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
        { who: 'outsider', status: 403, code: 'FORBIDDEN' },
        ...UNAUTHENTICATED,
      ];
      for (const row of matrix) {
        it(`uploads a photo to the applicant's project: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
          const r = rig();
          const { h } = r;
          const projectId = await createProject(h, 'applicant');
          assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(300, 1), { name: 'first.png' }));
          const before = await state(r, projectId);
          const at = h.clock.advance();
          const bytes = png(5000, 2);
          const res = await upload(h, row.who, projectId, 'photo', bytes, { name: 'second.png' });
          if (row.code) {
            assertError(h, res, row.status, row.code);
            assert.deepEqual(await state(r, projectId), before, 'a refused upload leaves the active file, the versions and the blobs as they were');
            return;
          }
          assertOk(h, res);
          const who = h.who[row.who as Who];
          assert.deepEqual(metadata(res), {
            AttachmentId: IDS.photo, AttachmentName: 'Site photo', FileName: 'second.png', FileSize: '5000', ContentType: 'image/png',
            Sha256: sha256(bytes), Version: '2', UploadedBy: who.email, UploadedTimestamp: isoTimestamp(at), ApprovalStatus: 'Pending',
          });
          const after = await state(r, projectId);
          assert.deepEqual(after.photo.map((a) => [a.version, a.fileName, a.sizeBytes]), [[1, 'first.png', 300], [2, 'second.png', 5000]]);
          assert.deepEqual(after.project, { ...before.project!, updatedAt: at, updatedBy: who.id, version: before.project!.version + 1 });
          assert.equal(after.audit[0]?.action, 'project.attachment.upload');
          assert.equal(after.audit[0]?.actorId, who.id);
          assert.deepEqual(after.audit[0]?.detail, { formId: IDS.form, attachmentId: IDS.photo, version: 2, size: 5000, sha256: sha256(bytes), contentType: 'image/png' });
          if (kind === 'database') assert.equal(after.blobs, (before.blobs as number) + 1);
          else assert.equal((after.blobs as string[]).length, (before.blobs as string[]).length + 1);
        });
      }

      it('non-admins upload only while the form is available; admins always may', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] });
        assertOk(h, await upload(h, 'applicant', projectId, 'permit', Buffer.from('%PDF-1.4 permit'), { type: 'application/pdf', name: 'permit.pdf' }));
        h.clock.advance();
        assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
        const before = await state(r, projectId);
        for (const who of ['applicant', 'editor'] as const) {
          assertError(h, await upload(h, who, projectId, 'photo', png(100, 3)), 409, 'FORM_NOT_AVAILABLE');
        }
        assert.deepEqual(await state(r, projectId), before);
        assertOk(h, await upload(h, 'admin', projectId, 'photo', png(100, 3)));
      });

      it('a form or attachment that does not exist, or an attachment of another form, is 404; a bad id 400', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        assertError(h, await upload(h, 'applicant', projectId, 'nope', png(10, 1)), 404, 'NOT_FOUND');
        assertError(h, await upload(h, 'applicant', projectId, 'photo', png(10, 1), { form: 'nope' }), 404, 'NOT_FOUND');
        assertError(h, await upload(h, 'applicant', 'NOPROJECT001', 'photo', png(10, 1)), 404, 'NOT_FOUND');
        assertError(h, await upload(h, 'applicant', projectId, 'ph%20oto', png(10, 1)), 400, 'INVALID_PARAMETER');
        assert.deepEqual(await state(r, projectId), before);
        // By generated ids too.
        assertOk(h, await upload(h, 'applicant', projectId, IDS.photo, png(10, 1), { form: IDS.form }));
      });
    });

    group('upload, replace, review and download', () => {
      it('keeps every version: the newest is active, older ones stay downloadable by admins', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const v1 = png(70_000, 11);
        // Larger than APAS_BODY_LIMIT_BYTES (1 MiB), which bounds XML bodies, not uploads.
        const v2 = png(2 * 1024 * 1024 + 3, 12);
        const first = await upload(h, 'applicant', projectId, 'photo', v1, { name: 'roof.png' });
        assertOk(h, first);
        assert.equal(metadata(first).Version, '1');
        const meta1 = await get(h, 'applicant', `${filePath(projectId)}/Metadata`);
        assertOk(h, meta1);
        assert.deepEqual(metadata(meta1), metadata(first));

        h.clock.advance();
        const second = await upload(h, 'applicant', projectId, 'photo', pieces(v2, 30_000), { type: 'image/jpeg', name: 'roof-final.jpg' });
        assertOk(h, second);
        assert.equal(metadata(second).Version, '2');
        assert.equal(metadata(second).ContentType, 'image/jpeg');

        const active = await get(h, 'reader', filePath(projectId));
        assert.equal(active.statusCode, 200);
        assert.deepEqual(active.rawPayload, v2);
        const old = await get(h, 'programAdmin', `${filePath(projectId)}/Versions/1`);
        assert.equal(old.statusCode, 200);
        assert.deepEqual(old.rawPayload, v1);
        assert.equal(old.headers.etag, `"${sha256(v1)}"`);
        assert.equal(old.headers['content-type'], 'image/png');
        assert.match(String(old.headers['content-disposition']), /filename="roof\.png"/);
        assert.deepEqual((await get(h, 'admin', `${filePath(projectId)}/Versions/2`)).rawPayload, v2);
        assertError(h, await get(h, 'admin', `${filePath(projectId)}/Versions/3`), 404, 'NOT_FOUND');
        for (const bad of ['0', 'x', '-1', '1.0']) assertError(h, await get(h, 'admin', `${filePath(projectId)}/Versions/${bad}`), 400, 'INVALID_PARAMETER');
      });

      it('Approve, Reject, Unmark and Save set Approved, Rejected, Pending and nothing; a Note replaces, an empty one clears', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(1000, 21)));
        const steps: [string, string | undefined, string, string | undefined][] = [
          ['Approve', 'Looks right', 'Approved', 'Looks right'],
          ['Save', undefined, 'Approved', 'Looks right'],
          ['Save', 'Shadow &amp; glare noted', 'Approved', 'Shadow &amp; glare noted'],
          ['Reject', undefined, 'Rejected', 'Shadow &amp; glare noted'],
          ['unmark', '', 'Pending', undefined],
          ['APPROVE', undefined, 'Approved', undefined],
        ];
        for (const [action, note, status, shownNote] of steps) {
          const before = await state(r, projectId);
          const at = h.clock.advance();
          const res = await review(h, 'programAdmin', projectId, action, note);
          assertOk(h, res);
          const m = metadata(res);
          assert.equal(m.ApprovalStatus, status, action);
          assert.equal(m.Note, shownNote, action);
          assert.equal(m.ReviewedBy, h.who.programAdmin.email);
          assert.equal(m.ReviewedTimestamp, isoTimestamp(at));
          assert.equal(m.Version, '1');
          const after = await state(r, projectId);
          assert.equal(after.project?.updatedAt, at, 'SetAttachmentMetadata moves LastChangeTimestamp');
          assert.equal(after.audit[0]?.action, 'project.attachment.review');
          assert.deepEqual(after.blobs, before.blobs, 'a review stores no file');
          assert.deepEqual(metadata(await get(h, 'reader', `${filePath(projectId)}/Metadata`)), m, 'GetAttachmentMetadata shows the review');
        }
        // A new upload starts over as Pending, without the note; the reviewed version keeps its review.
        h.clock.advance();
        const next = await upload(h, 'applicant', projectId, 'photo', png(1000, 22));
        assert.deepEqual([metadata(next).ApprovalStatus, metadata(next).Note, metadata(next).ReviewedBy], ['Pending', undefined, undefined]);
        assert.deepEqual((await versions(h.store, projectId)).map((a) => a.approvalStatus), ['Approved', 'Pending']);
      });

      it('refuses a review request that does not fit its schema, changing nothing', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(100, 1)));
        const before = await state(r, projectId);
        assertError(h, await review(h, 'admin', projectId, 'Accept'), 400, 'INVALID_REQUEST');
        const wrongNs = await h.app.inject({
          method: 'POST', url: `${filePath(projectId)}/Metadata`, payload: '<SetAttachmentMetadata xmlns="urn:other" AttachmentStatus="Approve"/>',
          headers: { ...authHeaders(h.who.admin), 'content-type': 'application/xml' },
        });
        assertError(h, wrongNs, 400, 'WRONG_NAMESPACE');
        assertError(h, await review(h, 'admin', projectId, 'Approve', 'x'.repeat(4001)), 400, 'INVALID_REQUEST');
        assert.deepEqual(await state(r, projectId), before);
      });

      it('JSON: a review sent and answered as JSON has the values of the XML answer; a body off its schema is a JSON 400', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(100, 2)));
        const url = `${filePath(projectId)}/Metadata`;
        const post = (body: unknown) => h.app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { ...authHeaders(h.who.admin), ...JSON_BODY } });
        const before = await state(r, projectId);
        assert.match(assertJsonError(await post({ AttachmentStatus: 'Approve', Colour: 'red' }), 400, 'INVALID_REQUEST'), /"Colour"/);
        assert.match(assertJsonError(await post({ AttachmentStatus: 'Accept' }), 400, 'INVALID_REQUEST'), /AttachmentStatus must match pattern/);
        assert.deepEqual(await state(r, projectId), before);
        const at = h.clock.advance();
        const { AttachmentMetadata: m } = assertJsonAnswer(await post({ AttachmentStatus: ' aPPROVE ', Note: 'In order & <signed>' }), AttachmentMetadataResponse);
        assert.deepEqual([m.ApprovalStatus, m.Note, m.FileSize, m.Version, m.ReviewedBy, m.ReviewedTimestamp],
          ['Approved', 'In order & <signed>', 100, 1, h.who.admin.email, isoTimestamp(at)]);
        assert.deepEqual({ AttachmentMetadata: m }, xmlAnswerValue(h, await get(h, 'admin', url), AttachmentMetadataResponse));
      });

      it('downloads the identical bytes with Content-Type, Content-Length, Content-Disposition and the SHA-256 as ETag; If-None-Match gives 304', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const bytes = png(600_000, 31);
        const up = await upload(h, 'applicant', projectId, 'photo', bytes, { disposition: `attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.png` });
        assertOk(h, up);
        assert.equal(metadata(up).FileName, 'résumé &quot;final&quot;.png');
        const res = await get(h, 'applicant', filePath(projectId));
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.rawPayload, bytes);
        assert.equal(sha256(res.rawPayload), metadata(up).Sha256);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal(res.headers['content-length'], String(bytes.length));
        assert.equal(res.headers['content-disposition'], `attachment; filename="r_sum_ _final_.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.png`);
        assert.equal(res.headers.etag, `"${sha256(bytes)}"`);
        assert.equal(res.headers['cache-control'], 'private, no-cache');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        const etag = String(res.headers.etag);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const cached = await get(h, 'applicant', filePath(projectId), { 'if-none-match': ifNoneMatch });
          assert.equal(cached.statusCode, 304, ifNoneMatch);
          assert.equal(cached.rawPayload.length, 0);
          assert.equal(cached.headers.etag, etag);
        }
        assert.equal((await get(h, 'applicant', filePath(projectId), { 'if-none-match': '"other"' })).statusCode, 200);
        const head = await h.app.inject({ method: 'HEAD', url: filePath(projectId), headers: authHeaders(h.who.applicant) });
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers['content-length'], String(bytes.length));
        assert.equal(head.headers.etag, etag);
        assert.equal(head.rawPayload.length, 0);
        // By generated id as well as custom id.
        assert.deepEqual((await get(h, 'applicant', filePath(projectId, IDS.photo))).rawPayload, bytes);
      });

      it('answers one byte range with 206 and only those bytes, across the store\'s chunks; If-Range with another ETag gets the whole file', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const bytes = png(600_000, 37);
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', bytes, { name: 'big.png' }));
        const etag = `"${sha256(bytes)}"`;
        const last = bytes.length - 1;
        const parts: [string, number, number][] = [
          ['bytes=262000-524400', 262000, 524400], ['bytes=599990-', 599990, last], ['bytes=-100', last - 99, last], ['bytes=0-0', 0, 0],
          ['bytes=599000-700000', 599000, last], ['bytes=-700000', 0, last], ['Bytes=5-9, ', 5, 9],
        ];
        for (const [range, start, end] of parts) {
          for (const headers of [{ range }, { range, 'if-range': etag }] as Record<string, string>[]) {
            const res = await get(h, 'applicant', filePath(projectId), headers);
            assert.equal(res.statusCode, 206, `${JSON.stringify(headers)}: ${res.body.slice(0, 200)}`);
            assert.deepEqual(res.rawPayload, bytes.subarray(start, end + 1), range);
            assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${bytes.length}`);
            assert.equal(res.headers['content-length'], String(end - start + 1));
            assert.deepEqual([res.headers['content-type'], res.headers['accept-ranges'], res.headers.etag], ['image/png', 'bytes', etag]);
            assert.equal(res.headers['content-disposition'], `attachment; filename="big.png"; filename*=UTF-8''big.png`);
          }
        }
        // Several ranges, a malformed one, another unit, an If-Range that no longer holds (or is a date): the whole file, 200.
        const whole: Record<string, string>[] = [
          { range: 'bytes=0-9,20-29' }, { range: 'bytes=9-5' }, { range: 'bytes=a-b' }, { range: 'bytes=' }, { range: 'items=0-5' },
          { range: 'bytes=0-9', 'if-range': '"other"' }, { range: 'bytes=0-9', 'if-range': `W/${etag}` },
          { range: 'bytes=0-9', 'if-range': 'Sat, 29 Nov 2026 10:00:00 GMT' },
        ];
        for (const headers of whole) {
          const res = await get(h, 'applicant', filePath(projectId), headers);
          assert.equal(res.statusCode, 200, JSON.stringify(headers));
          assert.deepEqual(res.rawPayload, bytes, JSON.stringify(headers));
          assert.equal(res.headers['content-range'], undefined);
          assert.equal(res.headers['accept-ranges'], 'bytes');
        }
        // Conditions come first: a current If-None-Match is 304 whatever the range; HEAD ignores Range.
        assert.equal((await get(h, 'applicant', filePath(projectId), { range: 'bytes=0-9', 'if-none-match': etag })).statusCode, 304);
        const head = await h.app.inject({ method: 'HEAD', url: filePath(projectId), headers: { ...authHeaders(h.who.applicant), range: 'bytes=0-9' } });
        assert.deepEqual([head.statusCode, head.headers['content-length'], head.rawPayload.length], [200, String(bytes.length), 0]);
        // An older version by GetAttachmentAsAdmin takes ranges too.
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(1000, 38)));
        const old = await get(h, 'admin', `${filePath(projectId)}/Versions/1`, { range: 'bytes=100-199' });
        assert.equal(old.statusCode, 206);
        assert.deepEqual(old.rawPayload, bytes.subarray(100, 200));
      });

      it('a range with no byte in the file is 416 with Content-Range: bytes */size and the usual error body; other errors are unchanged', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const bytes = png(1000, 39);
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', bytes));
        for (const range of ['bytes=1000-', 'bytes=1000-2000', 'bytes=-0', `bytes=${'9'.repeat(30)}-`]) {
          const res = await get(h, 'applicant', filePath(projectId), { range });
          assertError(h, res, 416, 'RANGE_NOT_SATISFIABLE');
          assert.equal(res.headers['content-range'], 'bytes */1000', range);
          assert.equal(res.headers.etag, undefined, 'error answers carry no ETag');
          const json = await get(h, 'applicant', filePath(projectId), { ...JSON_BODY, range });
          assert.match(assertJsonError(json, 416, 'RANGE_NOT_SATISFIABLE'), /has 1000 bytes/);
          assert.equal(json.headers['content-range'], 'bytes */1000');
        }
        // An If-Range that no longer holds sends the whole file, even for a range past its end.
        assert.equal((await get(h, 'applicant', filePath(projectId), { range: 'bytes=5000-', 'if-range': '"other"' })).statusCode, 200);
        assertError(h, await get(h, 'otherApplicant', filePath(projectId), { range: 'bytes=0-9' }), 404, 'NOT_FOUND');
        assertJsonError(await get(h, 'applicant', filePath(projectId, 'unknown'), { ...JSON_BODY, range: 'bytes=0-9' }), 404, 'NOT_FOUND');
        assertError(h, await get(h, 'applicant', filePath(projectId), { range: 'bytes=0-9', 'if-match': '"other"' }), 412, 'PRECONDITION_FAILED');
      });

      it('nothing uploaded yet: the file and its metadata are 404, and so is reviewing it', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        assertError(h, await get(h, 'applicant', filePath(projectId)), 404, 'NOT_FOUND');
        assertError(h, await get(h, 'applicant', `${filePath(projectId)}/Metadata`), 404, 'NOT_FOUND');
        assertError(h, await get(h, 'admin', `${filePath(projectId)}/Versions/1`), 404, 'NOT_FOUND');
        assertError(h, await review(h, 'admin', projectId, 'Approve'), 404, 'NOT_FOUND');
        assertError(h, await get(h, 'admin', filePath(projectId, 'unknown')), 404, 'NOT_FOUND');
        assert.deepEqual(await state(r, projectId), before);
      });
    });

    group('who may read and review', () => {
      const readers: MatrixRow[] = [
        { who: 'admin', status: 200 }, { who: 'programAdmin', status: 200 }, { who: 'editor', status: 200 }, { who: 'reader', status: 200 },
        { who: 'applicant', status: 200 }, { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' }, { who: 'outsider', status: 403, code: 'FORBIDDEN' },
        ...UNAUTHENTICATED,
      ];
      const admins = ADMIN_ONLY;
      let projectId = '';
      const bytes = png(2048, 41);
      before(async () => {
        const { h } = rig();
        projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', bytes));
      });
      const row = (r: MatrixRow) => `${r.who} → ${r.status}${r.code ? ` ${r.code}` : ''}`;
      for (const r of readers) {
        it(`GetActiveAttachment and GetAttachmentMetadata: ${row(r)}`, async () => {
          const { h } = rig();
          const file = await get(h, r.who, filePath(projectId));
          const meta = await get(h, r.who, `${filePath(projectId)}/Metadata`);
          if (r.code) {
            assertError(h, file, r.status, r.code);
            assertError(h, meta, r.status, r.code);
            return;
          }
          assert.equal(file.statusCode, 200);
          assert.deepEqual(file.rawPayload, bytes);
          assertOk(h, meta);
        });
      }
      for (const r of admins) {
        it(`GetAttachmentAsAdmin and SetAttachmentMetadata: ${row(r)}`, async () => {
          const rg = rig();
          const { h } = rg;
          const before = await state(rg, projectId);
          const file = await get(h, r.who, `${filePath(projectId)}/Versions/1`);
          const set = await review(h, r.who, projectId, 'Save', `by ${r.who}`);
          if (r.code) {
            assertError(h, file, r.status, r.code);
            assertError(h, set, r.status, r.code);
            assert.deepEqual(await state(rg, projectId), before, 'a refused review changes nothing');
            return;
          }
          assert.deepEqual(file.rawPayload, bytes);
          assertOk(h, set);
          assert.equal(metadata(set).Note, `by ${r.who}`);
        });
      }
    });

    group('what an upload must be', () => {
      it('a type the definition does not allow is 415 naming the allowed types, before any byte is read', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(100, 1)));
        const before = await state(r, projectId);
        for (const type of ['application/pdf', 'application/xml', 'image/gif', 'application/octet-stream']) {
          const body = watched(png(100, 2));
          const res = await upload(h, 'applicant', projectId, 'photo', body, { type, headers: { 'content-length': '100' } });
          assertError(h, res, 415, 'UNSUPPORTED_MEDIA_TYPE');
          assert.match(attr(res.body, 'ErrorResponse', 'Message') ?? '', /Site photo accepts image\/jpeg, image\/png/);
          assert.equal(body.touched, false, `${type}: the body was not read`);
        }
        assertError(h, await upload(h, 'applicant', projectId, 'photo', png(100, 2), { type: null }), 415, 'UNSUPPORTED_MEDIA_TYPE');
        // Not a media type at all: refused (by the framework, with a shorter message) before anything else.
        assertError(h, await upload(h, 'applicant', projectId, 'photo', png(100, 2), { type: 'image' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
        assert.deepEqual(await state(r, projectId), before);
      });

      it('media types match without case or parameters, and text/* admits any text type', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const res = await upload(h, 'applicant', projectId, 'photo', png(100, 1), { type: 'IMAGE/PNG; name=x' });
        assertOk(h, res);
        assert.equal(metadata(res).ContentType, 'image/png');
        const csv = await upload(h, 'applicant', projectId, 'permit', Buffer.from('a,b\n1,2\n'), { type: 'text/csv; charset=utf-8', name: 'permit.csv' });
        assertOk(h, csv);
        assert.equal(metadata(csv).ContentType, 'text/csv');
        assertError(h, await upload(h, 'applicant', projectId, 'permit', Buffer.from('{}'), { type: 'application/json' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      });

      it('a Content-Length over the definition\'s maximum or APAS_MAX_UPLOAD_BYTES is 413 before any byte is read', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        const overPermit = watched(Buffer.alloc(10));
        const res = await upload(h, 'applicant', projectId, 'permit', overPermit, { type: 'application/pdf', headers: { 'content-length': String(PERMIT_MAX + 1) } });
        assertError(h, res, 413, 'PAYLOAD_TOO_LARGE');
        assert.match(attr(res.body, 'ErrorResponse', 'Message') ?? '', new RegExp(`Permit accepts files of at most ${PERMIT_MAX} bytes`));
        assert.equal(overPermit.touched, false);
        const overCap = watched(Buffer.alloc(10));
        const capped = await upload(h, 'applicant', projectId, 'photo', overCap, { headers: { 'content-length': String(4 * 1024 * 1024) } });
        assertError(h, capped, 413, 'PAYLOAD_TOO_LARGE');
        assert.match(attr(capped.body, 'ErrorResponse', 'Message') ?? '', new RegExp(`at most ${MAX_UPLOAD} bytes`), 'the photo allows 5 MiB, the service 3 MiB');
        assert.equal(overCap.touched, false);
        assert.deepEqual(await state(r, projectId), before);
      });

      it('exactly the maximum is accepted; a body streamed past it, or longer than announced, is 413 and leaves nothing', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const exact = sampleBytes(PERMIT_MAX, 51, '%PDF-');
        assertOk(h, await upload(h, 'applicant', projectId, 'permit', pieces(exact, 1000), { type: 'application/pdf' }));
        const before = await state(r, projectId);
        const streamed = await upload(h, 'applicant', projectId, 'permit', pieces(sampleBytes(PERMIT_MAX + 1, 52), 1000), { type: 'application/pdf' });
        assertError(h, streamed, 413, 'PAYLOAD_TOO_LARGE');
        assert.deepEqual(await state(r, projectId), before, 'no version, no blob, no temp file');
        const longer = await upload(h, 'applicant', projectId, 'permit', pieces(sampleBytes(200, 53), 50), { type: 'application/pdf', headers: { 'content-length': '100' } });
        assertError(h, longer, 413, 'PAYLOAD_TOO_LARGE');
        assert.match(attr(longer.body, 'ErrorResponse', 'Message') ?? '', /longer than the 100 bytes its Content-Length announced/);
        const bigStream = await upload(h, 'applicant', projectId, 'photo', pieces(png(MAX_UPLOAD + 1, 54), 256 * 1024));
        assertError(h, bigStream, 413, 'PAYLOAD_TOO_LARGE');
        assert.deepEqual(await state(r, projectId), before);
        assert.deepEqual((await get(h, 'applicant', filePath(projectId, 'permit'))).rawPayload, exact, 'the previous file stays active');
      });

      it('an empty or short body is 400 and leaves nothing', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        assertError(h, await upload(h, 'applicant', projectId, 'photo', Buffer.alloc(0)), 400, 'INVALID_REQUEST');
        assertError(h, await upload(h, 'applicant', projectId, 'photo', undefined), 400, 'INVALID_REQUEST');
        assertError(h, await upload(h, 'applicant', projectId, 'photo', Readable.from([])), 400, 'INVALID_REQUEST');
        const short = await upload(h, 'applicant', projectId, 'photo', pieces(png(50, 1)), { headers: { 'content-length': '100' } });
        assertError(h, short, 400, 'INVALID_REQUEST');
        assert.deepEqual(await state(r, projectId), before);
      });

      it('an upload that breaks off midway leaves the previous file active and nothing half-written', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const first = png(1000, 61);
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', first));
        const before = await state(r, projectId);
        // The client is gone, so no answer arrives; the server cleans up on its own.
        await assert.rejects(upload(h, 'applicant', projectId, 'photo', breaksAfter(png(MAX_UPLOAD, 62), 600_000)), /connection reset/);
        await eventually(async () => assert.deepEqual(await state(r, projectId), before));
        assert.deepEqual((await get(h, 'applicant', filePath(projectId))).rawPayload, first);
      });

      const names: [string, string | undefined, string][] = [
        ['a quoted name', 'attachment; filename="site plan.png"', 'site plan.png'],
        ['filename* before filename', `attachment; filename="resume.png"; filename*=UTF-8''r%C3%A9sum%C3%A9.png`, 'résumé.png'],
        ['an ISO-8859-1 filename*', `attachment; filename*=iso-8859-1'en'%E9t%E9.png`, 'été.png'],
        ['a token name', 'attachment; filename=plain.png', 'plain.png'],
        ['a Windows path', 'attachment; filename="C:\\\\Users\\\\pat\\\\roof.png"', 'roof.png'],
        ['a relative path', 'attachment; filename="../../etc/passwd"', 'passwd'],
        ['control and bidi characters', `attachment; filename*=UTF-8''a%0Ab%07c%E2%80%AEgnp.exe`, 'abcgnp.exe'],
        ['no name', 'inline', 'attachment'],
        ['an empty name', 'attachment; filename=""', 'attachment'],
        ['only dots', 'attachment; filename=".."', 'attachment'],
        ['a broken filename* and no filename', `attachment; filename*=UTF-8''%ZZ`, 'attachment'],
        ['no header', undefined, 'attachment'],
      ];
      for (const [what, disposition, stored] of names) {
        it(`file name from Content-Disposition: ${what} → ${stored}`, async () => {
          const { h } = rig();
          const projectId = await createProject(h, 'applicant');
          const res = await upload(h, 'applicant', projectId, 'photo', png(10, 1), disposition === undefined ? { name: null } : { disposition });
          assertOk(h, res);
          assert.equal(metadata(res).FileName, stored);
        });
      }

      it('a name longer than 255 characters is shortened, keeping its extension', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        const res = await upload(h, 'applicant', projectId, 'photo', png(10, 1), { name: `${'é'.repeat(300)}.png` });
        assertOk(h, res);
        const name = metadata(res).FileName!;
        assert.equal([...name].length, 255);
        assert.ok(name.endsWith('é.png'));
      });
    });

    group('attachments in the project\'s other operations', () => {
      it('a required attachment keeps SubmitProject and CanSubmit from going ahead until it is uploaded', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] });
        const draft = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
        assertOk(h, draft, 'ProjectDataGetResponse');
        assert.equal(attr(draft.body, 'Project', 'CanSubmit'), 'false');
        const before = await state(r, projectId);
        h.clock.advance();
        const refused = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
        assertError(h, refused, 422, 'FORM_INCOMPLETE');
        assert.deepEqual(fieldErrors(refused), [`${PERMIT}:ATTACHMENT_REQUIRED`]);
        assert.equal(attr(refused.body, 'FieldError', 'CustomId'), 'permit');
        assert.deepEqual(await state(r, projectId), before);

        assertOk(h, await upload(h, 'applicant', projectId, 'permit', Buffer.from('%PDF-1.4\n'), { type: 'application/pdf', name: 'permit.pdf' }));
        const ready = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
        assert.equal(attr(ready.body, 'Project', 'CanSubmit'), 'true');
        h.clock.advance();
        assertOk(h, await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' }), 'ProjectSubmitResponse');
      });

      it('GetProjectData names the active files; GetAllProjectData lists uploaded definitions; GetExportProject their metadata', async () => {
        const { h } = rig();
        const projectId = await createProject(h, 'applicant');
        assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(100, 1), { name: 'old.png' }));
        h.clock.advance();
        const at = h.clock.advance();
        const bytes = png(123, 2);
        assertOk(h, await upload(h, 'editor', projectId, 'photo', bytes, { name: 'new <roof>.png' }));
        assertOk(h, await review(h, 'admin', projectId, 'Reject', 'Too dark'));

        const data = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
        assertOk(h, data, 'ProjectDataGetResponse');
        assert.deepEqual(attrs(data.body, 'Attachment', 'AttachmentId'), [IDS.photo, PERMIT]);
        assert.deepEqual(attrs(data.body, 'Attachment', 'FileName'), ['new &lt;roof&gt;.png'], 'the permit has no file');

        const all = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Data`, as: 'admin' });
        assertOk(h, all, 'AllProjectDataResponse');
        assert.deepEqual(attrs(all.body, 'Attachment', 'AttachmentId'), [IDS.photo], 'definitions without an upload are left out');
        assert.equal(attr(all.body, 'Attachment', 'FileName'), 'new &lt;roof&gt;.png');

        for (const version of [1, 2]) {
          const exported = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Export?version=${version}`, as: 'admin' });
          assertOk(h, exported, version === 2 ? 'ProjectExportDataGetResponseV2' : 'ProjectExportDataGetResponse');
          const element = /<Attachments>(.*)<\/Attachments>/s.exec(exported.body)?.[1] ?? '';
          assert.equal(attrs(element, 'Attachment', 'AttachmentId').length, 1);
          for (const [name, value] of Object.entries({
            AttachmentId: IDS.photo, CustomId: 'photo', Name: 'Site photo', FileName: 'new &lt;roof&gt;.png', FormId: IDS.form, FileSize: '123',
            ContentType: 'image/png', Sha256: sha256(bytes), Version: '2', UploadedBy: h.who.editor.email,
            UploadedUTC: new Date(at).toISOString().slice(0, 19).replace(/:/g, '-'), ApprovalStatus: 'Rejected', Note: 'Too dark',
          })) assert.equal(attr(element, 'Attachment', name), value, name);
        }
      });
    });

    describe('failures after the file is stored', () => {
      it('a transaction that fails after the blob was written deletes the blob', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const failing: Store = { ...h.store, transaction: async () => Promise.reject(new Error('the database went away')) };
        const app = await buildApp({ config: h.config, store: failing, clock: h.clock, logger: false, blobs: createBlobStore(h.config, h.store) });
        try {
          const before = await state(r, projectId);
          const res = await app.inject({
            method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: png(1000, 71),
            headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png' },
          });
          assertError(h, res, 500, 'INTERNAL_ERROR');
          assert.deepEqual(await state(r, projectId), before);
        } finally {
          await app.close();
        }
      });

      it('concurrent uploads to one project each end as a version of their own or a CONFLICT that leaves nothing', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const bytes = Array.from({ length: 6 }, (_, i) => png(20_000 + i, 80 + i));
        const answers = await Promise.all(bytes.map((b) => upload(h, 'applicant', projectId, 'photo', pieces(b, 4096))));
        const won = answers.filter((a) => a.statusCode === 200);
        for (const lost of answers.filter((a) => a.statusCode !== 200)) assertError(h, lost, 409, 'CONFLICT');
        assert.ok(won.length >= 1);
        const stored = await versions(h.store, projectId);
        assert.deepEqual(stored.map((a) => a.version), won.map((_, i) => i + 1));
        assert.deepEqual(new Set(won.map((a) => metadata(a).Version)), new Set(stored.map((a) => String(a.version))));
        for (const a of stored) assert.equal(a.sha256, sha256(bytes.find((b) => b.length === a.sizeBytes)!));
        const kept = await r.kept();
        if (kind === 'local') assert.equal((kept as string[]).filter((f) => !f.startsWith('tmp')).length >= won.length, true);
        assert.equal(await referencedOnly(r), true, 'every blob left belongs to an attachment');
      });

      it('over a real connection: an upload streamed past the limit is answered 413 while the client is still sending', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        const { address, port } = await listen(h);
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request({
            host: address, port, method: 'POST', path: `${projectPath(projectId)}/Forms/application/Attachments/permit`,
            headers: { ...authHeaders(h.who.applicant), 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' },
          }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          // Keep sending well past the permit's 4 KiB; the server answers without reading the rest.
          let sent = 0;
          const pump = () => {
            while (sent < 4 * 1024 * 1024 && !req.destroyed) {
              sent += 16 * 1024;
              if (!req.write(sampleBytes(16 * 1024, sent))) return void req.once('drain', pump);
            }
            req.end();
          };
          pump();
        });
        assert.equal(answer.status, 413, answer.body);
        assert.match(answer.body, /Code="PAYLOAD_TOO_LARGE"/);
        assert.deepEqual(await state(r, projectId), before);
      });

      if (kind === 's3') {
        it('S3: a PUT the bucket refuses answers 503 with a body and leaves no attachment and no object', async () => {
          const r = rig();
          const { h } = r;
          const projectId = await createProject(h, 'applicant');
          const before = await state(r, projectId);
          const client = s3Client(h.config.s3!);
          client.middlewareStack.add((next, context) => async (args) => {
            if (context.commandName === 'PutObjectCommand') throw Object.assign(new Error('We encountered an internal error.'), { name: 'InternalError' });
            return next(args);
          }, { step: 'initialize' });
          const app = await buildApp({ config: h.config, store: h.store, clock: h.clock, logger: false, blobs: new S3BlobStore(h.config.s3!, client) });
          try {
            const res = await app.inject({
              method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: png(1000, 72),
              headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png' },
            });
            assertError(h, res, 503, 'SERVICE_UNAVAILABLE');
            assert.match(res.body, /file store could not store the file; nothing was changed/);
            assert.deepEqual(await state(r, projectId), before);
          } finally {
            await app.close();
          }
        });

        it('S3: a download whose object was removed out of band answers 500 with a clear body, not a bare 500', async () => {
          const r = rig();
          const { h } = r;
          const projectId = await createProject(h, 'applicant');
          assertOk(h, await upload(h, 'applicant', projectId, 'photo', png(2000, 73)));
          const [record] = await versions(h.store, projectId);
          await r.s3!.client.send(new DeleteObjectCommand({ Bucket: r.s3!.config.bucket, Key: record!.blobKey }));
          const res = await get(h, 'applicant', filePath(projectId));
          assertError(h, res, 500, 'INTERNAL_ERROR');
          assert.match(res.body, /stored file is missing from the file store/);
          assertJsonError(await get(h, 'applicant', filePath(projectId), JSON_BODY), 500, 'INTERNAL_ERROR');
          const ranged = await get(h, 'applicant', filePath(projectId), { range: 'bytes=0-9' });
          assertError(h, ranged, 500, 'INTERNAL_ERROR');
          assert.match(ranged.body, /stored file is missing from the file store/);
        });
      }

      it('over a real connection: a client that writes a whole oversize body before reading still gets its 413', async () => {
        const r = rig();
        const { h } = r;
        const projectId = await createProject(h, 'applicant');
        const before = await state(r, projectId);
        const { address, port } = await listen(h);
        const body = sampleBytes(5 * 1024 * 1024, 91, '%PDF-');
        for (const announced of [true, false]) {
          const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
            const req = http.request({
              host: address, port, method: 'POST', path: `${projectPath(projectId)}/Forms/application/Attachments/permit`, agent: false,
              headers: { ...authHeaders(h.who.applicant), 'content-type': 'application/pdf', ...(announced ? { 'content-length': String(body.length) } : {}) },
            }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            });
            req.on('error', reject);
            req.end(body);
          });
          assert.equal(answer.status, 413, `${announced ? 'with' : 'without'} Content-Length: ${answer.body}`);
        }
        assert.deepEqual(await state(r, projectId), before);
      });
    });
  });
}

/** True when every blob the store keeps belongs to some attachment row (none orphaned). */
async function referencedOnly(r: Rig): Promise<boolean> {
  const kept = await r.kept();
  if (typeof kept === 'number') {
    const keys = await r.h.store.blobs.listBlobKeys(Number.MAX_SAFE_INTEGER);
    for (const key of keys) if (!(await r.h.store.attachments.isBlobReferenced(key))) return false;
    return true;
  }
  for (const file of kept) {
    if (file.startsWith('tmp')) return false;
    if (!(await r.h.store.attachments.isBlobReferenced(path.basename(file)))) return false;
  }
  return true;
}

/** Starts the harness's app on a loopback port (once) and returns where. */
async function listen(h: HttpHarness): Promise<AddressInfo> {
  const server = h.app.server;
  if (!server.listening) await h.app.listen({ host: '127.0.0.1', port: 0 });
  return server.address() as AddressInfo;
}

/** Retries an assertion for up to ten seconds (a loaded CI machine is slow): for work the server finishes after the client has gone. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await check();
    } catch (error) {
      if (attempt >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
