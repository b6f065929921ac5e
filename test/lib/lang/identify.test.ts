/** identify: ISO 639-1 codes from franc among the candidates, too short and garbled text. */
import t from 'tap';
import { DEFAULT_CANDIDATES, toIso6391 } from '../../../lib/lang/codes.js';
import { identify } from '../../../lib/lang/identify.js';
import { arabic, english, german } from './texts.js';

t.test('identify: ISO 639-1 codes, candidates keep small languages from winning, too short is the fallback', async (t) => {
  const base = { candidates: DEFAULT_CANDIDATES, prior: null, priorRatio: 0.9, minLetters: 20, fallback: 'und' };
  t.equal(identify(english, base), 'en');
  t.equal(identify(german, base), 'de');
  t.equal(identify(arabic, base), 'ar');
  t.equal(identify('Hafen', base), 'und');
  t.equal(toIso6391('heb'), 'he');
  t.equal(toIso6391('cmn'), 'zh');
  t.equal(toIso6391('und'), 'und');
});

t.test('garbled text (wrong 8-bit table, wrong glyph map) is und, not a confident guess', async (t) => {
  const base = { candidates: DEFAULT_CANDIDATES, prior: null, priorRatio: 0.9, minLetters: 20, fallback: 'und' };
  // Cyrillic bytes read as Latin-1, and Cyrillic glyphs mapped to Greek letters.
  const latin1 = Buffer.from('Рыбацкие лодки вернулись в гавань до рассвета, и рынок открылся.', 'utf8').toString('latin1');
  t.equal(identify(latin1, base), 'und');
  t.equal(identify('ΌέΛέηκ ΛΡΟζΤβΠΦΩΝ ΠΥΟΩΦΡ ΠΨΩΜΦΛΟΛ έηΝάΠΧΣ ΪΫΛΝΛΧ ΣΣΝάΠΧΣάΝ ΩΜΩΟΛΧΣ', base), 'und');
  t.equal(identify(english, base), 'en', 'real text is not garbled');
});
