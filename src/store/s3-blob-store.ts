import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand, DeleteObjectCommand, GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import { type BlobStore, type ByteRange, copyCounted, isBlobKey, missingBlob, newBlobKey, type StoredBlob } from './blob-store.ts';
import { StoreError } from './store-error.ts';

/** The size of each part of a multipart upload: S3's smallest, so an upload holds at most this much in memory. */
export const S3_PART_BYTES = 5 * 1024 * 1024;

/**
 * The client of `config`'s bucket. The SDK warns once per process that its releases from 2027 need Node 22; apas
 * states its own supported versions (docs/operations.md), so that one warning is turned off (through the SDK's own
 * switch, unless the operator set it), keeping stderr and the JSON log free of it. Other warnings stay.
 */
export function s3Client(config: S3Config): S3Client {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: config.region,
    ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    // A bucket that does not accept the connection fails within seconds. No idle timeout: a download that its slow
    // client holds back is idle on purpose.
    requestHandler: { connectionTimeout: 5_000 },
    ...(config.credentials === null ? {} : { credentials: config.credentials }),
  });
}

/** True for the SDK's answer to an object that is not there. */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** A failure of the bucket as the store's own error; the SDK's error stays as the cause, for the log. */
function unavailable(what: string, error: unknown): StoreError {
  return Object.assign(new StoreError('BLOB_STORE_UNAVAILABLE', `The file store could not ${what}`), { cause: error });
}

/** The first `length` bytes of `source` after `skip` of them; stops reading (and closes) `source` once they came. */
async function* sliceOf(source: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let left = length;
  for await (const piece of source) {
    const chunk = piece as Buffer;
    const from = Math.min(skip, chunk.length);
    skip -= from;
    const part = chunk.subarray(from, from + left);
    left -= part.length;
    if (part.length > 0) yield part;
    if (left === 0) return;
  }
}

/**
 * The bytes of `range` from a ranged GET's body. S3 answers exactly the range asked for; a compatible server that
 * answers more (the whole object, or a longer part: s3rver for `bytes=0-0`) is cut down here, so the answer's
 * Content-Length holds. One that answers a part not holding the range is the bucket's failure, not a short file.
 */
function rangeOf(body: Readable, contentRange: string | undefined, range: ByteRange): Readable {
  const m = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const [first, last] = m === null ? [0, Number.MAX_SAFE_INTEGER] : [Number(m[1]), Number(m[2])];
  if (first === range.start && last === range.end) return body;
  if (first > range.start || last < range.end) {
    body.destroy();
    throw new Error(`the bucket answered bytes ${contentRange ?? '(all)'} for the range ${range.start}-${range.end}`);
  }
  return Readable.from(sliceOf(body, range.start - first, range.end - range.start + 1), { objectMode: false });
}

