/**
 * PDFium's glyph runs on hand-built glyphs (lib/engines/pdfium/runs.ts): a run's item (box,
 * direction, normalisation), a right-to-left run's text turned back into glyph order, and the
 * space glyphs no run owns given to the run they follow.
 */
import t from 'tap';
import { join } from 'node:path';
import { continues, drawnBackInto, glyphOrderText, indicMarksAfterTheirLetters, MadeUpSpaceGaps, looseSpacesToTheirRuns, marksBeforeTheirLetters, runToItem, turnedAdvance } from '../../../../lib/engines/pdfium/runs.js';
import type { Item } from '../../../../lib/protocol/records.js';
import { readFileSync } from 'node:fs';
import { charAccuracy, collapse, repoRoot, run } from '../../../helpers.js';

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

t.test('marksBeforeTheirLetters: a mark drawn as its own glyph goes before the letter under it', async (t) => {
  const glyph = (ch: string, left: number, right: number) => ({ ch, left, right, ox: left, oy: 100, size: 10, font: 'F', horizontal: true, dx: 1, dy: 0 });
  const text = (glyphs: ReturnType<typeof glyph>[]) => marksBeforeTheirLetters(glyphs)?.map((g) => g.ch).join('') ?? null;
  // "כְּ" "ת": Writer draws the points after their letter, PDFium reports the run right to left.
  t.equal(text([glyph('\u05b0', 33, 34), glyph('כ', 30, 37), glyph('ת', 22, 30)]), 'ת\u05b0כ');
  // The same run in drawing order, the mark over the left letter.
  t.equal(text([glyph('ת', 22, 30), glyph('\u05b8', 25, 27), glyph('כ', 30, 37)]), '\u05b8תכ');
  // A holam stands past its letter's upper left corner: it goes with the letter whose left edge is nearest.
  t.equal(text([glyph('ם', 10, 18), glyph('\u05b9', 18.5, 19.5), glyph('ד', 20, 27)]), 'ם\u05b9ד');
  // Glyphs sharing an origin are one glyph's characters (glyphOrderText), digits keep its handling.
  t.equal(text([glyph('ב', 20, 26), glyph('1', 26, 30)]), null);
  // A tanween drawn past its alef, between it and the comma after it (Pango's Amiri, drawn left to
  // right): on the alef, the nearest letter.
  t.equal(text([glyph('\u064b', 33.6, 33.8), glyph('،', 30, 33.5), glyph('ا', 34, 37), glyph('ب', 37, 41)]), '،\u064bاب');
  // A narrow letter kerned into its neighbour's box goes by its centre: "كتاباً", kaf's box reaching
  // under teh's.
  t.equal(text([glyph('\u064b', 20.5, 21.5), glyph('ا', 20, 22), glyph('ب', 22, 26), glyph('ا', 26, 28), glyph('ت', 29, 32), glyph('ك', 28.5, 40)]), '\u064bابات\u0643');
  // Far from every letter, a mark says nothing of where it goes.
  t.equal(text([glyph('\u064b', 60, 61), glyph('ا', 20, 22)]), null);
});

t.test('Pango\'s Amiri: a tanween drawn past its alef, over the comma after the word, goes on the alef', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'arabic-pango-amiri-b.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /تقريباً،/u, 'not "تقريبا،ً"');
  const truth = readFileSync(join(dir, 'arabic-pango-amiri-b.txt'), 'utf8');
  t.same(stdout.split(/\s+/u).filter(Boolean), truth.split(/\s+/u).filter(Boolean), 'every word as the truth writes it');
});

t.test('indicMarksAfterTheirLetters: a vowel sign drawn after the next letter goes back under its own', async (t) => {
  // XeTeX's Lohit Bengali, "দুপুরে": the u-kar of দ (ink 123.37–128.42) drawn after the প (127.36–135.37).
  const glyph = (ch: string, left: number, right: number) => ({ ch, left, right, ox: left, oy: 100, size: 13, font: 'F', horizontal: true, dx: 1, dy: 0 });
  const moved = indicMarksAfterTheirLetters([glyph('দ', 120.67, 127.25), glyph('প', 127.36, 135.37), glyph('ু', 123.37, 128.42)]);
  t.same(moved?.map((g) => g.ch).join(''), 'দুপ');
  // Under the letter just before it, the sign stays: nothing moves.
  t.equal(indicMarksAfterTheirLetters([glyph('দ', 120.67, 127.25), glyph('প', 127.36, 135.37), glyph('ু', 130.95, 135.99)]), null);
  // The document (test/fixtures/fontsweep): "সূর্য" was "সর্যূ".
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'bengali-xelatex-lohitbengali.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /সূর্য/u);
});

