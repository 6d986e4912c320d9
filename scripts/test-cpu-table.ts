/**
 * The CPU time of a test run: what each test file's process reported (scripts/test-cpu-report.mjs) and what the whole
 * run used, printed at the end of `npm test` as the most expensive files and a total, to find where the time goes.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One test file's process: CPU seconds of its own, of the processes it spawned and waited for (null when unknown), wall seconds. */
export interface FileCpu {
  readonly file: string;
  readonly self: number;
  readonly children: number | null;
  readonly wall: number;
}

/** The reports the test files' processes wrote into DIR (a file that ran in several processes is summed). */
export function readFileCpu(dir: string): FileCpu[] {
  const byFile = new Map<string, FileCpu>();
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    let report: FileCpu;
    try {
      report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as FileCpu;
    } catch {
      continue;
    }
    const known = byFile.get(report.file);
    byFile.set(report.file, known ? {
      file: report.file, self: known.self + report.self, wall: known.wall + report.wall,
      children: known.children === null || report.children === null ? null : known.children + report.children,
    } : report);
  }
  return [...byFile.values()];
}

/**
 * CPU seconds of a process (this one by default) and of the children it waited for (with theirs), from /proc/PID/stat;
 * undefined elsewhere or when the process is gone.
 */
export function processTreeCpuSeconds(pid: number | 'self' = 'self'): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    // utime, stime, cutime, cstime: fields 14 to 17 of the line, in USER_HZ (100 on every Linux ABI).
    return fields.slice(11, 15).reduce((sum, ticks) => sum + ticks, 0) / 100;
  } catch {
    return undefined;
  }
}

function minutes(seconds: number): string {
  return `${(seconds / 60).toFixed(1)} min`;
}

/** Lines for the end of the run: the TOP files by CPU, then the totals of the files and of the whole run. */
export function formatCpuTable(
  files: FileCpu[], run: { cpu: number | undefined; wall: number; shared?: Record<string, number | undefined> }, top = 15,
): string[] {
  const cpu = (f: FileCpu) => f.self + (f.children ?? 0);
  const ranked = [...files].sort((a, b) => cpu(b) - cpu(a));
  const width = Math.max(4, ...ranked.slice(0, top).map((f) => f.file.length));
  const lines = [
    `the ${Math.min(top, ranked.length)} of ${ranked.length} test file(s) that used the most CPU (seconds; "spawned": processes the file started and waited for):`,
    `  ${'file'.padEnd(width)}    CPU    own spawned    wall`,
    ...ranked.slice(0, top).map((f) => `  ${f.file.padEnd(width)} ${cpu(f).toFixed(1).padStart(6)} ${f.self.toFixed(1).padStart(6)} ${(f.children === null ? '?' : f.children.toFixed(1)).padStart(7)} ${f.wall.toFixed(1).padStart(7)}`),
  ];
  const filesCpu = ranked.reduce((sum, f) => sum + cpu(f), 0);
  const whole = run.cpu === undefined ? 'unknown' : minutes(run.cpu);
  const shared = Object.entries(run.shared ?? {}).filter((e): e is [string, number] => e[1] !== undefined);
  const sharedCpu = shared.reduce((sum, [, seconds]) => sum + seconds, 0);
  const parts = [`the test files ${minutes(filesCpu)}`, ...shared.map(([name, seconds]) => `${name} ${minutes(seconds)}`)];
  if (run.cpu !== undefined) parts.push(`the rest (the test runner, this script${shared.length > 0 ? '' : ', PostgreSQL, Chromium'}) ${minutes(run.cpu - filesCpu - sharedCpu)}`);
  lines.push(`CPU of the whole run ${whole} in ${minutes(run.wall)} of wall time; of it ${parts.join(', ')}`);
  return lines;
}
