/** Where background work reports failures. */
export interface WorkLog { warn(fields: object, message: string): void }

/** One kind of repeated background work: its name (for the log), how often it runs, and one round of it. */
export interface BackgroundTask {
  what: string;
  intervalMs: number;
  /** One round; returns true when there may be more to do at once (a full batch), so the next round starts now. */
  run(): Promise<boolean>;
}

/** Started background work: `wake` runs every task's next round now; `stop` ends them once rounds in progress end. */
export interface BackgroundWork { wake(): void; stop(): Promise<void> }

/**
 * Runs each task in rounds, one round of a task at a time: every `intervalMs`, at once again after a round that
 * says there is more, and when woken (after a change in this instance, so its events go out without waiting for
 * the interval). A round that throws is logged and retried at the next interval; it never stops the task.
 */
export function startBackgroundWork(tasks: readonly BackgroundTask[], log: WorkLog): BackgroundWork {
  let stopped = false;
  const loops = tasks.map((task) => {
    let running: Promise<void> | null = null;
    let again = false;
    const round = async (): Promise<void> => {
      do {
        again = false;
        try {
          if (await task.run()) again = true;
        } catch (error) {
          log.warn({ err: error }, `${task.what} failed; trying again in ${task.intervalMs} ms`);
        }
      } while (again && !stopped);
    };
    const kick = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = round().finally(() => {
        running = null;
      });
    };
    const timer = setInterval(kick, task.intervalMs);
    timer.unref();
    return { kick, timer, done: () => running ?? Promise.resolve() };
  });
  return {
    wake: () => {
      for (const loop of loops) loop.kick();
    },
    stop: async () => {
      stopped = true;
      for (const loop of loops) clearInterval(loop.timer);
      await Promise.all(loops.map((loop) => loop.done()));
    },
  };
}
