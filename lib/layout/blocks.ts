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

/** Chains fragments into blocks (see the file comment). */
export function chainBlocks(fragments: readonly Fragment[], options: ChainOptions): LayoutBlock[] {
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
    const row = candidates.filter((g) => g.box.y <= nearest + options.rowSlack * f.size);
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
