/**
 * paragraphs on hand-built lines (no PDF): where paragraphs split, which are headings, how lines
 * are joined (spaces, CJK, line-end hyphens), and paragraphs that run on across pages.
 */
import t from 'tap';
import { normalizeOptions } from '../../stages/paragraphs.js';
import { blocksOfDocument } from '../../lib/paragraphs/blocks.js';
import type { Block, Line } from '../../lib/protocol/records.js';
import type { DocumentGroup } from '../../lib/protocol/stage.js';
import { group, line, pageRecord } from '../helpers.js';

/** The stage's core with its default options. */
const paragraphsOfDocument = (g: DocumentGroup) => blocksOfDocument(g, normalizeOptions());

/** Blocks of a one-page document made of these lines. */
const blocksOf = (lines: Line[]): Block[] => paragraphsOfDocument(group([pageRecord('p', 1, { lines })])).pages[0]!.blocks!;

/** Lines of a column at x = 72, 14 pt apart from `base`, each `w` wide (full width unless given). */
function column(texts: readonly string[], base: number, extra: { size?: number; block?: number; lastW?: number } = {}): Line[] {
  return texts.map((text, i) =>
    line(text, base + i * 14, { w: i === texts.length - 1 && extra.lastW ? extra.lastW : 300, size: extra.size ?? 10, block: extra.block ?? 0 }),
  );
}

t.test('a line gap wider than the usual one starts a new paragraph', async (t) => {
  const first = ['The first paragraph starts on this line', 'and carries on over a second line', 'and ends on the third line here.'];
  const second = ['A second paragraph follows after', 'a gap twice the usual line spacing', 'and it ends here too.'];
  // Both paragraphs in one layout block; the only sign of the break is the 28 pt gap.
  const blocks = blocksOf([...column(first, 100), ...column(second, 100 + 2 * 14 + 28)]);
  t.same(
    blocks.map((b) => [b.role, b.text, b.lines]),
    [
      ['body', first.join(' '), 3],
      ['body', second.join(' '), 3],
    ],
  );
});

t.test('a change of font size starts a paragraph; a larger short one is a heading', async (t) => {
  const heading = line('Results', 86, { size: 16, w: 70 });
  const body = ['The measurements agreed with each other', 'to within a few tenths of a degree in', 'every one of the twelve trials.'];
  // The heading sits at the usual line spacing above the body: only its size tells it apart.
  const blocks = blocksOf([heading, ...column(body, 100, { lastW: 150 })]);
  t.same(
    blocks.map((b) => [b.role, b.text]),
    [
      ['heading', 'Results'],
      ['body', body.join(' ')],
    ],
  );
});

t.test('a line-end hyphen is removed when the word is joined ("exam-" + "ple")', async (t) => {
  const [block] = blocksOf(column(['This sentence has an exam-', 'ple of a word broken at the end', 'of a line.'], 100));
  t.equal(block?.text, 'This sentence has an example of a word broken at the end of a line.');
  t.ok(block?.inferred.some((m) => m.kind === 'join' && m.rule === 'dehyphenate'), 'the join is recorded');
});

t.test('a line-end hyphen is kept when the document writes the hyphenated word elsewhere', async (t) => {
  const blocks = blocksOf([
    ...column(['It is a well-known fact that the', 'river floods every spring.'], 100),
    ...column(['The flooding is a well-', 'known problem for the farmers', 'along the lower valley.'], 100 + 14 + 28),
  ]);
  t.equal(blocks.length, 2);
  t.equal(blocks[1]?.text, 'The flooding is a well-known problem for the farmers along the lower valley.');
});

t.test('a soft-hyphen break (U+00AD then U+2010, as Chromium draws it) is always joined', async (t) => {
  const [block] = blocksOf(column(['the average tem\u00ad\u2010', 'peratures of the year'], 100));
  t.equal(block?.text, 'the average temperatures of the year');
});

t.test('a hyphen before a capitalised continuation is kept without a space ("Anglo-" + "Saxon")', async (t) => {
  const [block] = blocksOf(column(['the history of the Anglo-', 'Saxon kingdoms in England'], 100));
  t.equal(block?.text, 'the history of the Anglo-Saxon kingdoms in England');
});