t.test('drawnBackInto: a reph drawn after its word, back over it, goes into the word at its place', async (t) => {
  // XeTeX's FreeSerif, "धर्मनिरपेक्ष": the word in glyph order, then its reph over the म.
  const glyph = (ch: string, left: number, right: number, oy = 134.76) => ({ ch, left, right, ox: left, oy, size: 9.96, font: 'F', horizontal: true, dx: 1, dy: 0 });
  const word = [glyph('ध', 443.18, 449.5), glyph('म', 449.5, 456.11), glyph('ि', 456.11, 458.52), glyph('न', 458.52, 464.14), glyph('र', 464.14, 468.57)];
  const reph = [glyph('र', 452.44, 456.35, 134.79), glyph('्', 452.44, 456.35, 134.79)];
  t.same(drawnBackInto(word, reph)?.map((g) => g.ch).join(''), 'धमर्िनर');
  t.equal(drawnBackInto(word, [glyph('र', 470, 474), glyph('्', 470, 474)]), null, 'past the word: a run of its own');
  t.equal(drawnBackInto(word, [glyph('क', 452, 456)]), null, 'a letter is no mark');
  t.equal(drawnBackInto(word, reph.map((g) => ({ ...g, oy: 150 }))), null, 'on another line');
  t.equal(drawnBackInto([glyph('a', 443, 450), glyph('b', 450, 457)], [glyph('\u0301', 452, 455)]), null, 'over a Latin word');
  // The document (test/fixtures/devanagari-xetex): "धमनिरपेर्क्ष" before.
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'test/fixtures/devanagari-xetex/freeserif-one-line.pdf')]);
  t.equal(code, 0);
  t.match(stdout, / धर्मनिरपेक्ष /u);
});

t.test('MadeUpSpaceGaps: a gap as wide as those PDFium made up spaces for in the font ends a run', async (t) => {
  // XeTeX's FreeSerif: word gaps of 0.086 em; after "नहीं" (its anusvara a mark of no advance)
  // PDFium made up no space, and the gap to "गाँव" is as wide.
  const glyph = (ch: string, left: number, right: number, font = 'FreeSerif') => ({ ch, left, right, ox: left, oy: 134.76, size: 9.96, font, horizontal: true, dx: 1, dy: 0 });
  const gaps = new MadeUpSpaceGaps();
  const nahin = { glyphs: [glyph('न', 262.38, 269.69), glyph('ह', 268.51, 275.35), glyph('ी', 270.75, 278.25), glyph('ं', 275.71, 278.16)] };
  t.notOk(gaps.parts(nahin, glyph('ग', 279.12, 286.82)), 'no made-up space seen yet: the run goes on');
  gaps.seen([glyph('य', 250.42, 258.12), glyph('ो', 254.61, 261.52)], glyph('न', 262.38, 269.69));
  t.ok(gaps.parts(nahin, glyph('ग', 279.12, 286.82)));
  t.notOk(gaps.parts(nahin, glyph('ग', 278.6, 286.82)), 'a narrower gap: inside the word');
  t.notOk(gaps.parts(nahin, glyph('ग', 279.12, 286.82, 'Other')), 'another font');
  // The document (test/fixtures/devanagari-xetex): "नहींगाँव" before.
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'test/fixtures/devanagari-xetex/freeserif-one-line.pdf')]);
  t.equal(code, 0);
  t.equal(stdout, readFileSync(join(repoRoot, 'test/fixtures/devanagari-xetex/one-line.txt'), 'utf8'), 'the line as written');
});

