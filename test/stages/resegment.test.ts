/**
 * resegment on hand-built lines (merges of spaced-out letters, splits of glued lines, what is left
 * alone, the marks and offsets, `--explain`, `--lexicon`, `--lm`), and on real PDFs: the samples and,
 * when ../shared is there, ground-truth documents with glued and letter-spaced lines.
 */
import t from 'tap';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentModel, resegment, resegmentDocument, resegmentLine, normalizeOptions, loadLexicon } from '../../stages/resegment.js';
import { estimateArpa, wordsOf } from '../../lib/lm/models.js';
import type { DiagnosticRecord, Line, PageRecord } from '../../lib/protocol/records.js';
import { collapse, docRecord, endRecord, group, line, pageRecord, run, samplePdf, sharedRoot, through } from '../helpers.js';

/** Ordinary running text for the document model (not from any ground-truth text). */
const STORY = [
  'The gardeners of the old town met in the square on the first morning of spring.',
  'They talked about the weather and about the seeds that they wanted to sow in the beds.',
  'One of them had brought a basket of young plants to share with the others in the town.',
  'The plants were small but strong, and the gardeners carried them home in the morning sun.',
  'In the evening they watered the beds and covered the young plants against the cold.',
  'By the end of the month the first leaves had opened and the square was green again.',
  'The children of the town came to look at the flowers and to ask about the names of the plants.',
  'The gardeners told them that patience was the most important tool in any garden.',
];

const options = normalizeOptions();

/** Lines of one block, 14 pt apart. */
const lines = (texts: readonly string[], block = 0): Line[] => texts.map((text, i) => line(text, 100 + 14 * i, { block }));

/** Re-segments `damaged` inside a document that also has the story's lines. */
function fix(damaged: string, extra: readonly string[] = []): string {
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines([...extra, damaged], 1)] });
  const result = resegmentDocument(group([page]), options);
  return result.pages[0]!.lines!.at(-1)!.text;
}

t.test('spaced-out letters are merged into the words the document knows', async (t) => {
  t.equal(fix('the seeds t o sow i n the beds'), 'the seeds to sow in the beds');
  t.equal(fix('the g a r d e n e r s met in the square'), 'the gardeners met in the square');
});

t.test('known words next to each other are not merged', async (t) => {
  // "in to" and "the m" would make "into" and "them", but "in", "to" and "the" are words, not fragments.
  t.equal(fix('they went in to the square to see the m'), 'they went in to the square to see the m');
  t.equal(fix('the plants were small and the square was green'), 'the plants were small and the square was green');
});

t.test('a glued line is split into words, its punctuation kept', async (t) => {
  t.equal(fix('thegardenersofthetownwateredtheplants,andthebeds'), 'the gardeners of the town watered the plants, and the beds');
});

t.test('a long word the document uses, or a compound of content words, is not split', async (t) => {
  // "flowerbeds" would split as "flower beds"; "gardenersfriends" as "gardeners friends": two content words.
  t.equal(fix('the flowerbeds of the town', ['flowerbeds and more flowerbeds']), 'the flowerbeds of the town');
  t.equal(fix('the plantsgardenersweathermorning'), 'the plantsgardenersweathermorning');
});

t.test('a row of thousands of letters (a hostile file) bounds the word length and is left as it is', async (t) => {
  const row = 'a'.repeat(3000);
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines([`${row} ${row}`, row, row], 1)] });
  t.ok(documentModel(page.lines!).longWord <= 64, 'a repeated row is no word: the search window stays that of real words');
  const result = resegmentDocument(group([page]), options);
  t.same(result.pages[0]!.lines!.slice(-2).map((l) => l.text), [row, row]);
});

t.test('a word glued at a case change is split when both halves are words of the document', async (t) => {
  t.equal(fix('they watered theGardeners and the plants'), 'they watered the Gardeners and the plants');
  t.equal(fix('they met McDonald in the square'), 'they met McDonald in the square', 'not when a half is unknown');
});

t.test('a glued line that carries on a hyphenated word splits with the word whole', async (t) => {
  const page = pageRecord('d', 1, {
    lines: [...lines(STORY), ...lines(['and the garden-', 'erstoldthechildrenaboutthenamesoftheplants'], 1)],
  });
  const text = resegmentDocument(group([page]), options).pages[0]!.lines!.at(-1)!.text;
  t.equal(text, 'ers told the children about the names of the plants');
});

