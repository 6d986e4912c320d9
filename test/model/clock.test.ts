import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';

// isoTimestamp formats by arithmetic and tables and keeps the dates of the days met: it must agree with Date's own formatting for
// every millisecond, around day boundaries, for days met out of order, and outside the years it formats itself.
const byDate = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

it('formats like Date.toISOString with +00:00, at the edges and for random times', () => {
  const edges = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 12), Date.UTC(2026, 10, 24, 23, 59, 59, 999),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999), -1, -86_400_001, Date.UTC(10000, 0, 1)];
  for (const ms of edges) assert.equal(isoTimestamp(ms), byDate(ms), String(ms));
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 20_000; i++) {
    const ms = Math.floor(next() * Date.UTC(9999, 0, 1));
    assert.equal(isoTimestamp(ms), byDate(ms), String(ms));
  }
});
