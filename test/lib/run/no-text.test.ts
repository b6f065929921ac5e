/**
 * A document that ends well but with no text gets a `no-text` diagnostic saying why (no text
 * layer, all furniture, no pages…) and a count in the summary and the report.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../lib/run/batch.js';
import { NoTextWatch } from '../../../lib/run/no-text.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import { parse } from '../../../stages/parse.js';
import { block, docRecord, endRecord, pageRecord, parseLines, run, samplePdf, through, wordItems } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-no-text-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A one-page PDF that only draws a filled rectangle: what a scan is to a text extractor. */
function drawingOnlyPdf(): Buffer {
  const content = '0.2 0.4 0.6 rg 72 600 300 120 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

t.test('NoTextWatch: the reason from what the pages hold', async (t) => {
  const reasons = (records: PipeRecord[]): (string | null)[] => {
    const watch = new NoTextWatch();
    return records.map((r) => watch.note(r)).filter((r) => r !== null);
  };
  t.same(reasons([docRecord('a'), pageRecord('a', 1, { items: [] }), endRecord('a')]), ['no-text-layer']);
  t.same(reasons([docRecord('a'), endRecord('a', 0)]), ['no-pages']);
  t.same(reasons([docRecord('a'), pageRecord('a', 1, { items: wordItems(['7'], 300, 800), blocks: [block('7', { role: 'page-number' }), block('Annual Report', { role: 'header' })] }), endRecord('a')]), ['only-furniture']);
  t.same(reasons([docRecord('a'), pageRecord('a', 1, { items: wordItems(['Some', 'words'], 72, 100) }), endRecord('a')]), [], 'parse: items with text');
  t.same(reasons([docRecord('a'), pageRecord('a', 1, { blocks: [block('Body text.')] }), endRecord('a')]), [], 'a body block');
  t.same(reasons([docRecord('a'), { type: 'error', doc: 'a', code: 'corrupt', message: 'x', stage: 'parse' }]), [], 'a failed document is not no-text');
});

t.test('extract: a drawing-only PDF and a page range past the end are no-text, with reasons, counted', async (t) => {
  const scan = join(dir, 'scan.pdf');
  writeFileSync(scan, drawingOnlyPdf());
  const report = join(dir, 'report.json');
  const result = await run(['extract', '--format', 'ndjson', '--report', report, scan, samplePdf('one-column')]);
  t.equal(result.code, 0, 'still a success');
  const records = parseLines(result.stdout);
  const diagnostics = records.filter((r) => r.type === 'diagnostic' && r.code === 'no-text');
  t.equal(diagnostics.length, 1, 'one no-text diagnostic, for the drawing only');
  t.match(diagnostics[0], { doc: 'scan', severity: 'warning', message: /no text layer .*OCR.*\(no-text-layer\)/ });
  t.match(records.find((r) => r.type === 'end' && r.doc === 'scan'), { type: 'end' }, 'its outcome stays end');
  t.match(result.stderr, /pdfpipe: scan: no-text: its pages hold no text layer/);
  t.match(result.stderr, /2 documents \(end 2\), 1 with no text \(no-text-layer 1\)/);
  t.same((JSON.parse(readFileSync(report, 'utf8')) as RunReport).noText, { 'no-text-layer': 1 });
  const range = await run(['extract', '-f', '5', samplePdf('one-column')]);
  t.match(range.stderr, /1 with no text \(no-pages 1\)/);
  const quiet = await run(['extract', '-q', scan]);
  t.equal(quiet.stderr, '', '--quiet: no warning line');
  t.equal(quiet.stdout, '', 'the text output is unchanged: empty');
});

t.test('parse: the command writes the records the stage yields in process, and the no-text diagnostic right before its outcome', async (t) => {
  const scan = join(dir, 'scan.pdf');
  writeFileSync(scan, drawingOnlyPdf());
  const notPdf = join(dir, 'notes.pdf');
  writeFileSync(notPdf, 'not a PDF\n');
  const inputs = [['scan', scan], ['one-column', samplePdf('one-column')], ['notes', notPdf], ['rtl-mixed', samplePdf('rtl-mixed')]] as const;
  const result = await run(['parse', '--jobs', '2', '--ocr', 'never', ...inputs.map(([, path]) => path)]);
  const lines = result.stdout.split('\n').filter(Boolean).map((line) => line.replace(/"ms":\d+/gu, '"ms":0'));
  const noText = lines.findIndex((line) => line.includes('"code":"no-text"'));
  t.match(JSON.parse(lines[noText] ?? '{}'), { type: 'diagnostic', doc: 'scan', stage: 'parse', code: 'no-text' });
  t.match(JSON.parse(lines[noText + 1] ?? '{}'), { type: 'end', doc: 'scan' }, 'right before its outcome');
  t.match(result.stderr, /pdfpipe: scan: no-text: /);
  const inProcess = await through(parse({ jobs: 2, ocr: 'never' }), inputs.map(([id, path]) => ({ type: 'pdf', id, path })));
  t.same(lines.filter((_, i) => i !== noText), inProcess.map((r) => JSON.stringify(r).replace(/"ms":\d+/gu, '"ms":0')), 'every other line is a record of the stage, in order');
});
