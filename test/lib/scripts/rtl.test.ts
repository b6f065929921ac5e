/**
 * The right-to-left path of line building (lib/scripts/rtl.ts, lib/layout/lines.ts) on hand-built runs: runs read
 * from right to left, spaces measured in that direction, diacritics drawn as separate glyphs put
 * after their letter; and the glyph-order runs of the pdf.js engine on a real Hebrew PDF.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLine } from '../../../lib/layout/lines.js';
import { DEFAULTS } from '../../../stages/lines.js';
import { attachMarks, endsNonJoining, fontWordGaps, isGlyphOrder, isLeftOutNonJoiner, isZeroWidthNonJoiner, nonJoiningLimit, rightToLeftText } from '../../../lib/scripts/rtl.js';
import type { Item } from '../../../lib/protocol/records.js';
import { docRecord, item, parseLines, repoRoot, run, sharedRoot } from '../../helpers.js';

const rtl = (text: string, x: number, extra: Partial<Item> = {}): Item => item(text, x, 100, 10, { dir: 'rtl', ...extra });

/** A document of test/fixtures/fontsweep as `extract` reads it and as its truth has it, word by word (NFC). */
async function fontsweepWords(name: string): Promise<{ code: number | null; read: string[]; truth: string[] }> {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const words = (text: string): string[] => text.normalize('NFC').split(/\s+/u).filter(Boolean);
  const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
  return { code, read: words(stdout), truth: words(readFileSync(join(dir, `${name}.txt`), 'utf8')) };
}

t.test('glyph order: an RTL line is written glyph by glyph from right to left, spaces from gaps', async (t) => {
  // Page, left to right: "1974" "תנשב" "החתפ" "Intel" "תרבח" (visual order, as the PDF draws them).
  const runs = [item('1974', 10, 100), rtl('תנשב', 33), rtl('החתפ', 56), item('Intel', 79, 100), rtl('תרבח', 107)];
  const line = buildLine(runs, 0, DEFAULTS, true);
  t.equal(line.dir, 'rtl');
  t.equal(line.text, 'חברת letnI פתחה בשנת 4791', 'the exact reverse of the visual line; bidi turns Intel and 1974 back');
  t.same(line.inferred.map((m) => line.text[m.at]), [' ', ' ', ' ', ' '], 'four gaps of 0.3 em, measured right to left, are spaces');
});

t.test('without glyph order the runs keep their text (the engine reordered each run)', async (t) => {
  const line = buildLine([rtl('בשנת', 10), rtl('חברת', 40)], 0, DEFAULTS);
  t.equal(line.text, 'חברת בשנת');
});

t.test('a run of one letter and its marks is one cluster: the letter first', async (t) => {
  t.equal(rightToLeftText({ text: 'اً', w: 3, size: 10 }), 'اً', 'alef then fathatan, as Pango writes them');
  t.equal(rightToLeftText({ text: 'ًا', w: 3, size: 10 }), 'اً', 'fathatan drawn first');
  t.equal(rightToLeftText({ text: 'اّمل', w: 12, size: 10 }), 'لمّا', 'a visual run: the shadda follows its meem');
  t.equal(rightToLeftText({ text: 'ما', w: 0.2, size: 10 }), 'ما', 'a ligature glyph on a narrow advance keeps its text');
  t.equal(rightToLeftText({ text: '،ً', w: 6, size: 10 }), 'ً،', 'a comma is no letter: the tanween drawn right of it is read first');
});

