/**
 * order: reading order within each page, and page furniture across pages.
 *
 * 1. Runs outside the page box are dropped (counted in a diagnostic), and so is a line cut by a
 *    page break that the next page repeats whole (see repeatedAtPageBreak).
 * 2. Rows (runs on one baseline) are cut into fragments wherever the gap between runs is wider
 *    than `fragmentGap` em, so that the two halves of a row in a two-column page become two
 *    fragments.
 * 3. Fragments are chained into layout blocks: a fragment joins the one right below it when each
 *    is the other's only horizontally overlapping neighbour on the adjacent row and the gap is
 *    small. A column's lines chain; a title that spans two columns does not (it overlaps two).
 *
 *        [      title spanning both      ]   ← overlaps two fragments below: not chained
 *        [left column line] [right column]   ← each chains only with the line below it
 *        [left column line] [right column]
 *
 * 4. Blocks are put in reading order by recursive XY-cut: split at a horizontal band of white space
 *    that no block crosses (top to bottom), else at a vertical one (left to right).
 * 5. Running headers, footers and page numbers: short blocks in the top or bottom margin whose
 *    text (digits masked) repeats on other pages, or that are page-number-like, get a `role`.
 *
 * Writes `block` (reading-order index) and `role` on each item, and sorts `items` by block.
 */
import { documentTransform, ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import { ASCENT, DESCENT, boxOf, median, right, bottom, top } from '../lib/layout/geometry.js';
import { groupRows, ROW_DEFAULTS } from '../lib/layout/rows.js';
import { diagnostic, type Box, type DiagnosticRecord, type Item, type PageRecord, type Role } from '../lib/protocol/records.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';

export interface OrderOptions {
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
  /** A column gutter is covered by at most this share of the most covered x (by block height)… */
  gutterCoverage: number;
  /** …and is at least this × font size wide… */
  gutterWidth: number;
  /** …and wider than this × the row's median word space (monospaced word spaces line up). */
  gutterOverSpace: number;
  /** Text left of a gutter spans at least this × font size: a column of list numbers or footnote
   * marks in a hanging indent is no column. */
  columnWidth: number;
  /** Fragments on successive rows chain into one block when the vertical gap is under this × font size. */
  chainGap: number;
  /** Fragments whose tops are within this × font size of the nearest one below count as one row. */
  rowSlack: number;
  /** Height of the top and bottom margins searched for furniture, as a fraction of the page height. */
  marginBand: number;
  /** Tag running headers, footers and page numbers. */
  furniture: boolean;
}

export const DEFAULTS: OrderOptions = {
  fragmentGap: 0.5,
  gutterSupport: 1,
  gutterWindow: 4.5,
  alignTolerance: 0.2,
  wideGap: 2.5,
  gutterCoverage: 0.1,
  gutterWidth: 0.5,
  gutterOverSpace: 1.2,
  columnWidth: 3,
  chainGap: 1.6,
  rowSlack: 1.0,
  marginBand: 0.12,
  furniture: true,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'fragmentGap', type: 'number', min: 0, description: 'gap inside a row that splits it, × font size' },
  { key: 'gutterSupport', type: 'number', min: 0, description: 'baselines needed on each side of a white gap that splits a row, minus one' },
  { key: 'gutterWindow', type: 'number', min: 0, description: 'height above and below a gap that must be white, × font size' },
  { key: 'alignTolerance', type: 'number', min: 0, description: 'lines of a column start within this × font size of one x' },
  { key: 'wideGap', type: 'number', min: 0, description: 'gap that always splits a row, × font size' },
  { key: 'gutterCoverage', type: 'number', min: 0, description: 'a column gutter is covered by at most this share of the most covered x' },
  { key: 'gutterWidth', type: 'number', min: 0, description: 'narrowest column gutter, × font size' },
  { key: 'gutterOverSpace', type: 'number', min: 1, description: "narrowest column gutter, × the row's median word space" },
  { key: 'columnWidth', type: 'number', min: 0, description: 'narrowest text left of a gutter, × font size' },
  { key: 'chainGap', type: 'number', min: 0, description: 'largest vertical gap between chained lines, × font size' },
  { key: 'rowSlack', type: 'number', min: 0, description: 'fragments this close (× font size) to the nearest one below count as one row' },
  { key: 'marginBand', type: 'number', min: 0, description: 'top/bottom margin searched for furniture, fraction of page height' },
  { key: 'furniture', type: 'boolean', description: 'tag running headers, footers and page numbers' },
];

