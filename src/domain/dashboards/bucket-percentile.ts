import { bucketMiddleMs } from '../../store/dashboard-queries.ts';

/**
 * The `p`-quantile (0 < p ≤ 1, nearest rank) of durations kept as a histogram (bucket → count): the middle of the
 * bucket holding the rank, so within 4.5 % of the exact value (a bucket spans a factor 2^(1/8)); 0 for no durations.
 */
export function percentileOfBuckets(histogram: Map<number, number>, p: number): number {
  const total = [...histogram.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket)!;
    if (seen >= rank) return bucketMiddleMs(bucket);
  }
  return 0;
}
