/**
 * Where paragraphs start inside a block (lib/paragraphs/split.ts): a line ended by choice, its
 * room measured against the next line's first word — in pointed Hebrew, whose vowel points stack
 * on their letters and take no width; a wider line gap, against the gaps between lines of one size;
 * a line's room, against the measure of the lines around it (text set round a float ends at the
 * float, not at the block's edge).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endsByChoice, measureEnds, splitParagraphs } from '../../../lib/paragraphs/split.js';
import { DEFAULTS } from '../../../stages/paragraphs.js';
import { collapse, line, repoRoot, run } from '../../helpers.js';
import type { Line } from '../../../lib/protocol/records.js';

/** A right-to-left line ending at the right edge (500) whose letters are 7 pt wide; points take no room. */
function pointed(text: string, base: number): Line {
  const letters = text.replace(/[\p{Mn}\p{Me}]/gu, '').length;
  const w = letters * 7;
  return { ...line(text, base, { x: 500 - w, w, size: 14 }), dir: 'rtl' };
}

t.test('endsByChoice: the room a pointed word needs is that of its letters', async (t) => {
  // The next line opens with a word of five letters and four points (each letter 7 pt, a space
  // 7 pt, half an em to spare: 49 pt); the line before leaves 52 pt at its end.
  const next = pointed('דְּבוֹרָה קטנה עפה מעליו ושאלה את הפרח הגדול', 100);
  const previous = { ...pointed('בגנה יפה גר פרח אדום', 75), box: { x: 152, y: 64, w: 348, h: 14.7 } };
  t.equal(endsByChoice(previous, next, 100, 500, 0.5), true, 'the word fits: the line was ended by choice');
  const full = { ...previous, box: { x: 140, y: 64, w: 360, h: 14.7 } };
  t.equal(endsByChoice(full, next, 100, 500, 0.5), false, '40 pt left: the word did not fit');
});

t.test('real document: pointed Hebrew from Writer, paragraphs of one line apart from a wrapped one', async (t) => {
  const pdf = join(repoRoot, 'bench/corpus/marks/he-lo-niqqud.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  t.equal(code, 0);
  const paragraphs = stdout.trim().split(/\n\s*\n/u);
  t.equal(paragraphs.length, 5, 'the title and four paragraphs');
  t.match(paragraphs[2] ?? '', /^דְּבוֹרָה קְטַנָּה/u, 'the second paragraph starts on its own');
});

t.test('splitParagraphs: the usual line gap is the text\'s own, not the gaps around larger headings', async (t) => {
  // A title and a heading (18 pt) over two paragraphs of two lines each and one more (15 pt):
  // lines 28.5 pt apart, paragraphs 43.5 pt; the gaps at the headings, 45–48 pt, are as many.
  const body = (base: number) => line('the water rose over the stones and the path', base, { w: 400, size: 15 });
  const heading = (base: number) => line('Harbour', base, { w: 100, size: 18 });
  const lines = [heading(100), body(145), body(173.5), body(217), body(245.5), heading(293.5), body(338.5), body(367)];
  const paragraphs = splitParagraphs(lines, DEFAULTS);
  t.same(paragraphs.map((p) => p.length), [1, 2, 2, 1, 2], 'a wider gap between the two paragraphs starts the second');
});

t.test('real document: Persian in Noto Nastaliq Urdu from Chromium, paragraphs under a title and a heading', async (t) => {
  const pdf = join(repoRoot, 'bench/corpus/nastaliq/fa-chromium.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  t.equal(code, 0);
  const paragraphs = stdout.trim().split(/\n\s*\n/u);
  t.equal(paragraphs.length, 5, 'title, two paragraphs, heading, one paragraph');
  t.equal(paragraphs[0], 'کتابخانهٔ کوچک', 'the title, two words');
});

t.test('measureEnds: three lines and more ending at one place short of the block\'s edge have a measure of their own', async (t) => {
  // Two full lines (ending at 500), four set round a float (ending at 330), a full one, a short last one.
  const ends = [500, 500, 330, 330.2, 329.8, 330, 500, 260];
  const lines = ends.map((end, i) => line('words', 100 + 14 * i, { x: 72, w: end - 72, size: 11 }));
  t.same(measureEnds(lines, ends, ends.map(() => 500)), [500, 500, 330.2, 330.2, 330.2, 330.2, 500, 500]);
  // Two lines ending together are no measure: a paragraph's last line and a short one after it.
  t.same(measureEnds(lines.slice(0, 3), [500, 330, 330], [500, 500, 500]), [500, 500, 500]);
});

t.test('real documents: text set round a float (pdfLaTeX wrapfig, a Writer frame) keeps its paragraphs, the caption apart', { timeout: 120_000 }, async (t) => {
  const corpus = join(repoRoot, 'bench/corpus/dropcaps');
  const names = ['pl-pdflatex-wrapfig', 'en-lo-float-frame'];
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-float-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--quiet', '--blank-lines', '--out-dir', dir, ...names.map((n) => join(corpus, `${n}.pdf`))]);
  t.equal(result.code, 0, result.stderr);
  for (const name of names) {
    const truth = readFileSync(join(corpus, `${name}.txt`), 'utf8').trim().split(/\n\s*\n/u).map(collapse);
    const out = readFileSync(join(dir, `${name}.txt`), 'utf8').trim().split(/\n\s*\n/u).map(collapse);
    t.same(out, truth, `${name}: every paragraph whole, the caption after the one it interrupts`);
  }
});

t.test('splitParagraphs: a line ending in a danda ends a sentence, so the indented line after it starts a paragraph', async (t) => {
  // Paragraphs of two lines, the first indented: indented lines are half the block, so the indent
  // counts where the line before ends a sentence — here with the Devanagari danda.
  const lines = [
    line('हम शाम को नदी किनारे टहलने गए और बच्चों के लिए यह दिन', 100, { x: 90, w: 410, size: 12 }),
    line('बहुत खास था।', 114.5, { x: 72, w: 80, size: 12 }),
    line('किनारे पर एक बूढ़ा मछुआरा बैठा था और उसने हमें बताया कि', 129, { x: 90, w: 410, size: 12 }),
    line('पानी कम था।', 143.5, { x: 72, w: 75, size: 12 }),
  ];
  t.same(splitParagraphs(lines, DEFAULTS).map((p) => p.length), [2, 2]);
});

t.test('an equation\'s number in brackets at a line\'s end or start ends no sentence and opens no list item', async (t) => {
  // A pdfLaTeX page without indents (test/fixtures/paragraphs/build.sh), its lines broken by hand
  // in the middle of sentences: "…and then use (1) | we find that…" and "…so the solution of |
  // (2) is given by…" are each one sentence, so one paragraph; a list of "(1)"… items follows.
  const pdf = join(repoRoot, 'test/fixtures/paragraphs/equation-refs.pdf');
  const { stdout } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  const paragraphs = stdout.trim().split('\n\n');
  t.ok(paragraphs.some((p) => p.includes('and then use (1) we find that the height falls')), 'a line ended by a bracket goes on');
  t.ok(paragraphs.some((p) => p.includes('so the solution of (2) is given by a single number')), 'a number in brackets the sentence goes on after is no list item, with a list on the page');
  t.ok(['(1) They take', '(2) They stay', '(3) They come'].every((item) => paragraphs.some((p) => p.startsWith(item))), 'the items of the list after a colon stay items');
});