/**
 * Blobs as objects `<prefix><key>` in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2), for instances that share
 * no disk. An upload streams through lib-storage's Upload: one PUT for a file smaller than a part, else a multipart
 * upload of S3_PART_BYTES parts, one part in flight, so memory stays bounded whatever the size. An object exists only
 * once the upload completed; a failed or refused one is aborted, so no object and (barring a crash) no parts remain.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  /** A store in `config`'s bucket; `client` (made from `config` when left out) is the SDK client it talks through. */
  constructor(config: S3Config, client: S3Client = s3Client(config)) {
    this.#client = client;
    this.#bucket = config.bucket;
    this.#prefix = config.prefix;
  }

  /** The object key of a blob. */
  objectKey(key: string): string {
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    return `${this.#prefix}${key}`;
  }

  /** Where a blob is, for people: `s3://bucket/prefix/key`. */
  urlOf(key: string): string {
    return `s3://${this.#bucket}/${this.objectKey(key)}`;
  }

  // A real write and delete, as the local store does: a read-only key or a wrong region fails here, not at the first upload.
  async checkWritable(): Promise<void> {
    const probe = `${this.#prefix}probe-${newBlobKey()}`;
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: probe, Body: 'ok' }));
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: probe }));
  }

  async write(source: Readable, limitBytes: number): Promise<StoredBlob> {
    return this.#upload(newBlobKey(), source, limitBytes);
  }

  /**
   * Streams `source` to the blob `key` (a restore puts each blob back under its own key); like `write` otherwise.
   * A failure of the source (or BLOB_TOO_LARGE) is thrown as it is, a failure of the bucket as BLOB_STORE_UNAVAILABLE.
   */
  async writeAt(key: string, source: Readable, limitBytes: number): Promise<StoredBlob> {
    return this.#upload(key, source, limitBytes);
  }

  async #upload(key: string, source: Readable, limitBytes: number): Promise<StoredBlob> {
    const body = new PassThrough();
    // Upload destroys the body when it gives up; its own error (through `done`) is the one that counts.
    body.on('error', () => {});
    const upload = new Upload({
      client: this.#client, params: { Bucket: this.#bucket, Key: this.objectKey(key), Body: body, ContentType: 'application/octet-stream' },
      partSize: S3_PART_BYTES, queueSize: 1, leavePartsOnError: false,
    });
    let failed: { error: unknown } | null = null;
    // Settles only after Upload has aborted its multipart upload, when it fails.
    const done = upload.done().then(() => {}, (error: unknown) => {
      failed = { error };
      throw error;
    });
    done.catch(() => {});
    try {
      const counted = await copyCounted(source, limitBytes, async (chunk) => {
        if (failed) throw failed.error;
        if (body.write(chunk)) return;
        // Backpressure: at most one part waits in Upload; a failed upload ends the wait instead of a drain that never comes.
        try {
          await Promise.race([once(body, 'drain'), done]);
        } catch {
          // The body was closed by a failing Upload (or `done` failed): report the upload's failure once it has aborted.
          await done;
          throw new Error('the upload ended before its body');
        }
      });
      body.end();
      await done;
      return { key, ...counted };
    } catch (error) {
      // Never end() here: an ended body would be uploaded as a whole (and shorter) object. A destroyed one fails the
      // upload, which then aborts its multipart upload before `done` settles.
      body.destroy();
      await done.catch(() => {});
      // A PUT can complete just as the source fails; deleting a key that does not exist costs nothing.
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.objectKey(key) })).catch(() => {});
      const fromBucket = failed !== null && (failed as { error: unknown }).error === error;
      throw fromBucket ? unavailable('store the file', error) : error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const objectKey = this.objectKey(key);
    try {
      const answer = await this.#client.send(new GetObjectCommand({
        Bucket: this.#bucket, Key: objectKey, ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
      }));
      // In Node the SDK's body is the HTTP response itself: streamed, never buffered here.
      const body = answer.Body as Readable;
      return range === undefined ? body : rangeOf(body, answer.ContentRange, range);
    } catch (error) {
      if (isNotFound(error)) throw missingBlob(key, `s3://${this.#bucket}/${objectKey}`);
      throw unavailable('read the file', error);
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.objectKey(key) }));
  }

  /** The blob keys under the prefix, a page (up to 1,000) at a time, with when each was written. */
  async *#objects(): AsyncGenerator<{ key: string; writtenAt: number }> {
    let token: string | undefined;
    do {
      const page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const key = (object.Key ?? '').slice(this.#prefix.length);
        // Only what newBlobKey names: probes and whatever else shares the bucket stay untouched.
        if (isBlobKey(key) && object.Key === `${this.#prefix}${key}`) yield { key, writtenAt: object.LastModified?.getTime() ?? Date.now() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** True when the prefix holds any blob (a restore needs an empty target). */
  async holdsBlobs(): Promise<boolean> {
    for await (const _ of this.#objects()) return true;
    return false;
  }

  async sweepOrphans(referenced: (key: string) => Promise<boolean>, olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for await (const { key, writtenAt } of this.#objects()) {
      if (writtenAt >= cutoff || (await referenced(key))) continue;
      await this.delete(key);
      removed++;
    }
    return removed + (await this.#abortStaleUploads(cutoff));
  }

  /**
   * Aborts the multipart uploads under the prefix begun before `cutoff`: the parts of an upload whose instance died
   * midway, the counterpart of the local store's old `.part` files. A server that cannot list uploads (NotImplemented)
   * leaves them to the bucket's lifecycle rule (docs/operations.md).
   */
  async #abortStaleUploads(cutoff: number): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      do {
        const page = await this.#client.send(new ListMultipartUploadsCommand({ Bucket: this.#bucket, Prefix: this.#prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
        for (const upload of page.Uploads ?? []) {
          const key = (upload.Key ?? '').slice(this.#prefix.length);
          if (!isBlobKey(key) || (upload.Initiated?.getTime() ?? Date.now()) >= cutoff) continue;
          await this.#client.send(new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: upload.Key, UploadId: upload.UploadId }));
          aborted++;
        }
        [keyMarker, uploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
      } while (keyMarker !== undefined);
    } catch (error) {
      if ((error as { name?: string }).name !== 'NotImplemented') throw error;
    }
    return aborted;
  }
}