export function normalizeOptions(partial: Partial<OrderOptions> = {}): OrderOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (!(options.marginBand >= 0 && options.marginBand < 0.5)) throw new UsageError(`marginBand must be in [0, 0.5), got ${options.marginBand}`);
  return options;
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

interface Fragment {
  items: Item[];
  box: Box;
  base: number;
  size: number;
  row: number;
}

interface LayoutBlock {
  fragments: Fragment[];
  box: Box;
}

function overlapX(a: Box, b: Box): number {
  return Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
}

/**
 * Cuts each row into fragments at column gutters. A gap wider than `fragmentGap` em is a gutter
 * when the same x-interval is white in at least `gutterSupport` of the nearby rows too (columns
 * line up, the stretched spaces of a justified line do not), or when it is wider than `wideGap` em.
 *
 *     text text text   text text      ← candidate gap…
 *     text text text   text text      ← …white here too: a gutter
 *     text   text text text text      ← a wide word space, text above and below: not a gutter
 */
export function fragmentsOf(items: readonly Item[], options: OrderOptions): Fragment[] {
  const fragments: Fragment[] = [];
  const rows = groupRows(items, ROW_DEFAULTS);
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
    const leftRows = new Set<number>();
    const rightStarts = new Map<number, number>();
    const middle = (gapStart + gapEnd) / 2;
    let leftStart = Infinity;
    const end = firstAtOrAbove(y1 + ASCENT * tallest + 1e-9);
    for (let k = firstAtOrAbove(y0 - DESCENT * tallest - 1e-9); k < end; k++) {
      const i = byBase[k]!;
      if (bottom(i) < y0 || top(i) > y1) continue;
      if (i.x <= x0 + 0.5 && right(i) >= x1 - 0.5) return false;
      if (i.x + i.w / 2 < middle) {
        x0 = Math.max(x0, right(i));
        leftStart = Math.min(leftStart, i.x);
        leftRows.add(Math.round(i.y));
      } else {
        x1 = Math.min(x1, i.x);
        const row = Math.round(i.y);
        rightStarts.set(row, Math.min(rightStarts.get(row) ?? Infinity, i.x));
      }
    }
    // A column's lines start at one x; the runs after a river of word spaces do not.
    const aligned = [...rightStarts.values()].filter((x) => Math.abs(x - gapEnd) <= options.alignTolerance * size).length;
    return (
      x1 - x0 >= options.gutterWidth * size &&
      x0 - leftStart >= options.columnWidth * size &&
      leftRows.size > options.gutterSupport &&
      aligned > options.gutterSupport
    );
  };
  rows.forEach((row, rowIndex) => {
    // A gutter is wider than the row's own word spaces: in monospaced text every word space is
    // 0.6 em and they line up into white rivers that are no gutters.
    const gaps = row.items.slice(1).map((item, i) => (item.x - right(row.items[i]!)) / Math.max(item.size, 1));
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
    row.items.forEach((item, i) => {
      const previous = row.items[i - 1];
      if (previous) {
        const x0 = Math.max(reach, right(previous));
        const gap = (item.x - x0) / Math.max(previous.size, item.size, 1);
        if (gap > options.wideGap) close();
        else if (gap > Math.max(options.fragmentGap, options.gutterOverSpace * wordSpace) && isGutter(x0, item.x, row.base, Math.max(previous.size, item.size))) close();
      }
      if (current.length === 0) reach = -Infinity;
      reach = Math.max(reach, right(item));
      current.push(item);
    });
    close();
  });
  return fragments;
}

