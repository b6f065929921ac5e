/**
 * inspect's marks from records: boxes mapped from points to pixels, inferred spaces put in the
 * gap between runs, resegmented words and repaired characters found, a PNG a reader accepts,
 * hostile record text escaped in the HTML view, and the boxes of turned and vertical text turned
 * back onto the page, over their glyphs.
 */
import t from 'tap';
import { inflateSync } from 'node:zlib';
import { inspectHtml, pageMarks, repairedSpans } from '../../../lib/formats/inspect.js';
import { encodePng } from '../../../lib/formats/inspect-png.js';
import type { Item, Line, PageRecord } from '../../../lib/protocol/records.js';
import { block, repoRoot } from '../../helpers.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from '../../../lib/run/extract.js';
import { renderPages } from '../../../lib/engines/pdfium/render.js';

const item = (text: string, x: number, w: number): Item => ({ text, x, y: 110, w, size: 10, font: 'F', dir: 'ltr', block: 0 });

function line(text: string, inferred: Line['inferred']): Line {
  return { text, box: { x: 100, y: 101, w: 100, h: 11.5 }, base: 110, font: 'F', size: 10, dir: 'ltr', block: 0, inferred };
}

t.test('pageMarks: boxes at scale, a space at the run gap, a resegmented word, a repaired character', async (t) => {
  const page: PageRecord = {
    type: 'page', doc: 'd', page: 1, width: 300, height: 400,
    items: [item('Harbour', 100, 56), item('tide', 164, 36)],
    lines: [line('Harbour tido', [{ at: 7, kind: 'space', rule: 'gap' }]), { ...line('a quay', [{ at: 1, kind: 'space', rule: 'split-glued' }]), base: 130, box: { x: 100, y: 121, w: 30, h: 11.5 } }],
    blocks: [block('Harbour tido', { box: { x: 100, y: 101, w: 100, h: 31.5 } })],
  };
  const marks = pageMarks(page, 2);
  t.same([marks.width, marks.height], [600, 800]);
  t.same(marks.blocks[0]!.box, { x: 200, y: 202, w: 200, h: 63 });
  t.same(marks.blocks[0]!.number, 1);
  t.equal(marks.spaces.length, 1);
  t.equal(marks.spaces[0]!.x + marks.spaces[0]!.w / 2, 320, 'the space in the middle of the gap between the runs (156–164 pt), not at its estimate (162.5 pt)');
  t.equal(marks.resegmented.length, 1, 'the split word highlighted');
  t.equal(marks.repaired.length, 1, 'the line whose text differs from its runs');
  t.same(repairedSpans(page.lines![0]!, page.items!), [[11, 12]], 'only the changed character');
  const runs = [item('c\uf70aat', 100, 40), item('dog', 150, 30)];
  t.same(repairedSpans(line('cat dgo', []), runs), [[1, 2], [5, 7]], 'a character dropped (marked at the one after it), and two swapped');
  t.same(repairedSpans(line('cat dog', []), [item('cat', 100, 30), item('dog', 140, 30)]), [], 'nothing where the text is the runs\' text');
});

t.test('encodePng: a PNG whose pixels read back', async (t) => {
  const data = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255]);
  const png = encodePng({ width: 2, height: 2, data });
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  t.same([png.readUInt32BE(16), png.readUInt32BE(20)], [2, 2]);
  const idat = png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
  t.same([...inflateSync(idat)], [0, ...data.subarray(0, 8), 0, ...data.subarray(8)]);
});

t.test('inspectHtml: record text and roles are escaped', async (t) => {
  const hostile = '</title></g></svg><script>alert(1)</script><img src=x onerror=alert(2)>';
  const page: PageRecord = { type: 'page', doc: 'd', page: 1, width: 100, height: 100, lines: [], blocks: [block(hostile)] };
  const html = inspectHtml('a "name" <b>', [{ page: 1, marks: pageMarks(page, 1), href: 'page-1.png?"><script>' }]);
  t.notMatch(html, /<script|<img|<b>/);
  t.match(html, /&lt;\/title&gt;&lt;\/g&gt;&lt;\/svg&gt;&lt;script&gt;/);
});

/**
 * Turned and vertical text on real PDFs: each block drawn over the rendered page must hold the
 * page's ink where it is. PDFium renders the page without marks; its dark pixels are the glyphs.
 * Every block's pixel box, grown by half its text size, holds ink that spans most of it, and the
 * grown boxes together hold nearly all of the page's ink.
 */
