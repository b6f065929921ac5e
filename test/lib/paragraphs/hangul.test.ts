/**
 * Korean lines broken between two syllables of a word (lib/paragraphs/hangul.ts): joined without a
 * space when the document's own words make one word likelier than two, kept as a space otherwise,
 * and always kept when a line shows that the producer breaks only at spaces.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hangulJoin, hangulWords, pairEvidence, roomForNextSyllable, spansListedWord } from '../../../lib/paragraphs/hangul.js';
import { hangulPrior } from '../../../lib/paragraphs/hangul-prior.js';
import type { Item } from '../../../lib/protocol/records.js';
import { line, repoRoot, run } from '../../helpers.js';

t.test('a break is one word or two by the lengths and syllables of the document\'s words (the language\'s counts aside)', async (t) => {
  const lines = ['어부들이 생선을 시장에서 판다 모래성', '을 쌓고 아이들은 달을 바라본다', '사람들은 바다를 본다 그리고 작은 배를 탄다'];
  const found = hangulWords(lines);
  t.same([...found.lengths.entries()].sort(), [[2, 6], [3, 3], [4, 2]], 'whole words only: a line\'s first and last are halves');
  t.equal(hangulJoin('아이들은 모래성', '을 쌓고', found, null), 'hangul-segments', 'no word of one syllable, "을" ends words: one word');
  t.equal(hangulJoin('시장에서 생선', '바다를 본다', found, null), null, 'a word of five syllables is longer than any: two');
  t.equal(hangulJoin('아이들은 바다', '를 본다', found, null), 'hangul-word', 'the halves make a word of the document');
  t.equal(hangulJoin('그리고 바다를', '본다 그리고', found, null), null, 'both halves are words');
  t.equal(hangulJoin('그리고 작은', '배를 탄다', found, null), null, 'two words of two syllables, "은" ends words, "배" starts one: two');
  found.spacesOnly = true;
  t.equal(hangulJoin('아이들은 모래성', '을 쌓고', found, null), null, 'a producer that breaks only at spaces: always a space');
});


/** Runs of Hangul words, each syllable 1 em wide, `gap` points apart. */
function hangulRuns(words: readonly string[], x: number, base: number, gap: number, size = 10): Item[] {
  const out: Item[] = [];
  let at = x;
  for (const text of words) {
    const w = [...text].length * size;
    out.push({ text, x: at, y: base, w, size, font: 'F1', dir: 'ltr', block: 0 });
    at += w + gap;
  }
  return out;
}

t.test('a line with room for the next line\'s first syllable and a space shows a producer that breaks only at spaces', async (t) => {
  // Three lines, size 10: a syllable is 10 points, a word space 2.5; the second sets the measure, 212.5.
  const paragraph = (first: string[], firstGap: number, x = 72): { lines: ReturnType<typeof line>[]; items: Item[] } => {
    const rows = [first, ['어른들은', '파라솔', '아래에서', '시원한', '수박을', '먹는다'], ['바라본다']];
    const items: Item[] = [];
    const lines = rows.map((words, i) => {
      const runs = hangulRuns(words, x, 100 + 14 * i, i === 0 ? firstGap : 2.5);
      items.push(...runs);
      const last = runs.at(-1)!;
      return line(words.join(' '), 100 + 14 * i, { x, w: last.x + last.w - x });
    });
    return { lines, items };
  };
  const tight = paragraph(['여름이', '되면', '작은', '바닷가', '마을은', '관광객으로가'], 2.5);
  t.equal(tight.lines[0]!.box.w, 202.5, 'the first line ends 10 points short');
  t.notOk(roomForNextSyllable(tight.lines, tight.items), 'less room than a syllable: any producer');
  const short = paragraph(['여름이', '되면', '작은', '바닷가', '마을은'], 2.5);
  t.ok(roomForNextSyllable(short.lines, short.items), '72.5 points short: a syllable would have fitted');
  const justified = paragraph(['여름이', '되면', '작은', '바닷가', '마을은'], 20.625);
  t.equal(justified.lines[0]!.box.w, 212.5, 'word gaps stretched to the measure');
  t.ok(roomForNextSyllable(justified.lines, justified.items), 'the stretch of its word gaps is room');
});

const fixtures = join(repoRoot, 'test/fixtures');
const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);

for (const [title, file] of [
  ['a XeLaTeX Korean document (xeCJK breaks lines between any two syllables)', 'fontsweep/korean-xelatex-undotum'],
  ['another one, its lines broken inside stems ("조용|히", "있|었다")', 'korean/line-breaks'],
  ['a Writer Korean document, flush left (Writer breaks only at spaces: "남긴 | 의견을")', 'korean/spaces-only'],
] as const) {
  t.test(title, async (t) => {
    const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', join(fixtures, `${file}.pdf`)]);
    t.equal(code, 0);
    t.same(words(stdout), words(readFileSync(join(fixtures, `${file}.txt`), 'utf8')), 'every word whole, every space kept');
  });
}

