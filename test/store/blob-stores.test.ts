import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { BLOB_CHUNK_BYTES, DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { LocalBlobStore } from '../../src/store/local-blob-store.ts';
import { s3Client, S3BlobStore, S3_PART_BYTES } from '../../src/store/s3-blob-store.ts';
import { StoreError } from '../../src/store/store-error.ts';
import type { Store } from '../../src/store/store.ts';
import { blobChunkRows, breaksAfter, filesUnder, pieces, readAll, sampleBytes } from '../support/blob-fixtures.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { type S3Server, startS3Server } from '../support/s3-server.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tooLarge = (e: unknown) => e instanceof StoreError && e.code === 'BLOB_TOO_LARGE';

/** One BlobStore under test and a way to see everything it keeps (files, or chunk rows). */
interface Subject { blobs: BlobStore; kept(): Promise<number> }

/** The contract both stores keep, written once. */
function contract(subject: () => Subject): void {
  it('stores a stream chunk by chunk and reads back the same bytes, size and SHA-256', async () => {
    const { blobs } = subject();
    const bytes = sampleBytes(2 * BLOB_CHUNK_BYTES + 12345, 7);
    const stored = await blobs.write(pieces(bytes, 10_000), bytes.length);
    assert.equal(stored.size, bytes.length);
    assert.equal(stored.sha256, sha256(bytes));
    assert.match(stored.key, /^[0-9a-f]{32}$/);
    assert.deepEqual(await readAll(await blobs.read(stored.key)), bytes);
  });

  it('reads a byte range: only those bytes, across chunk boundaries, up to the last byte', async () => {
    const { blobs } = subject();
    const bytes = sampleBytes(2 * BLOB_CHUNK_BYTES + 12345, 17);
    const stored = await blobs.write(pieces(bytes, 10_000), bytes.length);
    const last = bytes.length - 1;
    // s3rver answers bytes=0-0 with the whole object, which the S3 store cuts down to the range.
    const ranges = [
      [0, 0], [0, last], [BLOB_CHUNK_BYTES - 10, BLOB_CHUNK_BYTES + 9], [BLOB_CHUNK_BYTES, 2 * BLOB_CHUNK_BYTES - 1],
      [5, 2 * BLOB_CHUNK_BYTES + 100], [2 * BLOB_CHUNK_BYTES + 1, last], [last, last],
    ] as const;
    for (const [start, end] of ranges) {
      assert.deepEqual(await readAll(await blobs.read(stored.key, { start, end })), bytes.subarray(start, end + 1), `${start}-${end}`);
    }
    await assert.rejects(blobs.read('0'.repeat(32), { start: 0, end: 9 }), (e) => e instanceof StoreError && e.code === 'BLOB_MISSING');
    await assert.rejects(blobs.read('../../etc/passwd', { start: 0, end: 9 }), /not a blob key/);
  });

  it('gives every write a key of its own, even for the same bytes', async () => {
    const { blobs } = subject();
    const a = await blobs.write(Readable.from([Buffer.from('same')]), 100);
    const b = await blobs.write(Readable.from([Buffer.from('same')]), 100);
    assert.notEqual(a.key, b.key);
    assert.equal(a.sha256, b.sha256);
    await blobs.delete(a.key);
    assert.deepEqual(await readAll(await blobs.read(b.key)), Buffer.from('same'), 'deleting one leaves the other');
  });

  it('accepts exactly the limit and refuses one byte more, leaving nothing behind and the source undestroyed', async () => {
    const { blobs, kept } = subject();
    const bytes = sampleBytes(BLOB_CHUNK_BYTES + 10, 3);
    const exact = await blobs.write(pieces(bytes), bytes.length);
    assert.equal(exact.size, bytes.length);
    const before = await kept();
    // More bytes follow the first one too many, beyond the stream's read-ahead: a source that ended right at the refused
    // byte would be destroyed by its own autoDestroy (a race with the store's clean-up), not by the store.
    const source = pieces(Buffer.concat([bytes, Buffer.from('!'), sampleBytes(512 * 1024, 4)]), 1000);
    await assert.rejects(blobs.write(source, bytes.length), tooLarge);
    assert.equal(source.destroyed, false, 'an HTTP request must stay usable for the 413 answer');
    assert.equal(await kept(), before);
  });

  it('leaves nothing behind when the source fails midway', async () => {
    const { blobs, kept } = subject();
    const failure = new Error('connection reset by peer');
    await assert.rejects(blobs.write(breaksAfter(sampleBytes(BLOB_CHUNK_BYTES * 2, 5), BLOB_CHUNK_BYTES + 100, failure), 10 * BLOB_CHUNK_BYTES), (e) => e === failure);
    assert.equal(await kept(), 0);
  });

  it('deletes blobs (twice is fine) and fails to read an unknown or deleted one before streaming', async () => {
    const { blobs, kept } = subject();
    const stored = await blobs.write(Readable.from([Buffer.from('to be deleted')]), 100);
    await blobs.delete(stored.key);
    await blobs.delete(stored.key);
    assert.equal(await kept(), 0);
    await assert.rejects(blobs.read(stored.key));
    await assert.rejects(blobs.read('0'.repeat(32)));
    await assert.rejects(blobs.read('../../etc/passwd'), /not a blob key/);
  });

  it('an empty source stores an empty blob the caller can see is empty', async () => {
    const { blobs } = subject();
    const stored = await blobs.write(Readable.from([]), 100);
    assert.equal(stored.size, 0);
    assert.equal(stored.sha256, sha256(Buffer.alloc(0)));
    await blobs.delete(stored.key);
  });

  it('sweeps only unreferenced blobs older than the grace period', async () => {
    const { blobs, kept } = subject();
    const keep = await blobs.write(Readable.from([Buffer.from('referenced')]), 100);
    const orphan = await blobs.write(Readable.from([Buffer.from('orphan')]), 100);
    const referenced = async (key: string) => key === keep.key;
    assert.equal(await blobs.sweepOrphans(referenced, 3_600_000), 0, 'young orphans may belong to an upload still committing');
    assert.equal(await blobs.sweepOrphans(referenced, -1000), 1);
    assert.deepEqual(await readAll(await blobs.read(keep.key)), Buffer.from('referenced'));
    await assert.rejects(blobs.read(orphan.key));
    assert.equal(await kept(), 1);
  });
}

describe('LocalBlobStore', () => {
  let dir = '';
  let blobs: LocalBlobStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-blobs-'));
    blobs = new LocalBlobStore(path.join(dir, 'blobs'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  contract(() => ({ blobs, kept: async () => filesUnder(path.join(dir, 'blobs')).length }));

  it('keeps a blob at <k0k1>/<k2k3>/<key>, readable by its owner only, and no temp file once written', async () => {
    const stored = await blobs.write(Readable.from([Buffer.from('%PDF-1.4')]), 100);
    const relative = path.join(stored.key.slice(0, 2), stored.key.slice(2, 4), stored.key);
    assert.deepEqual(filesUnder(path.join(dir, 'blobs')), [relative]);
    assert.equal(blobs.pathOf(stored.key), path.join(dir, 'blobs', relative));
    assert.equal(fs.statSync(blobs.pathOf(stored.key)).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'blobs', 'tmp')), []);
  });

  it('removes temp files left by a crash only when they are old, and leaves other files alone', async () => {
    const tmp = path.join(dir, 'blobs', 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, `${'a'.repeat(32)}.part`), 'half');
    fs.writeFileSync(path.join(tmp, `${'b'.repeat(32)}.part`), 'being written');
    fs.writeFileSync(path.join(dir, 'blobs', 'README'), 'not ours');
    const old = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(path.join(tmp, `${'a'.repeat(32)}.part`), old, old);
    assert.equal(await blobs.sweepOrphans(async () => false, 3_600_000), 1);
    assert.deepEqual(filesUnder(path.join(dir, 'blobs')), ['README', path.join('tmp', `${'b'.repeat(32)}.part`)]);
  });

  it('a store whose directory does not exist yet sweeps nothing and creates it on the first write', async () => {
    const fresh = new LocalBlobStore(path.join(dir, 'not', 'yet'));
    assert.equal(await fresh.sweepOrphans(async () => false, 0), 0);
    assert.equal(fs.existsSync(path.join(dir, 'not')), false);
    await fresh.write(Readable.from([Buffer.from('x')]), 1);
    assert.equal(filesUnder(path.join(dir, 'not', 'yet')).length, 1);
  });
});

