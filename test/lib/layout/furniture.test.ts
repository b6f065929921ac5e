/**
 * lib/layout/furniture.ts: page numbers in the margin by their form, in the languages' own words.
 */
import t from 'tap';
import { join } from 'node:path';
import { PAGE_NUMBER } from '../../../lib/layout/furniture.js';
import type { PageRecord } from '../../../lib/protocol/records.js';
import { parseLines, repoRoot, run } from '../../helpers.js';

t.test('page numbers with the page count, in several languages', async (t) => {
  for (const text of ['7', '- iv -', 'Page 2 of 3', 'Seite 2 von 3', 'Página 2 de 3', 'page 2 sur 3', 'pagina 2 di 3', 'Strona 2 z 3', 'Sida 2 av 3', 'Side 2 af 3', 'Pagina 2 van 3', 'Seite 2/3']) {
    t.ok(PAGE_NUMBER.test(text), text);
  }
  for (const text of ['Chapter 2', '2 sur 3 jardins', 'Harbour Board', 'sur 3']) t.notOk(PAGE_NUMBER.test(text), text);
});

t.test('bench/corpus/footers/fr-chromium-margin-boxes.pdf: "page N sur 3" is the page number beside the footer', async (t) => {
  // CSS @page margin boxes: the newsletter's name bottom left, "page N sur M" bottom right.
  const result = await run(['extract', '--quiet', '--format', 'ndjson', join(repoRoot, 'bench/corpus/footers/fr-chromium-margin-boxes.pdf')]);
  t.equal(result.code, 0);
  const pages = parseLines(result.stdout).filter((r) => r.type === 'page') as PageRecord[];
  const feet = pages.map((p) => (p.blocks ?? []).filter((b) => b.box.y > p.height * 0.9).map((b) => [b.role, b.text]));
  t.same(feet, [1, 2, 3].map((n) => [['footer', 'Le jardin partagé — lettre d’automne'], ['page-number', `page ${n} sur 3`]]));
});
