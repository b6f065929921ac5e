/**
 * The bidi algorithm: the reordering against Unicode's conformance data, visual → logical on
 * hand-built lines (embedded English and numbers, brackets, marks, controls, lines without a strong
 * character).
 *
 * Conformance (test/data/unicode/BidiCharacterTest-15.0.0.txt.gz, every one of its 91,707 lines):
 * the reordering function must put each test string into the file's visual order. What is
 * left out, and why:
 * - paragraph direction 2 ("auto", rules P2/P3): bidiOfPage does not apply P2/P3 to the string (it
 *   decides the direction from the page, see firstStrongDirection), so these lines are run with the
 *   paragraph level the file resolves;
 * - characters the file marks as removed by rule X9 (embedding controls, BN) are not compared: the
 *   reordering keeps them in place, and bidiOfPage removes them before reordering anyway;
 * - rule L4 (mirroring) is outside the file's scope, so the lines run without mirroring; mirroring
 *   is tested on hand-built lines below.
 * bidi-js implements Unicode 13; no line of the 15.0 file fails because of a newer character.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bidiOfPage, canonicalMarkOrder, firstStrongDirection, unpaired, visualToLogical } from '../../../lib/scripts/bidi.js';
import { reverseText } from '../../../lib/scripts/rtl.js';
import { normalizeOptions } from '../../../stages/bidi.js';
import type { DocRecord, Line } from '../../../lib/protocol/records.js';
import { docRecord, line, pageRecord, repoRoot, run } from '../../helpers.js';

const CONFORMANCE = join(repoRoot, 'test/data/unicode/BidiCharacterTest-15.0.0.txt.gz');

t.test('BidiCharacterTest.txt: every line reorders into the visual order the file gives', async (t) => {
  const lines = gunzipSync(readFileSync(CONFORMANCE)).toString('utf8').split('\n');
  let checked = 0;
  let auto = 0;
  const failures: string[] = [];
  for (const row of lines) {
    if (row === '' || row.startsWith('#')) continue;
    const [codes = '', direction, paragraph, levels = '', order = ''] = row.split(';');
    const chars = codes.trim().split(' ').map((hex) => String.fromCodePoint(parseInt(hex, 16)));
    const levelList = levels.trim().split(' ');
    if (direction === '2') auto++;
    const dir = (direction === '2' ? paragraph : direction) === '1' ? 'rtl' : 'ltr';
    const expected = order.trim() === '' ? '' : order.trim().split(' ').map((i) => chars[Number(i)]).join('');
    const removed = new Set(chars.filter((_c, i) => levelList[i] === 'x'));
    const actual = [...visualToLogical(chars.join(''), dir, 'never').text].filter((c) => !removed.has(c)).join('');
    checked++;
    if (actual !== expected && failures.length < 10) failures.push(row);
  }
  t.equal(checked, 91707, 'every test line of the 15.0.0 file was read');
  t.ok(auto > 0, `${auto} lines with paragraph direction "auto" run with the resolved level`);
  t.same(failures, [], 'no line reorders differently');
});

const glyphDoc = (): DocRecord => {
  const doc = docRecord('rtl');
  doc.meta.engine = 'pdfjs 5.6.205 split-runs glyph-order';
  return doc;
};

/** A right-to-left line as `lines` writes it from visual-order runs: the visual text reversed. */
function rtlLine(visual: string, extra: Partial<Line> = {}): Line {
  return { ...line(reverseText(visual), 100), dir: 'rtl', ...extra };
}

const reorder = (lines: Line[], doc: DocRecord = glyphDoc(), options = {}) => bidiOfPage(pageRecord('rtl', 1, { lines }), doc, normalizeOptions(options));

