/**
 * Layout blocks: fragments chained into blocks. A fragment joins the one right below it when each
 * is the other's only horizontally overlapping neighbour on the adjacent row and the gap is
 * small. A column's lines chain; a title that spans two columns does not (it overlaps two).
 *
 *     [      title spanning both      ]   ← overlaps two fragments below: not chained
 *     [left column line] [right column]   ← each chains only with the line below it
 *     [left column line] [right column]
 */
import type { Box } from '../protocol/records.js';
import { ASCENT, DESCENT, boxOf } from './geometry.js';
import type { Fragment } from './fragments.js';

/** The thresholds chainBlocks reads, each relative to the font size. */
export interface ChainOptions {
  /** Fragments on successive rows chain into one block when the vertical gap is under this × font size (× lineEm for a line taller than one line box). */
  chainGap: number;
  /** Fragments whose tops are within this × font size of the nearest one below count as one row. */
  rowSlack: number;
}

/** Fragments chained into one block, and the box around them. */
export interface LayoutBlock {
  fragments: Fragment[];
  box: Box;
}

function overlapX(a: Box, b: Box): number {
  return Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
}

/**
 * The em a fragment's line is set in: its font size, or more for a line whose runs stand on many
 * heights (a sloping Nastaliq line is up to twice as tall as one line box of its size, and set
 * with a leading to match): its height over the height of one line box.
 */
function lineEm(f: Fragment): number {
  return Math.max(f.size, f.box.h / (ASCENT + DESCENT));
}

/** The index of the first of `byTop` (sorted by top) whose top is at or below `y`. */
function firstAtOrBelow(byTop: readonly Fragment[], y: number): number {
  let lo = 0;
  let hi = byTop.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byTop[mid]!.box.y < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Chains fragments into blocks (see the file comment). */
export function chainBlocks(fragments: readonly Fragment[], options: ChainOptions): LayoutBlock[] {
  // The fragments from the top down: those below a fragment are found from where they start, not
  // by a pass over the whole page for each (a table's page has hundreds).
  const byTop = [...fragments].sort((a, b) => a.box.y - b.box.y);
  // For each fragment, the overlapping fragments nearest below it: those whose tops lie within
  // `rowSlack` × font size of the nearest one (columns' baselines need not line up).
  const below = new Map<Fragment, Fragment[]>();
  const above = new Map<Fragment, Fragment[]>();
  for (const f of fragments) {
    const bottomOfF = f.box.y + f.box.h;
    const slack = options.rowSlack * f.size;
    let nearest = Infinity;
    const row: Fragment[] = [];
    for (let i = firstAtOrBelow(byTop, bottomOfF - 0.5 * f.size); i < byTop.length; i++) {
      const g = byTop[i]!;
      if (g.box.y > nearest + slack) break;
      if (g === f || g.row <= f.row || overlapX(f.box, g.box) <= 0) continue;
      if (nearest === Infinity) nearest = g.box.y;
      row.push(g);
    }
    if (row.length === 0) continue;
    // A fragment that stands under another of that row is the line after it, not its neighbour:
    // under a large heading, a body set tighter than the heading's size has its second line within
    // the slack of its first.
    const set = row.filter((g) => !row.some((h) => h !== g && overlapX(h.box, g.box) > 0 && h.box.y + h.box.h <= g.box.y));
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
    if (gap > options.chainGap * Math.max(lineEm(f), lineEm(g))) continue;
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
