/**
 * The shared measures of lib/layout/geometry.ts that every layout stage takes its thresholds from.
 */
import t from 'tap';
import { median } from '../../../lib/layout/geometry.js';

/** The median as its definition says: the middle of the sorted values, or the mean of the two middle ones. */
function medianByDefinition(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

t.test('median: the middle value, over lists sorted by insertion and by the typed sort, one call after another', async (t) => {
  // A fixed pseudo-random sequence: the same lists on every run.
  let seed = 7;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let differing = 0;
  const lengths = [0, 1, 2, 3, 4, 5, 23, 24, 25, 26, 100, 3, 1000, 7, 64, 65, 129, 2];
  for (let round = 0; round < 20; round++) {
    for (const length of lengths) {
      // Font sizes and gaps: many equal values, negatives, and now and then a zero.
      const values = Array.from({ length }, () => (next() < 0.05 ? 0 : Math.round((next() - 0.2) * 40) / 4));
      if (median(values) !== medianByDefinition(values)) differing++;
    }
  }
  t.equal(differing, 0, 'every list gives the median of its sorted values');
  t.equal(median([3, 1, 2]), 2);
  t.equal(median([10, 9.96, 12, 9.96]), 9.98);
  t.equal(median([0, -0, 5]), 0, 'zeros take the comparison sort');
});
