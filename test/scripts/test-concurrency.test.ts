import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cgroupCpuQuota, parseCfsQuota, parseCpuMax, quotaCpus, testConcurrency } from '../../scripts/test-concurrency.ts';

test('cgroup v2 cpu.max: "quota period" is a limit, "max" is none, anything else is no limit', () => {
  assert.deepEqual(parseCpuMax('200000 100000\n'), { quota: 200_000, period: 100_000 });
  assert.deepEqual(parseCpuMax('150000'), { quota: 150_000, period: 100_000 }, 'the period defaults to 100 ms');
  assert.equal(parseCpuMax('max 100000\n'), undefined);
  for (const bad of ['', 'garbage', '-1 100000', '0 100000', '100000 0', '1 2 3', '1.5 100000']) assert.equal(parseCpuMax(bad), undefined, bad);
});

test('cgroup v1 cfs quota: -1 is no limit', () => {
  assert.deepEqual(parseCfsQuota('50000\n', '100000\n'), { quota: 50_000, period: 100_000 });
  assert.equal(parseCfsQuota('-1\n', '100000\n'), undefined);
  assert.equal(parseCfsQuota('', '100000'), undefined);
});

test('a quota is rounded up to whole CPUs, and is at least one', () => {
  assert.equal(quotaCpus({ quota: 200_000, period: 100_000 }), 2);
  assert.equal(quotaCpus({ quota: 150_000, period: 100_000 }), 2);
  assert.equal(quotaCpus({ quota: 1_000, period: 100_000 }), 1);
});

test('the tightest quota of the cgroup and its ancestors counts; a missing own path falls back to the mount root', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-cgroup-'));
  try {
    fs.mkdirSync(path.join(root, 'ci/job'), { recursive: true });
    fs.writeFileSync(path.join(root, 'cpu.max'), 'max 100000\n');
    fs.writeFileSync(path.join(root, 'ci/cpu.max'), '200000 100000\n');
    fs.writeFileSync(path.join(root, 'ci/job/cpu.max'), '400000 100000\n');
    assert.deepEqual(cgroupCpuQuota(root, '0::/ci/job\n'), { quota: 200_000, period: 100_000, source: path.join(root, 'ci/cpu.max') });
    assert.equal(cgroupCpuQuota(root, '0::/elsewhere\n'), undefined, 'the root says max');
    fs.writeFileSync(path.join(root, 'cpu.max'), '300000 100000\n');
    assert.equal(cgroupCpuQuota(root, '0::/host/path/not/here\n')?.quota, 300_000);

    fs.mkdirSync(path.join(root, 'cpu,cpuacct/docker/abc'), { recursive: true });
    fs.writeFileSync(path.join(root, 'cpu,cpuacct/docker/abc/cpu.cfs_quota_us'), '100000\n');
    fs.writeFileSync(path.join(root, 'cpu,cpuacct/docker/abc/cpu.cfs_period_us'), '100000\n');
    assert.equal(cgroupCpuQuota(root, '4:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n')?.quota, 100_000, 'cgroup v1');
    assert.equal(cgroupCpuQuota(root, ''), undefined);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('test files at a time: one more than the fewer of cores and quota CPUs, or APAS_TEST_CONCURRENCY', () => {
  const quota = { quota: 200_000, period: 100_000, source: '/sys/fs/cgroup/cpu.max' };
  assert.equal(testConcurrency(undefined, 64, quota).files, 3);
  assert.match(testConcurrency(undefined, 64, quota).reason, /64 cores, but a CPU quota of 2\.00 CPUs \(\/sys\/fs\/cgroup\/cpu\.max\)/);
  assert.equal(testConcurrency('', 2, undefined).files, 3);
  assert.match(testConcurrency(undefined, 2, undefined).reason, /no CPU quota/);
  assert.equal(testConcurrency(undefined, 2, { ...quota, quota: 800_000 }).files, 3, 'a quota above the cores does not add files');
  assert.deepEqual(testConcurrency('5', 64, quota), { files: 5, reason: 'APAS_TEST_CONCURRENCY' });
  assert.throws(() => testConcurrency('0', 2, undefined), /at least 1/);
  assert.throws(() => testConcurrency('two', 2, undefined), /at least 1/);
});
