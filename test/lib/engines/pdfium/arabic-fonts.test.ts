/**
 * Arabic in fonts other than the corpus's: lam-alef ligatures (one glyph, several characters in
 * its ToUnicode) keep their letters in reading order, and the kashidas LibreOffice justifies with,
 * which it gives no text, come out as nothing rather than as the digit or sign their raw code
 * means in a standard encoding, or as the hyphen PDFium's code 2 stands for elsewhere, and keep
 * their place between the letters they stretch (lib/engines/pdfium/runs.ts, chars.ts).
 * Hand-built glyphs, then Writer's PDFs in Noto Sans Arabic and Noto Naskh Arabic
 * (bench/corpus/fonts) and in Noto Kufi Arabic (test/fixtures/kashida).
 */
import t from 'tap';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { glyphOrderText, kashidasFromContext, runToItem, touchesRun } from '../../../../lib/engines/pdfium/runs.js';
import { charAccuracy, collapse, repoRoot, run } from '../../../helpers.js';

const glyph = (ch: string, left: number, right: number, ox = left) => ({ ch, left, right, ox, oy: 100, size: 10, font: 'F', horizontal: true, dx: 1, dy: 0 });

t.test('a lam-alef ligature in glyph order: alef (drawn left) before lam', async (t) => {
  // PDFium reversed the line, the ligature's "لا" too: alef, lam, one box.
  t.equal(glyphOrderText([glyph('ا', 20, 27), glyph('ل', 20, 27)]), 'ال', 'the word "لا" alone');
  // "إلى": alef with hamza below, then the lam-alef-maksura ligature to its left.
  t.equal(glyphOrderText([glyph('إ', 48, 53), glyph('ى', 28, 48), glyph('ل', 28, 48)]), 'ىلإ');
  // A run PDFium left as drawn (left to right): the ligature's map is in reading order, so it turns.
  t.equal(runToItem([glyph('ب', 10, 15), glyph('ل', 15, 22), glyph('ا', 15, 22), glyph('ك', 22, 28)], true)?.text, 'بالك');
});

t.test('a kashida without text between joined letters becomes a tatweel', async (t) => {
  const ch = (gs: ReturnType<typeof glyph>[]) => kashidasFromContext(gs).map((g) => g.ch).join('');
  // Logical order, right to left on the page: س (joins forward), the kashida, ب.
  t.equal(ch([glyph('ب', 40, 45), glyph('س', 33, 40), glyph('3', 27, 33), glyph('ب', 22, 27)]), 'بسـب');
  t.equal(ch([glyph('ك', 40, 45), glyph('=', 33, 40), glyph('ا', 27, 33)]), 'كـا');
  t.equal(ch([glyph('ك', 40, 45), glyph('', 33, 40), glyph('ا', 27, 33)]), 'كـا', 'no character at all');
  t.equal(ch([glyph('د', 40, 45), glyph('.', 38, 40), glyph('م', 33, 38)]), 'د.م', 'after a letter that does not join: a full stop');
  t.equal(ch([glyph('a', 40, 45), glyph('3', 33, 40), glyph('ب', 27, 33)]), 'a3ب', 'not between Arabic letters');
  t.equal(ch([glyph('ب', 40, 45), glyph('ش', 33, 40), glyph('4', 29, 33), glyph('4', 25, 29), glyph('ب', 20, 25)]), 'بشــب', 'a stretch of two');
  t.equal(ch([glyph('د', 40, 45), glyph('4', 33, 40), glyph('4', 29, 33), glyph('ب', 20, 25)]), 'د44ب', 'two after a letter that does not join');
});

t.test('Writer, justified Persian: kashidas whose raw codes PDFium reads as a tab, or as digits, unflagged', async (t) => {
  // Noto Naskh Arabic's kashida is glyph 9 of Writer's subset (PDFium: U+0009, no map error, with
  // ink), Noto Sans Arabic's glyph 0x34 ("4", twice for a long stretch: "ش44ب").
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  for (const name of ['persian-lo-notonaskharabic-b', 'persian-lo-notosansarabic-b']) {
    const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const words = (text: string): string[] => text.replace(/\u200c/gu, '').split(/\s+/u).filter(Boolean);
    t.same(words(stdout), words(readFileSync(join(dir, `${name}.txt`), 'utf8')), `${name}: every word whole`);
  }
});

t.test('Writer, justified, Noto Sans Arabic and Noto Naskh Arabic', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/fonts');
  for (const name of ['ar-lo-notosans', 'ar-lo-notonaskh']) {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const text = collapse(stdout);
    for (const word of ['لا يحب الإنسان', 'الأسرة', 'بسبب', 'قيد', 'إلى السوق', 'الألوان']) t.ok(text.includes(word), `${name}: ${word}`);
    t.notMatch(text, /[0-9=\-\u0640]/u, `${name}: no digit, sign or tatweel inside the words`);
    t.ok(charAccuracy(collapse(readFileSync(join(dir, `${name}.txt`), 'utf8')), text) > 0.99, `${name}: the text`);
  }
});

t.test('kashidas drawn apart from their letters go on with the glyph that touches them', async (t) => {
  // Right to left: ت ends at 78.8; two kashidas drawn left first (73.8–76.5, then 76.3–79); ا at 70.9–74.1.
  const kashidas = { glyphs: [glyph('', 73.8, 76.5), glyph('', 76.3, 79)] };
  t.ok(touchesRun(kashidas, glyph('ا', 70.9, 74.1)), 'the letter touches the pair, if not the last of it');
  t.notOk(touchesRun(kashidas, glyph('ا', 60, 64)), 'a letter farther off does not');
  t.notOk(touchesRun(kashidas, { ...glyph('ا', 70.9, 74.1), oy: 120 }), 'nor one on another baseline');
});