t.test('real documents: Writer\'s points and harakat on their letters', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/marks');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'he-lo-niqqud.pdf'), join(dir, 'ar-lo-harakat.pdf')]);
  t.equal(code, 0);
  const words = new Set(collapse(stdout).normalize('NFC').split(' '));
  for (const word of ['בְּגִנָּה', 'פֶּרַח', 'הוּא', 'קְטַנָּה', 'וְשָׁאֲלָה:', 'الْمَكْتَبَةُ', 'صَغِيرَةٌ', 'يَأْتِي', 'إِلَيْهَا', 'تَجْلِسُ', 'بَيْنَهُمْ']) {
    t.ok(words.has(word.normalize('NFC')), word);
  }
});

t.test('turnedAdvance: a glyph with no baseline direction has no advance, not NaN', async (t) => {
  t.equal(turnedAdvance(6, 12, 0, 0, 12), 0);
  t.equal(turnedAdvance(0, 0, 0, 0, 0), 0);
  t.equal(turnedAdvance(6, 12, 0, 1, 12), 12, 'a glyph turned a quarter advances by its box\'s height');
});

t.test('a mark drawn before a letter it does not cover starts no run with it', async (t) => {
  const glyph = (ch: string, left: number, right: number, oy = 100) => ({ ch, left, right, ox: left, oy, size: 12, font: 'F', horizontal: true, dx: 1, dy: 0 });
  // XeTeX's "أن" in Lateef: the hamza (over the alef, drawn last) comes just before the nun.
  const hamza = glyph('\u0654', 335.24, 337.25, 97.1);
  t.notOk(continues({ glyphs: [hamza] }, glyph('ن', 329.51, 334.2)), 'the nun lies beside the hamza');
  t.ok(continues({ glyphs: [hamza] }, glyph('ا', 334.19, 336.25)), 'a letter under the mark carries on');
  t.ok(continues({ glyphs: [glyph('ب', 338, 342), hamza] }, glyph('ن', 329.51, 334.2)), 'inside a run, as before');

  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'arabic-xelatex-lateef.pdf')]);
  t.equal(code, 0);
  // The hamza follows its alef ("ا" U+0654), as the scorer reads it: NFC.
  const text = collapse(stdout).normalize('NFC');
  t.match(text, /يطلب أن تعود/u);
  t.equal(charAccuracy(collapse(readFileSync(join(dir, 'arabic-xelatex-lateef.txt'), 'utf8')).normalize('NFC'), text), 1);
});

t.test('looseSpacesToTheirRuns: a space glyph owned by no run goes to the run it follows', async (t) => {
  const item = (text: string, x: number, w: number, y: number, extra: Partial<Item> = {}): Item => ({ text, x, y, w, size: 12, font: 'F', dir: 'rtl', ...extra });
  // "تیز بارش": the space between the words (275.7, 1.58 wide) came after a line end.
  const taiz = item('ز', 274.9, 8.4, 156.3);
  const barish = item('ب', 272.4, 2.7, 152.1);
  const spaced = item('ش', 252.1, 12.7, 150.1, { space: { x: 250.2, w: 1.58 } });
  const items = looseSpacesToTheirRuns([taiz, barish, spaced], [{ x: 275.7, w: 1.58, y: 150.1 }]);
  t.same(items.map((i) => i.space ?? null), [{ x: 275.7, w: 1.58 }, null, { x: 250.2, w: 1.58 }], 'to the run whose left edge is nearest its right end');
  // Left to right, to the run on its left, ending where it begins.
  const ltr = looseSpacesToTheirRuns([item('to', 250, 10, 150, { dir: 'ltr' }), item('go', 262.6, 10, 150, { dir: 'ltr' })], [{ x: 260.2, w: 2.4, y: 150 }]);
  t.same(ltr.map((i) => i.space ?? null), [{ x: 260.2, w: 2.4 }, null]);
  // Not to a run that has its own, nor one more than an em away (a space that indents a line).
  const own = looseSpacesToTheirRuns([item('ز', 274.9, 8.4, 150, { space: { x: 270, w: 1.5 } })], [{ x: 275.7, w: 1.58, y: 150 }]);
  t.same(own[0]!.space, { x: 270, w: 1.5 });
  t.equal(looseSpacesToTheirRuns([item('ز', 290, 8.4, 150)], [{ x: 275.7, w: 1.58, y: 150 }])[0]!.space, undefined);
  t.equal(looseSpacesToTheirRuns([item('Once', 72, 20, 150, { dir: 'ltr' })], [{ x: 60, w: 2.5, y: 150 }])[0]!.space, undefined);
});
