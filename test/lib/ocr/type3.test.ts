/**
 * Documents set in TeX's bitmap fonts (bench/corpus/scans/*-type3.pdf, built by its build.sh): Type 3
 * fonts without a Unicode map, whose T1 codes under 32 (ligatures, quotes) come out as control
 * characters. A page that loses glyphs so is read by OCR; a page whose codes all read right keeps
 * its text layer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { installedLanguages } from '../../../lib/ocr/languages.js';
import { findTesseract } from '../../../lib/ocr/tesseract.js';
import { charAccuracy, collapse, parseLines, repoRoot, run } from '../../helpers.js';

t.setTimeout(600_000);
const tesseract = findTesseract();
const skip = !tesseract ? 'Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)' : !installedLanguages(tesseract).has('deu') ? 'Tesseract lacks deu data (apt-get install tesseract-ocr-deu)' : false;
const scans = join(repoRoot, 'bench/corpus/scans');

t.test('a page of a bitmap font whose ligatures and quotes read as control codes is read by OCR', { skip }, async (t) => {
  const file = join(scans, 'de-dvips-type3.pdf');
  const records = parseLines((await run(['extract', '--format', 'ndjson', file])).stdout);
  const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
  t.match(note?.type === 'diagnostic' ? note.message : '', /4 of its characters are control codes/u);
  const text = collapse((await run(['extract', '--quiet', file])).stdout);
  t.ok(text.includes('öffnet') && text.includes('Kaffee') && text.includes('große'), 'ligatures and ß read');
  const truth = collapse(readFileSync(join(scans, 'de-dvips-type3.txt'), 'utf8'));
  t.ok(charAccuracy(truth, text) >= 0.995, `character accuracy ${charAccuracy(truth, text).toFixed(3)}`);
});

t.test('a page of a bitmap font whose codes all read right keeps its text layer', async (t) => {
  const records = parseLines((await run(['extract', '--format', 'ndjson', join(scans, 'es-pdflatex-type3.pdf')])).stdout);
  t.notOk(records.some((r) => r.type === 'diagnostic' && r.code === 'ocr'), 'no OCR');
  const text = collapse((await run(['extract', '--quiet', join(scans, 'es-pdflatex-type3.pdf')])).stdout);
  t.equal(text, collapse(readFileSync(join(scans, 'es-pdflatex-type3.txt'), 'utf8')));
});
