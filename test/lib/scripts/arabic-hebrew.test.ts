/**
 * Arabic and Hebrew repairs: presentation forms, lam-alef, the Allah ligature, tatweel, ZWNJ kept; Persian ی and ک
 * from Arabic yeh and kaf (also on a XeLaTeX PDF in Nazli, bench/corpus/fonts).
 */
import t from 'tap';
import { collapse, repoRoot, run } from '../../helpers.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { repairLines } from '../repair/repair-fixtures.js';

t.test('Arabic presentation forms, lam-alef, the Allah ligature, tatweel; ZWNJ kept', async (t) => {
  // "سلام" in presentation forms; lam-alef isolated; "بالله" written ba + alef + U+FDF2.
  const { texts } = repairLines(['\ufeb3\ufefc\ufee1', '\ufefb', '\ufe91\ufe8e\ufdf2', 'ﷲ', 'كـــتاب', 'می\u200cخواهم']);
  t.same(texts, ['سلام', 'لا', 'بالله', 'الله', 'كتاب', 'می\u200cخواهم']);
  t.same(repairLines(['كـــتاب'], { tatweel: 'keep' }).texts, ['كـــتاب'], '--tatweel keep');
  t.same(repairLines(['بااللہ', 'باالله']).texts, ['بااللہ', 'بالله'], 'a doubled alef from an engine-expanded ligature');
  t.same(repairLines(['\u0628\ufe76 \u0628\ufe77']).texts, ['\u0628\u064e \u0628\u064e'], 'harakat forms become the mark, without a space or tatweel');
});

t.test('Hebrew presentation forms become letters and points', async (t) => {
  const { texts } = repairLines(['\ufb2a\ufb31\ufb4f']);
  t.same(texts, ['\u05e9\u05c1\u05d1\u05bc\u05d0\u05dc']);
});

t.test('Persian whose font wrote Arabic yeh and kaf gets its own ی and ک; Arabic keeps them', async (t) => {
  const persian = ['باغ كوچكى داشت كه پر از درختان انجير بود', 'مىگفت كه باغ مثل آدم است'];
  const { texts, diagnostics } = repairLines(persian);
  t.same(texts, ['باغ کوچکی داشت که پر از درختان انجیر بود', 'میگفت که باغ مثل آدم است']);
  t.match(diagnostics.map((d) => d.code), ['rule:persian-yeh-kaf']);
  const arabic = ['في نهاية الشارع مكتبة صغيرة يديرها رجل عجوز'];
  t.same(repairLines(arabic).texts, arabic, 'Arabic: no letters of Persian, nothing changed');
  const dir = join(repoRoot, 'bench/corpus/fonts');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'fa-xelatex-nazli.pdf')]);
  t.equal(code, 0);
  // The truth's ZWNJs are drawn as space glyphs with no advance, and read back as ZWNJs.
  t.equal(collapse(stdout), collapse(readFileSync(join(dir, 'fa-xelatex-nazli.txt'), 'utf8')));
});
