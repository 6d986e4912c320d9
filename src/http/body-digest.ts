import { createHash } from 'node:crypto';
import { finished, type Readable, Transform, type TransformCallback } from 'node:stream';

/**
 * Passes a request body through unchanged while hashing it (SHA-256), so that the request can be recognised again
 * (an Idempotency-Key's fingerprint) whatever reads the body after it: a parser that gathers it, or an upload streamed
 * into the blob store. It holds no more than a stream's own buffers.
 */
export class BodyDigest extends Transform {
  readonly #hash = createHash('sha256');
  #hex: string | null = null;
  /** Resolves with the hex SHA-256 once the whole body has passed; rejects when the body broke off. */
  readonly done: Promise<string>;
  #settle!: { resolve: (hex: string) => void; reject: (error: Error) => void };

  constructor() {
    super();
    this.done = new Promise<string>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Nobody may be waiting when a body breaks off; the rejection is for those who do.
    this.done.catch(() => {});
    // Nor reading: a client can reset the connection before the handler reads an upload, or after it stopped. Like
    // a request's own stream, a digest then fails quietly: its error reaches `done` and whoever reads it later, where
    // an 'error' event nobody listens to would be thrown and end the process.
    this.on('error', () => {});
  }

  /** The hex SHA-256 of the whole body, or null while it has not all passed. */
  get hex(): string | null {
    return this.#hex;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.#hex = this.#hash.digest('hex');
    this.#settle.resolve(this.#hex);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#hex === null) this.#settle.reject(error ?? new Error('the body broke off'));
    callback(error);
  }

  /**
   * A digest that `source` (a request) flows through. A source that fails or closes before its end destroys the digest
   * with that error, which a pipe alone would not pass on, so a reader of the digest is never left waiting.
   */
  static of(source: Readable): BodyDigest {
    const digest = new BodyDigest();
    source.pipe(digest);
    finished(source, (error) => {
      if (error) digest.destroy(error);
    });
    return digest;
  }
}
