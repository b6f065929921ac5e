/**
 * Greek capitals whose accent or breathing is set as a glyph of its own before them
 * (lib/scripts/greek.ts, rule `greek-capital-accent`): on hand-built lines, then on pdfLaTeX's
 * Greek in TeX's CB fonts (the font sweep, bench/fontsweep), which has no precomposed accented
 * capitals.
 */
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { repairLines } from '../repair/repair-fixtures.js';
import { charAccuracy, collapse, repoRoot, run } from '../../helpers.js';

t.test('a spacing accent before a capital at the start of a word goes onto it', async (t) => {
  const { texts } = repairLines(['\u0384Οταν βρέχει', 'στο \u1ffeΟμηρο', '\u1fceΕνας', '\u1ffeΡόδος', 'λέξη\u0384Ο', 'ΟΤΑΝ \u0384 Ο', '\u0384Ρ', '\u1fefΑλλά', '\u1fc0Ω']);
  t.same(texts, ['Όταν βρέχει', 'στο Ὁμηρο', 'Ἔνας', 'Ῥόδος', 'λέξη\u0384Ο', 'ΟΤΑΝ \u0384 Ο', '\u0384Ρ', '\u1fefΑλλά', '\u1fc0Ω'], 'a varia or perispomeni alone stands before no capital');
});

t.test("pdfLaTeX's Greek in CB fonts", async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'greek-pdflatex-cbgreek.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /Όταν/u);
  t.notMatch(stdout, /\u0384/u, 'no spacing tonos left');
  t.equal(charAccuracy(collapse(readFileSync(join(dir, 'greek-pdflatex-cbgreek.txt'), 'utf8')), collapse(stdout)), 1);
});
