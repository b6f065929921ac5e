/**
 * Gutters: the white x-interval between columns of text, found from the boxes of blocks (the
 * XY-cut of columns.ts) or of runs (the page's own gutter in fragments.ts).
 */
import type { Box } from '../protocol/records.js';

/** The thresholds of a column gutter (findGutter, xyCut, and the rows' page gutter). */
export interface GutterOptions {
  /** A column gutter is covered by at most this share of the most covered x (by block height)… */
  gutterCoverage: number;
  /** …and is at least this × font size wide… */
  gutterWidth: number;
}

/**
 * The x-interval that (almost) none of the boxes covers, weighted by their height, with boxes on
 * both sides, at least `gutterWidth` × `size` wide: the gutter of findGutter, of blocks or of runs.
 */
export function whiteColumn(boxes: readonly Box[], size: number, options: GutterOptions): { x0: number; x1: number } | null {
  if (boxes.length === 0) return null;
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const box of boxes) {
    x0 = Math.min(x0, box.x);
    x1 = Math.max(x1, box.x + box.w);
  }
  x0 = Math.floor(x0);
  x1 = Math.ceil(x1);
  const width = x1 - x0;
  if (!(width > 0) || width > 20000) return null;
  const coverage = new Float64Array(width + 1);
  for (const box of boxes) {
    for (let x = Math.max(0, Math.ceil(box.x - x0)); x <= Math.min(width, Math.floor(box.x + box.w - x0)); x++) coverage[x] = (coverage[x] ?? 0) + box.h;
  }
  let peak = 0;
  for (const c of coverage) peak = Math.max(peak, c);
  const low = options.gutterCoverage * peak;
  const minWidth = options.gutterWidth * size;
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
