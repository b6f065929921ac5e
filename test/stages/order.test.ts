/**
 * order on real PDFs: letter-spaced pages whose word spaces line up from row to row.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { orderDocument } from '../../lib/layout/reading-order.js';
import { normalizeOptions } from '../../stages/order.js';
import type { PageRecord } from '../../lib/protocol/records.js';
import { group, parseLines, run, sharedRoot } from '../helpers.js';

const letterSpaced = join(sharedRoot, 'corpus/gt/en-chromium-letterspaced.pdf');

t.test('a letter-spaced page: word spaces that line up from row to row are no column gutter', { skip: existsSync(letterSpaced) ? false : `${letterSpaced} is not available (no ../shared corpus)` }, async (t) => {
  const parsed = await run(['parse', '--quiet', letterSpaced]);
  const pages = parseLines(parsed.stdout).filter((r): r is PageRecord => r.type === 'page');
  const ordered = orderDocument(group(pages), normalizeOptions()).pages[0]!;
  // One glyph per run: "Everyone is entitled to all the rights…" on one row, with 0.6 em word spaces.
  const row = (ordered.items ?? []).filter((i) => Math.abs(i.y - 137.2) < 1);
  t.ok(row.length > 40, `the row of the first sentence of Article 2 (${row.length} glyphs)`);
  t.same([...new Set(row.map((i) => i.block))].length, 1, 'its glyphs are in one block');
});

t.test('a letter-spaced short last line: its two or three word spaces are no column gutter', { skip: existsSync(letterSpaced) ? false : `${letterSpaced} is not available (no ../shared corpus)` }, async (t) => {
  const parsed = await run(['parse', '--quiet', letterSpaced]);
  const pages = parseLines(parsed.stdout).filter((r): r is PageRecord => r.type === 'page');
  const ordered = orderDocument(group(pages), normalizeOptions()).pages[1]!;
  // Page 2: "such interference or attacks." ends Article 12; word spaces under it line up.
  const row = (ordered.items ?? []).filter((i) => Math.abs(i.y - 325.5) < 1);
  t.equal(row.map((i) => i.text).join(''), 'suchinterferenceorattacks.', 'the row of the last line of Article 12');
  t.same([...new Set(row.map((i) => i.block))].length, 1, 'its glyphs are in one block');
});
