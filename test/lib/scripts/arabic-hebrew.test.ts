/**
 * Arabic and Hebrew repairs: presentation forms, lam-alef, the Allah ligature, tatweel, ZWNJ kept.
 */
import t from 'tap';
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
