/**
 * Tables: a grid of text found from the page's geometry, so that it is read row by row, not column
 * by column. A table is a stretch of rows cut into fragments at the same white columns (gutters no
 * fragment crosses), two rows at least with text in two columns; the rows of the page between
 * them fit inside the columns. Its row bands are the lines that belong together: a cell's text
 * that wraps stays in its row, because rows of a table stand further apart than the lines of one
 * cell (padding, rules, `\arraystretch`); where they do not, a line with its first column empty
 * continues the row above.
 *
 *     Crossing   Vessel and what it carries     Duration   ← row band 0 (header)
 *     Early      The small passenger launch,    40         ← row band 1: three cells, wrapped
 *     morning    which also takes the post      minutes
 *     Late       The car ferry with room…       One hour   ← row band 2
 *
 * Side-by-side columns of prose share gutters and often baselines too; they are told apart by
 * their lines, which fill the column's width (a cell's lines are ragged or short), and are left to
 * the column reading of columns.ts.
 */
import type { CellPlace, Item } from '../protocol/records.js';
import { boxOf, EQUATION_NUMBER, median } from './geometry.js';
import type { Fragment } from './fragments.js';
import type { LayoutBlock } from './blocks.js';

/** A gutter between two table columns is at least this × font size wide. */
const MIN_GUTTER = 0.6;
/** Successive rows of one table have baselines at most this × font size apart… */
const MAX_ROW_STEP = 4;
/** …and a row with text in one column only, above the first or below the last row with two, at
 * most this far: the wrapped line of a cell, not a line of the text around the table. */
const CONTINUATION_STEP = 1.6;
/** A baseline further than this × the table's line pitch below the previous one starts a row band. */
const BAND_SLACK = 1.15;
/** A column whose lines reach within this × font size of its far edge, for this share of them,
 * and that is at least this × font size wide, reads as a column of prose. */
const FULL_LINE_SLACK = 1.5;
const FULL_LINE_SHARE = 0.6;
const PROSE_COLUMN_WIDTH = 12;
/** Justified lines of the page's text column share one width to within this many points; this
 * many of them, outside the region, make the width known. A fragment of a region nearly as wide as
 * the text column (`FULL_WIDTH_SHARE`: a justified line whose last word a stretched space set apart
 * still counts; a table's cell leaves room for the other columns) is a line of prose, so the region
 * is prose beside display math, or reaches across the page's columns. (Measured outside the region:
 * a table's own justified cells share a width.) */
const SAME_WIDTH = 0.5;
const MIN_FULL_LINES = 3;
const FULL_WIDTH_SHARE = 0.85;
/** Fewest rows with text in two columns or more that make a table. */
const MIN_GRID_ROWS = 2;
/** Rows of a table stand at least a line apart: baselines closer than this × font size are one
 * line's stacked parts (a fraction's numerator and denominator, limits, a matrix's brackets) —
 * display math, not rows of cells. */
const MIN_ROW_STEP = 0.9;

/** A table found on a page: its row bands, each one layout block whose runs carry their cell. */
export interface LayoutTable {
  rows: LayoutBlock[];
}

interface Gutter {
  x0: number;
  x1: number;
}

/**
 * Finds the tables among a page's fragments (furniture already set apart). Returns the tables,
 * whose row bands stand as blocks of their own, and the fragments left for chaining into blocks.
 * `first`: the number the page's first table gets in its cells' `table`.
 */
export function findTables(fragments: readonly Fragment[], first = 0): { tables: LayoutTable[]; rest: Fragment[] } {
  const rows = pageRows(fragments);
  const tables: LayoutTable[] = [];
  const used = new Set<Fragment>();
  for (let start = 0; start < rows.length; start++) {
    if (rows[start]!.length < 2) continue;
    const region = growRegion(rows, start);
    if (!region) continue;
    const inRegion = new Set(region.rows.flat());
    const lineWidth = textColumnWidth(fragments.filter((f) => !inRegion.has(f)));
    const table = tableOf(region.rows, region.gutters, first + tables.length, lineWidth);
    if (table === 'no-table') start = region.end;
    if (table === null || table === 'no-table') continue;
    tables.push(table);
    for (const row of region.rows) for (const f of row) used.add(f);
    start = region.end;
  }
  return { tables, rest: fragments.filter((f) => !used.has(f)) };
}

/** The page's fragments by row, top to bottom, each row left to right. */
function pageRows(fragments: readonly Fragment[]): Fragment[][] {
  const byRow = new Map<number, Fragment[]>();
  for (const f of fragments) {
    const row = byRow.get(f.row);
    if (row) row.push(f);
    else byRow.set(f.row, [f]);
  }
  return [...byRow.values()].map((r) => r.sort((a, b) => a.box.x - b.box.x)).sort((a, b) => a[0]!.base - b[0]!.base);
}

/** The white intervals between a row's fragments, at least `MIN_GUTTER` em wide. */
function gapsOf(row: readonly Fragment[]): Gutter[] {
  const gaps: Gutter[] = [];
  for (let i = 1; i < row.length; i++) {
    const x0 = row[i - 1]!.box.x + row[i - 1]!.box.w;
    const x1 = row[i]!.box.x;
    if (x1 - x0 >= MIN_GUTTER * Math.max(row[i]!.size, row[i - 1]!.size)) gaps.push({ x0, x1 });
  }
  return gaps;
}

