/**
 * OCR end to end: a scanned page (test/fixtures/ocr/scan.pdf, an image and no text layer, built by
 * its build.sh) read through `extract`, Tesseract missing, and `--ocr never`.
 */
import { readFileSync } from 'node:fs';
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
