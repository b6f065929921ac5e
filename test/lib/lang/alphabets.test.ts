/**
 * Alphabets rule out Cyrillic languages that cannot write a text's letters: franc's trigrams alone
 * rank Macedonian first for a Russian paragraph of the font sweep (Chromium, DejaVu Serif).
 */
import t from 'tap';
import { join } from 'node:path';
import { foreignAlphabets } from '../../../lib/lang/alphabets.js';
import { DEFAULT_CANDIDATES } from '../../../lib/lang/codes.js';
import { identify } from '../../../lib/lang/identify.js';
import { parseLines, repoRoot, run } from '../../helpers.js';

const russian = 'Летом мы просыпались рано, когда солнце только поднималось над лесом. Бабушка уже варила кашу.';

t.test('the languages whose alphabet lacks letters a text writes again and again', async (t) => {
  t.same([...foreignAlphabets(russian, ['rus', 'mkd', 'bul', 'srp', 'ukr', 'eng'])].sort(), ['bul', 'mkd', 'srp', 'ukr'], 'ы ь ю й: not Macedonian or Serbian; ы: not Bulgarian or Ukrainian');
  t.same([...foreignAlphabets('Рибарските лодки се върнаха в пристанището преди изгрев.', ['rus', 'bul', 'mkd'])], ['mkd'], 'Bulgarian: ъ and щ rule out Macedonian only');
  t.same([...foreignAlphabets('Рибарските лодки се върнаха, а Рыбаков остана.', ['rus', 'bul'])], [], 'one foreign letter (a quoted name) rules out nothing');
  t.same([...foreignAlphabets('The boats came back.', ['rus', 'mkd'])], [], 'no Cyrillic letters');
  t.equal(identify(russian, { candidates: DEFAULT_CANDIDATES, prior: null, priorRatio: 0.9, minLetters: 20, fallback: 'und' }), 'ru');
});

t.test('a Russian page of the font sweep: every paragraph is Russian', async (t) => {
  const pdf = join(repoRoot, 'test/fixtures/fontsweep/cyrillic-chromium-dejavuserif.pdf');
  const { code, stdout } = await run(['extract', '--format', 'ndjson', pdf]);
  t.equal(code, 0);
  const records = parseLines(stdout);
  const blocks = records.flatMap((r) => (r.type === 'page' ? (r.blocks ?? []) : [])).filter((b) => [...b.text].length > 40);
  t.ok(blocks.length >= 2, 'the paragraphs');
  t.same(blocks.map((b) => b.lang), blocks.map(() => 'ru'));
  const doc = records.find((r) => r.type === 'doc');
  t.equal(doc?.type === 'doc' ? doc.lang : '', 'ru');
});

t.test('letters no listed alphabet has rule out nothing by themselves', async (t) => {
  // A broken font maps quotation marks to "ѕ" and "ї": Russian keeps the fewest foreign letters.
  const quoted = 'Программа произносится как ѕтехї, а пишется как ѕтексї в обычном тексте.';
  t.notOk(foreignAlphabets(quoted, ['rus', 'ukr', 'mkd']).has('rus'));
  t.ok(foreignAlphabets(quoted, ['rus', 'ukr', 'mkd']).has('mkd'));
});
