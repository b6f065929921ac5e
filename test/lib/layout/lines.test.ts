/**
 * Line building (lib/layout/lines.ts) on hand-built glyph runs (no PDF): word spaces from gaps,
 * letter-spaced text, CJK text, Thai text split at its marks (on a Chromium PDF), superscripts, right-to-left lines, and the provenance of every
 * inserted space.
 */
import t from 'tap';
import { linesOfPage } from '../../../lib/layout/lines.js';
import { DEFAULTS } from '../../../stages/lines.js';
import type { Item, Line } from '../../../lib/protocol/records.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { collapse, item, pageRecord, repoRoot, run, wordItems } from '../../helpers.js';

const linesOf = (items: Item[]): Line[] => linesOfPage(pageRecord('l', 1, { items }), DEFAULTS).lines!;

/** Problems with a line's inferred spaces: each must point at a space, and each space must have one. */
function spaceMarkProblems(line: Line): string[] {
  const marks = line.inferred.filter((m) => m.kind === 'space');
  const problems = marks.filter((m) => line.text[m.at] !== ' ').map((m) => `mark at ${m.at} is not on a space`);
  const spaces = (line.text.match(/ /g) ?? []).length;
  if (marks.length !== spaces) problems.push(`${marks.length} marks for ${spaces} spaces`);
  return problems;
}

/**
 * A letter-spaced line: one run per glyph, `tracking` em after every glyph, and a word space of
 * `space` em plus tracking on both sides of it, as CSS letter-spacing draws it.
 */
function letterSpaced(text: string, x: number, y: number, size: number, tracking: number, space = 0.25, glyph = 0.55): Item[] {
  const out: Item[] = [];
  let at = x;
  for (const word of text.split(' ')) {
    for (const ch of word) {
      out.push(item(ch, at, y, size, { w: glyph * size }));
      at += (glyph + tracking) * size;
    }
    at += (space + tracking) * size;
  }
  return out;
}

t.test('runs separated by word-sized gaps get spaces; a kerning gap inside a word does not', async (t) => {
  const words = wordItems(['The', 'quick', 'brown'], 72, 100, 10, 0.28);
  const last = words[words.length - 1]!;
  // "fox" drawn as "fo" + "x" with a 0.02 em kern between.
  const fo = item('fo', last.x + last.w + 0.28 * 10, 100, 10);
  const x = item('x', fo.x + fo.w + 0.02 * 10, 100, 10);
  const [line, ...rest] = linesOf([...words, fo, x]);
  t.equal(rest.length, 0, 'one line');
  t.equal(line?.text, 'The quick brown fox');
  t.same(spaceMarkProblems(line!), [], 'every inserted space is marked');
});

t.test('letter-spaced text (single-glyph runs, even 0.16 em gaps) reads as normal words', async (t) => {
  const [line] = linesOf(letterSpaced('Declaration of the Rights of Man', 72, 100, 12, 0.16));
  t.equal(line?.text, 'Declaration of the Rights of Man');
  t.ok(line?.inferred.every((m) => m.kind !== 'space' || m.rule === 'letter-spacing'), 'the spaces say which rule made them');
  t.same(spaceMarkProblems(line!), [], 'every inserted space is marked');
});

t.test('a heading letter-spaced by 0.3 em reads as normal words too', async (t) => {
  const [line] = linesOf(letterSpaced('The Lighthouse Logbooks', 72, 100, 20, 0.3));
  t.equal(line?.text, 'The Lighthouse Logbooks');
});

t.test('CJK runs with small gaps are joined without spaces', async (t) => {
  const size = 12;
  const runs = ['城市', '屋顶上', '的小菜园', 'と', 'ひらがな'];
  const items: Item[] = [];
  let at = 72;
  for (const run of runs) {
    const it = item(run, at, 100, size, { w: [...run].length * size });
    items.push(it);
    at += it.w + 0.2 * size; // 0.2 em: a word gap in Latin text, not in CJK
  }
  const [line] = linesOf(items);
  t.equal(line?.text, runs.join(''));
  t.same(line?.inferred.filter((m) => m.kind === 'space'), []);
});

