/**
 * ARPA models: the reader (scores by hand, malformed files with line numbers, also when opened
 * through openModel) and the in-process estimator (distributions sum to one).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArpaModel, estimateArpa } from '../../../lib/lm/arpa.js';
import { openModel } from '../../../lib/lm/open.js';
import { wordsOf } from '../../../lib/lm/words.js';
import { repoRoot } from '../../helpers.js';

const ARPA = `\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-1.0\t<unk>
-99\t<s>\t-0.5
-0.7\t</s>
-0.5\tthe\t-0.3
-0.9\tcat\t-0.2

\\2-grams:
-0.2\t<s> the
-0.4\tthe cat
-0.1\tcat </s>

\\end\\
`;

const tmp = mkdtempSync(join(tmpdir(), 'pdfpipe-lm-'));
t.teardown(() => rmSync(tmp, { recursive: true, force: true }));

t.test('an ARPA model scores sentences with backoff', async (t) => {
  const model = ArpaModel.parse(ARPA);
  t.equal(model.order, 2);
  // <s> the (-0.2) + the cat (-0.4) + cat </s> (-0.1)
  t.equal(model.sentenceProb(['the', 'cat']).toFixed(4), (-0.7).toFixed(4));
  // <s> cat: backoff(<s>) -0.5 + p(cat) -0.9; cat the: backoff(cat) -0.2 + p(the) -0.5; the </s>: -0.3 + -0.7
  t.equal(model.sentenceProb(['cat', 'the']).toFixed(4), (-0.5 - 0.9 - 0.2 - 0.5 - 0.3 - 0.7).toFixed(4));
  // An unknown word takes <unk>'s probability.
  t.equal(model.wordProb(['the'], 'dog').toFixed(4), (-0.3 - 1.0).toFixed(4));
});

t.test('a malformed ARPA file is refused with the line number', async (t) => {
  t.throws(() => ArpaModel.parse('hello\n'), /no \\data\\ section/);
  t.throws(() => ArpaModel.parse(ARPA.replace('-0.4\tthe cat', 'x\tthe cat')), { message: /:14: malformed 2-gram entry/ });
  t.throws(() => ArpaModel.parse(ARPA.replace('ngram 2=3', 'ngram 2=4')), { message: /2-grams: 3 entries, header says 4/ });
  t.throws(() => ArpaModel.parse(ARPA.replace('\\end\\', '')), /unexpected end of file/);
  t.throws(() => ArpaModel.parse(ARPA.replace('\\2-grams:', '\\3-grams:')), /unexpected section/);
});

t.test('the in-process estimate is a proper distribution that lmplz-style readers accept', async (t) => {
  const text = readFileSync(join(repoRoot, 'samples/hyphenated.txt'), 'utf8');
  const sentences = text.split(/(?<=[.!?])\s+/u).map(wordsOf).filter((s) => s.length > 0);
  const arpa = estimateArpa(sentences, 3);
  const model = ArpaModel.parse(arpa);
  t.equal(model.order, 3);
  const vocab = [...new Set(sentences.flat()), '</s>', '<unk>'];
  for (const context of [[], ['the'], ['<s>', 'the'], ['of', 'the']]) {
    const sum = vocab.reduce((s, w) => s + 10 ** model.wordProb(context, w), 0);
    t.ok(Math.abs(sum - 1) < 0.02, `P(· | ${context.join(' ') || '∅'}) sums to ${sum.toFixed(4)}`);
  }
  // A sentence of the text scores better than the same words shuffled.
  const sentence = sentences[1]!;
  t.ok(model.sentenceProb(sentence) > model.sentenceProb([...sentence].reverse()), 'word order matters');
});

t.test('openModel: a missing or malformed model file is a clear error', async (t) => {
  t.throws(() => openModel(join(tmp, 'missing.arpa')), /cannot be read/);
  writeFileSync(join(tmp, 'broken.arpa'), ARPA.replace('-0.1\tcat </s>', 'oops'));
  t.throws(() => openModel(join(tmp, 'broken.arpa')), /broken\.arpa:15: malformed/);
});
