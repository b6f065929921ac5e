/**
 * Table cells: short blocks that share a row with other short blocks, in rows stacked one under
 * another. Running text never puts two blocks side by side on one baseline unless they are
 * columns, and columns are wide; a table's cells are narrow, and there are several in a row and
 * several rows.
 */
import type { Block, Role } from '../protocol/records.js';
import { formulaFragment } from '../paragraphs/formulas.js';
import { overlapsVertically } from '../layout/geometry.js';

/** A cell is narrower than this share of the page's widest body block. */
const CELL_WIDTH = 0.45;
/** Cells of one row are at most this × the measure apart. */
const CELL_GAP = 0.5;
/** Fewest cells in a row, and fewest such rows stacked, that make a table. */
const MIN_CELLS_PER_ROW = 2;
const MIN_ROWS = 2;
/** Rows further apart than this many × the cells' size are two tables (or none). */
const ROW_GAP = 2.5;

/** The roles a table cell may replace: what `paragraphs` gives a short block of text. */
const CELL_ROLES: ReadonlySet<Role> = new Set(['body', 'list-item', 'other']);

/** Marks the table cells among one page's blocks. Returns how many blocks it marked. */
export function markTables(blocks: readonly Block[]): number {
  const measure = Math.max(0, ...blocks.filter((b) => b.role === 'body').map((b) => b.box.w));
  if (measure === 0) return 0;
  // Pieces of a display formula sit side by side too (a fraction beside its equation): those with
  // a sign of math are not cells, nor are lone accents; a line of text beside one is not a row.
  // Bare numbers are cells.
  const cells = blocks.filter((b) => CELL_ROLES.has(b.role) && b.lines <= 2 && b.box.w < measure * CELL_WIDTH && /[\p{L}\p{N}]/u.test(b.text) && !formulaFragment(b));
  // Rows: cells that overlap a neighbour vertically, with distinct columns.
  const rows: Block[][] = [];
  for (const cell of [...cells].sort((a, b) => a.box.y - b.box.y)) {
    const row = rows.find((r) => r.some((other) => overlapsVertically(cell.box, other.box)));
    if (row) row.push(cell);
    else rows.push([cell]);
  }
  // A row's cells stand close: a gap wider than half the measure is a column gutter, not a cell's.
  const tableRows = rows.filter((r) => r.length >= MIN_CELLS_PER_ROW && closeSet(r, measure)).sort((a, b) => top(a) - top(b));
  let marked = 0;
  let run: Block[][] = [];
  const close = (): void => {
    if (run.length >= MIN_ROWS) {
      for (const row of run) for (const cell of row) {
        cell.role = 'table';
        cell.continues = false;
        marked++;
      }
    }
    run = [];
  };
  for (const row of tableRows) {
    const previous = run[run.length - 1];
    const size = Math.max(...row.map((c) => c.size));
    if (previous && top(row) - bottom(previous) > size * ROW_GAP) close();
    run.push(row);
  }
  close();
  return marked;
}

const top = (row: readonly Block[]): number => Math.min(...row.map((c) => c.box.y));
const bottom = (row: readonly Block[]): number => Math.max(...row.map((c) => c.box.y + c.box.h));

/** True when no gap between neighbouring cells of a row is wider than `CELL_GAP` × the measure. */
function closeSet(row: readonly Block[], measure: number): boolean {
  const byX = [...row].sort((a, b) => a.box.x - b.box.x);
  return byX.every((cell, i) => i === 0 || cell.box.x - (byX[i - 1]!.box.x + byX[i - 1]!.box.w) <= measure * CELL_GAP);
}
