/**
 * The two parse engines, pdf.js and PDFium, side by side: the same record shapes, page boxes,
 * coordinates, text, outline and metadata for the same PDFs; PDFium's extra facts (inferred marks,
 * Unicode-map diagnostics). PDFium's viewport and run building on hand-built input, and its heap
 * limit, are tested in test/lib/engines/pdfium/.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../stages/parse.js';
import type { DocRecord, Item, PageRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { charAccuracy, run, samplePdf, sampleNames, sharedRoot, through, wildFile } from '../../helpers.js';

type EngineName = 'pdfjs' | 'pdfium';

async function parseWith(engine: EngineName, paths: readonly string[]): Promise<PipeRecord[]> {
  return (await through(parse({ engine, jobs: 2 }), paths.map((path) => ({ type: 'pdf', path })))) as PipeRecord[];
}

const pagesOf = (records: readonly PipeRecord[], doc: string): PageRecord[] =>
  records.filter((r): r is PageRecord => r.type === 'page' && r.doc === doc);
const docOf = (records: readonly PipeRecord[], id: string): DocRecord | undefined =>
  records.find((r): r is DocRecord => r.type === 'doc' && r.id === id);

// `space` (the space glyph after a run) is PDFium's alone: pdf.js does not tell its space glyphs
// from the spaces it makes up (docs/records.md).
const ITEM_KEYS = new Set(['text', 'x', 'y', 'w', 'size', 'font', 'dir', 'tag', 'after', 'angle', 'space']);

t.test('both engines give the same records for every sample', async (t) => {
  const paths = sampleNames.map(samplePdf);
  const [a, b] = await Promise.all([parseWith('pdfjs', paths), parseWith('pdfium', paths)]);
  for (const name of sampleNames) {
    t.test(name, async (t) => {
      t.match(docOf(a, name)?.meta, { engine: /^pdfjs/ });
      t.match(docOf(b, name)?.meta, { engine: /^pdfium/ });
      t.equal(docOf(b, name)?.meta.pages, docOf(a, name)?.meta.pages, 'page count');
      t.same(docOf(b, name)?.meta.info.Title, docOf(a, name)?.meta.info.Title, 'title');
      t.equal(docOf(b, name)?.meta.lang, docOf(a, name)?.meta.lang, 'language');
      const pa = pagesOf(a, name);
      const pb = pagesOf(b, name);
      t.same(pb.map((p) => [p.page, p.width, p.height]), pa.map((p) => [p.page, p.width, p.height]), 'page boxes');
      // The fields set: an engine's item holds the others as undefined (engineItem), which JSON leaves out.
      const keys = new Set(pb.flatMap((p) => (p.items ?? []).flatMap((i) => Object.entries(i).flatMap(([k, v]) => (v === undefined ? [] : [k])))));
      t.same([...keys].filter((k) => !ITEM_KEYS.has(k)), [], 'no item field pdf.js items lack');
      const tags = (pages: PageRecord[]): string[] => [...new Set(pages.flatMap((p) => (p.items ?? []).map((i) => i.tag ?? '-')))].sort();
      t.same(tags(pb), tags(pa), 'the same structure tags (Chromium tags its PDFs)');
      // Word gaps are the line stage's business: compare the glyphs, not where runs split.
      const rightToLeft = pa.some((p) => (p.items ?? []).some((i) => i.dir === 'rtl'));
      if (rightToLeft) {
        // Where right-to-left runs split depends on each engine's glyph boxes: compare the text
        // the whole chain gives.
        const [ta, tb] = await Promise.all(['pdfjs', 'pdfium'].map((e) => run(['extract', '--engine', e, samplePdf(name)])));
        const accuracy = charAccuracy(ta!.stdout, tb!.stdout);
        t.ok(accuracy > 0.95, `the same text through the chain (character accuracy ${accuracy.toFixed(3)})`);
      } else {
        const text = (pages: PageRecord[]) => pages.flatMap((p) => (p.items ?? []).map((i) => i.text)).join('').replace(/[\s\u00ad]+/gu, '');
        const accuracy = charAccuracy(text(pa), text(pb));
        t.ok(accuracy > 0.97, `the same text (character accuracy ${accuracy.toFixed(3)})`);
      }
      // Runs with the same text at the same place: the coordinate convention is the same.
      const at = new Map<string, Item[]>();
      for (const p of pa) for (const i of p.items ?? []) at.set(`${p.page}:${i.text}`, [...(at.get(`${p.page}:${i.text}`) ?? []), i]);
      let same = 0;
      let found = 0;
      for (const p of pb) {
        for (const i of p.items ?? []) {
          const others = at.get(`${p.page}:${i.text}`);
          if (!others) continue;
          found += 1;
          if (others.some((o) => Math.abs(o.x - i.x) < 1 && Math.abs(o.y - i.y) < 1 && Math.abs(o.w - i.w) < 1 && Math.abs(o.size - i.size) < 0.2)) same += 1;
        }
      }
      t.ok(found >= 10, `${found} runs with the same text`);
      t.ok(same / found > 0.9, `${same} of ${found} at the same place and size`);
    });
  }
});

t.test('both engines split runs at word gaps and mark line ends', async (t) => {
  for (const engine of ['pdfjs', 'pdfium'] as const) {
    const items = pagesOf(await parseWith(engine, [samplePdf('one-column')]), 'one-column').flatMap((p) => p.items ?? []);
    const words = items.filter((i) => /^\p{L}+[.,;:]?$/u.test(i.text)).length;
    t.ok(words / items.length > 0.8, `${engine}: most runs are single words (${words} of ${items.length})`);
    t.ok(items.some((i) => i.after === 'break'), `${engine}: some runs end a line`);
  }
});

t.test('both engines give samples/rtl-mixed the same text: PDFium\'s right-to-left runs in glyph order too', async (t) => {
  const doc = docOf(await parseWith('pdfium', [samplePdf('rtl-mixed')]), 'rtl-mixed');
  t.match(doc?.meta.engine, /^pdfium .*glyph-order/u, 'PDFium\'s runs are in glyph order, so bidi reorders them');
  const [a, b] = await Promise.all(['pdfjs', 'pdfium'].map((e) => run(['extract', '--quiet', '--engine', e, samplePdf('rtl-mixed')])));
  for (const [engine, result] of [['pdfjs', a!], ['pdfium', b!]] as const) {
    t.equal(result.code, 0, result.stderr);
    t.match(result.stdout, /בעזרת Google Maps ואת/u, `${engine}: an English name inside Hebrew reads left to right`);
    t.match(result.stdout, /1537 עד 1541 \(בימי השלטון העות'מאני\), ושאורכה/u, `${engine}: numbers in order, brackets mirrored`);
    t.match(result.stdout, /של The Beatles ברדיו/u, `${engine}: two English words in their order`);
  }
  // PDFium measures the holam-vav glyph of שָׁלוֹם 0.9 pt wide of a 4.9 pt advance: read to the next
  // glyph's origin, it leaves no gap for a word space.
  t.equal(b!.stdout, a!.stdout, 'the same text, spaces included');
});

const bidiSample = wildFile('pdfbox__BidiSample.pdf');
t.test('both engines give the same text for Latin words, numbers and brackets in Arabic lines', { skip: bidiSample.skip }, async (t) => {
  const [a, b] = await Promise.all(['pdfjs', 'pdfium'].map((e) => run(['extract', '--quiet', '--engine', e, bidiSample.path])));
  t.equal(b!.code, 0, b!.stderr);
  // The page sets each Latin phrase beside its Arabic one, row by row: a table, read row by row.
  t.match(b!.stdout, /^\(january\) \(يناير\)$/mu, 'brackets around Latin and Arabic words as drawn');
  t.match(b!.stdout, /^«self test» «إختبار ذاتي»$/mu, 'guillemets around Latin and Arabic words as drawn');
  t.equal(b!.stdout, a!.stdout);
});

const outlined = wildFile('pdfjs__outlines_for_editor.pdf');
t.test('outline: the same titles and target pages, remote targets without a page', { skip: outlined.skip }, async (t) => {
  const [a, b] = await Promise.all([parseWith('pdfjs', [outlined.path]), parseWith('pdfium', [outlined.path])]);
  const outline = docOf(b, 'pdfjs__outlines_for_editor')?.meta.outline;
  t.ok((outline?.length ?? 0) >= 5, 'an outline with its entries');
  t.same(outline, docOf(a, 'pdfjs__outlines_for_editor')?.meta.outline);
  t.match(outline, [{ page: 1 }, { page: 2 }, { page: null }, { page: null }, { title: 'Remote PDF link', page: null }]);
});

const rotated = wildFile('pypdf__habibi-rotated.pdf');
t.test('rotated pages: the same displayed page boxes', { skip: rotated.skip }, async (t) => {
  const [a, b] = await Promise.all([parseWith('pdfjs', [rotated.path]), parseWith('pdfium', [rotated.path])]);
  const boxes = (records: PipeRecord[]) => pagesOf(records, 'pypdf__habibi-rotated').map((p) => [p.width, p.height]);
  t.equal(boxes(b).length, 4);
  t.same(boxes(b), boxes(a));
  t.not(boxes(b)[0]?.[0], boxes(b)[1]?.[0], 'portrait and landscape pages');
});

const unmapped = wildFile('pdfminer__issue-625-identity-cmap.pdf');
t.test('pdfium: glyphs without a Unicode mapping give a diagnostic per page', { skip: unmapped.skip }, async (t) => {
  const records = await parseWith('pdfium', [unmapped.path]);
  const diagnostics = records.filter((r) => r.type === 'diagnostic');
  t.ok(diagnostics.length > 0, 'a diagnostic');
  t.match(diagnostics[0], { type: 'diagnostic', doc: 'pdfminer__issue-625-identity-cmap', stage: 'parse', code: 'unicode-map-error', place: { page: Number }, count: Number });
  t.equal(records.at(-1)?.type, 'end', 'and the document still ends');
});

/** A ground-truth document of the shared corpus (read at test time only). */
function gtFile(name: string): { pdf: string; txt: string; skip: string | false } {
  const pdf = join(sharedRoot, 'corpus/gt', `${name}.pdf`);
  const txt = join(sharedRoot, 'corpus/gt', `${name}.txt`);
  return { pdf, txt, skip: existsSync(pdf) && existsSync(txt) ? false : `${pdf} is not available (no ../shared corpus)` };
}

