/**
 * lib/regions/running-heads.ts: heads whose text alternates between pages, found by their place.
 */
import t from 'tap';
import { markRunningHeads } from '../../../lib/regions/running-heads.js';
import { block, pageRecord } from '../../helpers.js';

/** A page with a small head line at height `y` (text `head`) over three paragraphs. */
function page(number: number, head: string, y: number) {
  return pageRecord('d', number, {
    blocks: [
      block(head, { size: 8, box: { x: 72, y, w: 120, h: 9 } }),
      block('A paragraph of the body that runs over several lines of the page.', { size: 10, lines: 6, box: { x: 72, y: 80, w: 450, h: 70 } }),
      block('Another paragraph of the body, with more words in it than a head has.', { size: 10, lines: 6, box: { x: 72, y: 160, w: 450, h: 70 } }),
      block('The last paragraph of the page ends the sentence here.', { size: 10, lines: 3, box: { x: 72, y: 240, w: 450, h: 35 } }),
    ],
  });
}

t.test('heads that alternate (author, title) at one height on pages after the first are headers', async (t) => {
  const pages = [page(1, 'Spring survey', 36), page(2, 'M. Lindqvist', 36), page(3, 'Heat Retention of Tea', 36.5)];
  t.equal(markRunningHeads(pages, 10), 2);
  t.same(pages.map((p) => p.blocks![0]!.role), ['body', 'header', 'header'], 'page 1 keeps its first line: the title block stands there');
});

t.test('small first lines at different heights, or set like the body, are no heads', async (t) => {
  t.equal(markRunningHeads([page(1, 'x', 36), page(2, 'Table notes', 36), page(3, 'Figure key', 52)], 10), 0);
  const bodySized = [page(1, 'a', 36), page(2, 'Chapter one', 36), page(3, 'Chapter two', 36)];
  for (const p of bodySized) p.blocks![0]!.size = 10;
  t.equal(markRunningHeads(bodySized, 10), 0);
});

t.test('a small heading that opens the text block at the top of two pages is no head', async (t) => {
  // Pages whose text starts at y = 54; on two of them a section starts there, its heading set
  // smaller than the body (as revtex sets subsections), apart from the paragraph under it.
  const opening = (number: number, first: string, small: boolean) =>
    pageRecord('d', number, {
      blocks: [
        block(first, { size: small ? 9 : 10, lines: small ? 1 : 4, box: { x: small ? 170 : 72, y: 54, w: small ? 300 : 450, h: small ? 10 : 46 } }),
        block('A paragraph of the body that runs over several lines of the page.', { size: 10, lines: 6, box: { x: 72, y: 80, w: 450, h: 70 } }),
        block('Another paragraph of the body, with more words in it than a head has.', { size: 10, lines: 6, box: { x: 72, y: 160, w: 450, h: 70 } }),
      ],
    });
  const pages = [opening(1, 'Title of the paper', false), opening(2, 'B. The second model', true), opening(3, 'A paragraph that runs on from the page before it.', false), opening(4, 'C. The third model', true), opening(5, 'More of the body text.', false)];
  t.equal(markRunningHeads(pages, 10), 0);
});