t.test('a superscript stays on its line, after the run it belongs to', async (t) => {
  const size = 12;
  const first = wordItems(['the', 'area', 'grows', 'with', 'radius'], 72, 200, size, 0.3);
  const radius = first[first.length - 1]!;
  const sup = item('2', radius.x + radius.w + 0.02 * size, 200 - 0.4 * size, 7);
  const after = item('quickly', sup.x + sup.w + 0.3 * size, 200, size);
  const second = wordItems(['and', 'the', 'next', 'line'], 72, 200 + 1.4 * size, size, 0.3);
  const lines = linesOf([...second, sup, ...first, after]);
  t.same(lines.map((l) => l.text), ['the area grows with radius2 quickly', 'and the next line'], 'two lines; the superscript inside the first');
  t.equal(lines[0]?.base, 200, 'the line keeps its own baseline');
});

t.test('a line of mathematics (one-glyph variables and relations between whole words) keeps its word spaces', async (t) => {
  // Three of four runs are one glyph, most characters are in words, and every gap is a 0.38 em
  // word space, as in the Computer Modern lines of a paper.
  const words = ['Extension', 'For', 'all', 'y', '∈', 'E', '0', 'and', 'ζ', '⊆', 'E', '0', 'a', 'complete', 'x', 'y'];
  const [line] = linesOf(wordItems(words, 72, 100, 12, 0.38));
  t.equal(line?.text, words.join(' '));
});

t.test('a line of short words is not mistaken for letter-spaced text', async (t) => {
  // Evenly spaced word gaps of 0.3 em, every word one or two letters: normal text, not tracking.
  const [line] = linesOf(wordItems(['if', 'it', 'is', 'so', 'we', 'go', 'on', 'to', 'it'], 72, 100, 10, 0.3));
  t.equal(line?.text, 'if it is so we go on to it');
});

t.test('a right-to-left line is read from its rightmost run', async (t) => {
  const size = 12;
  const a = item('שלום', 300, 100, size, { dir: 'rtl' });
  const b = item('עולם', a.x - 0.3 * size - 4 * 0.5 * size, 100, size, { dir: 'rtl' });
  const [line] = linesOf([b, a]);
  t.equal(line?.dir, 'rtl');
  t.equal(line?.text, 'שלום עולם');
});

t.test('lines keep their block and role, and blocks stay in block order', async (t) => {
  const second = wordItems(['second', 'block'], 72, 100, 10).map((i) => ({ ...i, block: 1 }));
  const first = wordItems(['first', 'block'], 72, 300, 10).map((i) => ({ ...i, block: 0, role: 'header' as const }));
  const lines = linesOf([...second, ...first]);
  t.same(lines.map((l) => [l.block, l.text, l.role]), [
    [0, 'first block', 'header'],
    [1, 'second block', undefined],
  ]);
});

t.test('a run with no advance width hides its width in the gap after it', async (t) => {
  // "प्रस्" drawn with width 0 and "तावना" 1 em after its start: one word. A run 1.5 em on: two words.
  const [joined] = linesOf([item('\u092A\u094D\u0930\u0938\u094D', 50, 100, 12, { w: 0 }), item('\u0924\u093E\u0935\u0928\u093E', 62, 100, 12, { w: 30 })]);
  t.equal(joined?.text, '\u092A\u094D\u0930\u0938\u094D\u0924\u093E\u0935\u0928\u093E');
  const [apart] = linesOf([item('\u0930\u0941\u0926\u094D\u0918', 50, 100, 12, { w: 0 }), item('\u0932\u094B', 68, 100, 12, { w: 12 })]);
  t.equal(apart?.text, '\u0930\u0941\u0926\u094D\u0918 \u0932\u094B');
});

