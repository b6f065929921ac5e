/**
 * lib/layout/leaders.ts: a contents list's dot leaders dropped, its page numbers kept on their rows;
 * and end to end, the contents pages of bench/corpus/contents read one entry a paragraph.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripLeaders } from '../../../lib/layout/leaders.js';
import { charAccuracy, item, repoRoot, run, wordItems } from '../../helpers.js';

/** A row "title . . . . n" with one-dot runs (groff) ending at x = 500. */
function dottedRow(words: string[], page: number, y: number) {
  const title = wordItems(words, 72, y);
  const dots = [];
  for (let x = title.at(-1)!.x + title.at(-1)!.w + 10; x < 480; x += 12) dots.push(item('.', x, y, 10, { w: 2.5 }));
  return [...title, ...dots, item(String(page), 500 - 5 * String(page).length, y)];
}

t.test('one-dot leaders and leaders drawn in the title run are dropped; the numbers join their titles', async (t) => {
  const rows = [
    dottedRow(['1', 'Introduction'], 2, 100),
    dottedRow(['1.1', 'Why', 'the', 'ponds', 'matter'], 2, 114),
    dottedRow(['2', 'Methods'], 3, 128),
    // LibreOffice draws title, leader and number as one run.
    [item('2.1', 72, 142), item('Sampling......................................7', 90, 142, 10, { w: 410 })],
  ];
  const { items, joined } = stripLeaders(rows.flat());
  t.notOk(items.some((i) => /^[.\s]+$/u.test(i.text)), 'no leader runs left');
  t.same(items.filter((i) => joined.has(i)).map((i) => i.text), ['2', '2', '3', '7']);
  t.ok(items.some((i) => i.text === 'Sampling'), 'the title cut from its leader');
});

t.test('a page of prose and a table of values keeps its runs', async (t) => {
  const rows = [0, 1, 2, 3, 4].map((k) => [...wordItems(['Ponds', 'visited', 'in', 'month'], 72, 100 + 14 * k), item(String(9 - k), 495, 100 + 14 * k)]);
  const { items, joined } = stripLeaders(rows.flat());
  t.equal(items.length, rows.flat().length);
  t.equal(joined.size, 0, 'falling numbers without leaders are no page numbers');
});

t.test('the contents documents read one entry a paragraph, leaders dropped', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/contents');
  for (const name of ['en-chromium-toc', 'de-groff-toc', 'fr-lo-fodt-toc']) {
    const { code, stdout } = await run(['extract', '--quiet', '--blank-lines', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const truth = readFileSync(join(dir, `${name}.txt`), 'utf8');
    const paragraphs = new Set(stdout.split(/\n\s*\n/u).map((p) => p.replace(/\s+/gu, ' ').trim()));
    const entries = truth.trim().split('\n\n').filter((p) => /\s\d$/u.test(p));
    t.ok(entries.length >= 14, `${name}: entries in the truth`);
    t.same(entries.filter((e) => !paragraphs.has(e)), [], `${name}: every entry a paragraph of its own`);
    t.ok(charAccuracy(truth.replace(/\s+/gu, ' '), stdout.replace(/\s+/gu, ' ')) > 0.97, `${name}: characters`);
  }
});
