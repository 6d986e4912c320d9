import { Readable } from 'node:stream';
import { type Clock, systemClock } from '../model/clock.ts';
import { type BlobStore, type ByteRange, copyCounted, isBlobKey, missingBlob, newBlobKey, type StoredBlob } from './blob-store.ts';
import type { Store } from './store.ts';

/** The most bytes one row of `blob_chunks` holds. */
export const BLOB_CHUNK_BYTES = 256 * 1024;

/**
 * Blobs in the database (`blob_chunks`), for several instances that share a database but no disk. Chunks are
 * written as they arrive, each committing on its own (a transaction held open for a whole upload would block
 * every other writer on SQLite), so at most one chunk is ever in memory; a failed write deletes what it wrote.
 */
export class DatabaseBlobStore implements BlobStore {
  readonly kind = 'database';
  readonly #store: Store;
  readonly #clock: Clock;

  /** A store over `store`'s database; `clock` stamps the chunks (the orphan sweep goes by their age). */
  constructor(store: Store, clock: Clock = systemClock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Blobs go where the rows go: the readiness probe's database round trip covers this store. */
  async checkWritable(): Promise<void> {}

  async write(source: Readable, limitBytes: number): Promise<StoredBlob> {
    const key = newBlobKey();
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.#store.blobs.writeBlobChunk(key, seq++, data, this.#clock.now());
    };
    try {
      const { size, sha256 } = await copyCounted(source, limitBytes, async (chunk) => {
        for (let offset = 0; offset < chunk.length;) {
          const take = Math.min(BLOB_CHUNK_BYTES - pendingBytes, chunk.length - offset);
          pending.push(chunk.subarray(offset, offset + take));
          pendingBytes += take;
          offset += take;
          if (pendingBytes === BLOB_CHUNK_BYTES) await flush();
        }
      });
      await flush();
      return { key, size, sha256 };
    } catch (error) {
      // When even this fails (the database is gone), the orphan sweep removes the chunks later.
      await this.#store.blobs.deleteBlobChunks(key).catch(() => {});
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    if (range !== undefined) return this.#readRange(key, range);
    const store = this.#store;
    const first = await store.blobs.readBlobChunk(key, 0);
    if (first === null) throw missingBlob(key, 'the database');
    // A pull stream: the next chunk is read only when the consumer wants more.
    async function* chunks(): AsyncGenerator<Buffer> {
      yield first!;
      for (let seq = 1; ; seq++) {
        const chunk = await store.blobs.readBlobChunk(key, seq);
        if (chunk === null) return;
        yield chunk;
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /** The chunks `range` covers, each read when the consumer wants it, trimmed to the range's first and last byte. */
  async #readRange(key: string, range: ByteRange): Promise<Readable> {
    const store = this.#store;
    // Sizes, not offsets computed from BLOB_CHUNK_BYTES: a blob is read right whatever chunk size it was written with.
    const sizes = await store.blobs.blobChunkSizes(key);
    if (sizes.length === 0) throw missingBlob(key, 'the database');
    const wanted: { seq: number; from: number; to: number }[] = [];
    let offset = 0;
    for (const { seq, bytes } of sizes) {
      const from = Math.max(range.start - offset, 0);
      const to = Math.min(range.end + 1 - offset, bytes);
      if (from < to) wanted.push({ seq, from, to });
      offset += bytes;
    }
    async function* chunks(): AsyncGenerator<Buffer> {
      for (const { seq, from, to } of wanted) {
        const chunk = await store.blobs.readBlobChunk(key, seq);
        // The blob was deleted while it streamed: the answer breaks off short, as a vanished file's would.
        if (chunk === null) throw missingBlob(key, 'the database');
        yield chunk.subarray(from, to);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    await this.#store.blobs.deleteBlobChunks(key);
  }

  async sweepOrphans(referenced: (key: string) => Promise<boolean>, olderThanMs: number): Promise<number> {
    let removed = 0;
    for (const key of await this.#store.blobs.listBlobKeys(this.#clock.now() - olderThanMs)) {
      if (await referenced(key)) continue;
      await this.#store.blobs.deleteBlobChunks(key);
      removed++;
    }
    return removed;
  }
}
