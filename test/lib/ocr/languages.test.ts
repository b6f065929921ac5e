import t from 'tap';
import { chooseLanguage, identifiedLanguage, rereadLanguages, tesseractLanguage, UNSURE_READING } from '../../../lib/ocr/languages.js';

const installed = new Set(['eng', 'deu', 'ara', 'hin', 'chi_sim']);
const none = { configured: 'auto', docLang: null, pageScript: null, documentScript: null };

t.test('BCP 47 tags become Tesseract languages', async (t) => {
  t.equal(tesseractLanguage('de-DE'), 'deu');
  t.equal(tesseractLanguage('ar'), 'ara');
  t.equal(tesseractLanguage('zh-Hant-TW'), 'chi_tra');
  t.equal(tesseractLanguage('zh-CN'), 'chi_sim');
  t.equal(tesseractLanguage('xx'), null);
});

t.test('a page\'s language: --ocr-lang, else /Lang in the page\'s script, else the script, else eng', async (t) => {
  t.same(chooseLanguage({ ...none, configured: 'fra', pageScript: 'Arabic' }, installed).lang, 'fra');
  t.same(chooseLanguage({ ...none, pageScript: 'Arabic' }, installed), { lang: 'ara', how: "the Arabic script of the page's text layer" });
  t.equal(chooseLanguage({ ...none, docLang: 'de-DE', pageScript: 'Latin' }, installed).lang, 'deu');
  t.equal(chooseLanguage({ ...none, docLang: 'de-DE', pageScript: 'Devanagari' }, installed).lang, 'hin', "a /Lang in another script than the page's text loses");
  t.equal(chooseLanguage({ ...none, docLang: 'de' }, installed).lang, 'deu', 'a scan: /Lang');
  t.equal(chooseLanguage({ ...none, documentScript: 'Han' }, installed).lang, 'chi_sim', "a scan: the script of the document's other pages");
  t.equal(chooseLanguage(none, installed).lang, 'eng');
  t.match(chooseLanguage({ ...none, pageScript: 'Thai' }, installed), { lang: 'eng', how: /tha, which Tesseract has no data for/ });
});

t.test("a script's guess is read again in the language identified in its text, once per document", async (t) => {
  const evidence = { ...none, documentScript: 'Latin' as const, detected: true };
  const chosen = chooseLanguage(evidence, installed);
  const german = 'Jeden Morgen um vier Uhr offnet Herr Kruger die schwere Tur seiner Backstube, und der Ofen knistert schon, wahrend draussen die Strassen noch still sind.';
  t.equal(identifiedLanguage(evidence, chosen, german, installed), 'deu');
  t.equal(chooseLanguage(evidence, installed).lang, 'deu', 'the next pages');
  t.equal(identifiedLanguage(evidence, chosen, german, installed), null, 'once');
  const english = { ...none, pageScript: 'Latin' as const };
  t.equal(identifiedLanguage(english, chooseLanguage(english, installed), 'Every spring the keeper carried soil up from the harbour in two old buckets, a little at a time.', installed), null);
  t.equal(identifiedLanguage({ ...none }, { lang: 'deu', how: '--ocr-lang' }, german, installed), null, 'a language asked for stands');
});

t.test("an unsure reading in a script's usual language is tried in the script's other installed languages", async (t) => {
  const withUrdu = new Set([...installed, 'fas', 'urd']);
  // Tesseract's Arabic reading of Urdu set in Nastaliq: without the letters Urdu adds, it identifies as Arabic.
  const arabicReading = 'بارس كا دك بع آسمان ب كبر باول بجعا بوك وويي مكوتيزيارش شرورع مول او ركليو س يالى بم ركيا';
  const page = { ...none, pageScript: 'Arabic' as const };
  const chosen = chooseLanguage(page, withUrdu);
  t.same(rereadLanguages({ ...page }, chosen, arabicReading, 0.49, withUrdu), { identified: null, siblings: ['fas', 'urd'] }, 'unsure: the siblings installed');
  t.same(rereadLanguages({ ...page }, chosen, arabicReading, UNSURE_READING, withUrdu), { identified: null, siblings: [] }, 'sure: the reading stands');
  t.same(rereadLanguages({ ...page }, chosen, arabicReading, 0.49, installed), { identified: null, siblings: [] }, 'no sibling installed');
  t.same(rereadLanguages({ ...page }, chosen, 'بارس', 0.2, withUrdu), { identified: null, siblings: [] }, 'a reading of a few letters says nothing');
  t.same(rereadLanguages({ ...page }, chosen, '', 0, withUrdu), { identified: null, siblings: [] }, 'nor does an empty one');
  t.same(rereadLanguages({ ...page }, { lang: 'ara', how: '--ocr-lang' }, arabicReading, 0.49, withUrdu), { identified: null, siblings: [] }, 'a language asked for stands');
  const once = { ...page };
  rereadLanguages(once, chosen, arabicReading, 0.49, withUrdu);
  t.same(rereadLanguages(once, chosen, arabicReading, 0.49, withUrdu), { identified: null, siblings: [] }, 'once per document');
});
