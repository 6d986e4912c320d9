import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StoreError } from './store-error.ts';

/** A file as stored: where it is (an opaque key), how many bytes it has and their SHA-256 (lower-case hex). */
export interface StoredBlob { key: string; size: number; sha256: string }

/** A run of a blob's bytes, `start` to `end` inclusive (as HTTP's Range and fs streams count), inside the blob. */
export interface ByteRange { start: number; end: number }

/**
 * Where uploaded files live. A blob is written once and never changed; it is either wholly and durably stored when
 * `write` resolves, or not stored at all. Blobs are not transactional with the database, so a blob whose attachment
 * row never committed (a crash in between) is an orphan that `sweepOrphans` removes.
 */
export interface BlobStore {
  /** `local` (a directory), `database` (chunks in the database) or `s3` (objects in an S3-compatible bucket). */
  readonly kind: 'local' | 'database' | 's3';
  /**
   * Streams `source` into a new blob, hashing and counting as it goes. Past `limitBytes` it stops reading and throws
   * StoreError BLOB_TOO_LARGE; on that or any other failure nothing of the blob is left. The source is never
   * destroyed here, so the caller can still answer on its connection.
   */
  write(source: Readable, limitBytes: number): Promise<StoredBlob>;
  /**
   * A stream of the blob's bytes, or of `range` of them (which the caller, knowing the size, keeps inside the blob);
   * fails before streaming, with StoreError BLOB_MISSING, when the blob does not exist. A range reads only what it
   * needs (a file's span, the chunks it covers, S3's ranged GET), so it cannot be checked against the whole file's
   * SHA-256: only whole reads (backup, move --check) verify the hash.
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Deletes a blob; deleting one that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes the blobs written more than `olderThanMs` ago that `referenced` disowns, and leftovers of failed writes; returns how many. */
  sweepOrphans(referenced: (key: string) => Promise<boolean>, olderThanMs: number): Promise<number>;
  /** Fails (naming the place) when a new blob could not be stored now: checked at start and by the readiness probe. */
  checkWritable(): Promise<void>;
}

/** A new blob key: 128 random bits as 32 lower-case hex digits (no two uploads share one, whatever their bytes). */
export function newBlobKey(): string {
  return randomBytes(16).toString('hex');
}

/** True for a string that `newBlobKey` could have made; anything else never reaches a file path or a query. */
export function isBlobKey(key: string): boolean {
  return /^[0-9a-f]{32}$/.test(key);
}

/** The error every store throws past the limit. */
export function tooLarge(limitBytes: number): StoreError {
  return new StoreError('BLOB_TOO_LARGE', `The upload is larger than ${limitBytes} bytes.`);
}

/** The error every store throws for a blob it does not hold; `where` (the file, the bucket) goes to the log only. */
export function missingBlob(key: string, where: string): StoreError {
  return new StoreError('BLOB_MISSING', `blob ${key} is missing from ${where}`);
}

/**
 * Reads `source` chunk by chunk into `sink`, hashing and counting; throws BLOB_TOO_LARGE (and stops reading) as
 * soon as more than `limitBytes` arrived. The iterator leaves the source undestroyed when it stops early, because
 * destroying an HTTP request would take the connection, and the answer, with it.
 */
export async function copyCounted(source: Readable, limitBytes: number, sink: (chunk: Buffer) => Promise<void>): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of source.iterator({ destroyOnReturn: false })) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string | Uint8Array);
    size += chunk.length;
    if (size > limitBytes) throw tooLarge(limitBytes);
    hash.update(chunk);
    await sink(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}
