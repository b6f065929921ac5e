/**
 * Fragments: each row of a page cut into pieces at the gaps between runs that are column gutters
 * or table cells, so that the two halves of a row in a two-column page become two fragments. A
 * letter-spaced row (one run per glyph) measures its word spaces above its own tracking.
 */
import type { Box, Item } from '../protocol/records.js';
import { ASCENT, DESCENT, EQUATION_NUMBER, boxOf, bottom, median, right, top } from './geometry.js';
import { groupRows, ROW_DEFAULTS, type Row } from './rows.js';
import { whiteColumn, type GutterOptions } from './gutters.js';

/** The thresholds fragmentsOf reads, each relative to the font size. */
export interface FragmentOptions extends GutterOptions {
  /** A gap wider than this × font size inside a row separates two fragments (column gutter, table cell). */
  fragmentGap: number;
  /** …and the white interval extends `gutterWindow` × font size above and below, with more than
   * `gutterSupport` runs on each side. */
  gutterSupport: number;
  gutterWindow: number;
  /** Lines of a column start within this × font size of one x. */
  alignTolerance: number;
  /** A gap wider than this × font size always splits a row. */
  wideGap: number;
  /** …and wider than this × the row's median word space (monospaced word spaces line up). */
  gutterOverSpace: number;
  /** Text left of a gutter spans at least this × font size: a column of list numbers or footnote
   * marks in a hanging indent is no column. */
  columnWidth: number;
}

/** A row is letter-spaced when it has at least this many runs and this share of them are single glyphs… */
const LETTER_SPACED_MIN_RUNS = 4;
const LETTER_SPACED_SHARE = 0.6;
/** …and its word spaces are the gaps wider than this × its median gap (the letter tracking). */
const WORD_OVER_TRACKING = 2;
/** Tracking of at least this × font size between the single glyphs of a row is letter spacing. */
const MIN_TRACKING = 0.05;
/** Letter spacing is regular: gaps within this share of the median gap count as tracking. */
const TRACKING_TOLERANCE = 0.2;

/** A piece of one row: runs between two gutters (or the row's ends). */
export interface Fragment {
  items: Item[];
  box: Box;
  base: number;
  size: number;
  row: number;
}

/**
 * Cuts each row into fragments at column gutters. A gap wider than `fragmentGap` em is a gutter
 * when the same x-interval is white in at least `gutterSupport` of the nearby rows too (columns
 * line up, the stretched spaces of a justified line do not), or when it is wider than `wideGap` em.
 *
 *     text text text   text text      ← candidate gap…
 *     text text text   text text      ← …white here too: a gutter
 *     text   text text text text      ← a wide word space, text above and below: not a gutter
 *
 * `joined`: runs never cut from the run before them (the page numbers of a contents list);
 * `rows`: the rows of `items`, when the caller has them (stripLeaders).
 */
