/**
 * Pages without text that still show words, and a page whose image shows nothing
 * (test/fixtures/ocr/outlines.pdf and masked.pdf, built by its build.sh): the decision to read a
 * page by OCR comes from its render, whatever drew the ink.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { findTesseract } from '../../../lib/ocr/tesseract.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import { charAccuracy, collapse, parseLines, repoRoot, run } from '../../helpers.js';

t.setTimeout(300_000);
const skip = findTesseract() ? false : 'Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)';
const fixtures = join(repoRoot, 'test/fixtures/ocr');
const truth = collapse(readFileSync(join(fixtures, 'drawn.txt'), 'utf8'));

/** The OCR diagnostics of `records`, by page. */
function ocrNotes(records: PipeRecord[]): Map<number, string> {
  const notes = new Map<number, string>();
  for (const r of records) if (r.type === 'diagnostic' && r.code === 'ocr' && r.place?.page) notes.set(r.place.page, r.message);
  return notes;
}

/** The words of page `n` in `records`, joined by spaces. */
function pageText(records: PipeRecord[], n: number): string {
  const page = records.find((r) => r.type === 'page' && r.page === n);
  return page?.type === 'page' ? collapse((page.items ?? []).map((i) => i.text).join(' ')) : '';
}

t.test('a page of text drawn as filled outlines, no font and no image, is read by OCR', { skip }, async (t) => {
  const records = parseLines((await run(['parse', '--ocr-lang', 'eng', join(fixtures, 'outlines.pdf')])).stdout);
  t.match(ocrNotes(records).get(1), /the page has no text and its drawing inks [\d.]+% of it \(no image/u);
  const text = pageText(records, 1);
  t.ok(charAccuracy(truth, text) > 0.9, `character accuracy ${charAccuracy(truth, text).toFixed(3)}: ${text}`);
});

t.test('a page painted through a soft mask is read by OCR; a flat grey image is not', { skip }, async (t) => {
  const records = parseLines((await run(['parse', '--ocr-lang', 'eng', join(fixtures, 'masked.pdf')])).stdout);
  const notes = ocrNotes(records);
  t.match(notes.get(1), /the page has no text and its drawing inks [\d.]+% of it \(no image/u);
  const text = pageText(records, 1);
  t.ok(charAccuracy(truth, text) > 0.9, `character accuracy ${charAccuracy(truth, text).toFixed(3)}: ${text}`);
  t.notOk(notes.has(2), 'an image over the whole page that shows one grey is no page to read');
  t.equal(pageText(records, 2), '');
});
