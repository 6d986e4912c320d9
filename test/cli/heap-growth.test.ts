import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { applyHeapGrowth } from '../../src/cli/heap-growth.ts';
import { loadConfig } from '../../src/config.ts';

// `apas serve` sets V8's old-generation growth (APAS_HEAP_GROWTH_PERCENT, 40 by default), so that a server whose live
// heap is 75 MB collects its garbage at about 1.4 times that, not at V8's 4 times on a large machine.

const MODULE = fileURLToPath(new URL('../../src/cli/heap-growth.ts', import.meta.url));

// A process with about 20 MB live that keeps making garbage which lives long enough to reach the old generation (as
// a request's objects do while it waits for the database), printing the largest old space it had. 4,000 rounds make
// about 500 MB of such garbage: fewer let V8's first, fixed limit decide the peak on Node 22 and 24, not the growth.
const CHURN = `
import v8 from 'node:v8';
const { applyHeapGrowth } = await import(process.argv[1]);
applyHeapGrowth(Number(process.argv[2]));
const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
const live = [];
for (let i = 0; i < 200000; i++) live.push({ id: i, name: 'live ' + i });
const recent = [];
let peak = 0;
for (let round = 0; round < 4000; round++) {
  recent.push(Array.from({ length: 2000 }, (_, i) => ({ i, s: 'garbage ' + i })));
  if (recent.length > 200) recent.shift();
  peak = Math.max(peak, old());
}
process.stdout.write(JSON.stringify({ peakMb: peak / 2 ** 20, live: live.length }));
`;

async function peakOldSpaceMb(percent: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHURN, MODULE, String(percent)]);
  return (JSON.parse(stdout) as { peakMb: number }).peakMb;
}

describe('heap growth of apas serve', () => {
  it('holds the old generation near the live heap: well under where a growth of 300 % lets it go', async () => {
    // Compared with 300 % set the same way, not with V8's own growth: V8's own factor depends on the machine's memory
    // (on a CI machine Node 22's own growth peaked at only 140 MB). Measured on Node 20, 22 and 24, also with the CPUs
    // busy: 40 % peaks at 0.39–0.62 of 300 % (the highest on Node 24, whose new space is larger), and 300 % against
    // 300 % at 0.93–1.01, which is what a Node line whose V8 dropped the option would show; this then fails.
    const [set, large] = await Promise.all([peakOldSpaceMb(40), peakOldSpaceMb(300)]);
    assert.ok(set < large * 0.85, `old space peaked at ${set.toFixed(0)} MB with 40 %, ${large.toFixed(0)} MB with 300 %`);
  });

  it('leaves V8 its own growth at 0, and a --heap-growing-percent given to node wins over the setting', () => {
    assert.equal(applyHeapGrowth(0, []), null);
    assert.equal(applyHeapGrowth(40, ['--heap-growing-percent=25']), 25);
    assert.equal(applyHeapGrowth(40, ['--heap_growing_percent=60']), 60);
  });

  it('is 40 % unless APAS_HEAP_GROWTH_PERCENT says otherwise, from 0 (V8\'s own) to 300', () => {
    assert.equal(loadConfig({}).heapGrowthPercent, 40);
    assert.equal(loadConfig({ APAS_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
    assert.equal(loadConfig({ APAS_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent, 100);
    assert.throws(() => loadConfig({ APAS_HEAP_GROWTH_PERCENT: '301' }), /APAS_HEAP_GROWTH_PERCENT must be between 0 and 300/);
    assert.throws(() => loadConfig({ APAS_HEAP_GROWTH_PERCENT: '1.5' }), /APAS_HEAP_GROWTH_PERCENT must be a whole number/);
  });
});
