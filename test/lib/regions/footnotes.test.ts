/**
 * lib/regions/footnotes.ts: the run-ons that notes, floats and page breaks interrupt, and the
 * enumerations inside a sentence that the paragraph rules took for list items.
 */
import t from 'tap';
import { mendRunOns } from '../../../lib/regions/footnotes.js';
import { block, pageRecord } from '../../helpers.js';

t.test('a lone item with a lower-case label after a sentence cut short is the sentence going on', async (t) => {
  const page = pageRecord('d', 1, {
    blocks: [
      block('We compare the averages calculated from', { box: { x: 72, y: 100, w: 400, h: 12 } }),
      block('(i) the standard method and (ii) the weighted one, for every size.', { role: 'list-item', box: { x: 60, y: 114, w: 420, h: 12 } }),
    ],
  });
  t.equal(mendRunOns([page]), 1);
  t.same(page.blocks!.map((b) => [b.role, b.continues]), [['body', false], ['body', true]]);
});

t.test('a list of items stays a list, after a sentence cut short or not', async (t) => {
  const page = pageRecord('d', 1, {
    blocks: [
      block('The method has two steps', { box: { x: 72, y: 100, w: 400, h: 12 } }),
      block('(a) the counts are read;', { role: 'list-item', box: { x: 72, y: 114, w: 400, h: 12 } }),
      block('(b) the averages are taken.', { role: 'list-item', box: { x: 72, y: 128, w: 400, h: 12 } }),
    ],
  });
  mendRunOns([page]);
  t.same(page.blocks!.map((b) => b.role), ['body', 'list-item', 'list-item']);
});
