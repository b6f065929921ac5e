/**
 * The repair stage: `--explain` and a document whose repair throws, through the Transform; the CLI
 * with a bad config and a missing lexicon; real PDFs of the shared corpus (broken encodings, Thai
 * private-use glyphs, Devanagari in glyph order) read right after repair. The rules themselves are
 * tested in test/lib/repair and test/lib/scripts.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repair } from '../../stages/repair.js';
import type { DiagnosticRecord, PageRecord, PipeRecord } from '../../lib/protocol/records.js';
import { charAccuracy, parseLines, run, sharedRoot, through, toNdjson } from '../helpers.js';
import { context, doc, group, line, repairLines } from '../lib/repair/repair-fixtures.js';

const gtDir = join(sharedRoot, 'corpus/gt');
const noGt = existsSync(gtDir) ? false : `${gtDir} is not available (no ../shared corpus)`;

t.test('--explain reports each change before/after; a document whose repair throws gets an error record', async (t) => {
  const { diagnostics } = repairLines(['ﬁ'], { explain: true });
  t.match(diagnostics.find((d) => d.code === 'change')?.message, /ligature: "ﬁ" → "fi"/);
  const throwing = context({ thai: { has: () => { throw new Error('lexicon exploded'); } } as unknown as ReadonlySet<string> });
  const good = group([line('ok')]);
  const input: PipeRecord[] = [
    doc('bad'), { type: 'page', doc: 'bad', page: 1, width: 1, height: 1, lines: [line('ประ เทศ')] }, { type: 'end', doc: 'bad', stats: { pages: 1, items: 0, chars: 0, ms: 0 } },
    good.doc, ...good.pages, good.outcome,
  ];
  const out = (await through(repair({}, throwing), input)) as PipeRecord[];
  t.match(out.find((r) => r.type === 'error'), { doc: 'bad', code: 'stage-failed', message: /lexicon exploded/ });
  t.ok(out.some((r) => r.type === 'end' && r.doc === 'd'), 'the next document ends normally');
});

t.test('CLI: bad config and missing lexicon exit 2 naming the file or rule', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-repair-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ language: [{ name: 'common', config: { normalize: '[' } }] }));
  const unknown = join(dir, 'unknown.json');
  writeFileSync(unknown, JSON.stringify({ rules: { 'thai-magic': false } }));
  const [a, b, c, ok] = await Promise.all([
    run(['repair', '--config', bad], ''),
    run(['repair', '--config', unknown], ''),
    run(['repair', '--thai-lexicon', join(dir, 'none.tri')], ''),
    run(['repair'], toNdjson([doc('x'), { type: 'page', doc: 'x', page: 1, width: 1, height: 1, lines: [line('ﬁne')] }, { type: 'end', doc: 'x', stats: { pages: 1, items: 0, chars: 0, ms: 0 } }])),
  ]);
  t.equal(a.code, 2);
  t.match(a.stderr, /common\.normalize must be a list/);
  t.equal(b.code, 2);
  t.match(b.stderr, /unknown rule "thai-magic"/);
  t.equal(c.code, 2);
  t.match(c.stderr, /none\.tri/);
  t.equal(ok.code, 0, ok.stderr);
  const records = parseLines(ok.stdout);
  t.equal((records.find((r) => r.type === 'page') as PageRecord).lines![0]!.text, 'fine');
  t.match(records.find((r) => r.type === 'diagnostic') as DiagnosticRecord, { code: 'rule:ligature', count: 1 });
});

t.test('real PDFs: an 8-bit Cyrillic text layer, Thai private-use glyphs and Devanagari in glyph order read right after repair', { skip: noGt }, async (t) => {
  for (const [name, before, after] of [['ru-pdflatex-8bit', 0.5, 0.99], ['th-raw-pua', 0.96, 0.995], ['hi-xelatex', 0.9, 0.99]] as const) {
    const truth = readFileSync(join(gtDir, `${name}.txt`), 'utf8');
    const pdf = join(gtDir, `${name}.pdf`);
    const lines = await run(['lines'], (await run(['order'], (await run(['parse', pdf])).stdout)).stdout);
    const [plain, repaired] = await Promise.all([
      run(['serialize', '--blank-lines'], (await run(['paragraphs'], lines.stdout)).stdout),
      run(['paragraphs'], (await run(['repair'], lines.stdout)).stdout).then((r) => run(['serialize', '--blank-lines'], r.stdout)),
    ]);
    t.ok(charAccuracy(truth, plain.stdout) < before, `${name}: broken without repair`);
    t.ok(charAccuracy(truth, repaired.stdout) >= after, `${name}: character accuracy ≥ ${after} with repair (${charAccuracy(truth, repaired.stdout).toFixed(4)})`);
  }
});