for (const [name, why] of [
  ['ar-pango', 'Arabic drawn left to right comes out in reading order'],
  ['th-chromium', 'a tone mark mapped to its whole cluster is not read twice'],
] as const) {
  const gt = gtFile(name);
  t.test(`pdfium, whole pipeline: ${why} (${name})`, { skip: gt.skip }, async (t) => {
    const result = await run(['extract', '--engine', 'pdfium', gt.pdf]);
    t.equal(result.code, 0, result.stderr);
    const accuracy = charAccuracy(readFileSync(gt.txt, 'utf8'), result.stdout);
    t.ok(accuracy > 0.95, `character accuracy against the ground truth ${accuracy.toFixed(3)}`);
  });
}

const xetex = gtFile('fa-xelatex');
t.test('pdfium, whole pipeline: a tanween XeTeX raised above the line stays on its letter (fa-xelatex)', { skip: xetex.skip }, async (t) => {
  const result = await run(['extract', '--engine', 'pdfium', xetex.pdf]);
  t.equal(result.code, 0, result.stderr);
  const stray = result.stdout.match(/(?:^|\s)[\u064b-\u065f\u0670]+/gmu) ?? [];
  t.same(stray, [], 'no mark at the start of a word or paragraph');
  const accuracy = charAccuracy(readFileSync(xetex.txt, 'utf8'), result.stdout);
  t.ok(accuracy > 0.99, `character accuracy against the ground truth ${accuracy.toFixed(3)}`);
});

