/**
 * The language's counts behind Korean line breaks (lib/paragraphs/hangul-prior.ts): the table the
 * package ships, as scripts/hangul-spacing.mjs writes it.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { HANGUL_SPACING, hangulPrior, parseHangulPrior } from '../../../lib/paragraphs/hangul-prior.js';

t.test('the table\'s kinds of line, and their sums', async (t) => {
  const prior = parseHangulPrior(['#\tcomment', 'L\t1\t3', 'L\t2\t5', 'S\t가\t4\t1\t2\t3', 'P\t가나\t7\t0', ''].join('\n'));
  t.same([...prior.lengths.counts], [[1, 3], [2, 5]]);
  t.equal(prior.lengths.total, 8);
  t.equal(prior.starts.counts.get('가'), 4);
  t.equal(prior.notEnds.total, 3);
  t.equal(prior.together.get('가나'), 7);
  t.equal(prior.apart.get('가나'), 0);
});

t.test('the shipped table: every word counted once by its length, at its start and at its end', async (t) => {
  const text = readFileSync(HANGUL_SPACING, 'utf8');
  const words = Number(/(\d+) words/u.exec(text.split('\n')[0]!)?.[1]);
  const prior = hangulPrior();
  if (!prior) throw new Error(`${HANGUL_SPACING} does not read`);
  t.ok(words > 100_000, `${words} words`);
  t.equal(prior.lengths.total, words);
  t.equal(prior.starts.total, words);
  t.equal(prior.ends.total, words);
  t.ok(prior.starts.counts.size > 500, `${prior.starts.counts.size} syllables`);
});