/** Chains fragments into blocks (see the file comment). */
export function chainBlocks(fragments: readonly Fragment[], options: OrderOptions): LayoutBlock[] {
  const byRow = new Map<number, Fragment[]>();
  for (const f of fragments) {
    const row = byRow.get(f.row);
    if (row) row.push(f);
    else byRow.set(f.row, [f]);
  }
  const rowIds = [...byRow.keys()].sort((a, b) => a - b);
  // For each fragment, the overlapping fragments nearest below it: those whose tops lie within
  // `rowSlack` × font size of the nearest one (columns' baselines need not line up).
  const below = new Map<Fragment, Fragment[]>();
  const above = new Map<Fragment, Fragment[]>();
  for (const f of fragments) {
    const bottomOfF = f.box.y + f.box.h;
    const candidates = fragments.filter((g) => g !== f && g.row > f.row && g.box.y >= bottomOfF - 0.5 * f.size && overlapX(f.box, g.box) > 0);
    if (candidates.length === 0) continue;
    const nearest = Math.min(...candidates.map((g) => g.box.y));
    const set = candidates.filter((g) => g.box.y <= nearest + options.rowSlack * f.size);
    below.set(f, set);
    for (const g of set) {
      const over = above.get(g);
      if (over) over.push(f);
      else above.set(g, [f]);
    }
  }
  const next = new Map<Fragment, Fragment>();
  const hasPrevious = new Set<Fragment>();
  for (const f of fragments) {
    const down = below.get(f);
    if (!down || down.length !== 1) continue;
    const g = down[0]!;
    if ((above.get(g) ?? []).length !== 1) continue;
    const gap = g.box.y - (f.box.y + f.box.h);
    if (gap > options.chainGap * Math.max(f.size, g.size)) continue;
    next.set(f, g);
    hasPrevious.add(g);
  }
  const blocks: LayoutBlock[] = [];
  for (const f of fragments) {
    if (hasPrevious.has(f)) continue;
    const chain: Fragment[] = [];
    for (let cur: Fragment | undefined = f; cur; cur = next.get(cur)) chain.push(cur);
    blocks.push({ fragments: chain, box: boxOf(chain.flatMap((c) => c.items)) });
  }
  return blocks;
}

/**
 * Finds a column gutter: an x-interval that (almost) no block covers, with text on both sides.
 * Coverage is weighted by block height, so a centred running header or a page number crossing the
 * gutter does not hide it, while the body text of a single column does.
 */
export function findGutter(blocks: readonly LayoutBlock[], options: OrderOptions): { x0: number; x1: number } | null {
  const x0 = Math.floor(Math.min(...blocks.map((b) => b.box.x)));
  const x1 = Math.ceil(Math.max(...blocks.map((b) => b.box.x + b.box.w)));
  const width = x1 - x0;
  if (width <= 0 || width > 20000) return null;
  const coverage = new Float64Array(width + 1);
  for (const b of blocks) {
    for (let x = Math.max(0, Math.ceil(b.box.x - x0)); x <= Math.min(width, Math.floor(b.box.x + b.box.w - x0)); x++) coverage[x] = (coverage[x] ?? 0) + b.box.h;
  }
  const peak = Math.max(...coverage);
  const low = options.gutterCoverage * peak;
  const minWidth = options.gutterWidth * median(blocks.map((b) => b.fragments[0]?.size ?? 10));
  let best: { x0: number; x1: number; cov: number } | null = null;
  for (let x = 0; x <= width; ) {
    if (coverage[x]! > low) {
      x++;
      continue;
    }
    let end = x;
    let cov = 0;
    while (end <= width && coverage[end]! <= low) cov = Math.max(cov, coverage[end++]!);
    const inside = x > 0 && end <= width;
    if (inside && end - x >= minWidth && (!best || cov < best.cov || (cov === best.cov && end - x > best.x1 - best.x0))) {
      best = { x0: x0 + x, x1: x0 + end, cov };
    }
    x = end;
  }
  return best ? { x0: best.x0, x1: best.x1 } : null;
}

/**
 * Orders blocks: at a column gutter, blocks that cross it (titles, notes, a centred header) cut
 * the region into bands, and within a band the left column comes before the right; without a
 * gutter, the region is cut at horizontal white bands, and consecutive bands that share a gutter
 * are put back together so that a two-column stretch is read column by column.
 */
