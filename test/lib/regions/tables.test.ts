/**
 * lib/regions/tables.ts: table cells are narrow blocks side by side in stacked rows.
 */
import t from 'tap';
import { markTables } from '../../../lib/regions/tables.js';
import { block } from '../../helpers.js';

const cell = (text: string, x: number, y: number) => block(text, { box: { x, y, w: 60, h: 10 } });

t.test('rows of narrow cells are a table; a line of text beside a formula piece is not', async (t) => {
  const blocks = [
    block('A paragraph of running text that spans the whole column of the page.', { box: { x: 72, y: 100, w: 450, h: 60 }, lines: 5 }),
    cell('Pond', 72, 200), cell('Frogs', 200, 200), cell('Newts', 330, 200),
    cell('North', 72, 214), cell('41', 200, 214), cell('7', 330, 214),
    cell('South', 72, 228), cell('12', 200, 228), cell('0', 330, 228),
    block('the count is given by', { box: { x: 72, y: 300, w: 120, h: 10 } }),
    block('N = Σ n', { box: { x: 250, y: 300, w: 50, h: 10 } }),
  ];
  t.equal(markTables(blocks), 9);
  t.same(blocks.map((b) => b.role), ['body', ...Array(9).fill('table'), 'body', 'body']);
});
