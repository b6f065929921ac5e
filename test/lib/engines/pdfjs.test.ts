/**
 * The pdf.js engine adapter: marked-content /ActualText replaces the glyph runs it covers, glyphs
 * mapped to U+0000 never reach the text, and a Chromium Devanagari PDF (vowel signs drawn before
 * their consonant, readable only through ActualText) comes out as written, and glyphs that stand for
 * several characters keep their advance; a PDF without its header is still read.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotationItems, itemsWithActualText, looksLikePdf, toItem } from '../../../lib/engines/pdfjs.js';
import type { PageRecord } from '../../../lib/protocol/records.js';
import { charAccuracy, collapse, parseLines, run, samplePdf, sampleTxt, sharedRoot, wildFile } from '../../helpers.js';

const identity = [1, 0, 0, 1, 0, 0];
const run_ = (str: string, x: number, width: number, y = 100) => ({ str, dir: 'ltr', width, height: 10, transform: [10, 0, 0, 10, x, y], fontName: 'F1' });
const convert = (raw: ReturnType<typeof run_>, insideSpan: boolean) => toItem(raw, identity, '', insideSpan);

t.test('an ActualText span becomes one item over the extent of its runs', async (t) => {
  const items = itemsWithActualText(
    [
      run_('\u0905', 10, 7),
      { type: 'beginMarkedContentProps', actualText: '\u0927\u093F' },
      run_('\u0000', 17, 3),
      run_('\u0927', 20, 8),
      { type: 'endMarkedContent' },
      run_('\u0915', 28, 8),
    ],
    convert,
  );
  t.same(items.map((i) => [i.text, i.x, i.w]), [['\u0905', 10, 7], ['\u0927\u093F', 17, 11], ['\u0915', 28, 8]]);
});

t.test('outside a span, U+0000 is dropped; an empty ActualText drops its glyphs; nested spans use the outer text', async (t) => {
  const items = itemsWithActualText(
    [
      run_('a\u0000b', 0, 20),
      { type: 'beginMarkedContentProps', actualText: '' },
      run_('-', 20, 3),
      { type: 'endMarkedContent' },
      { type: 'beginMarkedContentProps', actualText: 'fi' },
      { type: 'beginMarkedContentProps', actualText: 'x' },
      run_('\uFB01', 30, 6),
      { type: 'endMarkedContent' },
      { type: 'endMarkedContent' },
      { type: 'beginMarkedContent' },
      run_('\u0000', 40, 5),
      { type: 'endMarkedContent' },
    ],
    convert,
  );
  t.same(items.map((i) => i.text), ['ab', 'fi']);
});

t.test('a span whose runs lie on two baselines keeps its runs', async (t) => {
  const items = itemsWithActualText(
    [{ type: 'beginMarkedContentProps', actualText: 'one two' }, run_('one', 0, 20, 100), run_('two', 0, 20, 120), { type: 'endMarkedContent' }],
    convert,
  );
  t.same(items.map((i) => i.text), ['one', 'two']);
});

const hindi = join(sharedRoot, 'corpus/gt/hi-chromium');
t.test('a Chromium Devanagari PDF reads as written', { skip: existsSync(`${hindi}.pdf`) ? false : `${hindi}.pdf is not available (no ../shared corpus)` }, async (t) => {
  const result = await run(['extract', '--engine', 'pdfjs', `${hindi}.pdf`]);
  t.equal(result.code, 0);
  const truth = readFileSync(`${hindi}.txt`, 'utf8');
  t.notOk(result.stdout.includes('\u0000'), 'no U+0000 in the text');
  t.equal(result.stdout.split('\n')[0], truth.split('\n')[0], 'the title, whose vowel signs exist only in ActualText');
  const accuracy = charAccuracy(collapse(truth), collapse(result.stdout.replaceAll('\f', '')));
  t.ok(accuracy > 0.97, `character accuracy ${accuracy.toFixed(3)} > 0.97`);
});

const libreOfficeHindi = join(sharedRoot, 'corpus/gt/hi-lo-fodt');
t.test('a conjunct glyph keeps its advance: LibreOffice Hindi runs end where their glyphs are drawn', { skip: existsSync(`${libreOfficeHindi}.pdf`) ? false : `${libreOfficeHindi}.pdf is not available (no ../shared corpus)` }, async (t) => {
  const parsed = await run(['parse', '--engine', 'pdfjs', `${libreOfficeHindi}.pdf`]);
  t.equal(parsed.code, 0);
  const records = parseLines(parsed.stdout);
  t.match(records[0], { meta: { engine: /whole-glyph-category/u } });
  // On page 1 the run "…स्थापना को" holds conjuncts (स्थ, श्व) drawn as one glyph each; the
  // bracket after it is drawn at x 288.8, one word space after "को", which ends at 285.9.
  const items = (records.find((r) => r.type === 'page') as PageRecord).items ?? [];
  const bracket = items.findIndex((item, i) => item.text === '(' && items[i - 1]?.text === 'को');
  const before = items[bracket - 1];
  t.ok(before && Math.abs(before.x + before.w - 285.9) < 0.5, `"को" ends at ${before ? (before.x + before.w).toFixed(2) : '?'}, where it is drawn (285.9)`);
  const result = await run(['extract', '--engine', 'pdfjs', `${libreOfficeHindi}.pdf`]);
  const truth = readFileSync(`${libreOfficeHindi}.txt`, 'utf8');
  const accuracy = charAccuracy(collapse(truth), collapse(result.stdout.replaceAll('\f', '')));
  t.ok(accuracy > 0.99, `character accuracy ${accuracy.toFixed(3)} > 0.99`);
});

t.test('annotations: free-text lines and filled-in form fields become items; hidden ones and checkboxes do not', async (t) => {
  const flipY = (rect: number[]) => [rect[0]!, 800 - rect[1]!, rect[2]!, 800 - rect[3]!];
  const items = annotationItems(
    [
      { subtype: 'FreeText', textContent: ['First line', 'second line'], rect: [100, 700, 300, 730] },
      { subtype: 'Widget', fieldType: 'Tx', fieldValue: 'typed in', rect: [100, 600, 300, 620] },
      { subtype: 'Widget', fieldType: 'Ch', fieldValue: ['chosen'], rect: [100, 500, 300, 520] },
      { subtype: 'Widget', fieldType: 'Btn', fieldValue: 'Off', rect: [100, 400, 120, 420] },
      { subtype: 'Widget', fieldType: 'Tx', fieldValue: 'secret', rect: [100, 300, 300, 320], hidden: true },
      { subtype: 'FreeText', textContent: ['\u0645\u0631\u062d\u0628\u0627'], rect: [100, 200, 300, 220] },
    ],
    flipY,
  );
  t.same(items.map((i) => i.text), ['First line', 'second line', 'typed in', 'chosen', '\u0627\u0628\u062d\u0631\u0645']);
  t.ok(items[0]!.y < items[1]!.y, 'lines stacked from the top of the box');
  t.equal(items.at(-1)!.dir, 'rtl', 'right-to-left text in drawing order, as runs from the page hold it');
});

for (const [name, expected] of [['pdfjs__bug1724918.pdf', 'hello world'], ['pdfjs__issue5946.pdf', 'This should be visible']] as const) {
  const file = wildFile(name);
  t.test(`${name}: text shown only by annotations is extracted`, { skip: file.skip }, async (t) => {
    const result = await run(['extract', '--engine', 'pdfjs', file.path]);
    t.equal(result.code, 0);
    t.equal(collapse(result.stdout), expected);
  });
}

t.test('a PDF whose writer left out the %PDF- header is read (by pdf.js under --engine auto); other bytes are not-a-pdf', async (t) => {
  // The header blanked in place, so every offset of the cross-reference table still holds.
  const bytes = readFileSync(samplePdf('one-column'));
  const headless = Buffer.from(bytes);
  headless.write('%    ', headless.indexOf('%PDF-'), 'latin1');
  t.notOk(headless.subarray(0, 1024).includes('%PDF-'), 'no header left');
  t.ok(looksLikePdf(headless), 'an indirect object at the start and a trailer at the end');
  t.notOk(looksLikePdf(Buffer.from('1 0 obj << >> endobj, and then plain prose without an end')), 'an object without the end of a PDF');
  t.notOk(looksLikePdf(Buffer.from('plain prose %%EOF')), 'the end of a PDF without an object');
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-headless-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'headless.pdf');
  writeFileSync(path, headless);
  const result = await run(['extract', '--quiet', path]);
  t.equal(result.code, 0, result.stderr);
  t.ok(charAccuracy(collapse(readFileSync(sampleTxt('one-column'), 'utf8')), collapse(result.stdout)) > 0.99, 'the text of the sample');
  const wild = wildFile('pdfjs__bug1606566.pdf');
  await t.test('a real one from the wild corpus', { skip: wild.skip }, async (t) => {
    const out = await run(['extract', '--quiet', wild.path]);
    t.equal(out.stdout.trim(), 'Bug 1606566');
  });
});

const gtCorpus = join(sharedRoot, 'corpus/gt');
t.test("a failure pdf.js meets in a promise nothing awaits is the document's warning, not a crash of its worker", { skip: existsSync(gtCorpus) ? false : `${gtCorpus} is not available (no ../shared corpus)` }, async (t) => {
  // Mutant 1303 of the fuzz benchmark's seed 72 (bench/mutate.ts): a damaged xref entry makes pdf.js
  // fail ("Bad (uncompressed) XRef entry") in a promise of its own while the pages are read.
  const { mutants, seedPdfs } = await import('../../../bench/mutate.js');
  let bytes: Buffer | undefined;
  for (const mutant of mutants(seedPdfs(), 1304, 72)) if (mutant.index === 1303) bytes = mutant.bytes;
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-stray-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pdf = join(dir, 'mutant.pdf');
  writeFileSync(pdf, bytes!);
  const { stdout } = await run(['extract', '--quiet', '--engine', 'pdfjs', '--format', 'ndjson', pdf]);
  const records = parseLines(stdout) as { type: string; code?: string }[];
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.equal(outcomes.length, 1, 'one outcome');
  t.not(outcomes[0]?.code, 'worker-crashed');
  // The seed corpus as it was when the case was found: the mutant is that exact file.
  if (createHash('sha256').update(bytes!).digest('hex').startsWith('9fcdae5ad601b732')) {
    t.equal(outcomes[0]?.type, 'end', 'the document ends well');
    t.ok(records.some((r) => r.type === 'diagnostic' && r.code === 'engine-error'), 'with the failure as its warning');
    t.equal(records.filter((r) => r.type === 'page').length, 2, 'both pages read');
  }
});
