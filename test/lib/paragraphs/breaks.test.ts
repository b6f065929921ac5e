/**
 * The decision at one break: pdf2xml's rule and its full-line extension, the default rules per
 * language, a change of font size, and a last line measured against its column.
 */
import t from 'tap';
import { defaultJoinRules, parseJoinRules } from '../../../lib/paragraphs/join-rules.js';
import { decide, measuredFull } from '../../../lib/paragraphs/breaks.js';
import { normalizeOptions } from '../../../stages/join.js';
import { line } from '../../helpers.js';
import type { Line } from '../../../lib/protocol/records.js';

t.test('pdf2xml rule: no sentence-final mark and a lowercase start join; the full-line extension', async (t) => {
  const options = normalizeOptions({ rules: parseJoinRules({ language: [] }) });
  const open = { lang: 'en', lastLine: null };
  t.equal(decide('the boats came in with the', 'morning tide', open, options).join, true);
  t.equal(decide('the boats came in.', 'morning tide', open, options).join, false);
  t.equal(decide('the boats came in with the', 'Morning Tide', open, options).join, false);
  t.equal(decide('the boats came in with the', 'Morning Tide', { lang: 'en', lastLine: 'full' }, options).join, true);
  t.equal(decide('ตลาดเช้าเปิดทุกวัน', 'ชาวประมงนำปลามาขาย', { lang: 'th', lastLine: 'full' }, options).join, true);
  t.equal(decide('ตลาดเช้าเปิดทุกวัน', 'ชาวประมงนำปลามาขาย', { lang: 'th', lastLine: 'between' }, options).join, false);
  t.same(decide('the boats came in with the', 'morning tide', { lang: 'en', lastLine: 'short' }, options), { join: false, rule: 'short-line', joiner: ' ' }, 'a short last line ended the paragraph');
});

t.test('default rules: per-language sentence ends and German nouns', async (t) => {
  const options = normalizeOptions();
  const open = { lang: 'de', lastLine: null };
  t.equal(decide('Am Hafen verkaufen die', 'Fischer ihren Fang', open, options).join, true, 'a German noun carries on');
  t.equal(decide('Am Hafen verkaufen die', 'Fischer ihren Fang', { lang: 'en', lastLine: null }, options).join, false);
  t.equal(decide('बाज़ार सुबह खुलता है।', 'मछुआरे', { lang: 'hi', lastLine: 'full' }, options).join, false);
  t.equal(defaultJoinRules().has('hi'), true);
});

t.test('decide: a change of font size across a break ends the paragraph', async (t) => {
  const options = normalizeOptions();
  const prose = { lang: 'es', lastLine: 'full' as const };
  t.same(decide('los Derechos Humanos como ideal común por el', 'Artículo 5', { ...prose, sameSize: false }, options), { join: false, rule: 'size-change', joiner: ' ' });
  t.equal(decide('los Derechos Humanos como ideal común por el', 'Artículo 5', prose, options).join, true);
});

t.test('Hebrew running on into a Latin name joins when the line was full', async (t) => {
  const options = normalizeOptions();
  t.equal(decide('המרכז פיתח את מעבדי', 'Pentium M ו-Core שנמכרו', { lang: 'he', lastLine: 'full' }, options).join, true);
  t.equal(decide('המרכז פיתח את מעבדי', 'Pentium M ו-Core שנמכרו', { lang: 'he', lastLine: 'between' }, options).join, false);
});

t.test('measuredFull: a last line against the measure of its column', async (t) => {
  const column = [line('text text text text', 100, { w: 400 }), line('text text text text', 114, { w: 398 })];
  t.equal(measuredFull(line('last line', 128, { w: 390 }), column, undefined, 1.5), true, 'within 1.5 × size of the far edge');
  const next = line('ชาวประมงนำปลามาขายตั้งแต่เช้ามืด', 72, { w: 320 });
  // 10 points per character: the first word (ชาว, 3 characters) is 30 points wide.
  t.equal(measuredFull(line('ตลาดเช้าเปิดทุกวัน', 128, { w: 380 }), column, next, 1.5), true, 'the next word would not have fitted in 20 points');
  t.equal(measuredFull(line('ตลาดเช้าเปิดทุกวัน', 128, { w: 200 }), column, next, 1.5), false, 'it would have fitted in 200');
  t.equal(measuredFull(line('ตลาดเช้าเปิดทุกวัน', 128, { w: 200 }), [], next, 1.5), null, 'no other line of the column: unknown');
  t.equal(measuredFull(line('last line', 128, { x: 320, w: 150 }), column, next, 1.5), null, 'lines that start elsewhere are another column');
  const rtl = (l: Line): Line => ({ ...l, dir: 'rtl' });
  const rtlColumn = [rtl(line('نص نص نص', 100, { x: 72, w: 400 })), rtl(line('نص نص نص', 114, { x: 74, w: 398 }))];
  t.equal(measuredFull(rtl(line('السطر الأخير', 128, { x: 74, w: 398 })), rtlColumn, undefined, 1.5), true, 'right to left: the far edge is the left');
  t.equal(measuredFull(rtl(line('السطر الأخير', 128, { x: 300, w: 172 })), rtlColumn, rtl(line('كلمة', 72, { w: 40 })), 1.5), false);
});
