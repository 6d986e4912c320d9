import type { BlobStore } from './blob-store.ts';

/** What a sweep reports to: how many files it removed, or why it failed. */
export interface SweepLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Another clean-up that runs after every sweep of orphaned files: what it removes (for the log), and the work. */
export interface ExtraSweep { what: string; sweep: () => Promise<number> }

/**
 * Sweeps orphaned upload files now and then every `intervalMs` until stopped, each time followed by the `extras`
 * (such as expired idempotency keys). An instance that runs for months must not keep the files of uploads whose
 * transaction never committed, nor the ones whose deletion failed. `first` is the number of files the first sweep
 * removed; `stop` ends the sweeps and resolves once a sweep in progress has ended.
 */
export function startOrphanSweeps(
  blobs: BlobStore, referenced: (key: string) => Promise<boolean>, graceMs: number, intervalMs: number, log: SweepLog, extras: ExtraSweep[] = [],
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
    ).then(async (removed) => {
      for (const extra of extras) {
        // Each on its own: one that fails neither stops the others nor the next round.
        try {
          const count = await extra.sweep();
          if (count > 0) log.info({ removed: count }, `removed ${extra.what}`);
        } catch (error) {
          log.warn({ err: error }, `removing ${extra.what} failed; the next sweep tries again`);
        }
      }
      return removed;
    });
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
