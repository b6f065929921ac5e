/**
 * Lines cut by a page break: a row at the foot of a page that the next page repeats whole at its
 * top is dropped from the first page.
 */
import type { Item, PageRecord } from '../protocol/records.js';
import { right } from './geometry.js';
import type { Fragment } from './fragments.js';
import type { MarginOptions } from './furniture.js';

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
export function repeatedAtPageBreak(pages: readonly { page: PageRecord; fragments: readonly Fragment[] }[], options: MarginOptions): Set<Fragment> {
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
