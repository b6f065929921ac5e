/**
 * lib/regions/captions.ts: captions by their lead, continued below while set like them.
 */
import t from 'tap';
import { join } from 'node:path';
import { markCaptions, opensCaption } from '../../../lib/regions/captions.js';
import type { PageRecord } from '../../../lib/protocol/records.js';
import { block, parseLines, repoRoot, run } from '../../helpers.js';

const body = { size: 10, font: 'Body' };

t.test('a lead in a language the labels do not list opens a caption only in type smaller than the body', async (t) => {
  t.ok(opensCaption(block('Kuva 3: Sataman laituri aamulla.', { font: 'Small', size: 9 }), body));
  t.ok(opensCaption(block('Rycina 1. Stary młyn nad rzeką.', { font: 'Small', size: 9 }), body));
  t.notOk(opensCaption(block('Chapter 3. The harbour', { font: 'Bold', size: 14 }), body), 'larger: a heading');
  t.notOk(opensCaption(block('Kuva 3: Sataman laituri aamulla.', { font: 'Body', size: 10 }), body), 'the body\'s size');
});

t.test('a lead with its number and punctuation opens a caption; a sentence about a figure does not', async (t) => {
  t.ok(opensCaption(block('Figure 3: Counts per site.', { font: 'Body', size: 10 }), body));
  t.ok(opensCaption(block('Fig. 2. Counts per site.', { font: 'Body', size: 10 }), body));
  t.ok(opensCaption(block('Table IV — Yields', { font: 'Body', size: 10 }), body));
  t.ok(opensCaption(block('Abbildung 4: Ergebnisse', { font: 'Body', size: 10 }), body));
  t.notOk(opensCaption(block('Figure 3 shows the counts per site.', { font: 'Body', size: 10 }), body));
  t.ok(opensCaption(block('Fig. 5 Counts per site in spring', { font: 'Small', size: 8 }), body), 'no punctuation, but set apart');
  t.notOk(opensCaption(block('Fig. 5 shows the counts', { font: 'Small', size: 8 }), body));
  // A list of captions set in the body's type (a page of them at the end of a preprint).
  t.ok(opensCaption(block('Fig.1 The charge distribution of the fragments', { font: 'Body', size: 10 }), body), 'no punctuation, in the body type, but a capital after the number');
  t.ok(opensCaption(block('Fig.2 (a)The counts in spring, (b)in summer', { font: 'Body', size: 10 }), body), 'a panel letter before the capital');
  t.notOk(opensCaption(block('Figure 3 and the table below give the counts', { font: 'Body', size: 10 }), body));
  t.notOk(opensCaption(block('Table 2 A', { font: 'Body', size: 10 }), body), 'a letter alone is no sentence');
});

t.test('a caption goes on in the blocks right under it set like it, and stops at the body', async (t) => {
  const blocks = [
    block('Figure 1. The counts of the first survey, by pond and by', { font: 'Small', size: 8, box: { x: 72, y: 300, w: 400, h: 9 } }),
    block('(a) week and (b) month.', { font: 'Small', size: 8, box: { x: 72, y: 311, w: 200, h: 9 }, role: 'list-item' }),
    block('The counts rose through the spring and fell in June.', { font: 'Body', size: 10, box: { x: 72, y: 330, w: 400, h: 24 }, continues: true }),
  ];
  t.equal(markCaptions(blocks, body), 2);
  t.same(blocks.map((b) => b.role), ['caption', 'caption', 'body']);
});

t.test('a caption\'s last line cut off under two captions side by side is still the caption\'s', async (t) => {
  // A pdfLaTeX page (test/fixtures/captions/build.sh): two tables side by side, each under a caption
  // in the body's type. The captions' lines share rows, so the layout reads them as one block, and
  // the left caption's last line, "the orchard.", stands alone under it.
  const pdf = join(repoRoot, 'test/fixtures/captions/side-captions.pdf');
  const ndjson = await run(['extract', '--quiet', '--format', 'ndjson', pdf]);
  const blocks = parseLines(ndjson.stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : []));
  t.equal(blocks.find((b) => b.text === 'the orchard.')?.role, 'caption');
  t.equal(blocks.find((b) => b.text.startsWith('The young rows drew'))?.role, 'body', 'the paragraph under the tables is body');
  const { stdout } = await run(['extract', '--quiet', '--blank-lines', '--body-only', pdf]);
  t.notMatch(stdout, /the orchard\./u, 'the body-only text leaves it out with its caption');
});
