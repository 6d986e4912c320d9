import fs from 'node:fs';

/** One reading of a process's resident set size. */
export interface RssSample { atMs: number; rssKb: number }

/** The resident set size of a process in KiB, from /proc/<pid>/status (Linux); null when it cannot be read. */
export function readRssKb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; `atMs` counts from the start. */
export function sampleRss(pid: number, everyMs: number): { samples: RssSample[]; stop: () => void } {
  const started = Date.now();
  const samples: RssSample[] = [];
  const take = () => {
    const rssKb = readRssKb(pid);
    if (rssKb !== null) samples.push({ atMs: Date.now() - started, rssKb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** RSS growth from a window of the run to its end (the median of the last minute, or quarter of a short run). */
export interface RssGrowth { baselineKb: number; endKb: number; growth: number }

function growthFrom(samples: RssSample[], runMs: number, from: number, to: number): RssGrowth {
  const endWindow = Math.min(60_000, runMs * 0.25);
  const baselineKb = median(samples.filter((s) => s.atMs >= from && s.atMs <= to).map((s) => s.rssKb));
  const endKb = median(samples.filter((s) => s.atMs >= runMs - endWindow).map((s) => s.rssKb));
  return { baselineKb, endKb, growth: baselineKb > 0 ? endKb / baselineKb - 1 : Number.NaN };
}

/**
 * RSS growth to the end from the first minute (the median of its samples), and from the second minute: the
 * first minute still holds start-up memory (compiling, loading) that V8 gives back later, so growth from it can
 * hide a leak; the second minute is the settled baseline. Short runs scale the windows down.
 */
export function rssGrowth(samples: RssSample[], runMs: number): { firstMinute: RssGrowth; secondMinute: RssGrowth } {
  const minute = Math.min(60_000, runMs / 5);
  return { firstMinute: growthFrom(samples, runMs, 0, minute), secondMinute: growthFrom(samples, runMs, minute, 2 * minute) };
}
