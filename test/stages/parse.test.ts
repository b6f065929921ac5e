/**
 * parse on the real sample PDFs: the record sequence of each document, the geometry of its items,
 * the CJK sample's text, `pdf` records carrying the bytes, and input order with several jobs.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../stages/parse.js';
import type { DocRecord, EndRecord, PageRecord, PipeRecord } from '../../lib/protocol/records.js';
import { parseLines, run, samplePdf, sampleNames, samplesDir, through } from '../helpers.js';

/** Page counts from samples/MANIFEST.tsv (written when the samples were made, not by pdfpipe). */
const manifestPages = new Map(
  readFileSync(join(samplesDir, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'))
    .map(([file, , pages]) => [String(file).replace(/\.pdf$/, ''), Number(pages)] as const),
);

/** Splits a stream of records into documents, checking that each one's records are contiguous. */
function documents(records: readonly PipeRecord[]): { id: string; records: PipeRecord[] }[] {
  const docs: { id: string; records: PipeRecord[] }[] = [];
  let open: { id: string; records: PipeRecord[] } | null = null;
  for (const r of records) {
    if (r.type === 'doc') {
      if (open) throw new Error(`document ${open.id} interrupted by ${r.id}`);
      open = { id: r.id, records: [r] };
    } else if (r.type === 'end' || r.type === 'error') {
      if (open && open.id === r.doc) {
        open.records.push(r);
        docs.push(open);
        open = null;
      } else if (!open) {
        docs.push({ id: r.doc, records: [r] });
      } else {
        throw new Error(`outcome of ${r.doc} inside ${open.id}`);
      }
    } else if (open && 'doc' in r && r.doc === open.id) {
      open.records.push(r);
    } else if (r.type !== 'diagnostic') {
      throw new Error(`stray ${r.type} record`);
    }
  }
  if (open) throw new Error(`document ${open.id} never ended`);
  return docs;
}

/** Both engines must pass the tests that look at what an engine produced. */
const ENGINES = ['pdfjs', 'pdfium'] as const;

for (const engine of ENGINES) {
  // One run over all samples per engine serves the tests below.
  const allSamples = run(['parse', '--engine', engine, '--jobs', '2', ...sampleNames.map(samplePdf)]);

  t.test(`${engine}: every sample parses to doc, its pages in order, end; items lie on the page`, async (t) => {
    t.ok(sampleNames.length >= 6, 'the samples are there');
    const result = await allSamples;
    t.equal(result.code, 0, result.stderr);
    const docs = documents(parseLines(result.stdout));
    t.same(docs.map((d) => d.id), sampleNames, 'one document per input, in input order');
    for (const { id, records } of docs) {
      t.test(id, async (t) => {
        const doc = records[0] as DocRecord;
        const pages = records.filter((r): r is PageRecord => r.type === 'page');
        const end = records[records.length - 1] as EndRecord;
        t.equal(doc.type, 'doc');
        t.equal(end.type, 'end');
        t.same(records.map((r) => r.type), ['doc', ...pages.map(() => 'page'), 'end'], 'doc, pages, end');
        t.equal(pages.length, manifestPages.get(id), 'page count matches the manifest');
        t.equal(doc.meta.pages, pages.length);
        t.same(pages.map((p) => p.page), pages.map((_, i) => i + 1), 'pages numbered 1..n in order');
        t.equal(end.stats.pages, pages.length);
        let items = 0;
        const bad: string[] = [];
        for (const page of pages) {
          t.ok(page.width > 0 && page.height > 0, `page ${page.page} has a size`);
          t.ok((page.items ?? []).length > 0, `page ${page.page} has text`);
          for (const it of page.items ?? []) {
            items += 1;
            const numeric = [it.x, it.y, it.w, it.size].every((v) => typeof v === 'number' && Number.isFinite(v));
            const inside = it.x >= 0 && it.x + it.w <= page.width + 0.5 && it.y >= 0 && it.y <= page.height && it.size > 0 && it.w >= 0;
            if (!numeric || !inside || it.text.trim() === '') bad.push(`p${page.page} ${JSON.stringify(it)}`);
          }
        }
        t.same(bad.slice(0, 5), [], 'every item has numeric x, y, w, size inside the page box and some text');
        t.equal(end.stats.items, items, 'end.stats counts the items');
      });
    }
  });

  t.test(`${engine}: the CJK sample is read as Han (and Japanese kana) text`, async (t) => {
    const records = parseLines((await allSamples).stdout);
    const pages = records.filter((r): r is PageRecord => r.type === 'page' && r.doc === 'cjk');
    t.ok(pages.length > 0);
    const text = pages.flatMap((p) => p.items ?? []).map((i) => i.text).join('');
    const han = [...text].filter((c) => /\p{Script=Han}/u.test(c)).length;
    t.ok(han > 100, `${han} Han characters`);
    t.match(text, /[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'the Japanese paragraph has kana');
    t.notMatch(text, /\uFFFD/u, 'no replacement characters');
  });
}

t.test('a pdf record with base64 data parses like the file itself', async (t) => {
  const bytes = readFileSync(samplePdf('one-column'));
  const out = (await through(parse({ jobs: 1 }), [
    { type: 'pdf', id: 'inline', data: bytes.toString('base64') },
    { type: 'pdf', path: samplePdf('one-column') },
  ])) as PipeRecord[];
  const docs = documents(out);
  t.same(docs.map((d) => d.id), ['inline', 'one-column'], 'ids: the given one, and the file name without .pdf');
  const [inline, file] = docs.map((d) => d.records.filter((r): r is PageRecord => r.type === 'page'));
  t.equal(docs[0]!.records.at(-1)?.type, 'end');
  t.ok(inline!.length > 0);
  t.same(
    inline!.map((p) => p.items?.map((i) => [i.text, i.x, i.y, i.w, i.size])),
    file!.map((p) => p.items?.map((i) => [i.text, i.x, i.y, i.w, i.size])),
    'the same items as from the path',
  );
});

t.test('with two jobs, documents come out whole and in input order; other records pass through in place', async (t) => {
  // Big ones first, so later (smaller) documents finish before earlier ones.
  const order = [...sampleNames].sort((a, b) => (manifestPages.get(b) ?? 0) - (manifestPages.get(a) ?? 0) || b.localeCompare(a));
  const inputs = order.map((name, i) => ({ type: 'pdf' as const, id: `${i}-${name}`, path: samplePdf(name) }));
  const note = { type: 'diagnostic', doc: null, severity: 'info', stage: 'test', code: 'note', message: 'between documents' };
  const out = (await through(parse({ jobs: 2 }), [...inputs.slice(0, 2), note, ...inputs.slice(2)])) as PipeRecord[];
  const docs = documents(out);
  t.same(docs.map((d) => d.id), inputs.map((i) => i.id));
  t.ok(docs.every((d) => d.records.at(-1)?.type === 'end'), 'all parsed');
  const at = out.findIndex((r) => r.type === 'diagnostic');
  t.match(out[at - 1], { type: 'end', doc: inputs[1]!.id }, 'the diagnostic comes after the second document');
  t.match(out[at + 1], { type: 'doc', id: inputs[2]!.id }, 'and before the third');
});

t.test('parsing works with source maps enabled (node --enable-source-maps)', async (t) => {
  // Regression: the patched pdf.js worker is imported from a data: URL, and its sourceMappingURL
  // comment made every document fail with "Invalid URL" once source maps were on.
  const result = await run(['parse', samplePdf('one-column')], undefined, ['--enable-source-maps']);
  t.equal(result.code, 0, result.stderr);
  t.same(parseLines(result.stdout).map((r) => r.type), ['doc', 'page', 'end']);
});

t.test('`parse -` reads one PDF from stdin', async (t) => {
  const result = await run(['parse', '-'], readFileSync(samplePdf('cjk')));
  t.equal(result.code, 0, result.stderr);
  const records = parseLines(result.stdout);
  t.same(records.map((r) => r.type), ['doc', 'page', 'end']);
  t.match(records[0], { type: 'doc', id: 'stdin' });
});
