import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { BLOB_CHUNK_BYTES, DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { LocalBlobStore } from '../../src/store/local-blob-store.ts';
import { StoreError } from '../../src/store/store-error.ts';
import { blobChunkRows, breaksAfter, filesUnder, pieces, readAll, sampleBytes } from '../support/blob-fixtures.ts';
import { forEachDialect } from '../support/databases.ts';

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
    const source = pieces(Buffer.concat([bytes, Buffer.from('!')]), 1000);
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
  beforeEach(async () => {
    const db = await open();
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
});
