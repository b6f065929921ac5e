/**
 * Zero-width joiners and non-joiners drawn apart from their word (lib/engines/pdfium/joiners.ts):
 * where one goes among a run's glyphs, and Writer's Persian page whose non-joiner in "نوه‌ها" is a
 * text object of its own, drawn before the rest of its line.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { joinerPlace } from '../../../../lib/engines/pdfium/joiners.js';
import type { Glyph } from '../../../../lib/engines/pdfium/runs.js';
import { repoRoot, run } from '../../../helpers.js';

const glyph = (ch: string, left: number, right: number, oy = 100): Glyph => ({ ch, left, right, ox: left, oy, size: 12, font: 'F', horizontal: true, dx: 1, dy: 0 });

t.test('a joiner goes between the two glyphs whose centres stand on either side of it, in either drawing direction', (t) => {
  const zwnj = glyph('\u200c', 124.1, 124.1);
  // Drawn right to left, as Writer draws Persian: ن و ه | ه ا
  const rtl = [glyph('ن', 134.6, 141), glyph('و', 128.9, 134.6), glyph('ه', 124, 128.9), glyph('ه', 117.2, 124), glyph('ا', 110.2, 113.7)];
  t.equal(joinerPlace(rtl, zwnj), 3, 'after the first heh');
  t.equal(joinerPlace([...rtl].reverse(), zwnj), 2, 'drawn left to right: the same place');
  t.equal(joinerPlace(rtl, glyph('\u200c', 150, 150)), -1, 'outside the run: no place');
  t.equal(joinerPlace(rtl, glyph('\u200c', 124.1, 124.1, 130)), -1, 'on another baseline: no place');
  t.end();
});

t.test('Writer, Noto Sans Arabic: the non-joiner drawn before its line goes into "نوه‌ها"', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'persian-lo-notosansarabic.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /تابستان نوه\u200cها به/u, 'the word with its non-joiner, between its halves');
  t.notMatch(stdout, / \u200c|\u200c /u, 'no non-joiner beside a space');
  const truth = readFileSync(join(dir, 'persian-lo-notosansarabic.txt'), 'utf8');
  t.same(stdout.split(/\s+/u).filter(Boolean), truth.split(/\s+/u).filter(Boolean), 'every word as the truth writes it');
});
