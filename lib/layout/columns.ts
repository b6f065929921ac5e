/**
 * Columns: blocks put in reading order by recursive XY-cut. A region is split at a column gutter
 * (left column before right) or at a horizontal band of white space that no block crosses (top
 * to bottom), else at a vertical one (left to right).
 */
import { median } from './geometry.js';
import type { LayoutBlock } from './blocks.js';
import { whiteColumn, type GutterOptions } from './gutters.js';

export type { GutterOptions } from './gutters.js';

/**
 * Finds a column gutter: an x-interval that (almost) no block covers, with text on both sides.
 * Coverage is weighted by block height, so a centred running header or a page number crossing the
 * gutter does not hide it, while the body text of a single column does.
 */
export function findGutter(blocks: readonly LayoutBlock[], options: GutterOptions): { x0: number; x1: number } | null {
  return whiteColumn(blocks.map((b) => b.box), median(blocks.map((b) => b.fragments[0]?.size ?? 10)), options);
}

/**
 * Orders blocks: at a column gutter, blocks that cross it (titles, notes, a centred header) cut
 * the region into bands, and within a band the left column comes before the right; without a
 * gutter, the region is cut at horizontal white bands, and consecutive bands that share a gutter
 * are put back together so that a two-column stretch is read column by column.
 */
export function xyCut(blocks: readonly LayoutBlock[], options: GutterOptions, depth = 0): LayoutBlock[] {
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
