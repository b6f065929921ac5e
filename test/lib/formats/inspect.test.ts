/**
 * inspect's marks from records: boxes mapped from points to pixels, inferred spaces put in the
 * gap between runs, resegmented words and repaired characters found, a PNG a reader accepts, and
 * hostile record text escaped in the HTML view.
 */
import t from 'tap';
import { inflateSync } from 'node:zlib';
import { inspectHtml, pageMarks, repairedSpans } from '../../../lib/formats/inspect.js';
import { encodePng } from '../../../lib/formats/inspect-png.js';
import type { Item, Line, PageRecord } from '../../../lib/protocol/records.js';
import { block } from '../../helpers.js';

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
  t.equal(marks.spaces[0]!.x, 320, 'the space in the middle of the gap between the runs (156–164 pt), not at its estimate (162.5 pt)');
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