t.test('Writer, justified Persian in Noto Kufi Arabic: its kashidas of glyph code 2 are no hyphens', async (t) => {
  const doc = join(repoRoot, 'test/fixtures/kashida/persian-kufi');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', `${doc}.pdf`]);
  t.equal(code, 0);
  t.notMatch(stdout, /[-\u0640]/u, 'no hyphen or tatweel');
  // The words whole ("عصرها", not "عص---رها" or "عص رها"); where each ZWNJ stands is not this test's.
  const words = (text: string): string[] => text.replace(/\u200c/gu, '').split(/\s+/u).filter(Boolean);
  t.same(words(stdout), words(readFileSync(`${doc}.txt`, 'utf8')));
});

const NASKH = '/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf';

t.test("XeTeX's Noto Naskh Arabic: a glyph its Unicode map leaves out, read as its number, is the letter its program draws", { skip: existsSync(NASKH) ? false : `${NASKH} is not installed (Debian package fonts-noto-core)` }, async (t) => {
  // Glyph 1565, the alef of "الطلاب" drawn over its lam, is in no entry of the font's ToUnicode;
  // PDFium gives its number as the character U+061D and flags nothing.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', '--ocr', 'never', join(dir, 'arabic-xelatex-notonaskharabic.pdf')]);
  t.equal(code, 0);
  t.match(stdout, 'الطلاب');
  t.notMatch(stdout, '\u061d', 'no glyph number is left as a character');
  const truth = readFileSync(join(dir, 'arabic-xelatex-notonaskharabic.txt'), 'utf8');
  t.ok(charAccuracy(collapse(truth), collapse(stdout)) >= 0.999, 'every character of the truth');
  // The same glyph at a word's end, before the tanween drawn after the word space ("أهلاً").
  const other = await run(['extract', '--quiet', '--ocr', 'never', join(dir, 'arabic-xelatex-notonaskharabic-b.pdf')]);
  t.equal(other.code, 0);
  t.match(other.stdout.normalize('NFC'), '«أهلاً وسهلاً', 'at the end of a word');
  t.notMatch(other.stdout, '\u061d', 'no glyph number is left as a character');
});

t.test('marks drawn apart: a tanween left of its alef, over the comma after the word; a hamza below beside the article', async (t) => {
  // Writer and XeTeX draw the tanween of "تقريباً،" between the alef and the comma, and XeTeX the
  // hamza below of "الإسكندرية" as a glyph of its own over the alef after the lam.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  for (const [name, words] of [['arabic-lo-amiri-b', ['تقريباً،', 'لطيفاً،', 'كتاباً']], ['arabic-xelatex-scheherazade-b', ['الإسكندرية', 'الإسكندرية.', 'إلى']]] as const) {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const read = stdout.normalize('NFC').split(/\s+/u);
    for (const word of words) t.ok(read.includes(word), `${name}: ${word}`);
  }
});

t.test('a glyph left out of the Unicode map that the installed program draws for a combining mark', async (t) => {
  // XeLaTeX's Persian in Amiri (test/fixtures/rtl-notes): the hamza above of "کتابخانهٔ" is glyph
  // 6191, the only one the subset leaves unmapped, read as "ᠯ" (U+182F). The program's text for it,
  // U+0654, is a mark of inherited script, used with Arabic: the font's script.
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'test/fixtures/rtl-notes/persian-notes.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /کتابخانهٔ شهر/u);
  t.notMatch(stdout, /\u182f/u);
});

t.test('Chromium\'s Arabic: a space glyph PDFium drops before a span is kept; a gap after a letter that does not join is no word space', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  // Lateef (second text): the space glyph between "لطيفاً،" and "الجوّ", drawn as a text object of
  // its own just before the span of "وّ", is left out of PDFium's text; it is found among the
  // page's objects (bounds a point), a space of no width after the span's run.
  const parsed = await run(['parse', join(dir, 'arabic-chromium-lateef-b.pdf')]);
  const items = parsed.stdout.split('\n').filter(Boolean).flatMap((line) => (JSON.parse(line) as { items?: { text: string; space?: { x: number; w: number } }[] }).items ?? []);
  t.same(items.find((item) => item.text === 'ّو')?.space, { x: 113.91, w: 0 });
  const lateef = await run(['extract', '--quiet', join(dir, 'arabic-chromium-lateef-b.pdf')]);
  t.match(lateef.stdout, /الجوّ لطيفاً، /u);
  // KacstBook: its alef, waw and lam-alef end short of their advance, 0.15–0.2 em before the next
  // letter of the word, where its word spaces are drawn glyphs 0.24 em wide: "و صلنا", "ا سمه".
  const kacst = await run(['extract', '--quiet', join(dir, 'arabic-chromium-kacstbook-b.pdf')]);
  t.equal(kacst.code, 0);
  t.match(kacst.stdout, /عندما وصلنا/u);
  t.match(kacst.stdout, /صغير اسمه/u);
  t.match(kacst.stdout, /إلى الإسكندرية\. استغرقت/u);
  // The title, in a synthetic bold of its own subset with two space glyphs: measured by those,
  // as the body's fonts show that the page draws its spaces ("الإ سكندرية" before).
  t.equal(kacst.stdout.split('\n')[0], 'رحلة إلى الإسكندرية');
});
