/** The unigram model: known words by their counts, unknown ones by the letter model. */
import t from 'tap';
import { UnigramModel } from '../../../lib/lm/unigram.js';

t.test('the unigram model prefers known words, and unknown words that look like the document', async (t) => {
  const model = new UnigramModel();
  model.addText('the palace of the king and the garden of the queen were open to the people');
  t.ok(model.logProb('the') > model.logProb('king'));
  t.ok(model.logProb('king') > model.logProb('kingdom'), 'a known word beats an unknown one');
  t.ok(model.logProb('pardens') > model.logProb('xqzvkw'), 'letters like the document\'s are likelier');
  t.same(await model.score([['the', 'kingdom'], []]), [{ total: model.logProb('the') + model.logProb('kingdom'), oov: 1 }, { total: 0, oov: 0 }]);
});
