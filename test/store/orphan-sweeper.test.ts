import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as wait } from 'node:timers/promises';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { startOrphanSweeps } from '../../src/store/orphan-sweeper.ts';

/** A blob store whose sweeps are counted, failing when told to. */
function countingStore(results: (number | Error)[]): BlobStore & { calls: { graceMs: number }[] } {
  const calls: { graceMs: number }[] = [];
  return {
    kind: 'local', calls,
    write: () => Promise.reject(new Error('unused')), read: () => Promise.reject(new Error('unused')), delete: async () => {}, checkWritable: async () => {},
    sweepOrphans: async (_referenced, graceMs) => {
      calls.push({ graceMs });
      const next = results.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

/** Waits (up to 10 s, whatever the machine's load) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await wait(10);
  assert.ok(done(), 'timed out');
}

function recordingLog() {
  const lines: string[] = [];
  return { lines, info: (f: object, m: string) => lines.push(`info ${m} ${JSON.stringify(f)}`), warn: (_f: object, m: string) => lines.push(`warn ${m}`) };
}

it('sweeps at start and then on every interval, logging what it removed, until stopped', async () => {
  const blobs = countingStore([2, 0, 1]);
  const log = recordingLog();
  const sweeps = startOrphanSweeps(blobs, async () => false, 3_600_000, 20, log);
  assert.equal(await sweeps.first, 2);
  await until(() => blobs.calls.length >= 3);
  await sweeps.stop();
  const count = blobs.calls.length;
  assert.ok(count >= 3, `swept ${count} times`);
  assert.ok(blobs.calls.every((c) => c.graceMs === 3_600_000));
  assert.deepEqual(log.lines.slice(0, 2), ['info removed orphaned upload files {"blobs":"local","removed":2}', 'info removed orphaned upload files {"blobs":"local","removed":1}']);
  await wait(60);
  assert.equal(blobs.calls.length, count, 'no sweep after stop');
});

it('a failed sweep is logged and the next one still runs', async () => {
  const blobs = countingStore([new Error('disk gone'), 3]);
  const log = recordingLog();
  const sweeps = startOrphanSweeps(blobs, async () => false, 1000, 20, log);
  assert.equal(await sweeps.first, 0);
  await until(() => log.lines.length >= 2);
  await sweeps.stop();
  assert.equal(log.lines[0], 'warn sweeping orphaned upload files failed; the next sweep tries again');
  assert.match(log.lines[1] ?? '', /removed":3/);
});

it('runs the extra sweeps after every sweep of files, each logged on its own, a failure of one not stopping the others', async () => {
  const blobs = countingStore([new Error('disk gone'), 0]);
  const log = recordingLog();
  const order: string[] = [];
  const results: (number | Error)[] = [new Error('database gone'), 4];
  const sweeps = startOrphanSweeps(blobs, async () => false, 1000, 20, log, [
    { what: 'expired keys', sweep: async () => {
      order.push(`keys after ${blobs.calls.length} file sweeps`);
      const next = results.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    } },
    { what: 'old rows', sweep: async () => {
      order.push('rows');
      return 0;
    } },
  ]);
  assert.equal(await sweeps.first, 0);
  await until(() => order.length >= 4);
  await sweeps.stop();
  assert.deepEqual(order.slice(0, 4), ['keys after 1 file sweeps', 'rows', 'keys after 2 file sweeps', 'rows']);
  assert.deepEqual(log.lines.slice(0, 3), [
    'warn sweeping orphaned upload files failed; the next sweep tries again', 'warn removing expired keys failed; the next sweep tries again',
    'info removed expired keys {"removed":4}',
  ]);
});
