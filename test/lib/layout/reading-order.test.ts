/**
 * Reading order (lib/layout/reading-order.ts and the modules it calls) on hand-built glyph runs (no
 * PDF): reading order of a two-column page under a full-width title, running headers, footers and
 * page numbers tagged across pages, and lines repeated across a page break dropped.
 */
import t from 'tap';
import { orderDocument } from '../../../lib/layout/reading-order.js';
import { DEFAULTS } from '../../../stages/order.js';
import type { Item, PageRecord } from '../../../lib/protocol/records.js';
import { group, item, pageRecord, texts, wordItems } from '../../helpers.js';

/** A deterministic shuffle, so that the result cannot depend on the order runs arrive in. */
function shuffle<T>(values: readonly T[]): T[] {
  const out = [...values];
  let seed = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A column of `rows` lines of `perLine` words named PREFIX<row>.<word>, starting at (x, y). */
function column(prefix: string, x: number, y: number, rows: number, perLine = 9, size = 10): Item[][] {
  const lines: Item[][] = [];
  for (let r = 0; r < rows; r++) {
    const words = Array.from({ length: perLine }, (_, w) => `${prefix}${r}.${w}`);
    lines.push(wordItems(words, x, y + r * 1.4 * size, size, 0.3));
  }
  return lines;
}

t.test('two columns under a full-width title: title, then the whole left column, then the right', async (t) => {
  //   [            title, 57 … 537             ]
  //   [left column 57 … ~261]   [right column 310 … ~514]
  const title = item('A Title That Spans Both Columns', 57, 80, 20, { w: 480 });
  const left = column('L', 57, 120, 8);
  const right = column('R', 310, 120, 7);
  const page = pageRecord('two', 1, { items: shuffle([title, ...left.flat(), ...right.flat()]) });
  const { pages } = orderDocument(group([page]), DEFAULTS);
  const items = pages[0]!.items!;
  t.same(
    texts(items),
    [title.text, ...left.flat().map((i) => i.text), ...right.flat().map((i) => i.text)],
    'title, left column line by line, right column line by line',
  );
  const blocks = items.map((i) => i.block);
  t.ok(blocks.every((b) => typeof b === 'number'), 'every item has a block');
  t.same(blocks, [...blocks].sort((a, b) => a! - b!), 'items are sorted by block');
  const maxLeft = Math.max(...items.filter((i) => i.text.startsWith('L')).map((i) => i.block!));
  const minRight = Math.min(...items.filter((i) => i.text.startsWith('R')).map((i) => i.block!));
  t.ok(maxLeft < minRight, 'no left-column block comes after a right-column block');
  t.notOk(items.some((i) => i.role), 'no furniture on a one-page body');
});

t.test('the reading order of a single column is top to bottom, whatever the input order', async (t) => {
  const lines = column('C', 72, 100, 6, 6);
  const page = pageRecord('one', 1, { items: shuffle(lines.flat()) });
  const { pages } = orderDocument(group([page]), DEFAULTS);
  t.same(texts(pages[0]!.items!), lines.flat().map((i) => i.text));
});

/** An A5 page with a running header, a body, and a footer line with the page number at its right. */
function a5Page(n: number, extra: Item[] = []): PageRecord {
  const header = wordItems(['Field', 'Notes', '—', 'Spring', 'Survey'], 140, 28, 9);
  const body = column(`P${n}-`, 50, 100, 10, 7).flat();
  const footer = wordItems(['Millbrook', 'Ponds', 'Report'], 50, 570, 9);
  const number = item(String(n), 360, 570, 9);
  return pageRecord('rh', n, { items: [...header, ...extra, ...body, ...footer, number] }, 420, 595);
}

t.test('running header, footer and page numbers on three pages get their roles; body and a one-off top line do not', async (t) => {
  // On page 1 only, a line inside the top margin band that does not repeat: not a running header.
  const oneOff = wordItems(['Chapter', 'One'], 50, 64, 10);
  const { pages } = orderDocument(group([a5Page(1, oneOff), a5Page(2), a5Page(3)]), DEFAULTS);
  t.equal(pages.length, 3);
  for (const page of pages) {
    const roleOf = (text: string): string | undefined => page.items!.find((i) => i.text === text)?.role;
    t.equal(roleOf('Field'), 'header', `page ${page.page}: the running header`);
    t.equal(roleOf('Survey'), 'header', `page ${page.page}: all of it`);
    t.equal(roleOf('Millbrook'), 'footer', `page ${page.page}: the running footer`);
    t.equal(roleOf(String(page.page)), 'page-number', `page ${page.page}: the bare page number`);
    const body = page.items!.filter((i) => i.text.startsWith(`P${page.page}-`));
    t.equal(body.length, 70);
    t.notOk(body.some((i) => i.role), `page ${page.page}: body text has no role`);
  }
  const chapter = pages[0]!.items!.find((i) => i.text === 'Chapter');
  t.equal(chapter?.role, undefined, 'a top-margin line that appears once is not furniture');
});

t.test('a bare page number at the foot of a single page is a page number; --no-furniture tags nothing', async (t) => {
  const body = column('B', 72, 100, 5, 6).flat();
  const page = pageRecord('pn', 1, { items: [...body, item('7', 290, 800, 10)] });
  const tagged = orderDocument(group([page]), DEFAULTS).pages[0]!.items!;
  t.equal(tagged.find((i) => i.text === '7')?.role, 'page-number');
  const untagged = orderDocument(group([page]), { ...DEFAULTS, furniture: false }).pages[0]!.items!;
  t.notOk(untagged.some((i) => i.role), 'with furniture off, no roles');
});

t.test('runs outside the page box are dropped, with a diagnostic that counts them', async (t) => {
  const body = column('B', 72, 100, 3, 4).flat();
  const outside = [item('ghost', -200, 100, 10), item('below', 72, 2000, 10)];
  const result = orderDocument(group([pageRecord('out', 1, { items: [...body, ...outside] })]), DEFAULTS);
  t.same(texts(result.pages[0]!.items!), body.map((i) => i.text));
  t.match(result.diagnostics, [{ type: 'diagnostic', code: 'outside-page', count: 2, place: { page: 1 } }]);
});

t.test('monospaced text: word spaces that line up into a white river are no column gutter', async (t) => {
  // Every glyph 0.6 em and every word space one glyph, as a plain-text page sets them: the spaces
  // after "fleet" and "staff" share one x on several rows.
  const rows = ['The official fleet of fifty ferries sailed', 'the official staff of sixty firms finalized', 'all official drafts of forty files remained', 'and official notes in dozens were written'];
  const items = rows.flatMap((text, r) => {
    let x = 57;
    return text.split(' ').map((word) => {
      const run = item(word, x, 100 + r * 11.4, 10, { w: word.length * 6 });
      x += (word.length + 1) * 6;
      return run;
    });
  });
  const { pages } = orderDocument(group([pageRecord('mono', 1, { items })]), DEFAULTS);
  t.same(new Set(pages[0]!.items!.map((i) => i.block)), new Set([0]), 'one block');
});

t.test('a running header set close above the text is furniture, not the first line of a paragraph', async (t) => {
  // A5 pages (595 pt high, margin band 71 pt): the header's baseline 48, the body's first 62 —
  // close enough for the two to chain into one block.
  const pages = [1, 2, 3].map((n) =>
    pageRecord('hdr', n, {
      items: [
        ...wordItems(['Field', 'Notes', '—', 'study', 'edition'], 150, 48, 10),
        ...column(`P${n}.`, 57, 62, 6).flat(),
        item(String(n), 200, 560, 9),
      ],
    }, 420, 595),
  );
  const { pages: ordered } = orderDocument(group(pages), DEFAULTS);
  for (const page of ordered) {
    const header = page.items!.filter((i) => i.y === 48);
    t.ok(header.every((i) => i.role === 'header'), `page ${page.page}: the header is tagged`);
    t.ok(page.items!.filter((i) => i.y >= 62 && i.y < 500).every((i) => i.role === undefined), `page ${page.page}: the body is not`);
    t.equal(page.items!.find((i) => i.y === 560)?.role, 'page-number');
  }
});

t.test('footnote marks hanging before their notes are no column', async (t) => {
  // Marks 1.3 em left of the notes' common start: one block, each mark before its note.
  const notes = [0, 1, 2].flatMap((k) => [item(String(k + 1), 57, 520 + k * 10.4 - 3, 5.2), ...wordItems([`note${k}`, 'text', 'of', 'this', 'footnote'], 71, 520 + k * 10.4, 9)]);
  const { pages } = orderDocument(group([pageRecord('fn', 1, { items: notes })]), DEFAULTS);
  t.same(texts(pages[0]!.items!).slice(0, 7), ['1', 'note0', 'text', 'of', 'this', 'footnote', '2']);
});

t.test("a raised footnote mark at the foot of the right column stays with its note, not with the left column's line beside it", async (t) => {
  // As LaTeX sets it: the mark's baseline (764.8) is nearer the left column's last line (766)
  // than its own note's (768.6), and it touches the note's first word.
  const left = column('L', 66, 704.4, 5, 9, 11);
  const right = column('R', 302, 704.4, 4, 9, 11);
  const mark = item('1', 315, 764.8, 6, { w: 3.6 });
  const note = wordItems(['La', 'redacción', 'sigue', 'el', 'texto'], 319.2, 768.6, 9, 0.3);
  const { pages } = orderDocument(group([pageRecord('fn2', 1, { items: shuffle([...left.flat(), ...right.flat(), mark, ...note]) })]), DEFAULTS);
  const items = pages[0]!.items!;
  const lastLeft = left.at(-1)!.map((i) => i.text);
  const blockOf = (text: string) => items.find((i) => i.text === text)?.block;
  t.same(texts(items.filter((i) => i.block === blockOf(lastLeft[0]!))).slice(-9), lastLeft, "the left column's last line ends with its own last word");
  t.equal(blockOf('1'), blockOf('La'), 'the mark is in the block of its note');
  const at = texts(items).indexOf('1');
  t.same(texts(items).slice(at, at + 3), ['1', 'La', 'redacción'], 'and comes right before it');
});

t.test('a line cut by the page break and repeated whole at the top of the next page is dropped from the first', async (t) => {
  // Page 1 ends with the glyphs of a line that reach over the clip edge (here the marks of
  // "abcd", "efgh", "ijkl" and "mnop", each inside its word); page 2 starts with the whole line.
  const body = column('B', 72, 100, 30, 8);
  const whole = wordItems(['abcd', 'efgh', 'ijkl', 'mnop', 'qrst'], 72, 60);
  const clipped = whole.slice(0, 4).map((w) => item(w.text.slice(1, 3), w.x + 5, 800, 10, { w: 10 }));
  const other = wordItems(['more', 'body', 'text', 'here'], 72, 100);
  const pages = [pageRecord('cut', 1, { items: [...body.flat(), ...clipped] }), pageRecord('cut', 2, { items: [...whole, ...other] })];
  const { pages: ordered, diagnostics } = orderDocument(group(pages), DEFAULTS);
  t.notOk(ordered[0]!.items!.some((i) => i.y === 800), 'the clipped row is gone from page 1');
  t.equal(ordered[1]!.items!.length, whole.length + other.length, 'page 2 keeps its whole line');
  t.match(diagnostics, [{ code: 'repeated-line', place: { page: 1 }, count: 4 }]);

  // The same row at another x (text that only happens to match) stays.
  const shifted = clipped.map((i) => ({ ...i, x: i.x + 40 }));
  const kept = orderDocument(group([pageRecord('cut', 1, { items: [...body.flat(), ...shifted] }), pageRecord('cut', 2, { items: [...whole, ...other] })]), DEFAULTS);
  t.equal(kept.pages[0]!.items!.filter((i) => i.y === 800).length, 4, 'a row that does not lie inside the next page\'s words stays');
  t.same(kept.diagnostics, []);
});

t.test('a mark drawn as its own run inside a long run: the gap to the next run is measured from the long run\'s end', async (t) => {
  // A redistilled Thai line: one run to x 288, its thanthakhat as a run of its own at 235, the
  // rest of the line after a word space at 292.7 (four em after the mark's end).
  const long = item('ก'.repeat(40), 56, 728.8, 13, { w: 232 });
  const mark = item('\u0E4C', 235.3, 727.5, 13, { w: 4.3 });
  const rest = item('ข'.repeat(38), 292.7, 728.8, 13, { w: 234.9 });
  const body = column('B', 56, 500, 8, 9, 13);
  const { pages } = orderDocument(group([pageRecord('mark', 1, { items: [...body.flat(), long, mark, rest] })]), DEFAULTS);
  const blocks = new Set(pages[0]!.items!.filter((i) => Math.abs(i.y - 728.8) < 2).map((i) => i.block));
  t.equal(blocks.size, 1, 'the line is one block');
});

t.test('a clipped repeat of one or two runs is dropped only where each is a part of the run it lies in', async (t) => {
  const body = column('B', 72, 100, 30, 8);
  const top = wordItems(['abcd', 'efgh', 'ijkl'], 72, 60);
  // The top of one glyph of "efgh", 1.1 pt of its width, reached over the clip edge.
  const clipped = item('fg', top[1]!.x + 3, 800, 10, { w: 1.1 });
  const cut = orderDocument(group([pageRecord('one', 1, { items: [...body.flat(), clipped] }), pageRecord('one', 2, { items: top })]), DEFAULTS);
  t.notOk(cut.pages[0]!.items!.some((i) => i.y === 800), 'a sliver of a run of the next page\'s top line is dropped');
  // A whole word that happens to stand where the next page has the same word stays.
  const whole = item('efgh', top[1]!.x, 800, 10, { w: top[1]!.w });
  const kept = orderDocument(group([pageRecord('one', 1, { items: [...body.flat(), whole] }), pageRecord('one', 2, { items: top })]), DEFAULTS);
  t.ok(kept.pages[0]!.items!.some((i) => i.y === 800), 'a whole word stays');
});