t.test('after a zero-width run ending in a virama the next letter continues the word, unless the gap is very wide', async (t) => {
  // "सदस्" drawn as a half form with no advance width, "यों" 16.6 pt on: one word.
  const [word] = linesOf([item('\u0938\u0926\u0938\u094D', 50, 100, 11, { w: 0 }), item('\u092F\u094B\u0902', 66.6, 100, 11, { w: 8 })]);
  t.equal(word?.text, '\u0938\u0926\u0938\u094D\u092F\u094B\u0902');
  const [far] = linesOf([item('\u0938\u0926\u0938\u094D', 50, 100, 11, { w: 0 }), item('\u092F\u094B\u0902', 80, 100, 11, { w: 8 })]);
  t.equal(far?.text, '\u0938\u0926\u0938\u094D \u092F\u094B\u0902');
  // A run with its advance that ends in a virama (a reph in glyph order, "कायर्") and a word
  // space after it: two words.
  const [two] = linesOf([item('\u0915\u093E\u092F\u0930\u094D', 50, 100, 11, { w: 16.5 }), item('\u0939\u0941\u090F', 69.4, 100, 11, { w: 12 })]);
  t.equal(two?.text, '\u0915\u093E\u092F\u0930\u094D \u0939\u0941\u090F');
});

t.test('Thai runs split inside words at their marks (Chromium) are one word; Thai spaces stay', async (t) => {
  // Chromium ends a run at some marks; the gap after such a run is up to a fifth of an em, a
  // Thai space a whole space glyph (a quarter of an em or more).
  const dir = join(repoRoot, 'bench/corpus/fonts');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'th-chromium-notosans.pdf')]);
  t.equal(code, 0);
  t.equal(collapse(stdout), collapse(readFileSync(join(dir, 'th-chromium-notosans.txt'), 'utf8')));
});