const TURNED = [
  { file: 'bench/corpus/rotated/es-pdflatex-rotate.pdf', page: 2, what: 'a page shown turned by /Rotate 90, with a stamp turned back' },
  { file: 'bench/corpus/rotated/de-pdflatex-landscape.pdf', page: 1, what: 'a label turned -90° at the right edge' },
  { file: 'bench/corpus/rotated/de-pdflatex-landscape.pdf', page: 2, what: 'a page drawn in landscape' },
  { file: 'bench/corpus/rotated/en-pdflatex-stamp.pdf', page: 1, what: 'a stamp turned 90° in the margin' },
  { file: 'bench/corpus/vertical/ja-lo-fodt-tbrl.pdf', page: 1, what: 'Japanese set in vertical lines' },
];
/** Darker than this (0–255, every channel) is ink. */
const INK = 128;
/** The share of a box's width and height its ink must span, and of the page's ink the boxes must hold. */
const SPAN_SHARE = 0.5;
const INK_HELD = 0.97;

for (const { file, page: number, what } of TURNED) {
  t.test(`pageMarks on ${what}: the blocks are drawn over their glyphs`, async (t) => {
    const path = join(repoRoot, file);
    let page: PageRecord | undefined;
    for await (const document of extract([path], { format: 'ndjson' })) page = document.pages.find((p) => p.page === number);
    t.ok(page, `page ${number} extracted`);
    const raster = (await renderPages(readFileSync(path), [number], 1)).get(number)!;
    const marks = pageMarks(page!, 1);
    t.same([raster.width, raster.height], [marks.width, marks.height], 'the rendering and the marks share the page size');
    const dark = (x: number, y: number): boolean => {
      const at = (y * raster.width + x) * 4;
      return raster.data[at]! < INK && raster.data[at + 1]! < INK && raster.data[at + 2]! < INK;
    };
    const grown = marks.blocks.map(({ box, record }) => {
      const g = record.size / 2;
      return { x0: box.x - g, y0: box.y - g, x1: box.x + box.w + g, y1: box.y + box.h + g, box, number: record.text.slice(0, 20) };
    });
    const inside = (x: number, y: number, b: (typeof grown)[number]): boolean => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
    let ink = 0;
    let held = 0;
    const spans = grown.map(() => ({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }));
    for (let y = 0; y < raster.height; y++) {
      for (let x = 0; x < raster.width; x++) {
        if (!dark(x, y)) continue;
        ink++;
        let any = false;
        grown.forEach((b, i) => {
          if (!inside(x, y, b)) return;
          any = true;
          const s = spans[i]!;
          s.x0 = Math.min(s.x0, x); s.y0 = Math.min(s.y0, y); s.x1 = Math.max(s.x1, x + 1); s.y1 = Math.max(s.y1, y + 1);
        });
        if (any) held++;
      }
    }
    t.ok(ink > 500, `the page has ink (${ink} dark pixels)`);
    t.ok(held >= INK_HELD * ink, `the blocks hold the page's ink: ${held} of ${ink} dark pixels`);
    const empty = grown.filter((b, i) => {
      const s = spans[i]!;
      return !(s.x1 - s.x0 >= SPAN_SHARE * b.box.w && s.y1 - s.y0 >= SPAN_SHARE * b.box.h);
    });
    t.same(empty.map((b) => b.number), [], 'every block box spanned by the ink of its glyphs');
    // Baselines and space ticks: next to ink (within half the line's size) along their length.
    const nearInk = (x: number, y: number, r: number): boolean => {
      for (let py = Math.max(0, Math.floor(y - r)); py <= Math.min(raster.height - 1, y + r); py++) {
        for (let px = Math.max(0, Math.floor(x - r)); px <= Math.min(raster.width - 1, x + r); px++) if (dark(px, py)) return true;
      }
      return false;
    };
    const lines = page!.lines ?? [];
    const offInk = marks.baselines.filter((b, i) => {
      const r = lines[i]!.size / 2;
      const samples = Array.from({ length: 9 }, (_, k) => (k + 0.5) / 9);
      return samples.filter((f) => nearInk(b.x1 + (b.x2 - b.x1) * f, b.y1 + (b.y2 - b.y1) * f, r)).length < SPAN_SHARE * samples.length;
    });
    t.same(offInk.map((b) => lines[marks.baselines.indexOf(b)]!.text.slice(0, 20)), [], 'every baseline along the ink of its line');
    const size = Math.min(...lines.map((l) => l.size));
    const lost = marks.spaces.filter((s) => !nearInk(s.x + s.w / 2, s.y + s.h / 2, size));
    t.equal(lost.length, 0, `every space tick beside ink (${marks.spaces.length} ticks)`);
  });
}