t.test('a diacritic drawn as its own glyph goes after the letter under it', async (t) => {
  // "ﻪ" at 373.6–379.1 and the hamza above (zero width, its own run, a leading space) at 375.7.
  const runs = [rtl('ﻋ', 361.5, { w: 6 }), rtl('ا', 367.6, { w: 2.9 }), rtl(' ٔ', 375.7, { w: 0 }), rtl('ﻪ', 373.6, { w: 5.4 }), rtl('ﯿ', 379.1, { w: 4.3 })];
  const line = buildLine(runs, 0, DEFAULTS, true);
  t.equal(line.text, 'ﯿﻪٔ اﻋ', 'read right to left: yeh, heh, hamza above, the word gap, alef, ain');
  t.same(line.inferred.map((m) => m.at), [3], 'the one space is the word gap after the mark, none inside the word');
  // In a run of several letters, after the letter under the mark's centre (the second from the left).
  const [host] = attachMarks([rtl('ﻼﺑﻛ', 10, { w: 30 }), rtl('\u064e', 22, { w: 2 })], true);
  t.equal(rightToLeftText(host!), 'ﻛﺑَﻼ');
  t.same(attachMarks([rtl('\u064e', 200, { w: 2 }), rtl('ﻛ', 10)], true).map((i) => i.text), ['\u064e', 'ﻛ'], 'a mark over no letter stays');
  // Glyphs are taken as equally wide: the estimate may land beside the mark's letter.
  const onto = (text: string, x: number, w: number, mark: string, at: number): string => rightToLeftText(attachMarks([rtl(text, x, { w }), rtl(mark, at, { w: 1.8 })], true)[0]!);
  t.equal(onto('،افيطل', 248.55, 33.02, 'ً', 252.51), 'لطيفاً،', 'a tanween estimated over the comma goes on the letter beside it');
  t.equal(onto('.ةيردنكسالا', 257.87, 35.9, '\u0655', 288.33), 'الإسكندرية.'.normalize('NFD'), 'a hamza below estimated over the lam goes on the alef it makes إ, not the article');
  t.equal(onto('ةيردنكسالا', 383.26, 49.75, '\u0655', 423.13), 'الإسكندرية'.normalize('NFD'), 'the same, the estimate on the other side');
});

t.test('a mark at the end of a visual run goes to the run that starts just right of it', async (t) => {
  // XeTeX draws the tanween of "اساساً" after the word space, at the end of the run "حقوق".
  const runs = [rtl('ﻕﻮﻘﺣً', 445.04, { w: 23.32, size: 11 }), rtl('ﺎﺳﺎﺳﺍ', 470.92, { w: 22.47, size: 11 })];
  const line = buildLine(runs, 0, DEFAULTS, true);
  t.equal(line.text, 'ﺍﺳﺎﺳﺎً ﺣﻘﻮﻕ', 'the tanween follows the final alef, the space comes after it');
});

t.test('after a non-joining Arabic letter, a narrow gap is not a word space', async (t) => {
  t.equal(endsNonJoining('الحر'), true, 'reh does not join the next letter');
  t.equal(endsNonJoining('ﺍﻟﺤﺮ'), true, 'presentation forms too');
  t.equal(endsNonJoining('كتب'), false);
  t.equal(endsNonJoining('لمّا'), true, 'a mark after the letter is skipped');
  t.equal(nonJoiningLimit([0.12, 0.3, 0.28, 0.31], 0.1, 0.6), 0.6 * 0.3);
  t.equal(nonJoiningLimit([0.12, 0.3], 0.1, 0.6), 0.1, 'too few word gaps: the plain threshold');
  t.equal(nonJoiningLimit([0.135], 0.1, 0.6, [0.3, 0.28, 0.31, 0.12]), 0.6 * 0.3, "a line too short to measure: the page's word gaps");
  // "سلام الحرية في عالم" in visual runs: word gaps 0.3 em, and 0.12 em after the reh of الحر|ية.
  const size = 10;
  const words = ['ﻢﻟﺎﻋ', 'ﻲﻓ', 'ﺔﻳ', 'ﺮﺤﻟﺍ', 'ﻡﻼﺳ'];
  const gaps = [0.3, 0.3, 0.12, 0.3];
  const runs: Item[] = [];
  let x = 50;
  words.forEach((w, i) => {
    runs.push(rtl(w, x, { size }));
    x += [...w].length * 5 + (gaps[i] ?? 0) * size;
  });
  t.equal(buildLine(runs, 0, DEFAULTS, true).text, 'ﺳﻼﻡ ﺍﻟﺤﺮﻳﺔ ﻓﻲ ﻋﺎﻟﻢ');
});

