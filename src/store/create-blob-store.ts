import type { Config } from '../config.ts';
import type { Clock } from '../model/clock.ts';
import type { BlobStore } from './blob-store.ts';
import { DatabaseBlobStore } from './database-blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import type { Store } from './store.ts';

/** The blob store the configuration asks for: a local directory, or the database behind `store`. */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'blobDir'>, store: Store, clock?: Clock): BlobStore {
  return config.blobStore === 'database' ? new DatabaseBlobStore(store, clock) : new LocalBlobStore(config.blobDir);
}

/** How old an unreferenced blob must be before the sweep removes it: longer than any upload can still be running. */
export function orphanGraceMs(config: Pick<Config, 'requestTimeoutMs'>): number {
  return Math.max(3_600_000, 2 * config.requestTimeoutMs);
}
