/**
 * Tables (lib/layout/tables.ts): a grid found from the page's geometry is read row by row, each
 * row one paragraph of role `table` whose cells keep their text whole when it wraps; the records
 * and the XML keep the rows and cells. Columns of prose side by side are no table.
 */
import t from 'tap';
import { join } from 'node:path';
import { findTables } from '../../../lib/layout/tables.js';
import type { Fragment } from '../../../lib/layout/fragments.js';
import { boxOf } from '../../../lib/layout/geometry.js';
import type { Block, PageRecord } from '../../../lib/protocol/records.js';
import { item, parseLines, repoRoot, run } from '../../helpers.js';

const fragment = (text: string, x: number, y: number, row: number, w = text.length * 5): Fragment => {
  const items = [item(text, x, y, 10, { w })];
  return { items, box: boxOf(items), base: y, size: 10, row };
};

t.test('findTables: a wrapped cell stays in its row; prose side by side is no table', async (t) => {
  // Three columns; the middle cell of the first body row wraps onto a second line (pitch 12),
  // rows stand 22 apart.
  const grid = [
    fragment('Name', 50, 100, 0), fragment('Use', 150, 100, 0), fragment('Size', 350, 100, 0),
    fragment('Bolt', 50, 122, 1), fragment('holds the frame', 150, 122, 1), fragment('M8', 350, 122, 1),
    fragment('to the wall', 150, 134, 2),
    fragment('Nut', 50, 156, 3), fragment('locks the bolt', 150, 156, 3), fragment('M8', 350, 156, 3),
  ];
  const { tables, rest } = findTables(grid);
  t.equal(tables.length, 1);
  t.equal(rest.length, 0);
  const rows = tables[0]!.rows.map((r) => r.fragments.map((f) => f.items[0]!.text).join(' | '));
  t.same(rows, ['Name | Use | Size', 'Bolt | holds the frame | to the wall | M8', 'Nut | locks the bolt | M8']);
  t.same(tables[0]!.rows[1]!.fragments.map((f) => f.items[0]!.cell?.col), [0, 1, 1, 2]);
  // Two columns of full lines, 30 em wide, baselines shared: read as columns, not as a table.
  const prose = Array.from({ length: 8 }, (_, k) => [fragment('x'.repeat(60), 50, 100 + 12 * k, k), fragment('y'.repeat(60), 370, 100 + 12 * k, k)]).flat();
  t.equal(findTables(prose).tables.length, 0);
});

t.test('real documents: a Chromium table with wrapping cells and a Writer table with borders', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/tables');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', join(dir, 'en-chromium-table.pdf')]);
  t.equal(code, 0);
  const paragraphs = stdout.split(/\n\n/u).map((p) => p.trim());
  t.ok(paragraphs.includes('Crossing Vessel and what it carries Duration'), 'the header row');
  t.ok(paragraphs.includes('Early morning The small passenger launch, which also takes the post and fresh bread for the shop 40 minutes'), 'a row with wrapped cells');
  t.ok(paragraphs.indexOf('Table 1. Winter crossings and what each one carries') < paragraphs.indexOf('Crossing Vessel and what it carries Duration'), 'the caption above');

  const ndjson = await run(['extract', '--quiet', '--format', 'ndjson', join(dir, 'de-lo-fodt-table.pdf')]);
  const blocks = parseLines(ndjson.stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : [])) as Block[];
  const rows = blocks.filter((b) => b.role === 'table');
  t.equal(rows.length, 5);
  t.equal(rows[0]!.table?.header, true, 'the bold first row is the header');
  const montag = rows[1]!;
  t.same(montag.table!.cells.map((c) => montag.text.slice(c.start, c.end)), ['Montag', 'Holzgruppe', 'Hocker und kleine Regale; die große Säge bleibt ausgeschaltet', 'Halle']);

  const xml = await run(['extract', '--quiet', '--format', 'xml', join(dir, 'de-lo-fodt-table.pdf')]);
  t.match(xml.stdout, /<row table="0" index="0" header="true">\s*<cell col="0">Tag<\/cell>/u);
});
