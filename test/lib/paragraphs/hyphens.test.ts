/**
 * Line-end hyphens (lib/paragraphs/hyphens.ts): a reduplicated word broken at its hyphen keeps
 * it in a script whose typesetting hardly hyphenates, on hand-built words and on Chromium's Hindi
 * in Samyak Devanagari (the font sweep, bench/fontsweep), whose "दूर-दूर" ends one line with "दूर-".
 */
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { hyphenChoice, joinLines } from '../../../lib/paragraphs/hyphens.js';
import { charAccuracy, collapse, line, repoRoot, run } from '../../helpers.js';

t.test('a word said twice across a line-end hyphen keeps the hyphen', async (t) => {
  const none = new Set<string>();
  t.equal(hyphenChoice('दूर-', 'दूर', none).choice, 'keep');
  t.equal(hyphenChoice('খুব-', 'খুব', none).choice, 'keep', 'Bengali');
  t.equal(hyphenChoice('क-', 'क', none).choice, 'join', 'a lone letter repeated is no word');
  t.equal(hyphenChoice('exam-', 'ple', none).choice, 'join', 'an ordinary break joins');
  // Latin words are hyphenated into equal halves: the French gt document's "cher-" + "cher".
  t.equal(hyphenChoice('cher-', 'cher', none).choice, 'join', 'chercher');
  t.equal(hyphenChoice('दूर-', 'दूर', new Set(['दूरदूर'])).choice, 'join', 'a word the document writes joined joins');
  t.equal(hyphenChoice('что-', 'нибудь', none).choice, 'keep', 'a particle always written after a hyphen');
  t.equal(hyphenChoice('ме-', 'сто', none).choice, 'join', 'a word broken before its last syllable');
});

t.test("Chromium's Hindi in Samyak Devanagari keeps दूर-दूर", async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'devanagari-chromium-samyakdevanagari.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /दूर-दूर/u);
  t.equal(charAccuracy(collapse(readFileSync(join(dir, 'devanagari-chromium-samyakdevanagari.txt'), 'utf8')), collapse(stdout)), 1);
});

t.test('Thai lines join without a space, but after ๆ and beside a number', async (t) => {
  const join3 = (a: string, b: string): string => joinLines([line(a, 100), line(b, 114)], new Set()).text;
  t.equal(join3('ระหว่างทางเห็นทุ่งนา', 'สีเขียว'), 'ระหว่างทางเห็นทุ่งนาสีเขียว', 'inside a phrase: no space');
  t.equal(join3('ภูเขาสลับกันไปเรื่อย ๆ', 'ด้วย'), 'ภูเขาสลับกันไปเรื่อย ๆ ด้วย', 'after the repetition mark');
  t.equal(join3('ใช้เวลาเดินทางประมาณ', '๑๒ ชั่วโมง'), 'ใช้เวลาเดินทางประมาณ ๑๒ ชั่วโมง', 'before a number');
  t.equal(join3('ประมาณ ๑๒', 'ชั่วโมง'), 'ประมาณ ๑๒ ชั่วโมง', 'after a number');
  t.equal(join3('ประมาณ ๑', '๒ ชั่วโมง'), 'ประมาณ ๑๒ ชั่วโมง', 'inside a number');
});
