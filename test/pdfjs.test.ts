/**
 * The pdf.js engine adapter: marked-content /ActualText replaces the glyph runs it covers, glyphs
 * mapped to U+0000 never reach the text, and a Chromium Devanagari PDF (vowel signs drawn before
 * their consonant, readable only through ActualText) comes out as written.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { itemsWithActualText, toItem } from '../lib/engines/pdfjs.js';
import { charAccuracy, collapse, run, sharedRoot } from './helpers.js';

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
  const result = await run(['extract', `${hindi}.pdf`]);
  t.equal(result.code, 0);
  const truth = readFileSync(`${hindi}.txt`, 'utf8');
  t.notOk(result.stdout.includes('\u0000'), 'no U+0000 in the text');
  t.equal(result.stdout.split('\n')[0], truth.split('\n')[0], 'the title, whose vowel signs exist only in ActualText');
  const accuracy = charAccuracy(collapse(truth), collapse(result.stdout.replaceAll('\f', '')));
  t.ok(accuracy > 0.97, `character accuracy ${accuracy.toFixed(3)} > 0.97`);
});