forEachDialect('DatabaseBlobStore', ({ open }) => {
  let blobs: DatabaseBlobStore;
  let rows: () => Promise<number>;
  let db: TestStore;
  beforeEach(async () => {
    db = await open();
    blobs = new DatabaseBlobStore(db.store);
    rows = () => blobChunkRows(db.config);
  });

  contract(() => ({ blobs, kept: rows }));

  it('keeps chunks of at most 256 KiB, in order', async () => {
    const bytes = sampleBytes(3 * BLOB_CHUNK_BYTES + 1, 11);
    const stored = await blobs.write(pieces(bytes, 100_000), bytes.length);
    assert.equal(await rows(), 4);
    assert.deepEqual(await readAll(await blobs.read(stored.key)), bytes);
  });

  it('reads only the chunks a range covers', async () => {
    const read: number[] = [];
    const chunks = db.store.blobs;
    // Only `blobs` of the Store is the store's business; the spy records which chunks it asks for.
    const readBlobChunk = (key: string, seq: number) => {
      read.push(seq);
      return chunks.readBlobChunk(key, seq);
    };
    const spied = { blobs: { ...chunks, readBlobChunk } } as unknown as Store;
    const store = new DatabaseBlobStore(spied);
    const bytes = sampleBytes(4 * BLOB_CHUNK_BYTES + 7, 19);
    const stored = await store.write(pieces(bytes, 100_000), bytes.length);
    const range = { start: 2 * BLOB_CHUNK_BYTES - 1, end: 3 * BLOB_CHUNK_BYTES };
    assert.deepEqual(await readAll(await store.read(stored.key, range)), bytes.subarray(range.start, range.end + 1));
    assert.deepEqual(read, [1, 2, 3]);
  });
});