export function xyCut(blocks: readonly LayoutBlock[], options: OrderOptions = DEFAULTS, depth = 0): LayoutBlock[] {
  if (blocks.length <= 1) return [...blocks];
  const byTop = (a: LayoutBlock, b: LayoutBlock): number => a.box.y - b.box.y || a.box.x - b.box.x;
  if (depth > 40) return [...blocks].sort(byTop);
  // Blocks side by side on one band of rows read left to right.
  if (splitAlong(blocks, (b) => b.box.y, (b) => b.box.y + b.box.h).length === 1 && blocks.every((b) => b.fragments.length === 1)) {
    return [...blocks].sort((a, b) => a.box.x - b.box.x);
  }
  const gutter = findGutter(blocks, options);
  if (gutter) {
    // The gutter is found on a 1 pt grid: allow that much either side.
    const crosses = (b: LayoutBlock): boolean => b.box.x < gutter.x1 - 1 && b.box.x + b.box.w > gutter.x0 + 1;
    const crossing = blocks.filter(crosses).sort(byTop);
    if (crossing.length === 0) {
      const left = blocks.filter((b) => b.box.x + b.box.w <= gutter.x0 + 1);
      const right = blocks.filter((b) => b.box.x + b.box.w > gutter.x0 + 1);
      return [...xyCut(left, options, depth + 1), ...xyCut(right, options, depth + 1)];
    }
    const out: LayoutBlock[] = [];
    let rest = blocks.filter((b) => !crosses(b));
    for (const separator of crossing) {
      const above = rest.filter((b) => b.box.y < separator.box.y);
      rest = rest.filter((b) => b.box.y >= separator.box.y);
      out.push(...xyCut(above, options, depth + 1), separator);
    }
    out.push(...xyCut(rest, options, depth + 1));
    return out;
  }
  const bands = splitAlong(blocks, (b) => b.box.y, (b) => b.box.y + b.box.h);
  if (bands.length === 1) {
    const columns = splitAlong(blocks, (b) => b.box.x, (b) => b.box.x + b.box.w);
    if (columns.length > 1) return columns.flatMap((c) => xyCut(c, options, depth + 1));
    return [...blocks].sort(byTop);
  }
  const merged: LayoutBlock[][] = [];
  let previousGutter: { x0: number; x1: number } | null = null;
  for (const band of bands) {
    const g = band.length > 1 ? findGutter(band, options) : null;
    const last = merged[merged.length - 1];
    if (last && g && previousGutter && g.x0 < previousGutter.x1 && g.x1 > previousGutter.x0) last.push(...band);
    else merged.push([...band]);
    previousGutter = g;
  }
  if (merged.length === 1) return [...blocks].sort(byTop);
  return merged.flatMap((band) => xyCut(band, options, depth + 1));
}

/** Splits blocks into groups separated by gaps along one axis that no block crosses. */
function splitAlong(blocks: readonly LayoutBlock[], start: (b: LayoutBlock) => number, end: (b: LayoutBlock) => number): LayoutBlock[][] {
  const sorted = [...blocks].sort((a, b) => start(a) - start(b));
  const groups: LayoutBlock[][] = [];
  let reach = -Infinity;
  for (const block of sorted) {
    // A small overlap (touching descenders and ascenders) is not a crossing.
    if (groups.length === 0 || start(block) >= reach - 0.5) groups.push([block]);
    else groups[groups.length - 1]!.push(block);
    reach = Math.max(reach, end(block));
  }
  return groups;
}

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página|pagina|страница|стр\.)\s*)?[-–—(\[]?\s*(?:\p{Nd}{1,4}|[ivxlcdm]{1,6})\s*[-–—)\]]?(?:\s*(?:\/|of|von|de|из)\s*\p{Nd}{1,4})?$/iu;

/** Text with digits masked, so "Page 3" and "Page 4" compare equal. */
const furnitureKey = (text: string): string => text.toLowerCase().replace(/\p{Nd}+/gu, '#').replace(/\s+/g, ' ').trim();

const blockText = (block: LayoutBlock): string =>
  block.fragments.map((f) => f.items.map((i) => i.text).join(' ')).join(' ').trim();

interface PagePlan {
  page: PageRecord;
  blocks: LayoutBlock[];
  roles: Map<LayoutBlock, Role>;
}

/**
 * Furniture found row by row before blocks are chained: the topmost or bottommost row fragment of
 * a page, inside the margin band, that is page-number-like or whose text (digits masked) recurs
 * there on other pages. A running header set close above the text would otherwise chain into the
 * first paragraph as its first line.
 */
