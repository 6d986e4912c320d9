import type { Config, S3Config } from '../config.ts';
import type { Clock } from '../model/clock.ts';
import type { BlobStore } from './blob-store.ts';
import { DatabaseBlobStore } from './database-blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import type { Store } from './store.ts';

/** The blob store the configuration asks for: a local directory, the database behind `store`, or an S3 bucket. */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'blobDir'> & Partial<Pick<Config, 's3'>>, store: Store, clock?: Clock): BlobStore {
  if (config.blobStore === 's3') return new S3BlobStore(s3Settings(config));
  return config.blobStore === 'database' ? new DatabaseBlobStore(store, clock) : new LocalBlobStore(config.blobDir);
}

/** The bucket settings of an s3 configuration (loadConfig always gives them with APAS_BLOB_STORE=s3). */
export function s3Settings(config: Partial<Pick<Config, 's3'>>): S3Config {
  if (!config.s3) throw new Error('APAS_BLOB_STORE=s3 without its APAS_S3_* settings');
  return config.s3;
}

/** How old an unreferenced blob must be before the sweep removes it: longer than any upload can still be running. */
export function orphanGraceMs(config: Pick<Config, 'requestTimeoutMs'>): number {
  return Math.max(3_600_000, 2 * config.requestTimeoutMs);
}
