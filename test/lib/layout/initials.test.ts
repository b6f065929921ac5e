/**
 * Drop caps (lib/layout/initials.ts): on hand-built runs, the initial joins the first word of the
 * line it opens, with a space only where the first line starts further right than the lines below
 * it; a large letter with no lines beside it is left alone. On real PDFs (Chromium's
 * `initial-letter`, LibreOffice's drop caps), the opening paragraphs come out whole.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linesOfPage } from '../../../lib/layout/lines.js';
import { DEFAULTS } from '../../../stages/lines.js';
import type { Item, Line } from '../../../lib/protocol/records.js';
import { collapse, item, pageRecord, repoRoot, run, wordItems } from '../../helpers.js';

const linesOf = (items: Item[]): Line[] => linesOfPage(pageRecord('d', 1, { items }), DEFAULTS).lines!;

/** A paragraph of 11.5 pt lines 16 pt apart; its first three lines start at `indent` (beside the initial). */
function paragraph(words: string[][], indent: number, firstExtra = 0): Item[] {
  return words.flatMap((ws, i) => wordItems(ws, (i < 3 ? indent : 72) + (i === 0 ? firstExtra : 0), 160 + 16 * i, 11.5));
}

const WORDS = [['ong', 'before', 'the'], ['onto', 'the', 'shingle'], ['unpaved', 'and', 'lined'], ['from', 'the', 'sea']];

t.test('a drop cap over three lines joins the first word of the first line', async (t) => {
  // Chromium's float: the initial's baseline falls between the second and third lines.
  const initial = item('L', 72, 185, 36.8, { w: 24 });
  const lines = linesOf([initial, ...paragraph(WORDS, 99)]);
  t.same(lines.map((l) => l.text), ['Long before the', 'onto the shingle', 'unpaved and lined', 'from the sea']);
  t.ok(lines[0]!.initial, 'the first line carries the initial\'s box');
  t.equal(lines[1]!.initial, undefined);
});

t.test('an initial that is a word of its own keeps its space', async (t) => {
  const words = [['narrow', 'path'], ['willow', 'and'], ['reeds', 'grew']];
  const initial = item('A', 72, 176, 41.6, { w: 30 });
  const lines = linesOf([initial, ...paragraph(words, 106, 4.5)]);
  t.same(lines.map((l) => l.text), ['A narrow path', 'willow and', 'reeds grew']);
});

t.test('a large letter with no lines beside it is no drop cap', async (t) => {
  // A big section letter above a paragraph: no body line has its baseline within its height.
  const big = item('B', 72, 120, 36);
  const lines = linesOf([big, ...wordItems(['Body', 'text', 'here'], 72, 160, 11.5), ...wordItems(['and', 'more'], 72, 176, 11.5)]);
  t.same(lines.map((l) => l.text), ['B', 'Body text here', 'and more']);
});

const corpus = join(repoRoot, 'bench/corpus/dropcaps');

t.test('drop caps from Chromium and LibreOffice: each opening paragraph comes out whole', { timeout: 120_000 }, async (t) => {
  const names = ['es-chromium-dropcap-initial', 'pl-lo-dropcap'];
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-dropcap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--quiet', '--blank-lines', '--out-dir', dir, ...names.map((n) => join(corpus, `${n}.pdf`))]);
  t.equal(result.code, 0, result.stderr);
  for (const name of names) {
    const truth = readFileSync(join(corpus, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse);
    const out = readFileSync(join(dir, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse);
    // The paragraph after each chapter heading opens with the drop cap.
    const openers = truth.filter((_, i) => i > 0 && /^(Capítulo|Rozdział) /u.test(truth[i - 1]!));
    t.equal(openers.length, 4, `${name}: four chapters`);
    for (const opener of openers) t.ok(out.includes(opener), `${name}: "${opener.slice(0, 30)}…" whole`);
  }
});

t.test('pdfLaTeX lettrine under a section heading: the opening paragraph is one, though its first line ends a sentence', { timeout: 120_000 }, async (t) => {
  // The heading (14.3 pt) is larger than the body's line gap (13.6 pt): its slack must not take the
  // body's second line for a neighbour of the first, which would cut the block after one line.
  const name = 'es-pdflatex-lettrine';
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', join(corpus, `${name}.pdf`)]);
  t.equal(code, 0);
  const truth = readFileSync(join(corpus, `${name}.txt`), 'utf8').trim().split(/\n\s*\n/u).map(collapse);
  t.same(stdout.trim().split(/\n\s*\n/u).map(collapse), truth);
});