export function furnitureFragments(pages: readonly { page: PageRecord; fragments: readonly Fragment[] }[], options: OrderOptions): Map<Fragment, Role> {
  const candidates: { page: number; fragment: Fragment; zone: 'top' | 'bottom'; key: string; text: string }[] = [];
  for (const { page, fragments } of pages) {
    const band = options.marginBand * page.height;
    const highest = Math.min(...fragments.map((f) => f.box.y + f.box.h));
    const lowest = Math.max(...fragments.map((f) => f.box.y));
    for (const fragment of fragments) {
      const { y, h } = fragment.box;
      const zone = y + h <= band && y <= highest ? 'top' : y >= page.height - band && y + h >= lowest ? 'bottom' : null;
      if (!zone) continue;
      const text = fragment.items.map((i) => i.text).join(' ').trim();
      candidates.push({ page: page.page, fragment, zone, key: `${zone}:${furnitureKey(text)}`, text });
    }
  }
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) pagesWithKey.set(c.key, (pagesWithKey.get(c.key) ?? new Set()).add(c.page));
  const minRepeats = Math.max(2, Math.ceil(pages.length / 3));
  const roles = new Map<Fragment, Role>();
  for (const c of candidates) {
    if (PAGE_NUMBER.test(c.text)) roles.set(c.fragment, 'page-number');
    else if ((pagesWithKey.get(c.key)?.size ?? 0) >= minRepeats) roles.set(c.fragment, c.zone === 'top' ? 'header' : 'footer');
  }
  return roles;
}

/** Tags furniture across the document's pages. */
export function tagFurniture(plans: readonly PagePlan[], options: OrderOptions): void {
  const candidates: { plan: PagePlan; block: LayoutBlock; zone: 'top' | 'bottom'; key: string; text: string }[] = [];
  for (const plan of plans) {
    const band = options.marginBand * plan.page.height;
    for (const block of plan.blocks) {
      if (block.fragments.length > 2 || plan.roles.has(block)) continue;
      const zone = block.box.y + block.box.h <= band ? 'top' : block.box.y >= plan.page.height - band ? 'bottom' : null;
      if (!zone) continue;
      const text = blockText(block);
      candidates.push({ plan, block, zone, key: `${zone}:${furnitureKey(text)}`, text });
    }
  }
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) pagesWithKey.set(c.key, (pagesWithKey.get(c.key) ?? new Set()).add(c.plan.page.page));
  const minRepeats = Math.max(2, Math.ceil(plans.length / 3));
  for (const c of candidates) {
    if (PAGE_NUMBER.test(c.text)) c.plan.roles.set(c.block, 'page-number');
    else if ((pagesWithKey.get(c.key)?.size ?? 0) >= minRepeats) c.plan.roles.set(c.block, c.zone === 'top' ? 'header' : 'footer');
  }
}

/** A line cut by a page break is a repeat when it has at least this many runs (or fewer, each a
 * part of the run it lies in, shorter or a sliver of it: a mark that reached over the clip edge)… */
const REPEAT_MIN_RUNS = 3;
/** …each lying within this many points of a run of the next page's top line that holds its text. */
const REPEAT_TOLERANCE = 1;
/** A run under this share of the width of the run it lies in is a sliver of it. */
const REPEAT_SLIVER = 0.5;

/**
 * Rows at the foot of a page that the next page repeats at its top. A browser that cannot fit a
 * line above a page break draws it on both pages, clipped at the break on the first: the first
 * page keeps only the glyphs that reach over the clip edge (Devanagari vowel signs above the
 * headstroke, accents), at their x, and the next page has the whole line. Every run of such a
 * row lies inside a run of a top row of the next page that holds the same text.
 */