const chromiumHindi = gtFile('hi-chromium');
t.test('pdfium: ActualText spans of Chromium\'s Devanagari give one item each, over all of their glyphs (hi-chromium)', { skip: chromiumHindi.skip }, async (t) => {
  const parsed = await run(['parse', '--engine', 'pdfium', chromiumHindi.pdf]);
  t.equal(parsed.code, 0, parsed.stderr);
  const records = parsed.stdout.trim().split('\n').map((line) => JSON.parse(line) as PipeRecord);
  const items = pagesOf(records, 'hi-chromium')[0]!.items ?? [];
  // The title's "मानव": the span "मा" reaches "नव", as its two glyphs are drawn (PDFium alone gives
  // the span's text the extent of its first glyph only, 2.5 pt short of "नव": a word space).
  const ma = items.findIndex((item, i) => item.text === 'मा' && items[i + 1]?.text === 'नव');
  t.ok(ma >= 0, 'the title begins with the span "मा", then "नव"');
  const [first, second] = [items[ma]!, items[ma + 1]!];
  t.ok(first.x + first.w >= second.x - 0.5, `"मा" ends at ${(first.x + first.w).toFixed(2)}, "नव" begins at ${second.x}`);
  t.equal(items.filter((item) => item.text === 'र्व' && Math.abs(item.y - first.y) < 1).length, 1, 'a span drawn as two objects is read once');
  const result = await run(['extract', '--engine', 'pdfium', chromiumHindi.pdf]);
  const accuracy = charAccuracy(readFileSync(chromiumHindi.txt, 'utf8'), result.stdout);
  t.ok(accuracy > 0.99, `character accuracy against the ground truth ${accuracy.toFixed(3)}`);
});