t.test('a run that is a letter only ever ending a word ends it, however close the next run', async (t) => {
  // "کتابخانهٔ کوچک" on a line with no space glyph: the heh with the ezafe hamza overlaps the kaf.
  const runs = [rtl('کوچک', 425, { w: 42 }), rtl('\u0647\u0654', 466, { w: 10 }), rtl('کتابخان', 475, { w: 60 })];
  t.equal(buildLine(runs, 0, DEFAULTS).text, 'کتابخانه\u0654 کوچک');
});

t.test('real document: the last word of a paragraph, alone on its line, stays whole after its alef', async (t) => {
  // Chromium, Noto Naskh Arabic: "بِالنُّجُومِ." alone on a paragraph's last line, 0.135 em after
  // the alef, where the page's word gaps are 0.3 em.
  const pdf = join(repoRoot, 'bench/corpus/marks/ar-chromium-naskh.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  t.equal(code, 0);
  t.ok(stdout.includes('تَحْلُمُ بِالنُّجُومِ.'), 'one word, in its paragraph');
  t.equal(stdout.trim().split(/\n\s*\n/u).length, 5, 'the title and four paragraphs');
});

t.test('isGlyphOrder reads the engine of the doc record', async (t) => {
  const doc = docRecord('d');
  t.equal(isGlyphOrder(doc), false);
  doc.meta.engine = 'pdfjs 5.6.205 split-runs glyph-order';
  t.equal(isGlyphOrder(doc), true);
  t.equal(isGlyphOrder(null), false);
});

const hebrew = join(sharedRoot, 'corpus/gt/he-chromium-mixed.pdf');
t.test('pdf.js runs keep glyph order: Hebrew runs are visual, the doc says so', { skip: existsSync(hebrew) ? false : `${hebrew} is not available (no ../shared corpus)` }, async (t) => {
  const result = await run(['parse', hebrew]);
  const records = parseLines(result.stdout);
  const doc = records.find((r) => r.type === 'doc');
  t.match(doc, { meta: { engine: /glyph-order/u } });
  const items = records.flatMap((r) => (r.type === 'page' ? (r.items ?? []) : []));
  const hebrewRuns = items.filter((i) => /[\u05d0-\u05ea]{3}/u.test(i.text));
  t.ok(hebrewRuns.length > 0, 'there are Hebrew runs of several letters');
  // "עובדים" (workers) is drawn left to right as "םידבוע": final mem at the left.
  t.ok(items.some((i) => i.text.includes('םידבוע')), 'a visual-order run');
  t.notOk(items.some((i) => i.text.includes('עובדים')), 'no run reordered by pdf.js');
});

t.test('a letter drawn unjoined before the rest of its word stands before a non-joiner, but lam before alef does not', (t) => {
  t.ok(isLeftOutNonJoiner({ endsUnjoined: true }, 'بهره', 'مند'));
  t.notOk(isLeftOutNonJoiner({}, 'بهره', 'مند'), 'a run not drawn unjoined');
  t.notOk(isLeftOutNonJoiner({ endsUnjoined: true }, 'بهره', '123'), 'no Arabic letter after it');
  t.notOk(isLeftOutNonJoiner({ endsUnjoined: true }, 'مزیتهاو', 'اشکالات'), 'the line has the run end in waw, which joins nothing anyway');
  t.notOk(isLeftOutNonJoiner({ endsUnjoined: true }, 'أهل', 'اً'), 'lam, then alef: the ligature, whose lam has a form of its own');
  t.ok(isLeftOutNonJoiner({ endsUnjoined: true }, 'بین', 'المللی'), 'another letter before alef');
  t.end();
});

t.test('a space glyph without advance between Arabic letters is a zero-width non-joiner', async (t) => {
  // XeTeX draws Persian's U+200C as the font's space glyph with no advance: the run after it starts
  // where the space starts. A space with its advance stays a space; between Latin letters nothing.
  t.ok(isZeroWidthNonJoiner({ space: { x: 454.18, w: 2.64 } }, 0.01, 'خانه', 'ی'));
  t.notOk(isZeroWidthNonJoiner({ space: { x: 454.18, w: 2.64 } }, 2.6, 'خانه', 'ی'), 'a space with its advance');
  t.notOk(isZeroWidthNonJoiner({}, 0, 'خانه', 'ی'), 'no space glyph drawn');
  t.notOk(isZeroWidthNonJoiner({ space: { x: 10, w: 2.64 } }, 0, 'abc', 'd'), 'not Arabic script');
  // A XeLaTeX PDF in Nazli (test/fixtures/fontsweep, from the font sweep): every ZWNJ of the truth.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'persian-xelatex-nazli.pdf')]);
  t.equal(code, 0);
  const truth = readFileSync(join(dir, 'persian-xelatex-nazli.txt'), 'utf8');
  const joined = (text: string): string[] => text.split(/\s+/u).filter((w) => w.includes('\u200c')).map((w) => w.replace(/[.،]/gu, ''));
  t.same(joined(stdout), joined(truth));
  t.match(stdout, /خانه\u200cی مادربزرگ/u);
});

t.test('a space glyph drawn with its advance is a word space, however narrow the font\'s space', async (t) => {
  // Lateef's space is 0.15 em and its letters overhang it: the gaps between words measure 0.07–0.10 em,
  // below the word-gap threshold. Chromium draws the space glyph: it says where the words end.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'urdu-chromium-lateef.pdf')]);
  t.equal(code, 0);
  const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);
  t.same(words(stdout), words(readFileSync(join(dir, 'urdu-chromium-lateef.txt'), 'utf8')));
  // Two runs 0.9 units apart with a 1.96-wide space glyph drawn between them: a space.
  const line = buildLine([rtl('ب', 100, { w: 6, space: { x: 98.7, w: 1.96 } }), rtl('پر', 93, { w: 6.1 })], 0, DEFAULTS, false);
  t.equal(line.text, 'پر ب'.split(' ').reverse().join(' '));
});

