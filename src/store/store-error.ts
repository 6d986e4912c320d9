/**
 * The store's own failures. The store knows nothing of HTTP or the service's error codes; the domain turns these into
 * answers (`fromStoreError` in src/domain/api-error.ts).
 */
export type StoreErrorCode =
  /** A blob grew past the limit it was written with; nothing of it is kept. */
  | 'BLOB_TOO_LARGE'
  /** A write transaction ran longer than MAX_WRITE_TRANSACTION_MS and was rolled back. */
  | 'TRANSACTION_TOO_LONG'
  /** A stored secret does not open: its key is not configured, or the value was changed. */
  | 'SECRET_UNREADABLE'
  /** The database did not answer a COMMIT in time: the change may or may not have been saved. */
  | 'COMMIT_UNCONFIRMED'
  /** A blob that a row references is not in the blob store (removed out of band, or a restore without its files). */
  | 'BLOB_MISSING'
  /** The blob store (an S3 bucket) did not take or give a blob: unreachable, refused, or failed midway. */
  | 'BLOB_STORE_UNAVAILABLE';

/** A failure of the store that callers may act on; `code` says which. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}
