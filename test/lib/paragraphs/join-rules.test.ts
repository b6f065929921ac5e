/**
 * Join rules in PDFExtract's configuration format: per-language sets applied before `common`,
 * `absolute_eof` over `join_words`, and rules written the Java way.
 */
import t from 'tap';
import { applyJoinRules, parseJoinRules } from '../../../lib/paragraphs/join-rules.js';

t.test('rules: absolute_eof wins over join_words; the language set applies before common', async (t) => {
  const rules = parseJoinRules({
    language: [
      { name: 'common', config: { join_words: [['.*[,;]', '', ' ']], absolute_eof: [['.*[?!]', '']] } },
      { name: 'xx', config: { join_words: [['.*\\bder', '[A-Z].*', '~']], absolute_eof: [['', 'NEU.*']] } },
    ],
  });
  t.same(applyJoinRules(rules, 'en', 'Is it?', 'then,'), { join: false, rule: 'common:absolute_eof[0]' });
  t.same(applyJoinRules(rules, 'en', 'one, two,', 'three'), { join: true, joiner: ' ', rule: 'common:join_words[0]' });
  t.same(applyJoinRules(rules, 'xx', 'mit der', 'Sonne'), { join: true, joiner: '~', rule: 'xx:join_words[0]' });
  t.equal(applyJoinRules(rules, 'en', 'mit der', 'Sonne'), null, 'another language does not get xx rules');
  t.same(applyJoinRules(rules, 'xx', 'and so,', 'NEU hier'), { join: false, rule: 'xx:absolute_eof[0]' });
  t.equal(applyJoinRules(rules, 'en', 'plain', 'text'), null);
});

t.test('rules written the Java way (escaped punctuation, whole-string match) compile', async (t) => {
  const rules = parseJoinRules({ language: [{ name: 'common', config: { join_words: [['.*[\\,\\&\\;\\:]$', '', ' ']], absolute_eof: [['.*\\w\\.$', '']] } }] });
  t.equal(applyJoinRules(rules, 'en', 'salt & pepper,', 'and')?.join, true);
  t.equal(applyJoinRules(rules, 'en', 'The end.', 'and')?.join, false);
  t.equal(applyJoinRules(rules, 'en', 'a, b', 'c'), null, 'the left regex must match the whole text');
});
