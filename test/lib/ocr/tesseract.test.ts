/**
 * OCR end to end: a scanned page (test/fixtures/ocr/scan.pdf, an image and no text layer, built by
 * its build.sh) read through `extract`, Tesseract missing, `--ocr never`, and `--ocr-budget`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { findTesseract } from '../../../lib/ocr/tesseract.js';
import { charAccuracy, collapse, parseLines, repoRoot, run } from '../../helpers.js';

const scan = join(repoRoot, 'test/fixtures/ocr/scan.pdf');
const truth = collapse(readFileSync(join(repoRoot, 'test/fixtures/ocr/scan.txt'), 'utf8'));
const skip = findTesseract() ? false : 'Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)';

t.test('a scanned page is read by OCR into text', { skip }, async (t) => {
  const result = await run(['extract', '--quiet', scan]);
  t.equal(result.code, 0);
  const text = collapse(result.stdout);
  t.ok(charAccuracy(truth, text) > 0.97, `character accuracy ${charAccuracy(truth, text).toFixed(3)}`);
  const words = truth.split(' ');
  const found = new Set(text.split(' '));
  t.ok(words.filter((w) => found.has(w)).length / words.length > 0.95, 'words found');
  t.match(result.stdout, /turned\.\n+Nobody/u, 'two paragraphs');
});

t.test('OCR words are items with their source and confidence, and a diagnostic says why', { skip }, async (t) => {
  const records = parseLines((await run(['parse', '--quiet', scan])).stdout);
  const page = records.find((r) => r.type === 'page');
  const items = page?.type === 'page' ? page.items ?? [] : [];
  t.ok(items.length > 50);
  t.ok(items.every((i) => i.source === 'ocr' && typeof i.confidence === 'number' && i.confidence >= 0 && i.confidence <= 1));
  t.equal(items[0]?.text, 'The');
  const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
  t.match(note, { severity: 'info', place: { page: 1 } });
  t.match(note?.type === 'diagnostic' ? note.message : '', /no text and images cover/u);
});

t.test('Tesseract missing: one ocr-unavailable diagnostic, the page without text, a normal end', async (t) => {
  const records = parseLines((await run(['extract', '--format', 'ndjson', scan, scan, '--tesseract', '/nonexistent/tesseract'])).stdout);
  const unavailable = records.filter((r) => r.type === 'diagnostic' && r.code === 'ocr-unavailable');
  t.equal(unavailable.length, 2, 'one per document');
  t.equal(records.filter((r) => r.type === 'end').length, 2);
  t.equal(records.filter((r) => r.type === 'error').length, 0);
  const items = records.flatMap((r) => (r.type === 'page' ? r.items ?? [] : []));
  t.equal(items.length, 0);
});

t.test('--ocr never leaves a scan without text', { skip }, async (t) => {
  const result = await run(['extract', '--quiet', '--ocr', 'never', scan]);
  t.equal(result.code, 0);
  t.equal(result.stdout.trim(), '');
});

const pdfunite = spawnSync('pdfunite', ['-v']).error ? 'pdfunite is not installed (apt-get install poppler-utils)' : false;

t.test('--ocr-budget: once a document has spent it, the pages after keep their text layer, with a diagnostic', { skip: skip || pdfunite }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-ocr-budget-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const twoPages = join(dir, 'two-scans.pdf');
  t.equal(spawnSync('pdfunite', [scan, scan, twoPages]).status, 0, 'two scanned pages in one PDF');
  // A budget of a millisecond: the first page's OCR spends it, the second page is not read.
  const records = parseLines((await run(['extract', '--format', 'ndjson', '--ocr-budget', '0.001', twoPages])).stdout);
  const codes = (code: string) => records.filter((r) => r.type === 'diagnostic' && r.code === code).map((r) => (r as { place?: { page?: number } }).place?.page);
  t.same(codes('ocr'), [1], 'page 1 read by OCR');
  t.same(codes('ocr-skipped'), [2], 'page 2 skipped, and says why');
  t.equal(records.at(-1)?.type, 'end', 'the document ends well');
  const blocks = records.filter((r) => r.type === 'page').map((r) => ((r as { blocks?: { text: string }[] }).blocks ?? []).map((b) => b.text).join(' '));
  t.ok(charAccuracy(truth, collapse(blocks[0] ?? '')) > 0.9, 'page 1 has its OCR text');
  t.equal(blocks[1], '', 'page 2 keeps its (empty) text layer');
});
