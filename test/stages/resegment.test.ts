/**
 * The resegment stage through its Transform (`--explain`, `--lm`, a failing KenLM), its command line,
 * and real PDFs: the samples and, when ../shared is there, ground-truth documents with glued and
 * letter-spaced lines. The searches themselves are tested in test/lib/repair.
 */
import t from 'tap';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resegment } from '../../stages/resegment.js';
import { wordsOf } from '../../lib/lm/words.js';
import { estimateArpa } from '../../lib/lm/arpa.js';
import type { DiagnosticRecord, PageRecord } from '../../lib/protocol/records.js';
import { collapse, docRecord, endRecord, pageRecord, run, samplePdf, sharedRoot, through } from '../helpers.js';
import { lines, STORY } from '../lib/repair/segment-fixtures.js';

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