export function fragmentsOf(items: readonly Item[], options: FragmentOptions, joined: ReadonlySet<Item> = new Set(), rows: readonly Row[] = groupRows(items, ROW_DEFAULTS)): Fragment[] {
  const fragments: Fragment[] = [];
  // The page's column gutter, white from the top of the text to its foot: a gap of a row that
  // holds it is the gutter, whatever the rows next to it (a column's first line beside a heading
  // set at its indent, with nothing above and no flush line below).
  const pageGutter = whiteColumn(
    items.map((i) => ({ x: i.x, y: top(i), w: i.w, h: bottom(i) - top(i) })),
    median(items.map((i) => Math.abs(i.size))),
    options,
  );
  // The text before the gap is a column's line, not a list label in its hanging indent.
  const inPageGutter = (lineStart: number, gapStart: number, gapEnd: number, size: number): boolean =>
    pageGutter !== null && gapStart <= pageGutter.x0 + 1 && gapEnd >= pageGutter.x1 - 1 && gapStart - lineStart >= options.columnWidth * size;
  // The white rectangle above or below a gap: within `gutterWindow` lines, runs may
  // narrow it from either side (the full lines of a column next to a short last line) but none
  // may cross it, it stays at least `gutterWidth` em wide, and text stands on both sides of it on
  // more than `gutterSupport` baselines (not only in this row).
  const isGutter = (gapStart: number, gapEnd: number, base: number, size: number): boolean =>
    isWhite(gapStart, gapEnd, base - options.gutterWindow * size, base + 0.25 * size, size) ||
    isWhite(gapStart, gapEnd, base - 0.8 * size, base + options.gutterWindow * size, size);
  // The runs by baseline, so that a window's runs are found by binary search, not by a scan of the page.
  const byBase = [...items].sort((a, b) => a.y - b.y);
  const bases = Float64Array.from(byBase, (i) => i.y);
  const tallest = byBase.reduce((m, i) => Math.max(m, Math.abs(i.size)), 0);
  const firstAtOrAbove = (y: number): number => {
    let lo = 0;
    let hi = bases.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bases[mid]! < y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const isWhite = (gapStart: number, gapEnd: number, y0: number, y1: number, size: number): boolean => {
    let x0 = gapStart;
    let x1 = gapEnd;
    const middle = (gapStart + gapEnd) / 2;
    let leftStart = Infinity;
    // Rows are counted by rounded baseline as the runs come (sorted by baseline, a row's runs come together).
    let leftRows = 0;
    let leftRow = NaN;
    // A column's lines start at one x (the runs after a river of word spaces do not): the rows right
    // of the gap whose first run starts at its end.
    const alignedWithin = options.alignTolerance * size;
    let aligned = 0;
    let rightRow = NaN;
    let rightStart = Infinity;
    const end = firstAtOrAbove(y1 + ASCENT * tallest + 1e-9);
    for (let k = firstAtOrAbove(y0 - DESCENT * tallest - 1e-9); k < end; k++) {
      const i = byBase[k]!;
      if (bottom(i) < y0 || top(i) > y1) continue;
      if (i.x <= x0 + 0.5 && right(i) >= x1 - 0.5) return false;
      if (i.x + i.w / 2 < middle) {
        x0 = Math.max(x0, right(i));
        leftStart = Math.min(leftStart, i.x);
        const row = Math.round(i.y);
        if (row !== leftRow) leftRows += 1;
        leftRow = row;
      } else {
        x1 = Math.min(x1, i.x);
        // An equation number stands at the margin, aligned to nothing: it starts no column line.
        if (EQUATION_NUMBER.test(i.text.trim())) continue;
        const row = Math.round(i.y);
        if (row !== rightRow) {
          if (Math.abs(rightStart - gapEnd) <= alignedWithin) aligned += 1;
          rightRow = row;
          rightStart = i.x;
        } else rightStart = Math.min(rightStart, i.x);
      }
    }
    if (Math.abs(rightStart - gapEnd) <= alignedWithin) aligned += 1;
    return (
      x1 - x0 >= options.gutterWidth * size &&
      x0 - leftStart >= options.columnWidth * size &&
      leftRows > options.gutterSupport &&
      aligned > options.gutterSupport
    );
  };
  // Loops, not callbacks made at each call, which lose their optimised code at every full collection.
  for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
    const row = rows[rowIndex]!;
    // A gutter is wider than the row's own word spaces: in monospaced text every word space is
    // 0.6 em and they line up into white rivers that are no gutters.
    const gaps: number[] = [];
    for (let i = 1; i < row.items.length; i++) gaps.push((row.items[i]!.x - right(row.items[i - 1]!)) / Math.max(row.items[i]!.size, 1));
    const spaces = gaps.filter((gap) => gap > 0.15);
    // In a letter-spaced row (one run per glyph) most gaps are the tracking between letters; its
    // word spaces are the gaps well above those. Its words are few and their spaces stand out, so
    // two of them suffice, and the narrower is a word space (a gutter would be the wider).
    const singleGlyphs = row.items.filter((item) => item.text.trim().length === 1).length;
    const letterSpaced = row.items.length >= LETTER_SPACED_MIN_RUNS && singleGlyphs >= LETTER_SPACED_SHARE * row.items.length;
    const tracking = letterSpaced ? median(gaps.filter((gap) => gap > 0)) : 0;
    // Tracking is regular: most gaps are the same. Formula rows (one run per symbol) are irregular.
    const tracked = tracking >= MIN_TRACKING && gaps.filter((gap) => Math.abs(gap - tracking) <= TRACKING_TOLERANCE * tracking).length >= LETTER_SPACED_SHARE * gaps.length;
    const wordGaps = !letterSpaced || spaces.length === 0 ? spaces : spaces.filter((gap) => gap > WORD_OVER_TRACKING * (tracked ? tracking : median(spaces)));
    const wordSpace = wordGaps.length >= 4 ? median(wordGaps) : tracked && wordGaps.length >= 2 ? Math.min(...wordGaps) : 0;
    let current: Item[] = [];
    const close = (): void => {
      if (current.length === 0) return;
      fragments.push({ items: current, box: boxOf(current), base: row.base, size: median(current.map((i) => i.size)), row: rowIndex });
      current = [];
    };
    // The gap before a run is measured from the furthest right edge so far: a mark drawn as its
    // own run inside a long run ends left of that run's end.
    let reach = -Infinity;
    for (let i = 0; i < row.items.length; i++) {
      const item = row.items[i]!;
      const previous = row.items[i - 1];
      // A contents entry's page number belongs to its title, however wide the leader between (leaders.ts).
      if (previous && !joined.has(item)) {
        const x0 = Math.max(reach, right(previous));
        const gap = (item.x - x0) / Math.max(previous.size, item.size, 1);
        if (gap > options.wideGap) close();
        else if (gap > Math.max(options.fragmentGap, options.gutterOverSpace * wordSpace) && (inPageGutter(current[0]?.x ?? x0, x0, item.x, Math.max(previous.size, item.size)) || isGutter(x0, item.x, row.base, Math.max(previous.size, item.size)))) close();
      }
      if (current.length === 0) reach = -Infinity;
      reach = Math.max(reach, right(item));
      current.push(item);
    }
    close();
  }
  return fragments;
}