const brotli = wildFile('pdfjs__Brotli-Prototype-FileA.pdf');
const brokenXref = wildFile('pdfjs__bug1250079.pdf');
t.test('auto: PDFium, and pdf.js for a document PDFium finds no text in or cannot open', { skip: brotli.skip || brokenXref.skip }, async (t) => {
  const itemsOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as PipeRecord).flatMap((r) => (r.type === 'page' ? r.items ?? [] : []));
  const engineOf = (out: string) => (JSON.parse(out.split('\n')[0]!) as PipeRecord & { meta?: { engine: string } }).meta?.engine ?? '';
  // Brotli-compressed content streams: PDFium reads the pages but no text; pdf.js decodes them.
  const [pdfiumOnly, auto] = await Promise.all([run(['parse', '--engine', 'pdfium', brotli.path]), run(['parse', brotli.path])]);
  t.equal(itemsOf(pdfiumOnly.stdout).length, 0, 'PDFium alone: no text');
  t.ok(itemsOf(auto.stdout).length > 100, `auto: ${itemsOf(auto.stdout).length} runs of text`);
  t.match(engineOf(auto.stdout), /^pdfjs /u, 'auto says pdf.js read it');
  // A damaged cross-reference table PDFium gives up on and pdf.js repairs.
  const [failed, repaired] = await Promise.all([run(['parse', '--engine', 'pdfium', brokenXref.path]), run(['parse', '--engine', 'auto', brokenXref.path])]);
  t.match(failed.stdout, /"type":"error","doc":"pdfjs__bug1250079","code":"corrupt"/u, 'PDFium alone: corrupt');
  t.match(repaired.stdout, /"type":"end"/u, 'auto: the document ends');
  t.ok(itemsOf(repaired.stdout).some((i) => i.text.includes('1250079')), 'and its text is read');
  // A document with text stays with PDFium.
  const sample = await run(['parse', samplePdf('one-column')]);
  t.match(engineOf(sample.stdout), /^pdfium /u, 'a sample with text: PDFium');
});