t.test('Thai, Chinese and Japanese lines are never touched', async (t) => {
  for (const text of ['กรุงเทพมหานครเป็นเมืองหลวง', '城市屋顶上的小菜园越来越受欢迎', 'とうきょうはにほんのしゅとです']) t.equal(fix(text), text);
});

t.test('each change is marked, and the marks before it keep their places', async (t) => {
  const damaged: Line = { ...line('the seeds t o sow in the beds', 300, { block: 1 }), inferred: [
    { at: 3, kind: 'space', rule: 'gap' },
    { at: 11, kind: 'space', rule: 'gap' },
    { at: 13, kind: 'space', rule: 'gap' },
    { at: 17, kind: 'space', rule: 'gap' },
  ] };
  const model = documentModel(lines(STORY));
  const { line: out, changes } = resegmentLine(model, damaged, options);
  t.equal(out.text, 'the seeds to sow in the beds');
  t.same(changes, [{ kind: 'merge', at: 11 }]);
  t.same(out.inferred, [
    { at: 3, kind: 'space', rule: 'gap' },
    { at: 11, kind: 'join', rule: 'merge-fragments' },
    { at: 12, kind: 'space', rule: 'gap' },
    { at: 16, kind: 'space', rule: 'gap' },
  ]);
  for (const mark of out.inferred.filter((m) => m.kind === 'space')) t.equal(out.text[mark.at], ' ', `a space stands at ${mark.at}`);
});

t.test('--lexicon words count as known: a split the document alone could not make', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-lexicon-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dic = join(dir, 'en.dic');
  writeFileSync(dic, '3\nwheelbarrow/S\nshovel/MS\nrake\n');
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines(['theyputtheshovelandtherakeinthewheelbarrow'], 1)] });
  const plain = resegmentDocument(group([page]), options).pages[0]!.lines!.at(-1)!.text;
  const withLexicon = resegmentDocument(group([page]), options, loadLexicon(dic)).pages[0]!.lines!.at(-1)!.text;
  t.equal(withLexicon, 'they put the shovel and the rake in the wheelbarrow');
  t.not(plain, withLexicon);
  t.throws(() => loadLexicon(join(dir, 'missing.dic')), /--lexicon .*missing\.dic cannot be read/);
});

/** Runs the Transform over one document with these lines. */
async function transformed(texts: readonly string[], partial: Parameters<typeof resegment>[0] = {}): Promise<{ pages: PageRecord[]; diagnostics: DiagnosticRecord[]; types: string[] }> {
  const out = (await through(resegment(partial), [docRecord('d'), pageRecord('d', 1, { lines: [...lines(STORY), ...lines(texts, 1)] }), endRecord('d')])) as Array<PageRecord | DiagnosticRecord | { type: string }>;
  return {
    pages: out.filter((r): r is PageRecord => r.type === 'page'),
    diagnostics: out.filter((r): r is DiagnosticRecord => r.type === 'diagnostic'),
    types: out.map((r) => r.type),
  };
}

t.test('--explain reports each changed line', async (t) => {
  const { diagnostics, types } = await transformed(['the seeds t o sow i n the beds'], { explain: true });
  t.same(types, ['doc', 'page', 'diagnostic', 'end']);
  t.match(diagnostics[0], { severity: 'info', code: 'resegmented', count: 2, message: '2 merged, 0 split: "the seeds t o sow i n the beds" → "the seeds to sow in the beds"' });
});

