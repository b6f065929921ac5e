/**
 * Writing frames (lib/layout/frames.ts): on hand-built runs, glyphs stacked in vertical lines are
 * found and read top to bottom, lines right to left, and a turned run comes back where it was. On
 * real PDFs: LibreOffice Writer's vertical Japanese (`tb-rl`) reads in order, and pdfLaTeX's stamp
 * turned 90° in the margin is a paragraph of its own after the body.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPage, turnedPage, upright, verticalCells } from '../../../lib/layout/frames.js';
import { orderDocument } from '../../../lib/layout/reading-order.js';
import { linesOfPage } from '../../../lib/layout/lines.js';
import { DEFAULTS as ORDER } from '../../../stages/order.js';
import { DEFAULTS as LINES } from '../../../stages/lines.js';
import type { Item } from '../../../lib/protocol/records.js';
import { collapse, group, item, pageRecord, repoRoot, run } from '../../helpers.js';

/** One upright 12 pt glyph per character, top to bottom from `y`, in the column at `x`. */
const column = (text: string, x: number, y: number): Item[] => [...text].map((ch, i) => item(ch, x, y + 12 * i, 12, { w: 12 }));

t.test('glyphs stacked in columns are read top to bottom, columns right to left', async (t) => {
  const items = [...column('一行目です', 100, 50), ...column('二行目です', 80, 50), ...column('三行', 60, 50)];
  t.equal(verticalCells(items).size, items.length, 'every glyph is a cell of a vertical line');
  const { pages } = orderDocument(group([pageRecord('d', 1, { items })]), ORDER);
  const lines = linesOfPage(pages[0]!, LINES).lines!;
  t.same(lines.map((l) => l.text), ['一行目です', '二行目です', '三行']);
  t.ok(pages[0]!.items!.every((i) => i.dir === 'ttb'));
});

t.test('horizontal lines and a column of table digits are no vertical text', async (t) => {
  const horizontal = [item('横書きの行です', 50, 100, 12, { w: 84 }), item('次の行です', 50, 118, 12, { w: 60 })];
  const digits = column('123', 300, 100).map((i) => ({ ...i, w: 6 }));
  t.equal(verticalCells([...horizontal, ...digits]).size, 0);
});

t.test('Korean words of one syllable, one above the other on three horizontal lines, are no vertical line', async (t) => {
  // Lines of 12 pt Hangul, a syllable 12 points wide, words 4 points apart: "새", "수" and "책" each
  // stand alone between word spaces, centred on x = 166.
  const line = (words: string[], y: number): Item[] => {
    let x = 80;
    return words.map((w) => {
      const run = item(w, x, y, 12, { w: 12 * [...w].length });
      x += run.w + 4;
      return run;
    });
  };
  const items = [
    ...line(['도서관은', '작년', '새', '건물로'], 100),
    ...line(['넓어서는', '오후', '수', '있는'], 115),
    ...line(['예전에는', '그곳', '책', '읽기가'], 130),
  ];
  t.equal(verticalCells(items).size, 0);
});

t.test('a turned run comes back to its place', async (t) => {
  const page = { width: 612, height: 792 };
  for (const angle of [90, -90, 180, -12]) {
    const run = item('stamp', 40, 500, 11, { w: 30, angle });
    const frame = turnedPage(page, angle);
    const back = onPage(upright(run, frame), frame);
    t.same([back.x, back.y], [run.x, run.y], `angle ${angle}`);
  }
});

t.test('a XeLaTeX Korean page keeps its words of one syllable in their lines', async (t) => {
  const doc = join(repoRoot, 'test/fixtures/korean/one-syllable-words');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', `${doc}.pdf`]);
  t.equal(code, 0);
  const letters = (text: string): string => text.replace(/\s+/gu, '');
  t.equal(letters(stdout), letters(readFileSync(`${doc}.txt`, 'utf8')), 'every syllable in its place');
});

t.test('Writer vertical Japanese and a pdfLaTeX margin stamp read in order', { timeout: 120_000 }, async (t) => {
  const docs = [join(repoRoot, 'bench/corpus/vertical/ja-lo-fodt-tbrl'), join(repoRoot, 'bench/corpus/rotated/en-pdflatex-stamp')];
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-frames-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--quiet', '--blank-lines', '--out-dir', dir, ...docs.map((d) => `${d}.pdf`)]);
  t.equal(result.code, 0, result.stderr);
  for (const doc of docs) {
    const name = doc.split('/').pop()!;
    const truth = readFileSync(`${doc}.txt`, 'utf8').split(/\n\s*\n/u).map(collapse);
    const out = readFileSync(join(dir, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse);
    t.same(out, truth, name);
  }
});
