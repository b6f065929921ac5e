/**
 * PDFium's glyph runs on hand-built glyphs (lib/engines/pdfium/runs.ts): a run's item (box,
 * direction, normalisation) and a right-to-left run's text turned back into glyph order.
 */
import t from 'tap';
import { glyphOrderText, runToItem } from '../../../../lib/engines/pdfium/runs.js';

t.test('runToItem: box from the glyph extremes, direction from the letters, normalisation, blank runs', async (t) => {
  const glyph = (ch: string, left: number, right: number) => ({ ch, left, right, ox: left, oy: 100, size: 10, font: 'F', horizontal: true, dx: 1, dy: 0 });
  t.same(runToItem([glyph('a', 10, 15), glyph('b', 15, 20)], true), { text: 'ab', x: 10, y: 100, w: 10, size: 10, font: 'F', dir: 'ltr' });
  // Right-to-left text PDFium put in logical order (the first letter is the rightmost) is given in
  // glyph order, left to right on the page, as pdf.js gives it.
  const rtl = runToItem([glyph('ש', 30, 36), glyph('ל', 24, 30), glyph('ו', 20, 24)], true);
  t.match(rtl, { text: 'ולש', x: 20, w: 16, dir: 'rtl' });
  // Right-to-left text in drawing order (left to right) is kept as drawn.
  const drawn = runToItem([glyph('ו', 20, 24), glyph('1', 24, 28), glyph('2', 28, 32), glyph('ל', 32, 36), glyph('ש', 36, 42)], true);
  t.match(drawn, { text: 'ו12לש', x: 20, w: 22, dir: 'rtl' });
  t.equal(runToItem([glyph('ﬁ', 0, 5), glyph('x', 5, 9)], true)?.text, 'fix', 'a ligature is decomposed');
  t.equal(runToItem([glyph('ﬁ', 0, 5)], false)?.text, 'ﬁ', 'and kept without normalisation');
  t.equal(runToItem([glyph(' ', 0, 3), glyph('\u00a0', 3, 6)], true), null, 'a blank run is no item');
});

t.test('glyphOrderText: PDFium\'s logical order turned back into the order glyphs are drawn', async (t) => {
  const glyph = (ch: string, left: number, right: number, ox = left) => ({ ch, left, right, ox, oy: 100, size: 10, font: 'F', horizontal: true, dx: 1, dy: 0 });
  // "ל-3" as PDFium gives it (right to left, the number in its own order): drawn "3-ל".
  t.equal(glyphOrderText([glyph('ל', 30, 36), glyph('-', 27, 30), glyph('3', 21, 27)]), '3-ל');
  // Numbers and Latin words keep their order inside the reversed run; brackets PDFium mirrored are mirrored back.
  t.equal(glyphOrderText([glyph('(', 60, 63), glyph('ב', 54, 60), glyph('1', 42, 48), glyph('2', 48, 54), glyph(')', 39, 42)]), '(12ב)');
  // A letter and its marks share the glyph's origin: marks first, as shapers draw them ("שָׁל").
  t.equal(glyphOrderText([glyph('\u05b8', 33.5, 36.1, 30.4), glyph('\u05c1', 31, 33.5, 30.4), glyph('ש', 36.1, 38.7, 30.4), glyph('ל', 24.4, 30.4)]), 'ל\u05c1\u05b8ש');
  // Lam-alef, one glyph: its slices of the box in order (PDFium's decomposition) or, with the same
  // box, the mapped text reversed.
  t.equal(glyphOrderText([glyph('ا', 40, 45), glyph('إ', 30, 32, 30), glyph('ل', 32, 35, 30)]), 'إلا');
  t.equal(glyphOrderText([glyph('ل', 30, 36, 30), glyph('ا', 30, 36, 30)]), 'ال');
  // Drawn left to right: as given; vertical text: as given.
  t.equal(glyphOrderText([glyph('ו', 20, 24), glyph('ל', 24, 30)]), 'ול');
  t.equal(glyphOrderText([{ ...glyph('ש', 30, 36), horizontal: false }, { ...glyph('ל', 24, 30), horizontal: false }]), 'של');
});
