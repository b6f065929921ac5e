/**
 * Text layers destroyed by re-distilling (../shared/corpus/gt: Ghostscript's pdfwrite mapped many
 * glyphs to one code) are read by OCR in the language of their script; th-lo-gs, whose text layer
 * reads fine, is left alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { installedLanguages } from '../../../lib/ocr/languages.js';
import { findTesseract } from '../../../lib/ocr/tesseract.js';
import { charAccuracy, collapse, parseLines, run, sharedRoot } from '../../helpers.js';

// Every test here reads pages by OCR, which takes seconds a page on a busy machine.
t.setTimeout(600_000);
const skip = findTesseract() ? false : 'Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)';

/** Why a test that needs Tesseract with these languages' data is skipped, or false. */
function needs(...langs: string[]): string | false {
  if (skip) return skip;
  const missing = langs.filter((lang) => !installedLanguages(findTesseract()!).has(lang));
  return missing.length > 0 ? `Tesseract lacks ${missing.join(', ')} data (apt-get install ${missing.map((l) => `tesseract-ocr-${l.replace('_', '-')}`).join(' ')})` : false;
}

const gt = join(sharedRoot, 'corpus/gt');
const redistilled: [string, string, number][] = [['ar-chromium-gs', 'ara', 0.95], ['hi-lo-gs', 'hin', 0.95], ['zh-chromium-gs', 'chi_sim', 0.95]];
for (const [name, lang, least] of redistilled) {
  const path = join(gt, `${name}.pdf`);
  const why = existsSync(path) ? needs(lang) : `${path} is not available (no ../shared corpus)`;
  t.test(`a re-distilled text layer (${name}) is read by OCR in ${lang}, chosen from the page's script`, { skip: why }, async (t) => {
    const records = parseLines((await run(['parse', '--first-page', '1', '--last-page', '1', path])).stdout);
    const note = records.find((r) => r.type === 'diagnostic' && r.code === 'ocr');
    t.match(note?.type === 'diagnostic' ? note.message : '', new RegExp(`\\(${lang}, from the \\w+ script of the page's text layer;.*letters sit inside words of another script`, 'u'));
    const text = collapse((await run(['extract', '--quiet', path])).stdout);
    const truth = collapse(readFileSync(join(gt, `${name}.txt`), 'utf8'));
    t.ok(charAccuracy(truth, text) >= least, `character accuracy ${charAccuracy(truth, text).toFixed(3)}`);
  });
}

t.test('a good text layer with odd glyphs (th-lo-gs) keeps its text layer', { skip: existsSync(join(gt, 'th-lo-gs.pdf')) ? skip : 'no ../shared corpus' }, async (t) => {
  const records = parseLines((await run(['parse', '--quiet', join(gt, 'th-lo-gs.pdf')])).stdout);
  t.equal(records.filter((r) => r.type === 'diagnostic' && r.code === 'ocr').length, 0);
});