t.test('a narrow letter kerned into the end of the run before it comes after that run', async (t) => {
  // Writer's Persian in Scheherazade (test/fixtures/fontsweep): the alef of "برای" is drawn inside
  // the left end of the box of "بر" (its left edge 0.06 pt right of the box's), "ابری" by left edges.
  const { code, read, truth } = await fontsweepWords('persian-lo-scheherazade');
  t.equal(code, 0);
  t.same(read, truth);
  // A run with no advance (a non-joiner) stays at its pen position, before the letter drawn over it.
  const line = buildLine([rtl('ی', 111.9, { w: 7.1 }), rtl('\u200c', 110.89, { w: 0 }), rtl('ک', 105.6, { w: 5.6 })], 0, DEFAULTS, false);
  t.equal(line.text, 'ی\u200cک');
});

t.test('a space glyph drawn with its advance under the swash of the next word is a word space, not a non-joiner', async (t) => {
  // Chromium's Urdu in Noto Nastaliq Urdu (test/fixtures/fontsweep): the kaf of "کا" reaches right
  // over the space after "بارش", so the runs' boxes almost touch; the space starts its advance away
  // from "بارش", as a space with its advance does.
  const { code, read, truth } = await fontsweepWords('urdu-chromium-notonastaliqurdu');
  t.equal(code, 0);
  t.same(read, truth, '"بارش کا", not "بارش‌کا"');
  // A space drawn after a comma set in another font lies past the comma: no measure of the gap before it.
  const line = buildLine([rtl('אנוס', 63.69, { w: 22.27, space: { x: 56.8, w: 3.12 } }), rtl(',', 59.9, { w: 3.8 })], 0, DEFAULTS, false);
  t.equal(line.text, 'אנוס,');
});

