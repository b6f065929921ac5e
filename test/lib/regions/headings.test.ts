/**
 * lib/regions/headings.ts: the numbering of a heading and its depth.
 */
import t from 'tap';
import { headingNumber } from '../../../lib/regions/headings.js';

t.test('heading numbering', async (t) => {
  t.same(headingNumber('2.3 Results'), { number: '2.3', depth: 2 });
  t.same(headingNumber('IV. DISCUSSION'), { number: 'IV', depth: 1 });
  t.same(headingNumber('B. Two models'), { number: 'B', depth: 2 });
  t.same(headingNumber('Appendix A: Proofs'), { number: 'A', depth: 1 });
  t.equal(headingNumber('1999 was a year'), null);
  t.equal(headingNumber('3 apples'), null, 'a heading starts with a capital after its number');
});
