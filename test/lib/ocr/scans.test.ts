/**
 * Scans with nothing that names their language (bench/corpus/scans, image-only PDFs built by its
 * build.sh): the script comes from Tesseract's osd, the language from the text of the first reading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { installedLanguages } from '../../../lib/ocr/languages.js';
import { findTesseract } from '../../../lib/ocr/tesseract.js';
import { charAccuracy, collapse, parseLines, repoRoot, run, wildFile } from '../../helpers.js';

// Every test here reads pages by OCR, which takes seconds a page on a busy machine.
t.setTimeout(600_000);
const skip = findTesseract() ? false : 'Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)';

/** Why a test that needs Tesseract with these languages' data is skipped, or false. */
function needs(...langs: string[]): string | false {
  if (skip) return skip;
  const missing = langs.filter((lang) => !installedLanguages(findTesseract()!).has(lang));
  return missing.length > 0 ? `Tesseract lacks ${missing.join(', ')} data (apt-get install ${missing.map((l) => `tesseract-ocr-${l.replace('_', '-')}`).join(' ')})` : false;
}

const scans = join(repoRoot, 'bench/corpus/scans');

// With Persian data installed too, the first reading's text is identified as Persian and the page
// is read again in it; that reading is the worse one (character accuracy 0.916), and Tesseract is
// less sure of it: the Arabic reading is kept.
t.test("a scan with nothing naming its language is read in the script Tesseract's osd sees", { skip: needs('osd', 'ara') }, async (t) => {
  const records = parseLines((await run(['extract', '--format', 'ndjson', join(scans, 'ar-chromium-jpeg.pdf')])).stdout);
  const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
  t.match(note?.type === 'diagnostic' ? note.message : '', /\(ara, from the Arabic script of the image \(osd\);/u);
  const text = collapse((await run(['extract', '--quiet', join(scans, 'ar-chromium-jpeg.pdf')])).stdout);
  const truth = collapse(readFileSync(join(scans, 'ar-chromium-jpeg.txt'), 'utf8'));
  t.ok(charAccuracy(truth, text) >= 0.93, `character accuracy ${charAccuracy(truth, text).toFixed(3)}`);
});

t.test('a Latin scan read as English is read again in the language its text is in', { skip: needs('osd', 'deu') }, async (t) => {
  const records = parseLines((await run(['parse', join(scans, 'de-xelatex-ccitt.pdf')])).stdout);
  const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
  t.match(note?.type === 'diagnostic' ? note.message : '', /\(deu, from the Latin script of the image \(osd\), then the language identified in its text;/u);
  const words = records.flatMap((r) => (r.type === 'page' ? (r.items ?? []).map((i) => i.text) : []));
  t.ok(words.includes('Bäcker') && words.includes('öffnet') && words.includes('Krüger'), 'umlauts read');
});

t.test('words in a small picture on a page without text are read', { skip: skip || wildFile('pdfjs__issue12213.pdf').skip }, async (t) => {
  // A logo (JPX) over 18% of a page that holds nothing else.
  const text = collapse((await run(['extract', '--quiet', '--ocr-lang', 'eng', wildFile('pdfjs__issue12213.pdf').path])).stdout);
  t.match(text, /of california/u);
});

// XeTeX's Urdu in Noto Nastaliq Urdu has a destroyed text layer: glyph numbers read as letters its
// font cannot draw. The page is read by OCR in the script of the font's program; Tesseract reads
// it unsurely with Arabic data, which lacks the letters Urdu adds, and surest with Urdu data.
t.test("a destroyed text layer is read in its fonts' script, in that script's language read surest", { skip: needs('ara', 'urd') }, async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const pdf = join(dir, 'urdu-xelatex-notonastaliqurdu.pdf');
  const records = parseLines((await run(['extract', '--format', 'ndjson', pdf])).stdout);
  const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
  t.match(note?.type === 'diagnostic' ? note.message : '', /\(urd, from the Arabic script of the page's text layer, then the language of its script Tesseract read it surest in;/u);
  const text = collapse((await run(['extract', '--quiet', pdf])).stdout);
  const truth = collapse(readFileSync(join(dir, 'urdu-xelatex-notonastaliqurdu.txt'), 'utf8'));
  // The text layer alone scores 0.09, a reading with Arabic data 0.43, with Urdu data 0.73.
  t.ok(charAccuracy(truth, text) >= 0.65, `character accuracy ${charAccuracy(truth, text).toFixed(3)}`);
  for (const word of ['آسمان', 'ہوئے', 'پانی']) t.ok(text.includes(word), word);
});
