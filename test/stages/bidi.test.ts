/**
 * bidi: its options, and the reading order end to end on right-to-left PDFs of the shared corpus
 * and the samples. The algorithm is tested in test/lib/scripts/bidi.test.ts.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeOptions } from '../../stages/bidi.js';
import { charAccuracy, run, samplePdf, sharedRoot } from '../helpers.js';

t.test('an unknown paragraph direction is refused', async (t) => {
  t.throws(() => normalizeOptions({ paragraphDirection: 'up' as never }), /Unexpected direction "up"/u);
});

/** gt documents with embedded English words and numbers; threshold a little under the measured score. */
const GT: Record<string, number> = { 'he-chromium-mixed': 0.995, 'he-xelatex-mixed': 0.995, 'ar-xelatex-mixed': 0.985, 'fa-pango': 0.985 };
const gtDir = join(sharedRoot, 'corpus/gt');

for (const [name, threshold] of Object.entries(GT)) {
  const pdf = join(gtDir, `${name}.pdf`);
  t.test(`${name}: reading order end to end`, { skip: existsSync(pdf) ? false : `${pdf} is not available (no ../shared corpus)` }, async (t) => {
    const result = await run(['extract', '--blank-lines', pdf]);
    t.equal(result.code, 0, result.stderr);
    const expected = readFileSync(join(gtDir, `${name}.txt`), 'utf8');
    const accuracy = charAccuracy(expected, result.stdout);
    t.ok(accuracy >= threshold, `accuracy ${accuracy.toFixed(4)} ≥ ${threshold}`);
  });
}

t.test('he-chromium-mixed: English words and numbers inside Hebrew read left to right', { skip: existsSync(join(gtDir, 'he-chromium-mixed.pdf')) ? false : 'no ../shared corpus' }, async (t) => {
  const result = await run(['extract', join(gtDir, 'he-chromium-mixed.pdf')]);
  t.match(result.stdout, 'חברת Intel פתחה בשנת 1974 מרכז פיתוח בחיפה');
  t.match(result.stdout, 'יותר מ-10,000 עובדים');
  t.match(result.stdout, 'את מעבדי Pentium M ו-Core');
});

t.test('samples/rtl-mixed.pdf: English, numbers, a bracket across lines, points, an LTR paragraph', async (t) => {
  const result = await run(['extract', '--blank-lines', samplePdf('rtl-mixed')]);
  t.equal(result.code, 0, result.stderr);
  const text = result.stdout.normalize('NFC');
  t.match(text, 'בעזרת Google Maps ואת הלינה', 'two English words in their own order');
  t.match(text, 'דרך האתר של Booking, אבל', 'the comma after an English word stays after it');
  t.match(text, 'בשנים 1537 עד 1541 (בימי השלטון העות\'מאני), ושאורכה כ-4 קילומטרים', 'the parenthesis opens and closes across a line break');
  t.match(text, 'שָׁלוֹם עֲלֵיכֶם'.normalize('NFC'), 'the points follow their letters (the holam its vav)');
  t.match(text, 'Our guide wrote the word שלום on the board and said that in Hebrew it means both hello and peace.', 'an English paragraph stays left to right');
});
