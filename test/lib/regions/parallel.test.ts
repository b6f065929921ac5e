/**
 * Parallel text (lib/regions/parallel.ts, `serialize --format pairs`): the three parallel samples
 * give every expected pair of samples/NAME.pairs.tsv and no other; a page of one language in two
 * columns gives none; and the detection on hand-built pages: two columns, table rows, a split
 * paragraph, right-to-left beside left-to-right, bands under a full-width block, and the pages
 * that must not pair (one language, unaligned sides, a side of mixed languages).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { langidOfDocument } from '../../../lib/lang/document.js';
import { documentPairsTsv } from '../../../lib/formats/pairs.js';
import { alignSides, markParallel, parallelGroups, splitAtGutter } from '../../../lib/regions/parallel.js';
import type { Block } from '../../../lib/protocol/records.js';
import { block, collapse, group, pageRecord, run, samplePdf, samplesDir } from '../../helpers.js';

/** A block at (x, y) of the given width and height, in language `lang`. */
const at = (text: string, lang: string, x: number, y: number, w = 220, h = 40, extra: Partial<Block> = {}): Block =>
  block(text, { lang, box: { x, y, w, h }, ...extra });

/** The groups of a page as [left texts, right texts]; every block votes on its side's language unless `minLetters` says otherwise. */
const texts = (blocks: Block[], minLetters = 1) =>
  parallelGroups(pageRecord('d', 1, { blocks }), minLetters).map((g) => [g.a.map((b) => b.text), g.b.map((b) => b.text)]);

const SAMPLES = ['parallel-columns', 'parallel-table', 'parallel-rtl'];

for (const name of SAMPLES) {
  t.test(`${name}: extract --format pairs gives every expected pair and no other`, async (t) => {
    const result = await run(['extract', '--quiet', '--format', 'pairs', samplePdf(name)]);
    t.equal(result.code, 0, result.stderr);
    const got = result.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
    const expected = readFileSync(join(samplesDir, `${name}.pairs.tsv`), 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
    t.same(got.map((f) => f.length), got.map(() => 6), 'six fields a line');
    t.same(got.map((f) => [f[0], collapse(f[1]!), f[2], collapse(f[3]!)]), expected.map((f) => [f[0], collapse(f[1]!), f[2], collapse(f[3]!)]));
    t.same(new Set(got.map((f) => `${f[4]} ${f[5]}`)), new Set([`${samplePdf(name)} 1`]), 'source and page');
  });
}

t.test('two-columns (one language in two columns): no pairs', async (t) => {
  const result = await run(['extract', '--quiet', '--format', 'pairs', samplePdf('two-columns')]);
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, '');
});

t.test('--out-dir writes ID.tsv', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pairs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--quiet', '--format', 'pairs', '--out-dir', dir, samplePdf('parallel-rtl'), samplePdf('one-column')]);
  t.equal(result.code, 0, result.stderr);
  t.equal(readFileSync(join(dir, 'parallel-rtl.tsv'), 'utf8').split('\n').length, 5, 'four pairs');
  t.equal(readFileSync(join(dir, 'one-column.tsv'), 'utf8'), '', 'a document without parallel text: an empty file');
});

t.test('two columns of two languages pair paragraph by paragraph, in order', async (t) => {
  const blocks = [
    at('One.', 'en', 57, 60), at('Two.', 'en', 57, 120), at('Three.', 'en', 57, 180),
    at('Un.', 'fr', 315, 60, 220, 50), at('Deux.', 'fr', 315, 120, 220, 50), at('Trois.', 'fr', 315, 190),
  ];
  t.same(texts(blocks), [[['One.'], ['Un.']], [['Two.'], ['Deux.']], [['Three.'], ['Trois.']]]);
});

