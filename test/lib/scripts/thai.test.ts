/**
 * Thai repairs: each rule that needs no lexicon, those that decide with the lexicon, and type VIII
 * (a mark drawn as its own run re-attached by position).
 */
import t from 'tap';
import { reattachMarks, thaiLexical, thaiOrthography } from '../../../lib/scripts/thai.js';
import { Rewriter, Tally } from '../../../lib/repair/rewrite.js';
import { repairDocument } from '../../../lib/repair/document.js';
import type { Item } from '../../../lib/protocol/records.js';
import { normalizeOptions } from '../../../stages/repair.js';
import { context, group, line, noThaiLexicon, rewrite, thai } from '../repair/repair-fixtures.js';

t.test('Thai rules that need no lexicon, each named', async (t) => {
  const cases: [string, string, string][] = [
    ['thai-pua', 'ท\uf70aาน ก\uf712', 'ท่าน ก็'],
    ['thai-space-before-aa', 'น า', 'นา'],
    ['thai-nikhahit-aa', 'ท\u0e4d\u0e32 ต\u0e4d\u0e48\u0e32 ต\u0e48\u0e4d\u0e32', 'ทำ ต่ำ ต่ำ'],
    ['thai-sara-e-e', '\u0e40\u0e40ม่', 'แม่'],
    ['thai-am-aa', 'น้ำา ต\u0e33\u0e48\u0e32', 'น้ำ ต่ำ'],
    ['thai-mark-order', 'น\u0e48\u0e34ง ต\u0e33\u0e48', 'นิ่ง ต่ำ'],
  ];
  for (const [rule, input, expected] of cases) {
    const tally = new Tally(true);
    const rw = new Rewriter(input, [], tally);
    thaiOrthography(rw);
    t.equal(rw.text, expected, rule);
    t.ok(tally.counts.get(rule), `${rule} is the rule that fired`);
    const off = new Rewriter(input, [], new Tally(false));
    thaiOrthography(off, new Set([rule]));
    t.not(off.text, expected, `${rule} can be switched off`);
  }
});

t.test('Thai rules that decide with the lexicon', { skip: noThaiLexicon }, async (t) => {
  const lexical = (text: string): string => rewrite(text, (rw) => thaiLexical(rw, thai));
  t.equal(lexical('การดาเนินงาน'), 'การดำเนินงาน', 'I: SARA AA that should be SARA AM');
  t.equal(lexical('กินข้าว กับ แม่'), 'กินข้าว กับ แม่', 'I/III: correct phrases stay');
  t.equal(lexical('โรงพยา บาล'), 'โรงพยาบาล', 'III: a space inside a word');
  t.equal(lexical('สนาม บิน'), 'สนาม บิน', 'III: a space between words stays');
  t.equal(lexical('ทรัพยุสิน'), 'ทรัพย์สิน', 'a mark the font maps wrong');
  t.equal(lexical('โดยท\u0e35\u0000'), 'โดยที่', 'a lost mark (NUL) is the one that makes a word');
  t.equal(lexical('กระท\u0e48\u4833\u0e32'), 'กระทำ', 'a stray glyph for NIKHAHIT with a stray tone mark');
});

t.test('Thai type VIII: a mark drawn as its own run goes to the consonant under it', async (t) => {
  // "กน" drawn as one run 10pt wide (5pt a glyph); the SARA II run sits over the first glyph.
  const items: Item[] = [
    { text: 'กน', x: 0, y: 10, w: 10, size: 10, font: 'F1', dir: 'ltr', block: 0 },
    { text: '\u0e35', x: 1, y: 10, w: 3, size: 10, font: 'F1', dir: 'ltr', block: 0 },
  ];
  const rw = new Rewriter('กน\u0e35', [], new Tally(false));
  reattachMarks(rw, items);
  t.equal(rw.text, 'ก\u0e35น');
  const over = new Rewriter('กน\u0e35', [], new Tally(false));
  reattachMarks(over, [items[0]!, { ...items[1]!, x: 6 }]);
  t.equal(over.text, 'กน\u0e35', 'a mark over the last consonant stays');
  const result = repairDocument(group([line('กน\u0e35', { box: { x: 0, y: 0, w: 10, h: 12 } })], null, items), normalizeOptions(), context());
  t.equal(result.pages[0]!.lines![0]!.text, 'ก\u0e35น', 'the stage finds the items of the line');
});
