/**
 * Ligature damage against known words: spaces next to a ligature's letters, letters a ligature
 * swallowed, a soft hyphen lost at a line end.
 */
import t from 'tap';
import { repairLines } from './repair-fixtures.js';

t.test('a space after a ligature goes when the joined word is known and the parts are not', async (t) => {
  const { texts } = repairLines(['an ef ficient office for the staff', 'the staff finalized fifty', 'a clear de fi nition of the word']);
  t.same(texts, ['an efficient office for the staff', 'the staff finalized fifty', 'a clear definition of the word']);
});

t.test('a word broken across lines whose soft hyphen was dropped gets it back', async (t) => {
  const { texts } = repairLines(['the affidavits for the staff. Ef', 'ficient officers for the staff went in', 'to the office']);
  t.same(texts, ['the affidavits for the staff. Ef\u00ad', 'ficient officers for the staff went in', 'to the office'], 'two words ("in" | "to") stay two');
});

t.test('letters swallowed by a ligature are put back when exactly one ligature makes a known word', async (t) => {
  // A document long enough to show that its ff/fi/fl are gone.
  const body = Array.from({ length: 30 }, () => 'the side of the word is ok');
  const { texts } = repairLines(['side eects of the oce', ...body]);
  t.equal(texts[0], 'side effects of the office');
  const short = repairLines(['side eects of the oce']);
  t.equal(short.texts[0], 'side eects of the oce', 'not in a short document, which shows nothing');
  const intact = repairLines(['side eects of the oce', 'an efficient office', ...body]);
  t.equal(intact.texts[0], 'side eects of the oce', 'not in a document that has its ligature letters');
});