t.test('a line ending in a digit or a Latin letter before Hangul: as the document writes them inside its lines', async (t) => {
  const attached = hangulWords(['지난 5월에 우리 가족은 떠났다', '사진을 SNS에 올리고 3명이 함께 걸었다']);
  t.equal(hangulJoin('비행시간은 1', '시간 정도였고', attached), 'hangul-attached', '"5월", "SNS에", "3명": a number and its counter are one word');
  attached.spacesOnly = true;
  t.equal(hangulJoin('비행시간은 1', '시간 정도였고', attached), 'hangul-attached', 'a producer that breaks Hangul only at spaces breaks between scripts too (Writer)');
  const apart = hangulWords(['우리는 KTX 대신 배를 탔다', '오후 3 시에 만났다 그리고 A 구역에']);
  t.equal(hangulJoin('비행시간은 1', '시간 정도였고', apart), null, '"KTX 대신", "3 시", "A 구역": apart');
});

t.test('Latin letters or digits written onto Hangul start the word: its Hangul end is no lone syllable', async (t) => {
  // Chromium breaks a line after "SNS에" (and before "올릴"): a lone "에" would be half a word.
  const doc = join(repoRoot, 'test/fixtures/fontsweep/korean-chromium-nanumgothic-b');
  const { stdout, code } = await run(['extract', '--quiet', `${doc}.pdf`]);
  t.equal(code, 0);
  t.match(stdout, 'SNS에 올릴');
  t.same(words(stdout), words(readFileSync(`${doc}.txt`, 'utf8')), 'every word as written');
});

t.test('behind a short document\'s words, the language\'s: where syllables stand, which pairs are written together', async (t) => {
  const prior = hangulPrior();
  if (!prior) throw new Error('data/hangul-spacing.tsv is missing: the package ships it');
  t.ok(pairEvidence('시', '간', prior) > 0, '"시간" is written together more than its syllables alone say');
  t.ok(pairEvidence('지', '못', prior) < 0, '"-지 못-" apart');
  t.equal(pairEvidence('갃', '갃', prior), 0, 'a pair the counts do not show says nothing');
  // Two Chromium pages of one paragraph (Chromium breaks between any two syllables): their own
  // words cannot tell these breaks; read with the language's counts, every word comes out whole.
  for (const [file, pair] of [
    ['korean-chromium-notosanscjkkr-b', '"잊지 | 못할": two words'],
    ['korean-chromium-undotum-b', '"비행시 | 간은": one word'],
  ] as const) {
    const doc = join(fixtures, 'fontsweep', file);
    const { stdout, code } = await run(['extract', '--quiet', `${doc}.pdf`]);
    t.equal(code, 0);
    t.same(words(stdout), words(readFileSync(`${doc}.txt`, 'utf8')), `${pair}; every word as written`);
  }
  // The same break, decided by the document alone and with the language behind it.
  // The same break decided by the page's lines alone, and with the language behind them.
  const lines = [
    '지난 5월, 우리 가족은 김포공항에서 비행기를 타고 제주도로 떠났다. 비행시간은 1',
    '시간 정도였고, 공항에 내리자 따뜻한 바람이 불어왔다.',
    '첫날에는 성산일출봉에 올라가 해돋이를 보았다. 아버지는 “이런 풍경은 평생 잊지',
    '못할 거야”라고 말씀하셨다. 저녁에는 숙소 근처 카페(‘바다정원’)에서 SNS에 올릴',
    '사진을 고르며 다음 여행 계획을 세웠다.',
  ];
  const found = hangulWords(lines);
  t.equal(hangulJoin(lines[2]!, lines[3]!, found, null), 'hangul-segments', 'alone, the page joins "잊지못할"');
  t.equal(hangulJoin(lines[2]!, lines[3]!, found, prior), null, 'with the language: "잊지 못할"');
});

t.test('a break inside a longer word of the language\'s list joins', async (t) => {
  const prior = hangulPrior();
  if (!prior) throw new Error('data/hangul-spacing.tsv is missing: the package ships it');
  t.ok(prior.words.has('우체국'), 'the list holds everyday words of three syllables');
  t.ok(spansListedWord('우체', '국을', prior.words), '"우체 | 국을": "우체국" spans the break');
  t.notOk(spansListedWord('우체국', '을', prior.words), 'a word that ends at the break spans nothing');
  t.notOk(spansListedWord('평생', '잊지', prior.words), '"평생 | 잊지": no word spans it');
  t.notOk(spansListedWord('우체', '국', prior.words), 'the right half must go on past the word');
  // A page whose own words cannot tell: "우체국" once, at the break.
  const lines = ['건물은 오래된 우체', '국을 고쳐서 만들었는데 창문이 넓어서 오후가 되면 햇빛이 들어온다'];
  const found = hangulWords(lines);
  t.equal(hangulJoin(lines[0]!, lines[1]!, found, prior), 'hangul-listed-word');
});