export function repeatedAtPageBreak(pages: readonly { page: PageRecord; fragments: readonly Fragment[] }[], options: OrderOptions): Set<Fragment> {
  const rowsOf = (fragments: readonly Fragment[], keep: (f: Fragment) => boolean): Item[][] => {
    const rows = new Map<number, Item[]>();
    for (const f of fragments) {
      if (!keep(f)) continue;
      const row = rows.get(f.row);
      if (row) row.push(...f.items);
      else rows.set(f.row, [...f.items]);
    }
    return [...rows.values()];
  };
  const repeated = new Set<Fragment>();
  for (let k = 0; k + 1 < pages.length; k++) {
    const { page, fragments } = pages[k]!;
    const next = pages[k + 1]!;
    const tops = rowsOf(next.fragments, (f) => f.box.y + f.box.h <= options.marginBand * next.page.height);
    const feet = rowsOf(fragments, (f) => f.box.y >= (1 - options.marginBand) * page.height);
    for (const foot of feet) {
      const few = foot.length < REPEAT_MIN_RUNS;
      const repeats = tops.some((top) =>
        foot.every((run) =>
          top.some(
            (whole) =>
              whole.text.includes(run.text) &&
              (!few || whole.text.length > run.text.length || run.w < REPEAT_SLIVER * whole.w) &&
              run.x >= whole.x - REPEAT_TOLERANCE &&
              right(run) <= right(whole) + REPEAT_TOLERANCE,
          ),
        ),
      );
      if (!repeats) continue;
      const runs = new Set(foot);
      for (const f of fragments) if (f.items.every((item) => runs.has(item))) repeated.add(f);
    }
  }
  return repeated;
}

function insidePage(item: Item, page: PageRecord): boolean {
  return right(item) > 0 && item.x < page.width && bottom(item) > 0 && top(item) < page.height;
}

/** The pure core: orders every page of one document. */
export function orderDocument(group: DocumentGroup, partial: Partial<OrderOptions> = {}): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const options = normalizeOptions(partial);
  const diagnostics: DiagnosticRecord[] = [];
  const fragmented = group.pages.map((page) => {
    const items = page.items ?? [];
    const inside = items.filter((item) => insidePage(item, page));
    if (inside.length < items.length) {
      diagnostics.push(diagnostic(page.doc, 'order', 'outside-page', `Dropped ${items.length - inside.length} text runs outside the page box`, {
        place: { page: page.page },
        count: items.length - inside.length,
      }));
    }
    return { page, fragments: fragmentsOf(inside, options) };
  });
  const repeated = repeatedAtPageBreak(fragmented, options);
  for (const entry of fragmented) {
    const cut = entry.fragments.filter((f) => repeated.has(f));
    if (cut.length === 0) continue;
    entry.fragments = entry.fragments.filter((f) => !repeated.has(f));
    diagnostics.push(diagnostic(entry.page.doc, 'order', 'repeated-line', 'Dropped a line cut by the page break that the next page repeats whole', {
      place: { page: entry.page.page },
      count: cut.reduce((n, f) => n + f.items.length, 0),
    }));
  }
  const furniture = options.furniture ? furnitureFragments(fragmented, options) : new Map<Fragment, Role>();
  const plans: PagePlan[] = fragmented.map(({ page, fragments }) => {
    const roles = new Map<LayoutBlock, Role>();
    const apart: LayoutBlock[] = [];
    const onPage = new Set(fragments);
    for (const [fragment, role] of furniture) {
      if (!onPage.has(fragment)) continue;
      const block = { fragments: [fragment], box: fragment.box };
      apart.push(block);
      roles.set(block, role);
    }
    const chained = chainBlocks(fragments.filter((f) => !furniture.has(f)), options);
    return { page, blocks: xyCut([...chained, ...apart], options), roles };
  });
  if (options.furniture) tagFurniture(plans, options);
  const pages = plans.map(({ page, blocks, roles }) => {
    const items: Item[] = [];
    blocks.forEach((block, index) => {
      const role = roles.get(block);
      for (const fragment of block.fragments) {
        for (const item of fragment.items) {
          // A role from before is dropped with a rest copy (slow) only where there is one; `delete`
          // would turn the object into a slow dictionary for every stage after this one.
          let placed: Item;
          if (item.role === undefined) placed = { ...item, block: index };
          else {
            const { role: _formerRole, ...rest } = item;
            placed = { ...rest, block: index };
          }
          if (role) placed.role = role;
          items.push(placed);
        }
      }
    });
    return { ...page, items };
  });
  return { pages, diagnostics };
}

export function order(partial: Partial<OrderOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('order', (group) => orderDocument(group, options));
}

export const USAGE = 'pdfpipe order [options] < parsed.ndjson';
export const SUMMARY = 'Puts each page\'s text runs in reading order (columns, blocks) and tags running headers, footers and page numbers.';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'order', transforms: [order(options)] });
}
