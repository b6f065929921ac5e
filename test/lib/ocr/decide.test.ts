import t from 'tap';
import { countCharacters, foreignInWords, latin1Words, ocrReason } from '../../../lib/ocr/decide.js';
import { parseLines, run, wildFile } from '../../helpers.js';

t.test('characters foreign to the words around them are counted', async (t) => {
  // Re-distilled text layers: one code stands for many glyphs, inside words.
  t.match(foreignInWords('اسÿإ تاÿوق عمÿا ÿعرض'), { foreign: 3 }, 'inside words, not at their ends');
  t.match(foreignInWords('अध✿कारां की अन्䴵ेदु'), { foreign: 2 });
  t.match(foreignInWords('任何人不得ò以任意逮捕'), { foreign: 1 });
  // Real text changes script at a word's ends, or not at all; digits, marks, accents, radicals are not foreign.
  t.match(foreignInWords('使用PDF文件 第2条 naïve Москва'), { foreign: 0 });
  t.match(foreignInWords('日本語のテキスト 한국어 漢字'), { foreign: 0 }, 'Han, Kana and Hangul mix');
  t.match(foreignInWords('بِسْمِ اسًا groff s´wi ⼈权'), { foreign: 0 }, 'marks, spacing accents, radicals');
  t.equal(foreignInWords('one two three').letters, 11);
});

t.test('a page whose words are broken by foreign characters is read by OCR', async (t) => {
  const page = { chars: 1000, meaningless: 0, imageCoverage: 0, inkCoverage: 0, letters: 900 };
  t.match(ocrReason('auto', { ...page, foreign: 120 }), /120 of its 900 letters sit inside words of another script/);
  t.equal(ocrReason('auto', { ...page, foreign: 7 }), null, 'under the share a good layer reaches');
  t.equal(ocrReason('auto', { ...page, letters: 40, foreign: 3 }), null, 'too few to judge');
  t.equal(ocrReason('never', { ...page, foreign: 120 }), null);
});

t.test("letters every script shares and typeset code's visible space are no foreign characters", async (t) => {
  t.match(foreignInWords('3Dレーザーレーダー あのイーハトーヴォ'), { foreign: 0 }, 'ー between Katakana');
  t.match(foreignInWords('کتالـفاـیدـیپ'), { foreign: 0 }, 'tatweel between Arabic letters');
  t.match(foreignInWords('the␣starred␣version'), { foreign: 0 });
});

t.test('a page whose text holds control codes, glyphs read as their codes, is read by OCR', async (t) => {
  const page = { chars: 420, meaningless: 4, imageCoverage: 0, inkCoverage: 0, letters: 400, foreign: 2 };
  t.match(ocrReason('auto', { ...page, controls: 4 }), /4 of its characters are control codes/);
  t.equal(ocrReason('auto', { ...page, controls: 2 }), null, 'too few to judge');
  t.equal(ocrReason('auto', { ...page, letters: 4000, controls: 4 }), null, 'too rare among the letters');
});

t.test('a page without text is read by OCR when its drawing inks room enough for a word', async (t) => {
  const page = { chars: 0, meaningless: 0 };
  t.match(ocrReason('auto', { ...page, imageCoverage: 0.18, inkCoverage: 0.05 }), /no text and images cover 18%/);
  t.match(ocrReason('auto', { ...page, imageCoverage: 0.001, inkCoverage: 0.0065 }), /no text and its drawing inks 0\.65% of it \(no image/, 'a word through a soft mask');
  t.match(ocrReason('auto', { ...page, imageCoverage: 0, inkCoverage: 0.3 }), /its drawing inks 30% of it/, 'a page of outlines');
  t.equal(ocrReason('auto', { ...page, imageCoverage: 1, inkCoverage: 0 }), null, 'an image that draws nothing');
  t.equal(ocrReason('auto', { ...page, imageCoverage: 0, inkCoverage: 0.00002 }), null, 'a speck');
});

t.test('control codes count when written against letters (a word\'s ligatures), not as runs of their own (a formula\'s symbols)', async (t) => {
  // T1 bitmap text: "Office", "„Kaffee“" with ﬃ and the quotes read as their codes, in the word's run.
  t.equal(countCharacters(['O\u001bce', '\u0012Ka\u001be\u0010', 'Haus']).controls, 4);
  // A pdfTeX paper's OT1 math: Γ, Δ and Ω at codes 0, 1 and 10, each a run of a formula.
  t.equal(countCharacters(['\u0000', '(', 'x', ')', '=', '\u0001', '\u000a', 'energy']).controls, 0);
});

t.test('a page of an 8-bit code page read as Latin-1 keeps its text layer, control codes and all: repair re-decodes it', async (t) => {
  // "Вторая часть главы" in cp1251, read as Latin-1, beside Latin words.
  t.equal(latin1Words('Âòîðàÿ ÷àñòü ãëàâû about LaTeX'), 15, 'the letters of its words of four letters or more');
  t.equal(latin1Words('Déjà été à Zürich, très élégant'), 0, 'accented Latin text has none');
  const page = { chars: 1000, meaningless: 0, imageCoverage: 0, inkCoverage: 0, letters: 900, controls: 9 };
  t.match(ocrReason('auto', page), /9 of its characters are control codes/);
  t.equal(ocrReason('auto', { ...page, latin1Letters: 400 }), null);
  t.equal(ocrReason('auto', { ...page, latin1Letters: 100 }) !== null, true, 'a few such words among many do not save a page');
});

const lshortru = wildFile('texlive__lshortru.pdf');
t.test('an 8-bit Russian manual without Unicode maps is re-decoded, not read by OCR in a Latin language', { skip: lshortru.skip }, async (t) => {
  const pages = ['--first-page', '17', '--last-page', '19'];
  const records = parseLines((await run(['extract', ...pages, '--format', 'ndjson', lshortru.path])).stdout);
  t.notOk(records.some((r) => r.type === 'diagnostic' && r.code === 'ocr'), 'no page read by OCR');
  const text = (await run(['extract', '--quiet', ...pages, lshortru.path])).stdout;
  t.match(text, /Это нужно знать/u);
  t.match(text, /это компьютерная программа, созданная Дональдом Кнутом/u);
  t.notMatch(text, /[À-ÿ]{4}/u, 'no word left in Latin-1');
});