t.test('a longer translation drifting down its column still pairs in order', async (t) => {
  // The right side is half as tall again: its third block stands beside nothing on the left.
  const blocks = [
    at('A1', 'de', 60, 100, 200, 40), at('A2', 'de', 60, 150, 200, 40), at('A3', 'de', 60, 200, 200, 40),
    at('B1', 'es', 300, 100, 200, 60), at('B2', 'es', 300, 170, 200, 60), at('B3', 'es', 300, 240, 200, 60),
  ];
  t.same(texts(blocks), [[['A1'], ['B1']], [['A2'], ['B2']], [['A3'], ['B3']]]);
});

t.test('a paragraph split in two on one side pairs with the block beside both halves', async (t) => {
  const blocks = [
    at('Long English paragraph.', 'en', 57, 60, 210, 60), at('Second.', 'en', 57, 140, 210, 45),
    at('Hebrew first half', 'he', 325, 59, 214, 30, { dir: 'rtl' }), at('second half', 'he', 480, 95, 60, 13, { dir: 'rtl' }),
    at('Hebrew second', 'he', 330, 142, 208, 30, { dir: 'rtl' }),
  ];
  t.same(texts(blocks), [[['Long English paragraph.'], ['Hebrew first half', 'second half']], [['Second.'], ['Hebrew second']]]);
});

t.test('right-to-left on the left: side a is the left side, whatever its direction', async (t) => {
  const blocks = [at('שלום', 'he', 57, 60, 200, 40, { dir: 'rtl' }), at('Hello', 'en', 300, 60)];
  t.same(texts(blocks), [[['שלום'], ['Hello']]]);
});

t.test('table rows: cells side by side, row by row, the blocks given in any order', async (t) => {
  const rows = [0, 1, 2, 3, 4].map((i) => [at(`de ${i}`, 'de', 69, 70 + i * 70, 207, 40 + (i % 2) * 15), at(`es ${i}`, 'es', 310, 70 + i * 70, 216, 40)] as const);
  const blocks = [...rows.map((r) => r[1]), ...rows.map((r) => r[0])].reverse();
  t.same(texts(blocks), [0, 1, 2, 3, 4].map((i) => [[`de ${i}`], [`es ${i}`]]));
});

t.test('a block across the gutter ends a band: no pair across it', async (t) => {
  const blocks = [
    at('Title in two languages', 'en', 57, 20, 480, 20),
    at('One.', 'en', 57, 60), at('Un.', 'fr', 315, 60),
    at('A full-width note between the parts', 'en', 57, 120, 480, 20),
    at('Two.', 'en', 57, 160), at('Deux.', 'fr', 315, 160),
  ];
  t.same(texts(blocks), [[['One.'], ['Un.']], [['Two.'], ['Deux.']]]);
});

t.test('no pairs: one language, und, furniture, a side of mixed languages, unaligned sides', async (t) => {
  t.same(texts([at('One.', 'en', 57, 60), at('Two.', 'en', 315, 60)]), [], 'the same language on both sides');
  t.same(texts([at('One.', 'en', 57, 60), at('???', 'und', 315, 60)]), [], 'und is no language');
  t.same(texts([at('Page 1', 'en', 57, 800, 50, 10, { role: 'page-number' }), at('Un.', 'fr', 315, 800, 50, 10, { role: 'footer' })]), [], 'furniture');
  t.same(
    texts([at('One.', 'en', 57, 60), at('Two.', 'en', 57, 120), at('Un autre.', 'fr', 315, 60), at('Another one.', 'en', 315, 120)]),
    [],
    'the right side half English',
  );
  t.same(
    texts([at('One.', 'en', 57, 60), at('Two.', 'en', 57, 120), at('Un.', 'fr', 315, 500, 220, 400)]),
    [],
    'one side ten times the other\u2019s height',
  );
  t.same(texts([at('Hello.', 'en', 57, 60), at('Bonjour.', 'fr', 60, 120)]), [], 'one column: no gutter');
});