t.test('--lm: an n-gram model keeps the form of each line it scores higher', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-lm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A model that has seen "t o" as two words (and never "to") keeps the line as it was.
  const odd = join(dir, 'odd.arpa');
  writeFileSync(odd, estimateArpa([...STORY.map((l) => wordsOf(l.replace(/\bto\b/g, 't o'))), wordsOf('the seeds t o sow in the beds')], 2));
  const good = join(dir, 'good.arpa');
  writeFileSync(good, estimateArpa(STORY.map(wordsOf), 2));
  const damaged = 'the seeds t o sow in the beds';
  t.equal((await transformed([damaged], { lm: good })).pages[0]!.lines!.at(-1)!.text, 'the seeds to sow in the beds');
  t.equal((await transformed([damaged], { lm: odd })).pages[0]!.lines!.at(-1)!.text, damaged);
  // A model of another language is not used, and says so.
  const other = join(dir, 'other.arpa');
  writeFileSync(other, estimateArpa([wordsOf('der Garten ist schön und die Blumen blühen im Frühling'), wordsOf('t o')], 2));
  const foreign = await transformed([damaged], { lm: other });
  t.equal(foreign.pages[0]!.lines!.at(-1)!.text, 'the seeds to sow in the beds', "the document's own model decides");
  t.match(foreign.diagnostics, [{ code: 'lm-mismatch', message: /knows \d+% of the document's words \(another language\?\); it was not used/ }]);
  const broken = join(dir, 'broken.arpa');
  writeFileSync(broken, '\\data\\\nngram 1=2\n\n\\1-grams:\n-1\tthe\n\\end\\\n');
  t.throws(() => resegment({ lm: broken }), /broken\.arpa:6: 1-grams: 1 entries, header says 2/);
});

t.test('--lm with a KenLM query program that dies: the document keeps its lines as they came', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-kenlm-'));
  const saved = process.env.KENLM_BIN;
  t.teardown(() => {
    if (saved === undefined) delete process.env.KENLM_BIN;
    else process.env.KENLM_BIN = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  writeFileSync(join(dir, 'query'), '#!/bin/sh\necho "Loading the language model" >&2\nexit 9\n');
  chmodSync(join(dir, 'query'), 0o755);
  writeFileSync(join(dir, 'model.binary'), 'mmap lm http://kheafield.com/code format version 5');
  process.env.KENLM_BIN = dir;
  const damaged = 'the seeds t o sow in the beds';
  const out = await transformed([damaged], { lm: join(dir, 'model.binary') });
  t.equal(out.pages[0]!.lines!.at(-1)!.text, damaged);
  t.match(out.diagnostics, [{ code: 'lm-failed', message: /language model failed, lines left as they were: KenLM query exited \(code 9\)/ }]);
  t.same(out.types, ['doc', 'page', 'diagnostic', 'end'], 'one outcome, the document is not lost');
});

t.test('pdfpipe resegment runs alone on lines, and refuses a missing model', async (t) => {
  const input = [docRecord('d'), pageRecord('d', 1, { lines: [...lines(STORY), ...lines(['the seeds t o sow'], 1)] }), endRecord('d')];
  const out = await run(['resegment'], input.map((r) => JSON.stringify(r)).join('\n') + '\n');
  t.equal(out.code, 0, out.stderr);
  t.match(out.stdout, /"text":"the seeds to sow"/);
  const missing = await run(['resegment', '--lm', '/nonexistent/model.arpa'], '');
  t.equal(missing.code, 2);
  t.match(missing.stderr, /model\.arpa cannot be read/);
});

t.test('samples: the letter-spaced sample comes out with its words whole', async (t) => {
  const out = await run(['extract', samplePdf('letter-spaced')]);
  t.equal(out.code, 0, out.stderr);
  const expected = new Set(collapse(readFileSync(samplePdf('letter-spaced').replace(/\.pdf$/, '.txt'), 'utf8')).split(' '));
  const tokens = collapse(out.stdout).split(' ');
  const unknown = tokens.filter((w) => !expected.has(w));
  t.ok(unknown.length <= tokens.length * 0.01, `${unknown.length} of ${tokens.length} tokens are not words of the text: ${unknown.slice(0, 10).join(' | ')}`);
});

const gt = join(sharedRoot, 'corpus/gt');
const gtSkip = existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`;

t.test('ground truth: the glued lines of a pdfLaTeX document are split into its words', { skip: gtSkip }, async (t) => {
  const name = 'es-pdflatex-2col';
  const truth = collapse(readFileSync(join(gt, `${name}.txt`), 'utf8'));
  // With word gaps read as glyph gaps (--word-gap 0.45 em, wider than this document's tightest
  // word spaces), many lines come out glued, as from a generator that writes no space glyphs.
  const [withStage, glued, without] = await Promise.all([
    run(['extract', join(gt, `${name}.pdf`)]),
    run(['extract', '--word-gap', '0.45', join(gt, `${name}.pdf`)]),
    run(['extract', '--word-gap', '0.45', '--split-margin', '1000', '--merge-margin', '1000', join(gt, `${name}.pdf`)]),
  ]);
  const counts = (text: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const w of collapse(text).split(' ')) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const expected = counts(truth);
  const overlap = (text: string): number => [...counts(text)].reduce((s, [w, c]) => s + Math.min(c, expected.get(w) ?? 0), 0);
  const total = [...expected.values()].reduce((a, b) => a + b, 0);
  t.ok(overlap(withStage.stdout) / total > 0.985, `token recall ${(overlap(withStage.stdout) / total).toFixed(4)} with the stage`);
  t.ok(overlap(glued.stdout) - overlap(without.stdout) > 40, `glued lines: ${overlap(glued.stdout) - overlap(without.stdout)} more words recovered than without the stage`);
});