/** The commands a client sent, by name; `failPart` makes that part number's UploadPart fail as a server error would. */
function watch(client: S3Client, failPart?: number): string[] {
  const sent: string[] = [];
  client.middlewareStack.add((next, context) => async (args) => {
    sent.push(context.commandName ?? '?');
    const input = args.input as { PartNumber?: number };
    if (context.commandName === 'UploadPartCommand' && input.PartNumber === failPart) {
      throw Object.assign(new Error('We encountered an internal error. Please try again.'), { name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    }
    return next(args);
  }, { step: 'initialize' });
  return sent;
}

describe('S3BlobStore', () => {
  let server: S3Server;
  let blobs: S3BlobStore;
  let sent: string[];
  let prefix = '';
  let n = 0;
  const storeAt = (p: string, failPart?: number) => {
    const client = s3Client({ ...server.config, prefix: p });
    sent = watch(client, failPart);
    return new S3BlobStore({ ...server.config, prefix: p }, client);
  };
  const kept = async () => (await server.keys()).filter((k) => k.startsWith(prefix)).length;
  before(async () => {
    server = await startS3Server();
  });
  after(() => server.stop());
  // A prefix per test: the bucket is shared, and each test counts only its own objects.
  beforeEach(() => {
    prefix = `t${++n}/`;
    blobs = storeAt(prefix);
  });

  contract(() => ({ blobs, kept }));

  it('sends a file larger than a part as a multipart upload and reads it back whole', async () => {
    const bytes = sampleBytes(2 * S3_PART_BYTES + 1000, 13);
    const stored = await blobs.write(pieces(bytes, 64 * 1024), bytes.length);
    assert.equal(stored.sha256, sha256(bytes));
    assert.deepEqual(sent.filter((c) => c !== 'GetObjectCommand'), ['CreateMultipartUploadCommand', 'UploadPartCommand', 'UploadPartCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand']);
    assert.deepEqual(await readAll(await blobs.read(stored.key)), bytes);
    assert.deepEqual((await server.keys()).filter((k) => k.startsWith(prefix)), [`${prefix}${stored.key}`]);
  });

  it('aborts the multipart upload when the source fails after a part was sent, leaving no object', async () => {
    const failure = new Error('connection reset by peer');
    await assert.rejects(blobs.write(breaksAfter(sampleBytes(2 * S3_PART_BYTES, 5), S3_PART_BYTES + 100_000, failure), 10 * S3_PART_BYTES), (e) => e === failure);
    assert.ok(sent.includes('UploadPartCommand'), 'a part went out before the failure');
    assert.ok(sent.includes('AbortMultipartUploadCommand'), 'the upload was aborted');
    assert.ok(!sent.includes('CompleteMultipartUploadCommand'));
    assert.equal(await kept(), 0);
  });

  it('aborts a multipart upload that grows past the limit, answering BLOB_TOO_LARGE', async () => {
    const bytes = sampleBytes(2 * S3_PART_BYTES, 9);
    await assert.rejects(blobs.write(pieces(bytes, 64 * 1024), S3_PART_BYTES + 100_000), tooLarge);
    assert.ok(sent.includes('AbortMultipartUploadCommand'));
    assert.equal(await kept(), 0);
  });

  it('a part the bucket refuses fails the write as BLOB_STORE_UNAVAILABLE, aborted, with no object left', async () => {
    blobs = storeAt(prefix, 2);
    const source = pieces(sampleBytes(3 * S3_PART_BYTES, 4), 64 * 1024);
    await assert.rejects(blobs.write(source, 10 * S3_PART_BYTES), (e) => e instanceof StoreError && e.code === 'BLOB_STORE_UNAVAILABLE');
    assert.ok(sent.includes('AbortMultipartUploadCommand'));
    assert.ok(!sent.includes('CompleteMultipartUploadCommand'));
    assert.equal(source.destroyed, false, 'the source is left to the caller');
    assert.equal(await kept(), 0);
  });

  it('reading an object removed out of band fails with BLOB_MISSING before streaming', async () => {
    const stored = await blobs.write(Readable.from([Buffer.from('soon gone')]), 100);
    await server.client.send(new DeleteObjectCommand({ Bucket: server.config.bucket, Key: `${prefix}${stored.key}` }));
    await assert.rejects(blobs.read(stored.key), (e) => e instanceof StoreError && e.code === 'BLOB_MISSING' && e.message.includes(`s3://apas-files/${prefix}${stored.key}`));
  });

  it('sweeps only blob keys under its prefix, leaving other objects in the bucket alone', async () => {
    const put = (key: string) => server.client.send(new PutObjectCommand({ Bucket: server.config.bucket, Key: key, Body: 'x' }));
    await put(`${prefix}README`);
    await put(`other-${prefix}${'c'.repeat(32)}`);
    await put(`${prefix}nested/${'d'.repeat(32)}`);
    const orphan = await blobs.write(Readable.from([Buffer.from('orphan')]), 100);
    assert.equal(await blobs.sweepOrphans(async () => false, -1000), 1);
    const left = await server.keys();
    assert.ok(!left.includes(`${prefix}${orphan.key}`));
    for (const key of [`${prefix}README`, `other-${prefix}${'c'.repeat(32)}`, `${prefix}nested/${'d'.repeat(32)}`]) assert.ok(left.includes(key), key);
  });

  it('a bucket that cannot be reached fails writes, reads and the start check as the store\'s own error', async () => {
    const gone = new S3BlobStore({ ...server.config, endpoint: 'http://127.0.0.1:9', prefix });
    const unavailable = (e: unknown) => e instanceof StoreError && e.code === 'BLOB_STORE_UNAVAILABLE';
    await assert.rejects(gone.write(Readable.from([Buffer.from('x')]), 10), unavailable);
    await assert.rejects(gone.read('0'.repeat(32)), unavailable);
    await assert.rejects(gone.checkWritable());
    await blobs.checkWritable();
    assert.equal(await kept(), 0, 'the probe removes itself');
  });
});

/** A stand-in for the SDK client: answers each command by its name, recording what was sent (s3rver lacks ListMultipartUploads). */
function fakeS3(answer: (name: string, input: Record<string, unknown>) => unknown): { client: S3Client; sent: { name: string; input: Record<string, unknown> }[] } {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      const name = command.constructor.name;
      sent.push({ name, input: command.input });
      return answer(name, command.input);
    },
  } as unknown as S3Client;
  return { client, sent };
}

