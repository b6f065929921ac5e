/**
 * Where paragraphs start inside a block (lib/paragraphs/split.ts): a line ended by choice, its
 * room measured against the next line's first word — in pointed Hebrew, whose vowel points stack
 * on their letters and take no width.
 */
import t from 'tap';
import { join } from 'node:path';
import { endsByChoice } from '../../../lib/paragraphs/split.js';
import { line, repoRoot, run } from '../../helpers.js';
import type { Line } from '../../../lib/protocol/records.js';

/** A right-to-left line ending at the right edge (500) whose letters are 7 pt wide; points take no room. */
function pointed(text: string, base: number): Line {
  const letters = text.replace(/[\p{Mn}\p{Me}]/gu, '').length;
  const w = letters * 7;
  return { ...line(text, base, { x: 500 - w, w, size: 14 }), dir: 'rtl' };
}

t.test('endsByChoice: the room a pointed word needs is that of its letters', async (t) => {
  // The next line opens with a word of five letters and four points (each letter 7 pt, a space
  // 7 pt, half an em to spare: 49 pt); the line before leaves 52 pt at its end.
  const next = pointed('דְּבוֹרָה קטנה עפה מעליו ושאלה את הפרח הגדול', 100);
  const previous = { ...pointed('בגנה יפה גר פרח אדום', 75), box: { x: 152, y: 64, w: 348, h: 14.7 } };
  t.equal(endsByChoice(previous, next, 100, 500, 0.5), true, 'the word fits: the line was ended by choice');
  const full = { ...previous, box: { x: 140, y: 64, w: 360, h: 14.7 } };
  t.equal(endsByChoice(full, next, 100, 500, 0.5), false, '40 pt left: the word did not fit');
});

t.test('real document: pointed Hebrew from Writer, paragraphs of one line apart from a wrapped one', async (t) => {
  const pdf = join(repoRoot, 'bench/corpus/marks/he-lo-niqqud.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  t.equal(code, 0);
  const paragraphs = stdout.trim().split(/\n\s*\n/u);
  t.equal(paragraphs.length, 5, 'the title and four paragraphs');
  t.match(paragraphs[2] ?? '', /^דְּבוֹרָה קְטַנָּה/u, 'the second paragraph starts on its own');
});