/** The gutters that stay white under one more row: each narrowed to the row's white, or gone. */
function narrow(gutters: readonly Gutter[], row: readonly Fragment[], size: number): Gutter[] {
  const out: Gutter[] = [];
  for (const g of gutters) {
    let x0 = g.x0;
    let x1 = g.x1;
    let crossed = false;
    for (const f of row) {
      const fx0 = f.box.x;
      const fx1 = f.box.x + f.box.w;
      if (fx1 <= x0 || fx0 >= x1) continue;
      // A fragment reaching into the gutter from one side narrows it; one across it closes it.
      if (fx0 <= x0 + 0.5 && fx1 >= x1 - 0.5) crossed = true;
      else if (fx0 <= x0 + 0.5 || (fx0 + fx1) / 2 < (x0 + x1) / 2) x0 = Math.max(x0, fx1);
      else x1 = Math.min(x1, fx0);
    }
    if (!crossed && x1 - x0 >= MIN_GUTTER * size) out.push({ x0, x1 });
  }
  return out;
}

/**
 * Grows a table region from a row with two fragments or more: rows below join while the gutters
 * (narrowed) still separate two columns at least, each row's fragments do not cross them, and the
 * rows stand close. Rows with text in one column only are kept between grid rows, and at the ends
 * only as wrapped lines (`CONTINUATION_STEP`).
 */
function growRegion(rows: readonly Fragment[][], start: number): { rows: Fragment[][]; gutters: Gutter[]; end: number } | null {
  const seed = rows[start]!;
  const size = median(seed.map((f) => f.size));
  let gutters = gapsOf(seed);
  if (gutters.length === 0) return null;
  const taken: Fragment[][] = [seed];
  let lastGrid = 0;
  let end = start;
  for (let k = start + 1; k < rows.length; k++) {
    const row = rows[k]!;
    const previous = taken[taken.length - 1]!;
    if (row[0]!.base - previous[0]!.base > MAX_ROW_STEP * size) break;
    const next = narrow(gutters, row, size);
    // Each gutter must still separate text: a row of the table has its fragments between gutters.
    if (next.length === 0 || next.length < gutters.length) break;
    gutters = next;
    taken.push(row);
    end = k;
    if (row.length >= 2) lastGrid = taken.length - 1;
  }
  // Trailing one-column rows: only the wrapped lines of the last grid row's cells.
  let keep = lastGrid;
  while (keep + 1 < taken.length && taken[keep + 1]![0]!.base - taken[keep]![0]!.base <= CONTINUATION_STEP * size) keep++;
  const kept = taken.slice(0, keep + 1);
  if (kept.filter((r) => r.length >= 2).length < MIN_GRID_ROWS) return null;
  return { rows: kept, gutters, end: start + keep };
}

/** The column a fragment falls in, given the gutters left to right. */
function columnOf(f: Fragment, gutters: readonly Gutter[]): number {
  const middle = f.box.x + f.box.w / 2;
  let col = 0;
  while (col < gutters.length && middle > gutters[col]!.x0) col++;
  return col;
}

/**
 * True when columns are prose side by side: every column is as wide as a column of prose (two
 * columns of a paper, a text beside its translation), or every column is filled by its lines. A
 * table has a narrow column (a key, numbers) or ragged cells.
 */
function proseSideBySide(columns: readonly Fragment[][], rtl: boolean): boolean {
  return columns.every(wideColumn) || columns.every((c) => proseColumn(c, rtl));
}

/**
 * The width of the page's text column, from the justified lines of these fragments: the most common fragment width
 * among those as wide as prose (`PROSE_COLUMN_WIDTH`), when `MIN_FULL_LINES` share it; null on a
 * page without justified prose.
 */
function textColumnWidth(fragments: readonly Fragment[]): number | null {
  const wide = fragments.filter((f) => f.box.w >= PROSE_COLUMN_WIDTH * f.size).map((f) => f.box.w).sort((a, b) => a - b);
  let best: number | null = null;
  let bestCount = MIN_FULL_LINES - 1;
  for (let i = 0, j = 0; i < wide.length; i++) {
    while (wide[i]! - wide[j]! > SAME_WIDTH) j++;
    if (i - j + 1 > bestCount) {
      bestCount = i - j + 1;
      best = wide[j]!;
    }
  }
  return best;
}

/** True when every fragment of a column is an equation number: the numbering of display math
 * beside it, not a column of a table. */
function equationNumbers(column: readonly Fragment[]): boolean {
  return column.every((f) => EQUATION_NUMBER.test(f.items.map((i) => i.text).join('').trim()));
}

/** True when two of the rows stand closer than a line: stacked display math (`MIN_ROW_STEP`). */
function stacked(rows: readonly Fragment[][]): boolean {
  const size = median(rows.flat().map((f) => f.size));
  return rows.some((row, i) => i > 0 && row[0]!.base - rows[i - 1]![0]!.base < MIN_ROW_STEP * size);
}