t.test('a plain hyphen is a real one in a document that marks its hyphenation breaks with U+2010', async (t) => {
  const blocks = blocksOf([
    ...column(['The council publishes its tem\u2010', 'perature records every year and', 'a long-term plan for the city.'], 100),
    ...column(['Its members favour a long-', 'lasting agreement on the water', 'supply for the region.'], 100 + 2 * 14 + 28),
  ]);
  t.equal(blocks[0]?.text, 'The council publishes its temperature records every year and a long-term plan for the city.');
  t.equal(blocks[1]?.text, 'Its members favour a long-lasting agreement on the water supply for the region.');
});

t.test('a word that already has a hyphen keeps the one at the line end; a short unknown ending joins', async (t) => {
  const [block] = blocksOf(column(['the non-self-', 'governing territories and the co-opera-', 'tion of the members'], 100));
  t.equal(block?.text, 'the non-self-governing territories and the co-operation of the members');
});

t.test('a suspended compound before a common short word keeps its hyphen and the space ("Rede- und")', async (t) => {
  const [block] = blocksOf(
    column(['Die Freiheit und die Würde und die Rechte und die Pflichten und die', 'Gleichheit und die Rede-', 'und Meinungsfreiheit sind und bleiben'], 100),
  );
  t.equal(block?.text, 'Die Freiheit und die Würde und die Rechte und die Pflichten und die Gleichheit und die Rede- und Meinungsfreiheit sind und bleiben');
  t.ok(block?.inferred.some((m) => m.rule === 'suspended-hyphen'), 'the rule is recorded');
});

t.test('a hyphen between two words the document uses is kept ("как-" + "либо")', async (t) => {
  const [block] = blocksOf(column(['как мы знаем, либо так, либо как', 'иначе, но как-', 'либо решим'], 100));
  t.equal(block?.text, 'как мы знаем, либо так, либо как иначе, но как-либо решим');
});

t.test('a space estimated before a line-end hyphen is taken back when the joined word is known', async (t) => {
  const spaced: Line = { ...line('the tem -', 100, { w: 300 }), inferred: [{ at: 7, kind: 'space', rule: 'gap' }] };
  const dash: Line = { ...line('they said -', 128, { w: 300 }), inferred: [{ at: 9, kind: 'space', rule: 'gap' }] };
  const blocks = blocksOf([spaced, line('perature rose; the temperature fell', 114, { w: 300 }), dash, line('perhaps wrongly - that it rose', 142, { w: 300 })]);
  t.equal(blocks[0]?.text, 'the temperature rose; the temperature fell they said - perhaps wrongly - that it rose');
});

t.test('CJK lines are joined without a space', async (t) => {
  const [block] = blocksOf(column(['城市屋顶上的小菜园越来越', '受欢迎，居民们在这里种菜。'], 100));
  t.equal(block?.text, '城市屋顶上的小菜园越来越受欢迎，居民们在这里种菜。');
});

t.test('a paragraph broken mid-sentence at a page end continues on the next page', async (t) => {
  const page1 = column(['Searching the margins by torchlight', 'is slow work, and the team'], 500);
  const page2 = [
    ...column(['agreed that next year the count', 'should start earlier.'], 80),
    ...column(['Plants were surveyed on the', 'following weekend.'], 80 + 14 + 28),
  ];
  const { pages } = paragraphsOfDocument(group([pageRecord('c', 1, { lines: page1 }), pageRecord('c', 2, { lines: page2 })]));
  const blocks = pages.flatMap((p) => p.blocks ?? []);
  t.same(
    blocks.map((b) => [b.continues, b.text]),
    [
      [false, 'Searching the margins by torchlight is slow work, and the team'],
      [true, 'agreed that next year the count should start earlier.'],
      [false, 'Plants were surveyed on the following weekend.'],
    ],
  );
});

