/**
 * lib/regions/running-heads.ts: heads whose text alternates between pages, found by their place
 * (beside the furniture already found, for a foot below the text block).
 */
import t from 'tap';
import { join } from 'node:path';
import { markRunningHeads } from '../../../lib/regions/running-heads.js';
import type { PageRecord, Role } from '../../../lib/protocol/records.js';
import { block, pageRecord, parseLines, repoRoot, run } from '../../helpers.js';

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

/**
 * A page 340 points high of three paragraphs (text block from y = 80 to 275) whose foot at
 * y = 300 holds `foot` blocks: [text, role, x].
 */
function footedPage(number: number, foot: [string, string, number][], lowest = 275) {
  return pageRecord('d', number, {
    blocks: [
      block('A paragraph of the body that runs over several lines of the page.', { size: 10, lines: 6, box: { x: 72, y: 80, w: 450, h: 70 } }),
      block('Another paragraph of the body, with more words in it than a foot has.', { size: 10, lines: 6, box: { x: 72, y: 160, w: 450, h: 70 } }),
      block('The last paragraph of the page ends the sentence here.', { size: 10, lines: 3, box: { x: 72, y: 240, w: 450, h: lowest - 240 } }),
      ...foot.map(([text, role, x]) => block(text, { size: 8, role: role as Role, box: { x, y: 300, w: text.length * 4, h: 9 } })),
    ],
  }, 595, 340);
}

t.test('a foot printed on even pages only agrees with the furniture beside which other pages print theirs', async (t) => {
  // Three pages, twoside: the odd pages' foot repeats and is furniture already; the even page's
  // foot (the title) is there once, beside its page number, and paragraphs took it for a note.
  const pages = [
    footedPage(1, [['Harbour Board, Port Ellery', 'footer', 72], ['1', 'page-number', 515]]),
    footedPage(2, [['2', 'page-number', 72], ['The Harbour Ferry in 2023', 'footnote', 420]]),
    footedPage(3, [['Harbour Board, Port Ellery', 'footer', 72], ['3', 'page-number', 515]]),
  ];
  t.equal(markRunningHeads(pages, 10), 1);
  t.equal(pages[1]!.blocks![4]!.role, 'footer');
});

t.test('a small last line inside the text block is no foot for sharing a height with furniture', async (t) => {
  // Page 3's text reaches below y = 300 (a slide whose code runs to its foot): the text block
  // ends lower than page 2's last small line, which stays what it was.
  const pages = [
    footedPage(1, [['1', 'page-number', 515]]),
    footedPage(2, [['x, y := f(3);', 'footnote', 72]]),
    footedPage(3, [['Output:', 'footer', 72]], 320),
  ];
  t.equal(markRunningHeads(pages, 10), 0);
  t.equal(pages[1]!.blocks![3]!.role, 'footnote');
});

t.test('bench/corpus/footers/en-pdflatex-twoside.pdf: the foot of every page is footer and page number', async (t) => {
  // fancyhdr twoside on three pages: the page number on the outer edge, the organisation on odd
  // pages and the title on the even one, once; before, the even page's foot read as a footnote.
  const result = await run(['extract', '--quiet', '--format', 'ndjson', join(repoRoot, 'bench/corpus/footers/en-pdflatex-twoside.pdf')]);
  t.equal(result.code, 0);
  const pages = parseLines(result.stdout).filter((r) => r.type === 'page') as PageRecord[];
  const feet = pages.map((p) => (p.blocks ?? []).filter((b) => b.box.y > p.height * 0.9).sort((a, b) => a.box.x - b.box.x).map((b) => [b.role, b.text]));
  t.same(feet, [
    [['footer', 'Harbour Board, Port Ellery'], ['page-number', '1']],
    [['page-number', '2'], ['footer', 'The Harbour Ferry in 2023']],
    [['footer', 'Harbour Board, Port Ellery'], ['page-number', '3']],
  ]);
});
