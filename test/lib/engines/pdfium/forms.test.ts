/**
 * Non-joiners a text layer leaves out, read back from the forms of the glyphs
 * (lib/engines/pdfium/forms.ts): the advances a document gives a letter at runs' ends and inside
 * them, and Pango's Persian page, whose text layer writes no non-joiner at all.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArabicForms } from '../../../../lib/engines/pdfium/forms.js';
import type { Glyph } from '../../../../lib/engines/pdfium/runs.js';
import { repoRoot, run } from '../../../helpers.js';

const SIZE = 12;
/** A run drawn left to right on the page, its letters given in reading order (right to left), each with its advance in em. */
function drawn(...letters: [string, number][]): Glyph[] {
  let x = 300;
  const glyphs: Glyph[] = [];
  for (const [ch, em] of letters) {
    const w = em * SIZE;
    x -= w;
    glyphs.push({ ch, left: x, right: x + w, ox: x, oy: 100, size: SIZE, font: 'F', horizontal: true, dx: 1, dy: 0 });
  }
  return glyphs.reverse();
}

t.test('a run whose last letter has the advance the letter has at runs\' ends, not inside them, ends unjoined', (t) => {
  const forms = new ArabicForms();
  // heh after meem: 0.53 em at the ends of words ("همه"), 0.37 em with a letter after it ("مهر").
  const ends = [drawn(['ه', 0.37], ['م', 0.5], ['ه', 0.53]), drawn(['ن', 0.3], ['م', 0.5], ['ه', 0.53])];
  const inside = [drawn(['م', 0.5], ['ه', 0.37], ['ر', 0.3]), drawn(['ش', 0.6], ['م', 0.5], ['ه', 0.37], ['ر', 0.3]), drawn(['م', 0.5], ['ه', 0.37], ['ل', 0.3])];
  for (const glyphs of [...ends, ...inside]) forms.see(glyphs);
  const unjoined = drawn(['ب', 0.3], ['م', 0.5], ['ه', 0.53]);
  const joined = drawn(['ب', 0.3], ['م', 0.5], ['ه', 0.37]);
  forms.see(unjoined);
  forms.see(joined);
  t.ok(forms.unjoined(unjoined), 'ends in the form of words\' ends');
  t.notOk(forms.unjoined(joined), 'ends in the form it has before a letter: the run was parted inside a joined word');
  t.notOk(forms.unjoined(drawn(['ب', 0.3], ['ر', 0.3])), 'a letter that joins nothing after it anyway says nothing');
  t.notOk(forms.unjoined(drawn(['م', 0.5], ['ه', 0.53], ['،', 0.2])), 'a run that ends in punctuation is no letter drawn unjoined');
  t.end();
});

t.test('a letter never seen inside a run after a joining letter is measured against its forms inside runs after one that does not join', (t) => {
  const forms = new ArabicForms();
  // Heh after a joining letter only ever ends runs here (0.53 em); inside runs it is seen only
  // starting words (0.29 em, after nothing that joins it).
  for (const g of [drawn(['م', 0.5], ['ه', 0.53]), drawn(['ن', 0.3], ['م', 0.5], ['ه', 0.53]), drawn(['ه', 0.29], ['م', 0.5], ['ه', 0.53])]) forms.see(g);
  for (let i = 0; i < 3; i++) forms.see(drawn(['ه', 0.29], ['ر', 0.3]));
  const unjoined = drawn(['خ', 0.4], ['ا', 0.2], ['ن', 0.3], ['ه', 0.53]);
  forms.see(unjoined);
  t.ok(forms.unjoined(unjoined));
  t.end();
});

t.test('a letter seen inside runs after a joining letter fewer than 3 times is measured against the other case too', (t) => {
  const forms = new ArabicForms();
  // Yeh after meem ends runs at 0.68 em ("می"), and stands inside a run after a joining letter once;
  // starting words, inside runs, it is 0.25 em.
  for (const g of [drawn(['م', 0.5], ['ی', 0.68]), drawn(['ن', 0.3], ['م', 0.5], ['ی', 0.68]), drawn(['ب', 0.3], ['ی', 0.3], ['ن', 0.3])]) forms.see(g);
  for (let i = 0; i < 3; i++) forms.see(drawn(['ی', 0.25], ['ا', 0.2]));
  const unjoined = drawn(['م', 0.5], ['ی', 0.68]);
  forms.see(unjoined);
  t.ok(forms.unjoined(unjoined), 'one observation in its own case is too few; the other case says it joins nothing');
  t.end();
});

t.test('without the letter seen inside runs often enough, nothing is said', (t) => {
  const forms = new ArabicForms();
  const glyphs = [drawn(['م', 0.5], ['ه', 0.53]), drawn(['ن', 0.3], ['م', 0.5], ['ه', 0.53]), drawn(['م', 0.5], ['ه', 0.37], ['ر', 0.3])];
  for (const g of glyphs) forms.see(g);
  t.notOk(forms.unjoined(glyphs[0]!), 'one advance inside runs is too few to tell the forms apart');
  t.end();
});

t.test('Pango, Noto Sans Arabic: non-joiners the text layer leaves out come back between their words\' halves', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'persian-pango-notosansarabic.pdf')]);
  t.equal(code, 0);
  const truth = readFileSync(join(dir, 'persian-pango-notosansarabic.txt'), 'utf8');
  const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);
  const withJoiner = words(stdout).filter((w) => w.includes('\u200c'));
  t.ok(withJoiner.length >= 9, `at least 9 of the truth's 11 words with a non-joiner (${withJoiner.length})`);
  t.ok(withJoiner.includes('می\u200cرفتند') && withJoiner.includes('نوه\u200cها'), 'as in "می‌رفتند", "نوه‌ها"');
  const truthWords = new Set(words(truth));
  t.same(withJoiner.filter((w) => !truthWords.has(w)), [], 'none where the truth has none');
  t.same(words(stdout.replaceAll('\u200c', '')), words(truth.replaceAll('\u200c', '')), 'the letters and spaces as the truth writes them');
});

t.test('Arabic from Pango, Lateef: lam-alef ligatures that PDFium hands over turned come out in reading order, and no non-joiner is made', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'arabic-pango-lateef.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /الطلاب/u, '"الطلاب", not "الطالب"');
  t.match(stdout, /مالا/u, '"مالا", not "ماال"');
  t.notMatch(stdout, /\u200c/u, 'Arabic writes no non-joiner here, and none is made');
  const truth = readFileSync(join(dir, 'arabic-pango-lateef.txt'), 'utf8');
  t.same(stdout.split(/\s+/u).filter(Boolean), truth.split(/\s+/u).filter(Boolean), 'every word as the truth writes it');
});
