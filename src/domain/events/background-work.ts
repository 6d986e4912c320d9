/** Where background work reports failures. */
export interface WorkLog { warn(fields: object, message: string): void }

/** What a task that leaves work running after its round (webhook attempts) is given: its wake-up and the log. */
export interface TaskHooks extends WorkLog {
  /** Runs the task's next round now (or after the one in progress). */
  wake(): void;
}

/** One kind of repeated background work: its name (for the log), how often it runs, and one round of it. */
export interface BackgroundTask {
  what: string;
  intervalMs: number;
  /** One round; returns true when there may be more to do at once (a full batch), so the next round starts now. */
  run(): Promise<boolean>;
  /** Called once at start, for work a round starts and does not wait for: it wakes the task when it ends. */
  attach?(hooks: TaskHooks): void;
  /** Resolves once the work rounds started has ended; `stop` waits for it. */
  settled?(): Promise<void>;
}

/**
 * A task whose work comes with the clock, not with changes (daily schedules, the near-deadline window): it runs
 * `round` every `intervalMs`, and lets a wake go when it comes within half the interval of the last round, since
 * background work is woken after every change. Half, so a timer tick that comes a little early still runs.
 */
export function clockPacedTask(what: string, clock: { now(): number }, intervalMs: number, round: (now: number) => Promise<unknown>): BackgroundTask {
  let last = -Infinity;
  return {
    what, intervalMs,
    run: async () => {
      const now = clock.now();
      if (now - last < intervalMs / 2) return false;
      last = now;
      await round(now);
      return false;
    },
  };
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
    task.attach?.({ wake: kick, warn: (fields, message) => log.warn(fields, message) });
    return { kick, timer, done: async () => {
      await (running ?? Promise.resolve());
      await task.settled?.();
    } };
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
