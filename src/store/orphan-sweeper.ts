import type { BlobStore } from './blob-store.ts';

/** What a sweep reports to: how many files it removed, or why it failed. */
export interface SweepLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * Sweeps orphaned upload files now and then every `intervalMs` until stopped. An instance that runs for months must
 * not keep the files of uploads whose transaction never committed, nor the ones whose deletion failed. Returns a
 * function that stops the sweeps and resolves once a sweep in progress has ended.
 */
export function startOrphanSweeps(
  blobs: BlobStore, referenced: (key: string) => Promise<boolean>, graceMs: number, intervalMs: number, log: SweepLog,
): { first: Promise<number>; stop: () => Promise<void> } {
  let running: Promise<number> = Promise.resolve(0);
  const sweep = (): Promise<number> => {
    running = running.then(() => blobs.sweepOrphans(referenced, graceMs)).then(
      (removed) => {
        if (removed > 0) log.info({ blobs: blobs.kind, removed }, 'removed orphaned upload files');
        return removed;
      },
      (error: unknown) => {
        log.warn({ blobs: blobs.kind, err: error }, 'sweeping orphaned upload files failed; the next sweep tries again');
        return 0;
      },
    );
    return running;
  };
  const first = sweep();
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return {
    first,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
