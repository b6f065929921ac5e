/**
 * lib/formats/keywords.ts: keyword terms (Intl.Segmenter words, per-language stop-words) and
 * TF-IDF keywords per paragraph.
 */
import t from 'tap';
import { keywordTerms, tfidfKeywords } from '../../../lib/formats/keywords.js';

t.test('keyword terms: Intl.Segmenter words, stop-words of the language, no numbers', async (t) => {
  t.same(keywordTerms('The ferries of the island leave at 6 and 7.', 'en'), ['ferries', 'island', 'leave']);
  t.same(keywordTerms('Die Fähren der Insel fahren um 6 ab.', 'de'), ['fähren', 'insel', 'fahren']);
  const zh = keywordTerms('渡轮每小时从北码头出发', 'zh');
  t.ok(zh.length >= 3, 'Chinese is cut into words');
  t.ok(zh.every((w) => [...w].length <= 4), `no run of the whole sentence: ${zh.join('|')}`);
  const th = keywordTerms('เรือข้ามฟากออกจากท่าเรือทุกชั่วโมง', 'th');
  t.ok(th.length >= 3, `Thai is cut into words: ${th.join('|')}`);
  t.notOk(keywordTerms('的 了 和', 'zh').length, 'Chinese stop-words go');
});

t.test('TF-IDF keywords set each paragraph apart from the others', async (t) => {
  const texts = [
    'The ferry timetable follows the tide; the ferry leaves when the tide turns.',
    'The market sells fish and bread; the market opens when the ferry arrives.',
    'The lighthouse keeper logs the weather and the lighthouse lamp every night.',
  ].map((text) => ({ text, lang: 'en' }));
  const keywords = tfidfKeywords(texts, 2);
  t.same(keywords[0], ['tide', 'timetable']);
  t.same(keywords[1], ['market', 'arrives'], 'equal scores: the longer word first');
  t.same(keywords[2], ['lighthouse', 'weather']);
  t.same(tfidfKeywords([{ text: 'alone here', lang: 'en' }], 3), [[]], 'one paragraph: nothing sets it apart');
});
