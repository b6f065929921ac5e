/**
 * Broken encodings: 8-bit code pages read as Latin-1 detected and re-decoded per document, and
 * glyph-id text shifted from Cyrillic shifted back.
 */
import t from 'tap';
import { findCyrillicShift, looksLatin1Mojibake, redecode } from '../../../lib/repair/encodings.js';
import { latin1Words } from '../../../lib/ocr/decide.js';
import { repairLines } from './repair-fixtures.js';

/** Russian as a cp1251 text layer read as Latin-1 shows it: А–я at 0xC0–0xFF, the rest as it is. */
const cp1251 = (s: string): string => String.fromCharCode(...[...s].map((c) => (c >= 'А' && c <= 'я' ? c.codePointAt(0)! - 0x410 + 0xc0 : c.codePointAt(0)!)));

t.test('broken 8-bit encodings are re-decoded, per document code page', async (t) => {
  const mojibake = 'Общая часть договора';
  const garbled = cp1251(mojibake);
  t.ok(looksLatin1Mojibake(garbled), 'detected');
  t.equal(redecode(garbled, 'windows-1251'), mojibake);
  t.notOk(looksLatin1Mojibake('Déjà été à Zürich'), 'Latin-1 text with ASCII letters is left alone');
  t.equal(redecode('àÀâÂäÄçÇéÉèÈêÊ', 'windows-1251'), null, 'a table of accented letters is not a code page mix-up');
  const { texts } = repairLines([garbled, 'Ñòàòüÿ 4', 'Plain ASCII line']);
  t.same(texts, [mojibake, 'Статья 4', 'Plain ASCII line']);
});

t.test('in a line that mixes Latin words with a code page read as Latin-1, the code page words are re-decoded one by one', async (t) => {
  const lines = ['Первая глава книги о верстке', 'В качестве движка он использует TEX. Сейчас его развивает Frank Mittelbach, PostScript-графику тоже.', 'Prix à la carte: café, thé', '\\title{Минимализм}'];
  const garbled = lines.map((line) => (/[А-я]/u.test(line) ? cp1251(line) : line));
  t.notOk(looksLatin1Mojibake(garbled[1]!), 'the mixed line is too Latin for the whole-line rule');
  t.ok(latin1Words(garbled[1]!) > 0, 'but its long words show the code page');
  const { texts } = repairLines(garbled);
  t.equal(texts[1], lines[1], 'its words re-decoded, the Latin ones kept');
  t.equal(texts[2], lines[2], "a French line's à and é stay: no word of it shows the code page");
  t.equal(texts[3], lines[3], 'a word of the code page inside a command of LaTeX source');
});

t.test("TeX's dashes and hyphen, read as control codes, are written as such in a document of an 8-bit code page", async (t) => {
  const { texts } = repairLines([cp1251('Корабль \u0016 это судно для плавания'), cp1251('по морю, с 1990\u00152000 годы, пере\u007f')]);
  t.same(texts, ['Корабль — это судно для плавания', 'по морю, с 1990–2000 годы, пере-']);
  t.same(repairLines(['A line \u0016 without any code page']).texts, ['A line \u0016 without any code page'], 'elsewhere the codes are left to the other rules');
});

t.test('glyph-id text shifted from Cyrillic is shifted back', async (t) => {
  const shift = 0x95;
  const text = 'Каждый вечер старый рыбак выходил на берег и смотрел, как солнце медленно опускается в море';
  const garbled = [...text].map((c) => (/\p{L}/u.test(c) ? String.fromCodePoint(c.codePointAt(0)! - shift) : c === ' ' ? '\u0003' : c)).join('');
  t.equal(findCyrillicShift([garbled]), shift);
  t.equal(findCyrillicShift(['Ο Παγκόσμιος οργανισμός υγείας είναι ένας οργανισμός']), null, 'real Greek is not shifted');
  t.equal(findCyrillicShift(['test missing FontName in FontDescriptor dict '.repeat(3)]), null, 'Latin text in CamelCase is not shifted');
  t.same(repairLines([garbled]).texts, [text]);
});

t.test('a shift that most letters agree on but that takes another letter below U+0000 neither throws nor shifts', (t) => {
  // Unassigned codes U+2FE0–U+2FEF (what glyph ids may show as) would shift into Cyrillic; the
  // Greek letters beside them would land below zero, where String.fromCodePoint throws.
  const word = Array.from({ length: 5 }, (_, i) => String.fromCodePoint(0x2fe0 + ((i * 7) % 16))).join('');
  const text = `${Array(20).fill(word).join(' ')} αβ`;
  t.equal(findCyrillicShift([text]), null);
  t.doesNotThrow(() => repairLines([text, text]));
  t.end();
});