/** True when a column is as wide as a column of prose. */
function wideColumn(column: readonly Fragment[]): boolean {
  const x0 = Math.min(...column.map((f) => f.box.x));
  const x1 = Math.max(...column.map((f) => f.box.x + f.box.w));
  return x1 - x0 >= PROSE_COLUMN_WIDTH * median(column.map((f) => f.size));
}

/** True when a wide column's lines fill its width: a column of prose, not of cells. */
function proseColumn(column: readonly Fragment[], rtl: boolean): boolean {
  if (column.length < 2 || !wideColumn(column)) return false;
  const x0 = Math.min(...column.map((f) => f.box.x));
  const x1 = Math.max(...column.map((f) => f.box.x + f.box.w));
  const full = column.filter((f) => (rtl ? f.box.x - x0 : x1 - (f.box.x + f.box.w)) <= FULL_LINE_SLACK * f.size).length;
  return full >= FULL_LINE_SHARE * column.length;
}

/**
 * The table of a region; null when it is no grid; `no-table` when no part of it is a table either:
 * its columns are prose side by side, or it is display math (rows stacked closer than a line, or a
 * column of equation numbers beside one column).
 */
function tableOf(rows: readonly Fragment[][], gutters: readonly Gutter[], number: number, lineWidth: number | null): LayoutTable | 'no-table' | null {
  const all = rows.flat();
  const rtl = all.flatMap((f) => f.items).filter((i) => i.dir === 'rtl').length * 2 > all.flatMap((f) => f.items).length;
  const columns: Fragment[][] = gutters.map(() => []);
  columns.push([]);
  for (const f of all) columns[columnOf(f, gutters)]!.push(f);
  const filled = columns.filter((c) => c.length > 0);
  if (filled.length < 2) return null;
  // Numbered or stacked display math, or prose side by side: no part of the region is a table.
  const fullLine = lineWidth !== null && all.some((f) => f.box.w >= FULL_WIDTH_SHARE * lineWidth);
  if (fullLine || filled.filter((c) => !equationNumbers(c)).length < 2 || stacked(rows) || proseSideBySide(filled, rtl)) return 'no-table';
  const bands = rowBands(rows, gutters);
  if (bands.filter((b) => new Set(b.map((f) => columnOf(f, gutters))).size >= 2).length < MIN_GRID_ROWS) return null;
  const fonts = bands.map((band) => majority(band.flatMap((f) => f.items.map((i) => i.font))));
  const bodyFont = majority(fonts.slice(1));
  const header = bands.length > 1 && fonts[0] !== bodyFont;
  const tableRows = bands.map((band, index) => {
    const order = (col: number): number => (rtl ? gutters.length - col : col);
    const placed = band
      .map((f) => ({ f, col: columnOf(f, gutters) }))
      .sort((a, b) => order(a.col) - order(b.col) || a.f.base - b.f.base || a.f.box.x - b.f.box.x);
    const fragments = placed.map(({ f, col }) => {
      const cell: CellPlace = { table: number, row: index, col: order(col), span: 1 };
      if (header && index === 0) cell.header = true;
      const items: Item[] = f.items.map((item) => ({ ...item, cell }));
      return { ...f, items };
    });
    return { fragments, box: boxOf(fragments.flatMap((f) => f.items)) };
  });
  return { rows: tableRows };
}

/**
 * The row bands of a table: its page rows grouped, a new band where a baseline stands further
 * below the last than the table's line pitch (the closest baselines of one column) allows, or,
 * where rows and lines are set at one pitch, at every row but one whose first column is empty.
 */
function rowBands(rows: readonly Fragment[][], gutters: readonly Gutter[]): Fragment[][] {
  const steps: number[] = [];
  for (let col = 0; col <= gutters.length; col++) {
    const bases = rows.flatMap((r) => r.filter((f) => columnOf(f, gutters) === col).map((f) => f.base));
    for (let i = 1; i < bases.length; i++) steps.push(bases[i]! - bases[i - 1]!);
  }
  const size = median(rows.flat().map((f) => f.size));
  const pitch = Math.min(...steps.filter((s) => s > 0.5 * size));
  const rowSteps = rows.slice(1).map((r, i) => r[0]!.base - rows[i]![0]!.base);
  const twoPitches = rowSteps.some((s) => s > BAND_SLACK * pitch);
  const bands: Fragment[][] = [];
  rows.forEach((row, i) => {
    const startsBand = i === 0 || (twoPitches ? rowSteps[i - 1]! > BAND_SLACK * pitch : row.some((f) => columnOf(f, gutters) === 0));
    if (startsBand) bands.push([...row]);
    else bands[bands.length - 1]!.push(...row);
  });
  return bands;
}

function majority(values: readonly string[]): string {
  const counts = new Map<string, number>();
  let best = '';
  for (const v of values) {
    counts.set(v, (counts.get(v) ?? 0) + 1);
    if ((counts.get(v) ?? 0) > (counts.get(best) ?? 0)) best = v;
  }
  return best;
}
