/**
 * Sloping Nastaliq lines (lib/layout/sloping.ts): the runs of one printed line, standing at many
 * heights, make one row; its words come from the space glyphs drawn between them. On hand-built
 * runs, and on Urdu and Persian set in Noto Nastaliq Urdu by Chromium.
 */
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { groupRows } from '../../../lib/layout/rows.js';
import { slopingWords } from '../../../lib/layout/sloping.js';
import { charAccuracy, collapse, item, repoRoot, run } from '../../helpers.js';

const rtl = { dir: 'rtl' as const };

t.test('groupRows: the rows of one sloping Arabic-script line become one; others stay apart', async (t) => {
  // One Nastaliq line at 15 pt: word-final letters on the baseline (700), first letters raised
  // up to 0.6 em; the next line 2.5 em lower.
  const line = [
    item('غاب', 320, 700, 15, rtl),
    item('ک', 300, 692.5, 15, rtl),
    item('ہ', 388, 691, 15, rtl),
    item('یئو', 368, 700, 15, rtl),
    item('ب', 518, 695.5, 15, rtl),
    item('حص', 505, 700, 15, rtl),
  ];
  const next = [item('لوکسا', 470, 737.5, 15, rtl), item('ت', 480, 730.5, 15, rtl)];
  const rows = groupRows([...line, ...next]);
  t.equal(rows.length, 2, 'two lines, two rows');
  t.equal(rows[0]!.items.length, line.length);
  // Latin runs at the same heights are superscripts and lines of their own, as before.
  t.equal(groupRows([item('one', 100, 700), item('two', 130, 694), item('three', 160, 688)]).length, 3);
  // Arabic runs beside each other (two columns, baselines a third of an em apart) are not one line.
  t.equal(groupRows([item('ابج', 100, 700, 15, rtl), item('دهو', 400, 705, 15, rtl)]).length, 2);
});

t.test('slopingWords: words cut at the space glyphs, the overhanging first letter kept with its word', async (t) => {
  // "دھل کر" read right to left: the raised kaf of "کر" reaches back over the tail of "دھل";
  // the space glyph (170.45–174) is recorded on the last run of "دھل".
  const dhal = item('د', 195, 700, 15, { ...rtl, w: 6 });
  const heh = item('ھ', 186.7, 700, 15, { ...rtl, w: 8.8 });
  const lam = item('ل', 174, 700, 15, { ...rtl, w: 14.7, space: { x: 170.45, w: 3.55 } });
  const kaf = item('ک', 166.3, 692, 15, { ...rtl, w: 10.6 });
  const reh = item('ر', 156.7, 700, 15, { ...rtl, w: 10.9 });
  const words = slopingWords([dhal, heh, lam, kaf, reh]);
  t.ok(words);
  t.same(words!.items.map((i) => i.text).join(''), 'دھلکر');
  t.same([...words!.starts], [3], 'one word space, before the kaf');
  t.equal(slopingWords([dhal, heh, kaf]), null, 'no space glyph: no words to read');
});

t.test('slopingWords: a digit and a letter a space apart are two words, a space glyph drawn or not', async (t) => {
  // Writer's "نے ۳ دن" in Noto Nastaliq Urdu: a space glyph (1.58 wide) after "نے", none after "۳",
  // which stands 1.79 from "دن".
  const ne = item('نے', 452.48, 150.1, 12, { ...rtl, w: 15.85, space: { x: 450.9, w: 1.58 } });
  const three = item('۳', 444, 150.1, 12, { ...rtl, w: 6.8 });
  const dal = item('د', 438.37, 150.1, 12, { ...rtl, w: 3.84 });
  const noon = item('ن', 428.94, 145.1, 12, { ...rtl, w: 8.82 });
  const words = slopingWords([ne, three, dal, noon]);
  t.same(words!.items.map((i) => i.text), ['نے', '۳', 'د', 'ن']);
  t.same([...words!.starts], [1, 2], 'a word starts at the digit and at the dal');
  // Written onto the digit (no gap), the letter stays in its word.
  const onto = slopingWords([ne, three, item('د', 440.5, 150.1, 12, { ...rtl, w: 3.5 }), noon]);
  t.same([...onto!.starts], [1]);
});

