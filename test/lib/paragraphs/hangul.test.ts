/**
 * Korean lines broken between two syllables of a word (lib/paragraphs/hangul.ts): joined without a
 * space when the document's own words show the break is inside one, kept as a space otherwise.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hangulJoin, hangulWords } from '../../../lib/paragraphs/hangul.js';
import { repoRoot, run } from '../../helpers.js';

t.test('a line that starts with a syllable the document never writes at a word\'s start continues the word', async (t) => {
  const lines = ['어부들이 생선을 시장에서 판다 모래성', '을 쌓고 아이들은 달을 바라본다', '사람들은 바다를 본다 그리고 작은 배를 탄다'];
  const found = hangulWords(lines);
  t.equal(hangulJoin('아이들은 모래성', '을 쌓고', found), 'hangul-syllables', '"을" ends words, never starts one');
  t.equal(hangulJoin('시장에서 생선', '바다를 본다', found), null, 'a syllable that starts words: a space');
  t.equal(hangulJoin('어부들이 본다', '을 쌓고', found), null, '"다" ends words more often than not: a space');
  t.equal(hangulJoin('그리고 시장에', '서 판다', found), 'hangul-word', 'the halves make a word of the document');
  t.equal(hangulJoin('그리고 바다를', '본다 그리고', found), null, 'both halves are words');
});

t.test('a XeLaTeX Korean document (xeCJK breaks lines between any two syllables)', async (t) => {
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', join(dir, 'korean-xelatex-undotum.pdf')]);
  t.equal(code, 0);
  const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);
  t.same(words(stdout), words(readFileSync(join(dir, 'korean-xelatex-undotum.txt'), 'utf8')), 'every word whole, every space kept');
});
