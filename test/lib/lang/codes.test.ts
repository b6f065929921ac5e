/**
 * Language codes: 639-1 and 639-3 codes and tags are known, a 639-3 code without a 639-1 form
 * too (it is looked up in the package's whole table, read on first use), anything else is not.
 */
import t from 'tap';
import { isKnownLanguage, standardIso6393, toFrancCode, toIso6391 } from '../../../lib/lang/codes.js';
import { tesseractLanguage } from '../../../lib/ocr/languages.js';

t.test('codes with a 639-1 form, and the members franc has profiles of', async (t) => {
  t.equal(toFrancCode('en'), 'eng');
  t.equal(toFrancCode('en-GB'), 'eng');
  t.equal(toFrancCode('DE_at'), 'deu');
  t.equal(toFrancCode('ar'), 'arb', 'a macrolanguage is its member franc knows');
  t.equal(toIso6391('arb'), 'ar');
  t.equal(toIso6391('fra'), 'fr');
  t.equal(toIso6391('und'), 'und');
  t.equal(standardIso6393('ar'), 'ara', 'the standard pairs the macrolanguage');
  t.equal(tesseractLanguage('ar'), 'ara');
  t.equal(tesseractLanguage('de-DE'), 'deu');
  t.equal(tesseractLanguage('zh-TW'), 'chi_tra');
});

t.test('639-3 codes without a 639-1 form are known; other strings are not', async (t) => {
  for (const code of ['fil', 'yue', 'haw', 'nds', 'ckb']) t.ok(isKnownLanguage(code), code);
  for (const code of ['qqq', 'xx', '', 'english', 'e1']) t.notOk(isKnownLanguage(code), JSON.stringify(code));
  t.equal(toFrancCode('fil-PH'), 'fil');
  t.equal(standardIso6393('zz'), null);
});
