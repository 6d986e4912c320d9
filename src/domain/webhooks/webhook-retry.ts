/**
 * The most each wait between attempts may be, by failed attempt (1st, 2nd, …; the last repeats): exponential, so a
 * receiver that is down a moment gets its deliveries soon and one down for hours is not hammered.
 */
export const RETRY_CAPS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000] as const;

/** How long a delivery is retried, from its first attempt; the last attempt is made at its end. */
export const RETRY_WINDOW_MS = 26 * 3_600_000;

/** The shortest wait between attempts. */
const MIN_WAIT_MS = 1_000;

/**
 * When to try a delivery again after its `attempts`-th failed attempt, or null to give up: a wait drawn uniformly
 * below the attempt's cap ("full jitter", so receivers that failed together are not retried together), and never
 * past the end of the retry window, where one last attempt is made.
 */
export function nextAttemptAt(attempts: number, firstAttemptAt: number, now: number, random: () => number): number | null {
  const end = firstAttemptAt + RETRY_WINDOW_MS;
  if (now >= end) return null;
  return Math.min(now + backoffWait(attempts, random), end);
}

/** A wait after the `n`-th failure in a row (1, 2, …): drawn uniformly below its cap, at least a second. */
export function backoffWait(n: number, random: () => number): number {
  const cap = RETRY_CAPS_MS[Math.min(Math.max(n, 1), RETRY_CAPS_MS.length) - 1] ?? RETRY_CAPS_MS[0];
  return Math.max(MIN_WAIT_MS, Math.floor(random() * cap));
}

/** The longest pause a receiver's `Retry-After` is honoured for: the largest retry cap, 12 hours. */
export const MAX_RETRY_AFTER_MS: number = RETRY_CAPS_MS[RETRY_CAPS_MS.length - 1] ?? 43_200_000;