t.test('real documents: raised note marks do not make a Naskh line sloping', async (t) => {
  // XeLaTeX's Persian with footnotes (test/fixtures/rtl-notes): the marks stand raised after full
  // stops; the line was taken for a Nastaliq one, whose words only drawn space glyphs part, and
  // XeTeX draws none: "کتابخانهشهرهرروزصبح…".
  const dir = join(repoRoot, 'test/fixtures/rtl-notes');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'persian-notes.pdf')]);
  t.equal(code, 0);
  const words = (text: string): string[] => collapse(text).replace(/[۱۲]/gu, ' ').split(/\s+/u).filter(Boolean);
  t.same(words(stdout), words(readFileSync(join(dir, 'persian-notes.txt'), 'utf8')));
});

t.test('real documents: Urdu and Persian in Noto Nastaliq Urdu from Chromium', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/nastaliq');
  for (const name of ['ur-chromium', 'fa-chromium']) {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const truth = collapse(readFileSync(join(dir, `${name}.txt`), 'utf8'));
    // The scorer's view: format characters (the Persian zero-width non-joiner) do not count.
    const text = collapse(stdout).replace(/\p{Cf}/gu, '');
    t.ok(charAccuracy(truth.replace(/\p{Cf}/gu, ''), text) > 0.98, `${name}: characters in reading order`);
  }
  const { stdout } = await run(['extract', '--quiet', join(dir, 'ur-chromium.pdf')]);
  for (const phrase of ['صبح سویرے ہلکی بارش ہوئی اور باغ کے سارے پودے دھل کر', 'دادی نے کہا کہ ایسی ٹھنڈی رات برسوں بعد آئی ہے۔']) {
    t.ok(collapse(stdout).includes(phrase), phrase);
  }
});

t.test('real documents: a word-initial letter raised two thirds of an em over the row it overlaps', async (t) => {
  // Chromium's Urdu in Noto Nastaliq Urdu, the font sweep's second text: the ہ of "ہجوم" stands
  // 0.66 em above its ج (itself raised), and was a line of its own, put after the paragraph.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'urdu-chromium-notonastaliqurdu-b.pdf')]);
  t.equal(code, 0);
  t.match(collapse(stdout), /بڑا ہجوم تھا/u);
  t.equal(stdout.trim().split('\n').length, 3, 'the title and two paragraphs');
});

t.test('slopingWords: a letter that only ends words ends its word where no space glyph is drawn', async (t) => {
  // "محلے کی" as Chromium draws it in Noto Nastaliq Urdu: no space glyph after the yeh barree,
  // whose tail reaches under the kaf of the next word; a space glyph after "کی".
  const mim = item('م', 480.3, 485.25, 15, { ...rtl, w: 9.5 });
  const hah = item('ح', 478.1, 485.25, 15, { ...rtl, w: 8.3 });
  const lam = item('ل', 470.5, 482.07, 15, { ...rtl, w: 9.7 });
  const yehBarree = item('ے', 470.1, 489.46, 15, { ...rtl, w: 21.8 });
  const kaf = item('ک', 463.1, 485.25, 15, { ...rtl, w: 10.6 });
  const yeh = item('ی', 455.2, 485.25, 15, { ...rtl, w: 10.9, space: { x: 452.2, w: 2.25 } });
  const next = item('ا', 444.4, 485.25, 15, { ...rtl, w: 5 });
  const words = slopingWords([mim, hah, lam, yehBarree, kaf, yeh, next]);
  t.same(words!.items.map((i) => i.text).join(''), 'محلےکیا');
  t.same([...words!.starts], [4, 6], 'a word after the yeh barree, one after the space glyph');
  // Persian: heh with the ezafe hamza ends "کتابخانهٔ" before "کوچک".
  const heh = item('\u0654\u0647', 476.6, 107.25, 15, { ...rtl, w: 10.4 });
  const words2 = slopingWords([item('ن', 482.2, 113.6, 15, { ...rtl, w: 8 }), heh, item('ک', 467.5, 107.25, 15, { ...rtl, w: 16.4 }), item('و', 460, 107.25, 15, { ...rtl, w: 9.8, space: { x: 440, w: 3 } }), item('چ', 430, 107.25, 15, { ...rtl, w: 9 })]);
  t.same([...words2!.starts], [2, 4]);
});

t.test('real documents: Urdu words after a yeh barree stay apart', async (t) => {
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'bench/corpus/nastaliq/ur-chromium.pdf')]);
  t.equal(code, 0);
  for (const phrase of ['محلے کی', 'سننے والوں', 'چمکنے لگے۔']) t.ok(collapse(stdout).includes(phrase), phrase);
});
