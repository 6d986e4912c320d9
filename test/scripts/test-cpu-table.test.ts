import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { formatCpuTable, processTreeCpuSeconds, readFileCpu } from '../../scripts/test-cpu-table.ts';

test('the reports of the test files are read, summed per file, ranked by CPU and totalled', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-cpu-'));
  try {
    fs.writeFileSync(path.join(dir, '1.json'), JSON.stringify({ file: 'test/a.test.ts', self: 2, children: 1, wall: 5 }));
    fs.writeFileSync(path.join(dir, '2.json'), JSON.stringify({ file: 'test/b.test.ts', self: 10, children: 20, wall: 40 }));
    fs.writeFileSync(path.join(dir, '3.json'), JSON.stringify({ file: 'test/a.test.ts', self: 1, children: null, wall: 1 }));
    fs.writeFileSync(path.join(dir, '4.json'), '{"file": "cut off');
    const files = readFileCpu(dir);
    assert.deepEqual(files.find((f) => f.file === 'test/a.test.ts'), { file: 'test/a.test.ts', self: 3, children: null, wall: 6 });
    const lines = formatCpuTable(files, { cpu: 60, wall: 120 }, 1);
    assert.match(lines[0]!, /the 1 of 2 test file/);
    assert.match(lines[2]!, /test\/b\.test\.ts +30\.0 +10\.0 +20\.0 +40\.0/);
    assert.equal(lines.length, 4);
    assert.match(lines[3]!, /whole run 1\.0 min in 2\.0 min of wall time; of it the test files 0\.6 min, the rest .* 0\.5 min/);
    const shared = formatCpuTable(files, { cpu: 60, wall: 120, shared: { PostgreSQL: 12, Chromium: undefined } });
    assert.match(shared.at(-1)!, /the test files 0\.6 min, PostgreSQL 0\.2 min, the rest \(the test runner, this script\) 0\.3 min$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the CPU time of this process tree is read from /proc on Linux', { skip: process.platform !== 'linux' }, () => {
  const before = processTreeCpuSeconds()!;
  const start = process.cpuUsage();
  // Burn 0.3 s of CPU (not of wall time: the machine may be busy).
  while (process.cpuUsage(start).user + process.cpuUsage(start).system < 300_000);
  const used = processTreeCpuSeconds()! - before;
  assert.ok(used >= 0.25 && used < 5, `${used} s`);
});