t.test('only blocks long enough to judge vote on a side\u2019s language (an author list beside its last line)', async (t) => {
  const blocks = [at('Yu.Zalite, Z.P.Zhang, G.Y.Zhu, R.Y.Zhu, A.Zichichi,', 'sw', 57, 60, 220, 10), at('G.Zilizi, M.Zoller.', 'en', 315, 60, 100, 10)];
  t.same(texts(blocks, 20), [], 'the right side has 14 letters: no language, no pair');
  t.same(texts([at('Yu.Zalite, Z.P.Zhang, G.Y.Zhu, R.Y.Zhu, A.Zichichi,', 'sw', 57, 60, 220, 25), at('Short.', 'en', 315, 60, 100, 10), at('A long English sentence of its own.', 'en', 315, 75, 200, 10)], 20), [[['Yu.Zalite, Z.P.Zhang, G.Y.Zhu, R.Y.Zhu, A.Zichichi,'], ['Short.', 'A long English sentence of its own.']]], 'a short block pairs without voting');
});

t.test('splitAtGutter: the gutter is the page\u2019s own, and must be a font size wide', async (t) => {
  const split = splitAtGutter([at('a', 'en', 50, 60, 100), at('b', 'fr', 160, 60, 100)]);
  t.same(split && [split.left.length, split.right.length, split.gutter], [1, 1, 155]);
  t.equal(splitAtGutter([at('a', 'en', 50, 60, 100), at('b', 'fr', 155, 60, 100)]), null, 'a 5 pt gap under 10 pt type is a word gap, not a gutter');
});

t.test('alignSides: a side more than three times the other has no alignment', async (t) => {
  const left = [at('x', 'en', 57, 60)];
  const right = [0, 1, 2, 3].map((i) => at(`y${i}`, 'fr', 315, 60 + i * 10, 200, 8));
  t.equal(alignSides(left, right), null);
});

t.test('markParallel numbers groups across the document; langid writes them, and pairs reads them', async (t) => {
  const en = 'The garden opens at nine every morning and closes at six in the evening, all through the year.';
  const fr = 'Le jardin ouvre à neuf heures chaque matin et ferme à six heures du soir, toute l’année.';
  const pages = [1, 2].map((n) =>
    pageRecord('g', n, { blocks: [block(en, { box: { x: 57, y: 60, w: 220, h: 40 } }), block(fr, { box: { x: 315, y: 60, w: 220, h: 40 } })] }),
  );
  const { pages: out, doc } = langidOfDocument(group(pages, 'g'), { lang: '', mark: false, candidates: 'en,fr,de', minLetters: 20, priorRatio: 0.9, embeddedLatin: 'en' });
  t.same(out.map((p) => p.blocks!.map((b) => b.parallel)), [
    [{ group: 1, side: 'a' }, { group: 1, side: 'b' }],
    [{ group: 2, side: 'a' }, { group: 2, side: 'b' }],
  ]);
  t.equal(documentPairsTsv(doc, 'g', out), `en\t${en}\tfr\t${fr}\tg.pdf\t1\nen\t${en}\tfr\t${fr}\tg.pdf\t2\n`);
  t.equal(markParallel([pageRecord('x', 1, { blocks: [at('One.', 'en', 57, 60)] })]), 0);
});

t.test('pairs: tabs and line breaks inside a text become spaces; the blocks of a side are joined', async (t) => {
  const pages = [
    pageRecord('p', 3, {
      blocks: [
        block('first\thalf\n', { lang: 'en', parallel: { group: 1, side: 'a' } }),
        block(' second  half', { lang: 'en', parallel: { group: 1, side: 'a' } }),
        block('tout\r\nentier', { lang: 'fr', parallel: { group: 1, side: 'b' } }),
        block('not paired', { lang: 'en' }),
      ],
    }),
  ];
  t.equal(documentPairsTsv(null, 'p', pages), 'en\tfirst half second half\tfr\ttout entier\tp\t3\n');
  t.equal(documentPairsTsv(null, 'p', [pageRecord('p', 1, { blocks: [block('alone', { lang: 'en' })] })]), '');
});
