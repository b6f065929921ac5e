/**
 * Text in annotations (free-text comments, filled-in text and choice fields) becomes items with
 * font "annotation", under both engines: for some PDFs it is the only text. On PDFs of the shared
 * wild corpus; skipped without it.
 */
import t from 'tap';
import { parseLines, run, wildFile } from '../../helpers.js';

const freeText = wildFile('pdfjs__bug1811510.pdf');
const choice = wildFile('pdfjs__issue19083.pdf');

for (const engine of ['pdfjs', 'pdfium']) t.test(`${engine}: free-text annotations and form fields give items; the page has no other text`, { skip: freeText.skip || choice.skip }, async (t) => {
  const result = await run(['parse', '--quiet', '--engine', engine, freeText.path, choice.path]);
  t.equal(result.code, 0, result.stderr);
  const pages = parseLines(result.stdout).filter((r) => r.type === 'page');
  const texts = pages.map((p) => (p.type === 'page' ? (p.items ?? []).map((i) => `${i.font}:${i.text}`) : []));
  t.same([...texts[0]!].sort(), ['annotation:5,25', 'annotation:5.25', "annotation:doesn't work", 'annotation:works'], 'two comments and two text fields');
  t.same(texts[1], ['annotation:Hello World'], 'the chosen value of a choice field');
  const text = await run(['extract', '--quiet', '--engine', engine, freeText.path]);
  t.match(text.stdout, /doesn't work/, 'and they reach the text output');
});
