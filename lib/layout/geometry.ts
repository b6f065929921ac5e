/**
 * Geometry shared by the layout stages: grouping glyph runs into rows by baseline, and the box
 * arithmetic over them. Pure functions over records; thresholds are passed in, relative to the
 * font size, by the stage that owns them.
 */
import type { Box, Item } from '../protocol/records.js';

/** Vertical extent of a run from its baseline: ink lies roughly in [y - ASCENT·size, y + DESCENT·size]. */
export const ASCENT = 0.8;
export const DESCENT = 0.25;

export const top = (item: Item): number => item.y - ASCENT * item.size;
export const bottom = (item: Item): number => item.y + DESCENT * item.size;
export const right = (item: Item): number => item.x + item.w;

/** The smallest box around the runs. */
export function boxOf(items: readonly Item[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const item of items) {
    x0 = Math.min(x0, item.x);
    x1 = Math.max(x1, right(item));
    y0 = Math.min(y0, top(item));
    y1 = Math.max(y1, bottom(item));
  }
  const r = (v: number): number => Math.round(v * 100) / 100;
  return { x: r(x0), y: r(y0), w: r(x1 - x0), h: r(y1 - y0) };
}

/** The smallest box around boxes. */
export function unionBox(boxes: readonly Box[]): Box {
  // Math.min and Math.max a box at a time: the same result as over the spread lists, without them.
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w);
    y1 = Math.max(y1, b.y + b.h);
  }
  const r = (v: number): number => Math.round(v * 100) / 100;
  return { x: r(x0), y: r(y0), w: r(x1 - x0), h: r(y1 - y0) };
}

/** The value that occurs most often ('' for none). */
export function mostCommon(values: readonly string[]): string {
  // Most lines are in one font: a list of one value needs no counting.
  const first = values[0];
  if (typeof first === 'string' && values.every((v) => v === first)) return first;
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mid = values.length >> 1;
  // A typed array sorts numbers without calling back into a comparison function; it orders them
  // as the comparison below does except for zeros (-0 before 0) and NaN, which take the slow way.
  const numbers = new Float64Array(values.length);
  let plain = true;
  for (let i = 0; i < values.length && plain; i++) {
    const v = values[i]!;
    plain = typeof v === 'number' && v === v && v !== 0;
    numbers[i] = v;
  }
  if (plain) {
    numbers.sort();
    return values.length % 2 ? numbers[mid]! : (numbers[mid - 1]! + numbers[mid]!) / 2;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A row: runs sharing a baseline, left to right. */
export interface Row {
  base: number;
  size: number;
  items: Item[];
}

export interface RowOptions {
  /** Runs whose baselines differ by at most this × font size share a row. */
  baselineTolerance: number;
  /** A run smaller than this × its neighbour's size may be a superscript or subscript of it. */
  scriptSizeRatio: number;
  /** …when its baseline is within this × the neighbour's size… */
  scriptShift: number;
  /** …and it is within this × the neighbour's size horizontally… */
  scriptGap: number;
  /** …or, as a mark hanging before the line (a footnote's number), this far before its start. */
  leadGap: number;
}

export const ROW_DEFAULTS: RowOptions = {
  baselineTolerance: 0.25,
  scriptSizeRatio: 0.9,
  scriptShift: 0.55,
  scriptGap: 0.6,
  leadGap: 2,
};

/**
 * Groups runs into rows by baseline, then moves superscripts and subscripts (smaller runs shifted
 * up or down next to a larger run) into the row of their neighbour, so that "x²" or a footnote
 * mark stays on its line:
 *
 *        ²          ← small run, baseline 0.4 em higher, touching "x"
 *   ... x  + y ...  ← the row it joins
 */
export function groupRows(items: readonly Item[], options: RowOptions = ROW_DEFAULTS): Row[] {
  const sorted = byBaseline(items);
  const rows: Row[] = [];
  for (const item of sorted) {
    const last = rows[rows.length - 1];
    if (last && Math.abs(item.y - last.base) <= options.baselineTolerance * Math.max(item.size, last.size)) {
      last.items.push(item);
      last.size = Math.max(last.size, item.size);
    } else {
      rows.push({ base: item.y, size: item.size, items: [item] });
    }
  }
  // A small run that touches no larger run of its own row but one of the next or previous row is
  // that row's script: a footnote's raised mark at the foot of one column lies nearer, by baseline,
  // to the last line of the other column than to its own note.
  const touches = (item: Item, big: Item, size: number): boolean =>
    item.x <= right(big) + options.scriptGap * size && right(item) >= big.x - options.scriptGap * size;
  rows.forEach((row, i) => {
    if (row.items.length < 2) return;
    const strays = row.items.filter(
      (item) => item.size < options.scriptSizeRatio * row.size && !row.items.some((big) => big.size > item.size && touches(item, big, row.size)),
    );
    for (const item of strays) {
      const host = [rows[i - 1], rows[i + 1]].find(
        (other) =>
          other !== undefined &&
          item.size < options.scriptSizeRatio * other.size &&
          Math.abs(item.y - other.base) <= options.scriptShift * other.size &&
          other.items.some((big) => touches(item, big, other.size)),
      );
      if (!host) continue;
      host.items.push(item);
      row.items.splice(row.items.indexOf(item), 1);
    }
  });
  // Attach script rows: every run of a row that is small and touches a larger run of a nearby row.
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const host = [rows[i - 1], rows[i + 1]].find(
      (other) =>
        other !== undefined &&
        other.items.length > 0 &&
        row.size < options.scriptSizeRatio * other.size &&
        Math.abs(row.base - other.base) <= options.scriptShift * other.size &&
        row.items.every(
          (item) =>
            other.items.some((big) => touches(item, big, other.size)) || leadsRow(item, other.items, options.leadGap * other.size),
        ),
    );
    if (host) {
      host.items.push(...row.items);
      row.items = [];
    }
  }
  const kept = rows.filter((row) => row.items.length > 0);
  for (const row of kept) row.items.sort((a, b) => a.x - b.x);
  return kept;
}

/**
 * The runs sorted by baseline, then left edge (a stable sort). The keys are read once per run
 * into typed arrays and the indices sorted: runs of many shapes make every property read in a
 * comparison slow.
 */
function byBaseline(items: readonly Item[]): Item[] {
  const ys = new Float64Array(items.length);
  const xs = new Float64Array(items.length);
  const indices = new Array<number>(items.length);
  for (let i = 0; i < items.length; i++) {
    ys[i] = items[i]!.y;
    xs[i] = items[i]!.x;
    indices[i] = i;
  }
  indices.sort((a, b) => ys[a]! - ys[b]! || xs[a]! - xs[b]!);
  return indices.map((i) => items[i]!);
}

/** True when `item` ends before every run of `row`, at most `gap` before the first. */
function leadsRow(item: Item, row: readonly Item[], gap: number): boolean {
  const start = Math.min(...row.map((i) => i.x));
  return right(item) <= start + 0.5 && right(item) >= start - gap;
}

/** Text that is written without spaces between words. */
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** True when the boundary between two strings lies inside CJK text (no word spaces there). */
export function isCjkBoundary(left: string, right: string): boolean {
  const a = left.at(-1) ?? '';
  const b = right[0] ?? '';
  return NO_SPACE_SCRIPT.test(a) || NO_SPACE_SCRIPT.test(b);
}
