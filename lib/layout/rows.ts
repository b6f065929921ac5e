/**
 * Rows: glyph runs grouped by baseline, with superscripts and subscripts moved onto the line they
 * belong to. Pure functions over records; thresholds are relative to the font size.
 */
import type { Item } from '../protocol/records.js';
import { ASCENT, DESCENT, median, right } from './geometry.js';
import { mergeSlopingRows } from './sloping.js';
import { initialHost, joinInitial, mayBeInitial, INITIAL_SIZE_RATIO } from './initials.js';

/** A row: runs sharing a baseline, left to right. */
export interface Row {
  base: number;
  size: number;
  items: Item[];
}

/** The thresholds of row grouping, each relative to the font size. */
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

/** The row thresholds both layout stages use. */
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
  const rows = groupByBaseline(items, options);
  // A drop cap needs two lines beside it: two runs at least besides itself.
  return items.length > 2 ? withInitials(items, rows, options) : rows;
}

/**
 * Drop caps (lib/layout/initials.ts) joined to the first run of the line they open, in that line's
 * row: grouped by baseline, a drop cap sits on a later line of its paragraph and its tall box would
 * pull the lines beside it into one row. The candidates are large one-letter runs; the rows are
 * grouped again without the initials found.
 */
function withInitials(items: readonly Item[], rows: Row[], options: RowOptions): Row[] {
  const body = median(items.map((item) => item.size));
  const candidates = items.filter((item) => item.size >= INITIAL_SIZE_RATIO * body && mayBeInitial(item));
  if (candidates.length === 0) return rows;
  const apart = new Set(candidates);
  const others = groupByBaseline(items.filter((item) => !apart.has(item)), options);
  const joined = new Map<Item, Item>();
  const initials = new Set<Item>();
  for (const initial of candidates) {
    const found = initialHost(initial, others);
    if (!found || joined.has(found.host)) continue;
    joined.set(found.host, joinInitial(initial, found.host, found.space));
    initials.add(initial);
  }
  if (initials.size === 0) return rows;
  return groupByBaseline(
    items.filter((item) => !initials.has(item)).map((item) => joined.get(item) ?? item),
    options,
  );
}

/** Rows by baseline, with scripts moved onto their lines (see groupRows). */
function groupByBaseline(items: readonly Item[], options: RowOptions): Row[] {
  const sorted = byBaseline(items);
  const baselines: Row[] = [];
  for (const item of sorted) {
    const last = baselines[baselines.length - 1];
    if (last && Math.abs(item.y - last.base) <= options.baselineTolerance * Math.max(item.size, last.size)) {
      last.items.push(item);
      last.size = Math.max(last.size, item.size);
    } else {
      baselines.push({ base: item.y, size: item.size, items: [item] });
    }
  }
  // The runs of one Nastaliq line stand at many heights: its rows become one (lib/layout/sloping.ts).
  const rows: Row[] = mergeSlopingRows(baselines);
  // A small run that touches no larger run of its own row but one of the next or previous row is
  // that row's script: a footnote's raised mark at the foot of one column lies nearer, by baseline,
  // to the last line of the other column than to its own note.
  const touches = (item: Item, big: Item, size: number): boolean =>
    item.x <= right(big) + options.scriptGap * size && right(item) >= big.x - options.scriptGap * size;
  rows.forEach((row, i) => {
    if (row.items.length < 2 || !row.items.some((item) => item.size < options.scriptSizeRatio * row.size)) return;
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
    // A row as large as the rows beside it is no script row (the test below, made cheaply first).
    if (!(row.size < options.scriptSizeRatio * Math.max(rows[i - 1]?.size ?? 0, rows[i + 1]?.size ?? 0))) continue;
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
  attachOffsetSymbols(rows, options);
  const kept = rows.filter((row) => row.items.length > 0);
  for (const row of kept) row.items.sort((a, b) => a.x - b.x);
  return kept;
}

/** A lone symbol (no letter, no digit) of at most this many characters may be set off its line's baseline. */
const OFFSET_SYMBOL_CHARS = 2;
/** Runs of one line do not overlap: a symbol covering more than this share of its width of a run is not in that run's line. */
const OFFSET_SYMBOL_CLASH = 0.25;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * A row that is one math symbol set off the baseline of a line it sits in — TeX's radical sign
 * of "√s", whose glyph hangs from its baseline, a big operator — joins that line: alone, it would
 * stand as a row, and a block, between two lines of one paragraph. Its line is the neighbouring
 * row whose line box it overlaps, in whose runs it fits (it covers none of them, as glyphs of one
 * line never do) and one of whose runs it touches; of two, the one it overlaps more. It is put on
 * that line's baseline.
 */
function attachOffsetSymbols(rows: Row[], options: RowOptions): void {
  const lineTop = (row: Row): number => row.base - ASCENT * row.size;
  const lineBottom = (row: Row): number => row.base + DESCENT * row.size;
  // The nearest rows above and below that still hold runs (a script row moved onto its line is
  // empty), kept as the loop goes, so that a page of many lone symbols costs one pass.
  const nextHolding: (Row | undefined)[] = new Array(rows.length);
  for (let i = rows.length - 1, next: Row | undefined; i >= 0; i--) {
    nextHolding[i] = next;
    if (rows[i]!.items.length > 0) next = rows[i];
  }
  let above: Row | undefined;
  rows.forEach((row, i) => {
    const previous = above;
    if (row.items.length > 0) above = row;
    if (row.items.length !== 1) return;
    const symbol = row.items[0]!;
    const text = symbol.text.trim();
    if (text === '' || [...text].length > OFFSET_SYMBOL_CHARS || LETTER_OR_DIGIT.test(text)) return;
    const top = symbol.y - ASCENT * symbol.size;
    const height = (ASCENT + DESCENT) * symbol.size;
    let best: Row | undefined;
    let bestShare = 0;
    for (const other of [previous, nextHolding[i]]) {
      if (!other) continue;
      const share = (Math.min(top + height, lineBottom(other)) - Math.max(top, lineTop(other))) / height;
      const fits = other.items.every((run) => Math.min(right(run), right(symbol)) - Math.max(run.x, symbol.x) <= OFFSET_SYMBOL_CLASH * symbol.w);
      const touching = other.items.some((run) => symbol.x <= right(run) + options.scriptGap * other.size && right(symbol) >= run.x - options.scriptGap * other.size);
      if (share > bestShare && fits && touching) {
        best = other;
        bestShare = share;
      }
    }
    if (!best) return;
    // On its line's baseline: its box, reckoned from the baseline, would otherwise reach into
    // the line above and part the two lines.
    best.items.push({ ...symbol, y: best.base });
    row.items = [];
    above = previous;
  });
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
