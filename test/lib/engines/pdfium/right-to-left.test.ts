/**
 * Right-to-left fixes (lib/engines/pdfium/right-to-left.ts): lone brackets PDFium mirrored, and
 * marks drawn as runs of their own put on their letters' line, on hand-built items; and a Nastaliq
 * document from the font sweep, whose spaces and letters PDFium's order scatters.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loneBracketsInGlyphOrder, rightToLeftMarksOnTheirLine } from '../../../../lib/engines/pdfium/right-to-left.js';
import type { Item } from '../../../../lib/protocol/records.js';
import { charAccuracy, collapse, repoRoot, run } from '../../../helpers.js';

t.test('loneBracketsInGlyphOrder: a bracket PDFium read right to left, alone in its run, is mirrored back', async (t) => {
  const item = (text: string, x: number, y = 100): Item => ({ text, x, y, w: 4, size: 10, font: 'F', dir: text === ')' || text === '(' ? 'ltr' : 'rtl' });
  // PDFium's order: ... "מאני" (right), then ")" to its left: read right to left, so mirrored.
  t.same(loneBracketsInGlyphOrder([item('מאני', 60), item(')', 55), item('ושא', 40)]).map((i) => i.text), ['מאני', '(', 'ושא']);
  // Left to right (an English line, or a bracket before right-to-left text that follows it to the right).
  t.same(loneBracketsInGlyphOrder([item('see', 10), item('(', 30), item('x', 35)]).map((i) => i.text), ['see', '(', 'x']);
  t.same(loneBracketsInGlyphOrder([item('(', 30), item('שלום', 35)]).map((i) => i.text), ['(', 'שלום']);
  // A neighbour on another line says nothing.
  t.same(loneBracketsInGlyphOrder([item('שלום', 60, 80), item(')', 30)]).map((i) => i.text), ['שלום', ')']);
  // "(january)" in an Arabic line, from PDFium right to left: the bracket after the Latin word was
  // read left to right and kept, the one after the Arabic word mirrored.
  const line = [item(')', 227), item('رياني', 205), item('(', 200), item('(', 107), item('january', 61), item('(', 56)];
  t.same(loneBracketsInGlyphOrder(line).map((i) => i.text), ['(', 'رياني', ')', ')', 'january', '(']);
  // Digits do not change the direction PDFium read in: "1541 (" at the end of a Hebrew line.
  t.same(loneBracketsInGlyphOrder([item('עד', 214), item('1541', 187), item(')', 180), item('בימי', 158)]).map((i) => i.text), ['עד', '1541', '(', 'בימי']);
  // Right to left, but with no right-to-left text on the line (text drawn out of order): kept.
  t.same(loneBracketsInGlyphOrder([item('x', 60), item(')', 30), item('y', 20)]).map((i) => i.text), ['x', ')', 'y']);
});

t.test('loneBracketsInGlyphOrder: a bracket with punctuation, in a run drawn left to right, as drawn on a right-to-left line, is mirrored back', async (t) => {
  const item = (text: string, x: number): Item => ({ text, x, y: 100, w: 4, size: 10, font: 'F', dir: /\p{L}/u.test(text) ? 'rtl' : 'ltr' });
  const line = [item('קצף', 160), item('.(', 149)];
  t.same(loneBracketsInGlyphOrder(line, (i) => i.text === '.(').map((i) => i.text), ['קצף', '.)'], 'drawn left to right: the glyphs as drawn, turned back');
  t.same(loneBracketsInGlyphOrder(line).map((i) => i.text), ['קצף', '.('], 'drawn right to left, glyphOrderText has turned it back already');
  // Pango and cairo (test/fixtures/fontsweep, the font sweep's second set): "(עם הרבה קצף)." was "(עם הרבה קצף(.".
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'hebrew-pango-notosanshebrew-b.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /\(עם הרבה קצף\)\./u);
  const truth = readFileSync(join(dir, 'hebrew-pango-notosanshebrew-b.txt'), 'utf8');
  t.same(stdout.split(/\s+/u).filter(Boolean), truth.split(/\s+/u).filter(Boolean), 'every word as the truth writes it');
});

t.test('rightToLeftMarksOnTheirLine: a mark drawn as its own run takes the baseline of the letters under it', async (t) => {
  const item = (text: string, x: number, w: number, y: number): Item => ({ text, x, y, w, size: 12, font: 'F', dir: 'rtl' });
  const word = item('اساسا', 471.3, 22.5, 193.8);
  const raised = item('\u064b', 471.5, 2, 190.9);
  const out = rightToLeftMarksOnTheirLine([raised, item('حقوق', 440, 28, 213.2), word]);
  t.equal(out[0]?.y, 193.8, 'the tanween 0.25 em above the line is put on it');
  t.same(out.slice(1), [item('حقوق', 440, 28, 213.2), word], 'other runs are untouched');
  // Too far from any letter run, or over no run: left where it is; Latin marks are not moved.
  t.equal(rightToLeftMarksOnTheirLine([item('\u064b', 471.5, 2, 180), word])[0]?.y, 180);
  t.equal(rightToLeftMarksOnTheirLine([item('\u064b', 300, 2, 190.9), word])[0]?.y, 190.9);
  t.equal(rightToLeftMarksOnTheirLine([item('\u0301', 471.5, 2, 190.9), word])[0]?.y, 190.9);
});

t.test('rightToLeftMarksOnTheirLine: pointed letters PDFium raised to their first mark\'s origin join the line they touch', async (t) => {
  const item = (text: string, x: number, w: number, y: number): Item => ({ text, x, y, w, size: 15, font: 'F', dir: 'rtl' });
  // "الْبَيْتِ" from Chromium in Naskh: the lam under its sukun reported 0.27 em high, beside the alef.
  const lam = item('\u0652\u0644', 256.85, 1.77, 151.93);
  const line = [item('.\u0650\u062a\u0652\u064a\u064e\u0628', 231.38, 25.38, 156), lam, item('\u0627', 259.69, 3.57, 156), item('\u0644\u0627', 200, 10, 156)];
  t.equal(rightToLeftMarksOnTheirLine(line)[1]?.y, 156, 'onto the line of the runs beside it');
  // Nothing on its own line within a quarter em: left where it is.
  t.equal(rightToLeftMarksOnTheirLine([lam, item('\u0627', 270, 3.57, 156)])[0]?.y, 151.93);
  // Two pointed runs side by side: the one on the baseline that holds more text stays, the other joins it.
  const out = rightToLeftMarksOnTheirLine([lam, item('\u064e\u0628\u064e\u062a', 242, 14, 156)]);
  t.same(out.map((i) => i.y), [156, 156]);
});

t.test('Writer\'s Nastaliq: the spaces between words drawn across line ends, and a nun drawn in two pieces', async (t) => {
  // Writer draws Noto Nastaliq Urdu word by word, its words stepping up and down; PDFium ends its
  // lines inside them, so two spaces came after line ends (one lost, the other given to the wrong
  // word: "تیز بارششروع"), and the nun of "پینے", its bowl and dot each given the span's text, was
  // read twice ("پیننے").
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'urdu-lo-notonastaliqurdu.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /تیز بارش شروع/u);
  t.match(stdout, / پینے /u);
  const truth = readFileSync(join(dir, 'urdu-lo-notonastaliqurdu.txt'), 'utf8');
  const accuracy = charAccuracy(collapse(truth), collapse(stdout));
  t.ok(accuracy >= 0.99, `characters right: ${accuracy.toFixed(3)}`);
});

t.test('Curly quotation marks PDFium mirrored in a right-to-left line are turned back', async (t) => {
  // Urdu opens a quotation with ” and closes it with “; Chromium draws them so, and PDFium, whose
  // mirror table (unlike Unicode's) holds the curly quotes, read them swapped: “یہ … ہے۔”.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'urdu-chromium-lateef-b.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /کہا: ”یہ رنگ/u);
  t.match(stdout, /مقبول ہے۔“/u);
});

t.test('Writer\'s Nastaliq: a glyph mapped to a paragraph separator does not split its line', async (t) => {
  // Two glyphs of the second text map to U+001C; the bidirectional algorithm took each for a
  // paragraph's end and put the line's left half first ("جد کے سامنے … آپچھلے مہینے … مس").
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'urdu-lo-notonastaliqurdu-b.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /بادشاہی مسجد کے سامنے/u);
  const truth = readFileSync(join(dir, 'urdu-lo-notonastaliqurdu-b.txt'), 'utf8');
  const accuracy = charAccuracy(collapse(truth), collapse(stdout));
  t.ok(accuracy >= 0.99, `characters right: ${accuracy.toFixed(3)}`);
});