describe('S3BlobStore: the sweep of stale multipart uploads', () => {
  const config = { endpoint: null, bucket: 'apas-files', region: 'us-east-1', prefix: 'p/', forcePathStyle: false, credentials: null };
  const hour = 3_600_000;
  const old = new Date(Date.now() - 2 * hour);
  const young = new Date(Date.now() - 60_000);
  const [a, b, c] = ['a', 'b', 'c'].map((x) => `p/${x.repeat(32)}`);

  it('aborts the uploads of blob keys under the prefix begun before the grace period, page by page, and counts them', async () => {
    const pages: Record<string, unknown> = {
      first: {
        Uploads: [
          { Key: a, UploadId: 'u1', Initiated: old }, { Key: b, UploadId: 'u2', Initiated: young }, { Key: 'p/probe-x', UploadId: 'u3', Initiated: old },
        ],
        IsTruncated: true, NextKeyMarker: b, NextUploadIdMarker: 'u2',
      },
      second: { Uploads: [{ Key: c, UploadId: 'u4', Initiated: old }], IsTruncated: false },
    };
    const { client, sent } = fakeS3((name, input) => {
      if (name === 'ListObjectsV2Command') return { Contents: [], IsTruncated: false };
      if (name === 'ListMultipartUploadsCommand') return input.KeyMarker === undefined ? pages.first : pages.second;
      return {};
    });
    const blobs = new S3BlobStore(config, client);
    assert.equal(await blobs.sweepOrphans(async () => false, hour), 2);
    const lists = sent.filter((s) => s.name === 'ListMultipartUploadsCommand').map((s) => s.input);
    assert.deepEqual(lists.map((i) => [i.Bucket, i.Prefix, i.KeyMarker, i.UploadIdMarker]), [['apas-files', 'p/', undefined, undefined], ['apas-files', 'p/', b, 'u2']]);
    const aborted = sent.filter((s) => s.name === 'AbortMultipartUploadCommand').map((s) => [s.input.Key, s.input.UploadId]);
    assert.deepEqual(aborted, [[a, 'u1'], [c, 'u4']], 'a young upload may still complete; a probe is not a blob');
  });

  it('a server that cannot list uploads (NotImplemented) leaves them to the bucket; any other failure fails the sweep', async () => {
    const failing = (name: string) => (n: string) => {
      if (n === 'ListObjectsV2Command') return { Contents: [], IsTruncated: false };
      throw Object.assign(new Error('not here'), { name });
    };
    assert.equal(await new S3BlobStore(config, fakeS3(failing('NotImplemented')).client).sweepOrphans(async () => false, hour), 0);
    await assert.rejects(new S3BlobStore(config, fakeS3(failing('AccessDenied')).client).sweepOrphans(async () => false, hour), /not here/);
  });
});