t.test('visual → logical: embedded English words and numbers keep their own order', async (t) => {
  // Visual order (left to right on the page) as the PDF draws it, and the sentence as it is read.
  const cases: Array<[string, 'ltr' | 'rtl', string]> = [
    ['1974 תנשב החתפ Intel תרבח', 'rtl', 'חברת Intel פתחה בשנת 1974'],
    ['.םידבוע 10,000-מ רתוי וב םידבוע', 'rtl', 'עובדים בו יותר מ-10,000 עובדים.'],
    ['Core-ו Pentium M ידבעמ', 'rtl', 'מעבדי Pentium M ו-Core'],
    ['2021 ماع يف Siemens ةكرش تنلعأ', 'rtl', 'أعلنت شركة Siemens في عام 2021'],
    ['،٢٠٢٣ ماع يف', 'rtl', 'في عام ٢٠٢٣،'],
    ['A line with an Arabic ةيبرعلا word.', 'ltr', 'A line with an Arabic العربية word.'],
  ];
  for (const [visual, dir, logical] of cases) t.equal(visualToLogical(visual, dir).text, logical, logical);
});

t.test('visual → logical: a paragraph separator a glyph maps to does not split the line', async (t) => {
  // Writer's Noto Nastaliq Urdu maps a joining glyph to U+001C (bidirectional class B): read as a
  // paragraph's end, the line's two halves were ordered apart and put left half first.
  t.equal(visualToLogical('دجس\u001cم یہاشداب', 'rtl').text, 'بادشاہی م\u001cسجد');
});

t.test('brackets: mirrored glyph codes are mirrored back; logical codes are kept (mirror auto)', async (t) => {
  // Quartz/Chromium: the glyph drawn as "(" (closing, in a right-to-left run) is mapped to "(".
  t.equal(visualToLogical('קוחל (ב) ףיעס', 'rtl').text, 'סעיף (ב) לחוק');
  // Word: the same glyphs mapped to the characters they stand for.
  t.equal(visualToLogical('קוחל )ב( ףיעס', 'rtl').text, 'סעיף (ב) לחוק');
  t.equal(visualToLogical('קוחל (ב) ףיעס', 'rtl', 'never').text, 'סעיף )ב( לחוק');
  t.equal(visualToLogical('קוחל )ב( ףיעס', 'rtl', 'always').text, 'סעיף )ב( לחוק');
  t.equal(unpaired('(a)(b)'), 0);
  t.equal(unpaired(')a('), 3);
  t.equal(unpaired('«x» (y'), 1);
});

t.test('first strong character on the page: the edge where each direction starts', async (t) => {
  t.equal(firstStrongDirection([...'abc םולש']), null, 'Latin at the left, Hebrew at the right: either could start');
  t.equal(firstStrongDirection([...'abc םולש def']), 'ltr');
  t.equal(firstStrongDirection([...'םולש abc םולש']), 'rtl');
  t.equal(firstStrongDirection([...'םולש abc']), null, 'Hebrew at the left, Latin at the right: neither fits');
  t.equal(firstStrongDirection([...'12 - 34']), null, 'no strong character');
});

t.test('lines: a right-to-left line is reordered, its spaces keep their inferred marks', async (t) => {
  const visual = '1974 תנשב החתפ Intel תרבח';
  const input = rtlLine(visual);
  // `lines` marked every space it inserted.
  input.inferred = [...input.text].flatMap((c, i) => (c === ' ' ? [{ at: i, kind: 'space' as const, rule: 'gap' }] : []));
  const { page, diagnostics } = reorder([input]);
  const out = page.lines![0]!;
  t.equal(out.text, 'חברת Intel פתחה בשנת 1974');
  t.equal(out.dir, 'rtl');
  t.equal(out.inferred.length, 4);
  t.ok(out.inferred.every((m) => out.text[m.at] === ' '), 'every mark is on a space');
  t.same(diagnostics, []);
});

t.test('lines: the block majority decides a line that starts with an English word', async (t) => {
  // "Intel פתחה" read right to left: Intel is the rightmost word, Hebrew the leftmost.
  const first = rtlLine('החתפ Intel', { block: 0 });
  const others = rtlLine('המ םולש םלוכ םולש', { block: 0, base: 112 });
  const { page } = reorder([first, others]);
  t.equal(page.lines![0]!.text, 'Intel פתחה');
  t.equal(page.lines![0]!.dir, 'rtl');
  t.equal(page.lines![1]!.text, 'שלום כולם שלום מה');
});

