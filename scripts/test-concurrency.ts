/**
 * How many test files `npm test` runs at once, and why: APAS_TEST_CONCURRENCY, or one more than the CPUs this process
 * may really use, which is the fewer of the cores it may run on and its cgroup's CPU quota (a container limited to 2
 * CPUs on a 64-core host sees 64 cores but gets the time of 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The chosen number of test files at a time and the reason, as printed in the run's first line. */
export interface TestConcurrency {
  readonly files: number;
  readonly reason: string;
}

/** A cgroup's CPU limit: at most `quota` µs of CPU time every `period` µs, i.e. quota/period CPUs. */
export interface CpuQuota {
  readonly quota: number;
  readonly period: number;
  /** The file the limit was read from, to name it. */
  readonly source: string;
}

/** Parses cgroup v2's cpu.max ("quota period", or "max period" without a limit); undefined without a limit or when unreadable. */
export function parseCpuMax(text: string): { quota: number; period: number } | undefined {
  const [quota, period = '100000', ...rest] = text.trim().split(/\s+/);
  if (rest.length > 0 || quota === undefined || quota === 'max') return undefined;
  return positivePair(quota, period);
}

/** Parses cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us (quota -1 means no limit); undefined without a limit. */
export function parseCfsQuota(quotaText: string, periodText: string): { quota: number; period: number } | undefined {
  return positivePair(quotaText.trim(), periodText.trim());
}

function positivePair(quota: string, period: string): { quota: number; period: number } | undefined {
  if (!/^\d+$/.test(quota) || !/^\d+$/.test(period)) return undefined;
  const q = Number(quota);
  const p = Number(period);
  return q > 0 && p > 0 ? { quota: q, period: p } : undefined;
}

/** The CPUs a quota allows, rounded up (1.5 CPUs can keep 2 cores busy part of the time), at least 1. */
export function quotaCpus(quota: { quota: number; period: number }): number {
  return Math.max(1, Math.ceil(quota.quota / quota.period));
}

/**
 * The tightest CPU quota on this process's cgroup and its ancestors (cgroup v2 cpu.max, or v1 cfs quota), or undefined
 * when there is none or the files cannot be read (not Linux, no cgroup file system). `root` is for tests.
 */
export function cgroupCpuQuota(root = '/sys/fs/cgroup', selfCgroup = readText('/proc/self/cgroup')): CpuQuota | undefined {
  const found: CpuQuota[] = [];
  for (const line of (selfCgroup ?? '').split('\n')) {
    // "hierarchy-id:controllers:path"; v2 has id 0 and no controllers, v1 names its controllers ("cpu,cpuacct").
    const match = /^(\d+):([^:]*):(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, id, controllers = '', cgroupPath = '/'] = match;
    if (id === '0' && controllers === '') {
      for (const dir of cgroupDirs(root, cgroupPath)) {
        const text = readText(path.join(dir, 'cpu.max'));
        const limit = text === undefined ? undefined : parseCpuMax(text);
        if (limit) found.push({ ...limit, source: path.join(dir, 'cpu.max') });
      }
    } else if (controllers.split(',').includes('cpu')) {
      for (const mount of new Set([controllers, 'cpu', 'cpu,cpuacct', 'cpuacct,cpu'])) {
        for (const dir of cgroupDirs(path.join(root, mount), cgroupPath)) {
          const quota = readText(path.join(dir, 'cpu.cfs_quota_us'));
          const period = readText(path.join(dir, 'cpu.cfs_period_us'));
          const limit = quota === undefined || period === undefined ? undefined : parseCfsQuota(quota, period);
          if (limit) found.push({ ...limit, source: path.join(dir, 'cpu.cfs_quota_us') });
        }
      }
    }
  }
  return found.reduce<CpuQuota | undefined>((least, q) => (least && least.quota / least.period <= q.quota / q.period ? least : q), undefined);
}

/**
 * The directories of a cgroup and its ancestors under a mount. Inside a container the path in /proc/self/cgroup is
 * often the host's while the mount shows the container's own cgroup as its root, so a path that is not there
 * falls back to the mount's root.
 */
function cgroupDirs(mount: string, cgroupPath: string): string[] {
  const parts = cgroupPath.split('/').filter((p) => p !== '' && p !== '..');
  const own = path.join(mount, ...parts);
  if (!fs.existsSync(own)) return fs.existsSync(mount) ? [mount] : [];
  return parts.map((_, i) => path.join(mount, ...parts.slice(0, parts.length - i))).concat(mount);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Test files at a time: APAS_TEST_CONCURRENCY when set, else one more than min(cores, cgroup CPU quota). */
export function testConcurrency(setting: string | undefined, cores = os.availableParallelism(), quota = cgroupCpuQuota()): TestConcurrency {
  if (setting !== undefined && setting.trim() !== '') {
    const n = Number(setting);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`APAS_TEST_CONCURRENCY must be a whole number of at least 1, not "${setting}"`);
    return { files: n, reason: 'APAS_TEST_CONCURRENCY' };
  }
  // One more than the CPUs: a test file waits for its servers, browser and database much of the time.
  if (quota && quotaCpus(quota) < cores) {
    const cpus = quotaCpus(quota);
    return { files: cpus + 1, reason: `${cores} cores, but a CPU quota of ${(quota.quota / quota.period).toFixed(2)} CPUs (${quota.source}): ${cpus} + 1` };
  }
  return { files: cores + 1, reason: `${cores} cores${quota ? `, CPU quota ${(quota.quota / quota.period).toFixed(2)} CPUs` : ', no CPU quota'}: ${cores} + 1` };
}