t.test('words whose signs overhang the space: a font whose runs end only at spaces takes its word gap from its own gaps', async (t) => {
  // Three lines of Devanagari words, one run per word as XeTeX draws them, 0.12 em apart but for
  // two spaces of 0.07 em where a vowel sign overhangs (measured from the run's box).
  const words = ['बच्चे', 'पेड़', 'के', 'नीचे', 'खेलते', 'हैं', 'और', 'चिल्लाते', 'हैं'];
  const row = (y: number, narrow: number[]): Item[] => {
    let x = 72;
    return words.map((w, i) => {
      const run = item(w, x, y, 12, { w: 20, font: 'FreeSerif' });
      x += 20 + (narrow.includes(i) ? 0.07 : 0.12) * 12;
      return run;
    });
  };
  const lines = linesOf([...row(100, [1]), ...row(116, [7]), ...row(132, [])]);
  for (const line of lines) t.equal(line.text, words.join(' '), 'every word space, the narrow ones too');
  // Latin words spaced so: a space of 0.07 em is no word space there (runs split inside words too).
  const latin = linesOf(wordItems(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'], 72, 100, 12, 0.07).concat(wordItems(['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen'], 72, 116, 12, 0.07)));
  t.equal(latin[0]!.text, 'onetwothreefourfivesixseveneightnine', 'Latin: as before');
});

t.test("Writer's autospace between Hangul and Latin letters or digits is no word space", async (t) => {
  // Writer draws its word spaces as glyphs, and opens a narrower gap, with none, between "5" and
  // "월" or "SNS" and "에": one word each. A gap of its own width between two Hangul words is a space.
  const doc = join(repoRoot, 'test/fixtures/fontsweep/korean-lo-nanumgothic-b');
  const { stdout, code } = await run(['extract', '--quiet', `${doc}.pdf`]);
  t.equal(code, 0);
  const words = collapse(stdout).split(' ');
  for (const word of ['5월,', '1시간', 'SNS에']) t.ok(words.includes(word), word);
  t.same(words, collapse(readFileSync(`${doc}.txt`, 'utf8')).split(' '), 'every word as written');
  // The same gaps, drawn by a page whose font draws no space glyphs, keep their spaces.
  const runs = (space: boolean): Item[] => [
    item('지난', 100, 100, 12, { w: 22.57, ...(space ? { space: { x: 122.6, w: 3.36 } } : {}) }),
    item('5', 126, 100, 12, { w: 7.27 }),
    item('월', 135.7, 100, 12, { w: 11.3 }),
  ];
  const spaced = [...Array(5)].flatMap((_, k) => [item('우리', 100, 200 + 20 * k, 12, { w: 22.57, space: { x: 122.6, w: 3.36 } }), item('가족은', 126, 200 + 20 * k, 12, { w: 33.9 })]);
  const text = (items: Item[]): string[] => (linesOfPage(pageRecord('d', 1, { items }), DEFAULTS).lines ?? []).map((l: Line) => l.text);
  t.equal(text([...runs(true), ...spaced])[0], '지난 5월', 'a font that draws its spaces: autospace');
  t.equal(text(runs(false))[0], '지난 5 월', 'a font that draws none: the gap is all there is');
});

t.test('a comma after a word, with no space glyph, in a font that draws its word spaces: no space', async (t) => {
  // Writer's Noto Serif Bengali: the box of "ো" ends short of its advance, and the comma of
  // "হলো," stands 0.06 em past it.
  const doc = join(repoRoot, 'test/fixtures/fontsweep/bengali-lo-notoserifbengali-b');
  const { stdout, code } = await run(['extract', '--quiet', `${doc}.pdf`]);
  t.equal(code, 0);
  t.ok(collapse(stdout).split(' ').includes('হলো,'));
  t.same(collapse(stdout).split(' '), collapse(readFileSync(`${doc}.txt`, 'utf8')).split(' '), 'every word as written');
});

t.test('single digits one advance apart are one number, whatever the gaps between their inks', async (t) => {
  // Chromium's Persian in Nazli (test/fixtures/fontsweep): each digit of "۱۴۰۲" in a span of its
  // own, ink boxes 0.2 em apart; read apart, the bidirectional algorithm turned them round: "۲ ۰ ۴ ۱".
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'persian-chromium-nazli-b.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /سال ۱۴۰۲ در/u);
  t.match(stdout, / ۴۰۰ /u);
  // Digits a word space apart (a pitch of 0.75 em) stay apart.
  const digits = (pitch: number): Item[] => [
    item('rooms', 50, 100, 10, { w: 26 }),
    item('7', 80, 100, 10, { w: 2.3 }),
    item('8', 80 + pitch * 10, 100, 10, { w: 2.3 }),
    item('free', 90 + pitch * 10, 100, 10, { w: 20 }),
  ];
  t.equal(linesOf(digits(0.47))[0]!.text, 'rooms 78 free');
  t.equal(linesOf(digits(0.75))[0]!.text, 'rooms 7 8 free');
});

t.test('XeLaTeX Devanagari, one line: a dozen word gaps, all of one width, are word spaces', async (t) => {
  // FreeSerif's word gaps between the runs' boxes are 0.086 em (its signs overhang the space); a
  // font whose runs end only at spaces shows it with 8 gaps, not only with a page's 16
  // (test/fixtures/devanagari-xetex, freeserif-one-line: "हिंदीसिंहकिंतु…" before).
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'test/fixtures/devanagari-xetex/freeserif-one-line.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /^हिंदी सिंह किंतु सर्दियों पार्टियों /u);
  t.match(stdout, / विंध्य धार्मिक कर्मियों रुपये गुरु शुरू रूप /u);
});

t.test('Chromium, one Arabic line: brackets and guillemets from a fallback font hold to the words they enclose', async (t) => {
  // Their side bearings leave 0.12–0.13 em beside "نعم", with no space glyph, where the line's
  // word spaces are drawn glyphs 0.22 em wide (test/fixtures/rtl-punctuation: "‹ نعم ›" before).
  const dir = join(repoRoot, 'test/fixtures/rtl-punctuation');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'brackets.pdf')]);
  t.equal(code, 0);
  t.equal(stdout, readFileSync(join(dir, 'brackets.txt'), 'utf8'));
});

t.test('a letter whose font maps it to the letter and its mark apart is written composed (NFC)', async (t) => {
  // XeTeX's Lateef (test/fixtures/fontsweep, from the font sweep) maps "أ" to "ا" + U+0654.
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'test/fixtures/fontsweep/arabic-xelatex-lateef.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /يأتي/u);
  t.equal(stdout, stdout.normalize('NFC'), 'all of it composed');
});