t.test('a space glyph its font gives no advance is a word space where the pen moved past it', async (t) => {
  // Writer's Persian in Lateef (test/fixtures/fontsweep): the body font's subset gives the space no
  // advance and Writer moves the pen past it; after "هر" the move is 0.07 em, as narrow as gaps
  // inside words after a non-joining letter ("هرتابستان").
  const { code, read, truth } = await fontsweepWords('persian-lo-lateef');
  t.equal(code, 0);
  t.same(read, truth, '"هر تابستان"');
  // One drawn where the run before it ends (Writer's Amiri, before a shadda) is inside a word.
  const line = buildLine([rtl('تعسفا', 340.38, { w: 20.78, size: 12, space: { x: 340.38, w: 0 } }), rtl('ً.', 336.6, { w: 5.66, size: 12 })], 0, DEFAULTS, false);
  t.equal(line.text, 'تعسفاً.');
});

t.test('a font whose word spaces are narrower than the word-gap threshold: the break in its own gaps', async (t) => {
  const gaps = (font: string, values: number[]) => values.map((gap) => ({ font, gap }));
  // In-word gaps 0.01–0.03 em, word spaces 0.07–0.16 em: the break between them.
  const narrow = gaps('Lateef', [0.01, 0.02, 0.02, 0.03, 0.07, 0.08, 0.09, 0.1, 0.12, 0.13, 0.13, 0.14, 0.15, 0.15, 0.15, 0.16]);
  // Word spaces 0.25 em: the break lies above the threshold, which stays.
  const wide = gaps('Amiri', [0.01, 0.02, 0.02, 0.03, 0.04, 0.05, 0.24, 0.25, 0.25, 0.25, 0.26, 0.26, 0.27, 0.28, 0.28, 0.3]);
  const limits = fontWordGaps([...narrow, ...wide, ...gaps('Title', [0.01, 0.09, 0.1])], 0.1);
  t.same([...limits.keys()], ['Lateef'], 'a title\'s few gaps tell nothing');
  t.ok(Math.abs(limits.get('Lateef')! - 0.05) < 1e-9);
  // Runs that end only at word spaces (XeTeX): every gap, the narrowest 0.068 em, is a space.
  const wordsOnly = fontWordGaps(gaps('Lateef', [0.068, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 0.13, 0.14, 0.15, 0.15, 0.15, 0.16, 0.16, 0.16]), 0.1);
  t.ok(Math.abs(wordsOnly.get('Lateef')! - 0.034) < 1e-9);
  // XeLaTeX Persian in Lateef (test/fixtures/fontsweep): spaces of 0.07–0.10 em, no space glyphs.
  const { code, read, truth } = await fontsweepWords('persian-xelatex-lateef');
  t.equal(code, 0);
  t.same(read, truth);
});

t.test("XeTeX's word-end marks: a space glyph of no advance where each word ends is a word space, however narrow the gap", async (t) => {
  // Lateef leaves 0.09 em after a non-joining letter ("سفر به"), below the word gap; xdvipdfmx
  // draws a space glyph of no advance at every word's end, the title's two in a font of their own.
  const { code, read, truth } = await fontsweepWords('persian-xelatex-lateef-b');
  t.equal(code, 0);
  const joinerless = (words: string[]): string[] => words.map((w) => w.replace(/\u200c/gu, ''));
  t.same(joinerless(read), joinerless(truth), 'every word as written (where a ZWNJ stands is not this test\'s)');
  t.same(read.slice(0, 3), ['سفر', 'به', 'اصفهان'], 'the title');
});
