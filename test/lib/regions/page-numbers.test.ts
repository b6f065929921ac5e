/**
 * lib/regions/page-numbers.ts: folios found by their sequence, wherever the page puts them.
 */
import t from 'tap';
import { folioValue, markPageNumbers, romanValue } from '../../../lib/regions/page-numbers.js';
import { block, pageRecord } from '../../helpers.js';
import type { Block } from '../../../lib/protocol/records.js';

t.test('folio values: arabic, roman, decorated; not words', async (t) => {
  t.same(folioValue('12'), { value: 12, roman: false });
  t.same(folioValue('– 7 –'), { value: 7, roman: false });
  t.same(folioValue('[iv]'), { value: 4, roman: true });
  t.same(folioValue('Page 3'), { value: 3, roman: false });
  t.equal(romanValue('xiv'), 14);
  t.equal(folioValue('Figure 2'), null);
  t.equal(folioValue('3.5'), null);
});

/** A page of body text with a folio `text` at the top (head) or the foot. */
function page(number: number, text: string, at: 'head' | 'foot' | 'middle'): { blocks: Block[] } {
  const y = at === 'head' ? 40 : at === 'foot' ? 800 : 400;
  return {
    blocks: [
      block('Running text of the page, long enough to be a paragraph of the body.', { box: { x: 72, y: 100, w: 450, h: 300 }, lines: 20 }),
      block(text, { box: { x: number % 2 ? 500 : 72, y, w: 10, h: 10 } }),
      block('More running text of the page below the middle of it, a second paragraph.', { box: { x: 72, y: 450, w: 450, h: 300 }, lines: 20 }),
    ],
  };
}

t.test('folios that alternate between head and foot and between corners are found by their sequence', async (t) => {
  const pages = [1, 2, 3, 4].map((n) => pageRecord('d', n, page(n, String(n + 10), n % 2 ? 'foot' : 'head')));
  t.equal(markPageNumbers(pages), 4);
  t.same(pages.map((p) => p.blocks![1]!.role), ['page-number', 'page-number', 'page-number', 'page-number']);
});

t.test('a number that does not run with the pages, or sits amid the text, stays text', async (t) => {
  const scattered = [1, 2, 3].map((n) => pageRecord('d', n, page(n, String([5, 17, 2][n - 1]), 'foot')));
  t.equal(markPageNumbers(scattered), 0);
  const inside = [1, 2, 3].map((n) => pageRecord('d', n, page(n, String(n), 'middle')));
  t.equal(markPageNumbers(inside), 0, 'an equation number or a table cell between two paragraphs is not a folio');
});