t.test('lines: combining marks stay after their letter', async (t) => {
  // `lines` wrote the marks after their letters (reading order): shin + shin dot + qamats, …
  const pointed = 'שָׁלוֹם עוֹלָם גָּדוֹל';
  const input: Line = { ...line(`${pointed} letnI`, 100), dir: 'rtl' };
  const { page } = reorder([input]);
  t.equal(page.lines![0]!.text, `${pointed} Intel`);
  const arabic = 'لِمَا';
  t.equal(reorder([{ ...line(`${arabic} 5`, 100), dir: 'rtl' }]).page.lines![0]!.text, `${arabic} 5`);
});

t.test('left-to-right lines without right-to-left text pass through untouched', async (t) => {
  const english = line('Plain English text (with brackets) 123.', 100);
  const { page, diagnostics } = reorder([english]);
  t.equal(page.lines![0], english, 'the same line object');
  t.same(diagnostics, []);
});

t.test('bad input: direction controls, no strong character, engine-reordered runs', async (t) => {
  const withControls = rtlLine('\u202bםולש\u202c abc\u200f');
  const result = reorder([withControls]);
  t.equal(result.page.lines![0]!.text.includes('\u202b'), false, 'controls removed');
  t.match(result.page.lines![0]!.text, /abc/u);
  t.ok(result.diagnostics.some((d) => d.code === 'direction-controls-removed' && d.count === 3 && d.severity === 'warning'), 'a warning counts them');

  const digitsOnly = rtlLine('١٢٣ - ٤٥٦');
  const guessed = reorder([digitsOnly]);
  t.equal(guessed.page.lines![0]!.dir, 'rtl', 'falls back to the line direction of `lines`');
  t.equal(guessed.page.lines![0]!.text, '٤٥٦ - ١٢٣', 'read from the right: the right-hand number first, digits left to right');
  t.match(guessed.diagnostics, [{ code: 'direction-guessed', count: 1, place: { page: 1 } }]);

  const hebrew = { ...line('חברת Intel', 100), dir: 'rtl' as const };
  const engine = reorder([hebrew], docRecord('rtl'));
  t.equal(engine.page.lines![0]!.text, 'חברת Intel', 'text kept when the engine reordered runs itself');
  t.ok(engine.diagnostics.some((d) => d.code === 'engine-reordered' && d.severity === 'info'), 'an info diagnostic says why');

  const odd = [{ ...rtlLine('םולש'), text: 42 as unknown as string }, rtlLine('abc םולש')];
  const tolerant = reorder(odd);
  t.equal(tolerant.page.lines![0]!.text, 42, 'a line without string text passes untouched');
  t.equal(tolerant.page.lines![1]!.text, 'שלום abc');
});

t.test('canonicalMarkOrder: a letter\'s marks in the order NFC gives them, the length kept', async (t) => {
  // Dagesh before qamats as typed, qamats first in NFC (by combining class); fatha before shadda.
  t.equal(canonicalMarkOrder('\u05d2\u05bc\u05b8\u05e8'), '\u05d2\u05b8\u05bc\u05e8');
  t.equal(canonicalMarkOrder('\u0642\u0651\u064e'), '\u0642\u064e\u0651');
  t.equal(canonicalMarkOrder('\u05e9\u05c1\u05b8'), '\u05e9\u05c1\u05b8'.normalize('NFC'));
  t.equal(canonicalMarkOrder('plain'), 'plain');
  // Pointed Writer Hebrew comes out as NFC has it.
  const { stdout, code } = await run(['extract', '--quiet', join(repoRoot, 'bench/corpus/marks/he-lo-niqqud.pdf')]);
  t.equal(code, 0);
  t.ok(stdout.length > 100 && stdout === stdout.normalize('NFC'), 'NFC-stable');
});