t.test('furniture lines keep their role and are not merged into the body', async (t) => {
  const header = line('Field Notes — Spring Survey', 30, { role: 'header', block: 0, w: 150 });
  const body = column(['The survey began in April and', 'lasted for two weekends.'], 100, { block: 1 });
  const blocks = blocksOf([header, ...body]);
  t.same(
    blocks.map((b) => [b.role, b.text]),
    [
      ['header', 'Field Notes — Spring Survey'],
      ['body', 'The survey began in April and lasted for two weekends.'],
    ],
  );
});

t.test('a line that ends with room for the next line\'s first word ends its paragraph', async (t) => {
  // Plain text in one size, no blank lines, no indents: only the short ends tell the paragraphs.
  const blocks = blocksOf([
    line('The fleet of ferries floated offshore while the staff', 100),
    line('finished the reports late.', 112),
    line('Fifteen officers offered to fly the flags at dawn and', 124),
    line('at dusk, for weeks, while the harbour walls were', 136),
    line('rebuilt by the crews from the northern yards and', 148),
    line('the last line.', 160),
  ]);
  t.same(
    blocks.map((b) => b.text.split(' ').slice(0, 2).join(' ')),
    ['The fleet', 'Fifteen officers'],
    '"Fifteen" would have fitted after "late."; "rebuilt" would not have fitted after "were"',
  );
});

t.test('centred lines and hyphenated line ends are not taken for chosen breaks', async (t) => {
  const centred = blocksOf([line('A Title Set In', 100, { x: 200 }), line('Two Centred Lines', 112, { x: 190 }), line('and a long body line that fills the measure well', 124, { x: 72 })]);
  t.match(centred[0]?.text, /^A Title Set In Two Centred Lines/, 'the two centred lines stay together');
  const hyphenated = blocksOf([line('a line that ends in a hyphen-', 100), line('ated word and goes on to fill the whole of it', 112)]);
  t.equal(hyphenated.length, 1);
});

t.test('Thai and CJK lines that end with room for the next line\'s first word end their paragraph', async (t) => {
  // "The weather was fine this morning, so we walked to the harbour. / We saw the boats." and
  // Thai: "Today the weather is good. / We go to the sea." — each second line starts a paragraph.
  const chinese = blocksOf([line('今天早上天气很好，我们一起走到了港口看船', 100), line('和海鸟。', 112), line('我们在那里看见了很多渔船和一座旧灯塔。', 124)]);
  t.equal(chinese.length, 2);
  const thai = blocksOf([line('วันนี้อากาศดีมากและท้องฟ้าแจ่มใสตลอดทั้งวัน', 100), line('เราไปทะเล', 112), line('เราเห็นเรือประมงหลายลำที่ท่าเรือเก่า', 124)]);
  t.equal(thai.length, 2);
});

t.test('paragraphs of two lines split at their first-line indents', async (t) => {
  // CJK set solid, a one-em indent opening each paragraph of two lines: half the lines are
  // indented, and a paragraph's last line may fill the measure. "The boats went out. / …"
  const size = 12;
  const lines = [
    line('朝の港から船が次々に沖へ出ていき、空は少しず', 100, { x: 84, w: 22 * size, size }),
    line('つ明るくなってきた。', 118, { x: 72, w: 10 * size, size }),
    line('市場では仲買人たちが獲れたばかりの魚を待って', 136, { x: 84, w: 22 * size, size }),
    line('いて、威勢のよい声が飛び交い値段が決まった。', 154, { x: 72, w: 23 * size, size }),
    line('昼には港も静かになり、子どもたちが釣りをする', 172, { x: 84, w: 22 * size, size }),
    line('姿が見られた。', 190, { x: 72, w: 7 * size, size }),
  ];
  t.same(blocksOf(lines).map((b) => b.lines), [2, 2, 2]);
  // A hanging indent (each entry's lines after the first indented) is no paragraph start.
  const entries = blocksOf([
    line('Ames, R. and Lind, K. Tides of the northern', 100, { x: 72, w: 200 }),
    line('harbours, volume two', 112, { x: 84, w: 100 }),
    line('Berg, T. Fishing villages of the coast and', 124, { x: 72, w: 200 }),
    line('their markets, second edition', 136, { x: 84, w: 150 }),
  ]);
  t.same(entries.map((b) => b.lines), [4]);
});
