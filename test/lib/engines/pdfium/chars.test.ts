/**
 * Stacked marks (PDFium's character loop, lib/engines/pdfium/chars.ts, and the lines built from
 * it): pointed Hebrew from Chromium, where each letter with its points is one glyph whose box
 * PDFium slices among the characters. The words must come out whole, marks after their letter.
 */
import t from 'tap';
import { join } from 'node:path';
import { collapse, repoRoot, run } from '../../../helpers.js';

t.test('pointed Hebrew from Chromium: words whole, not split at their points', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/marks');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'he-chromium-sans.pdf'), join(dir, 'he-chromium-serif.pdf')]);
  t.equal(code, 0);
  const words = new Set(collapse(stdout).normalize('NFC').split(' '));
  for (const word of ['הַגֶּשֶׁם', 'הַגְּדוֹלוֹת.', 'וְהִסְתַּכְּלוּ', 'וּמַגָּפַיִם.', 'הַגָּבוֹהַּ.', 'שֶׁיָּשַׁב', 'וְהַצִּפּוֹרִים']) {
    t.ok(words.has(word.normalize('NFC')), word);
  }
});
