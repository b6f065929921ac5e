/**
 * order: reading order within each page, and page furniture across pages.
 *
 * 1. Runs outside the page box are dropped (counted in a diagnostic), and so is a line cut by a
 *    page break that the next page repeats whole (see lib/layout/page-breaks.ts).
 * 1b. Each writing frame is laid out upright on its own (lib/layout/frames.ts): runs turned to one
 *    angle, and upright CJK glyphs stacked in vertical lines (read top to bottom, lines right to
 *    left, marked `dir: ttb`). The frame with most of the page's text is the body; the others
 *    (a stamp in the margin, a turned label) follow it as blocks with the role `margin-note`.
 * 2. Rows (runs on one baseline) are cut into fragments wherever the gap between runs is wider
 *    than `fragmentGap` em, so that the two halves of a row in a two-column page become two
 *    fragments (lib/layout/fragments.ts).
 * 3. Fragments are chained into layout blocks: a fragment joins the one right below it when each
 *    is the other's only horizontally overlapping neighbour on the adjacent row and the gap is
 *    small (lib/layout/blocks.ts).
 * 4. Blocks are put in reading order by recursive XY-cut: split at a horizontal band of white space
 *    that no block crosses (top to bottom), else at a vertical one (left to right)
 *    (lib/layout/columns.ts).
 * 5. Running headers, footers and page numbers: short blocks in the top or bottom margin whose
 *    text (digits masked) repeats on other pages, or that are page-number-like, get a `role`
 *    (lib/layout/furniture.ts).
 *
 * Writes `block` (reading-order index) and `role` on each item, and sorts `items` by block. The
 * core over one document's pages is orderDocument (lib/layout/reading-order.ts).
 */
import { documentTransform, LazyModule, ownOptions } from '../lib/protocol/stage.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import type { ReadingOrderOptions } from '../lib/layout/reading-order.js';

const core = new LazyModule(() => import('../lib/layout/reading-order.js'));

/** The order stage's options: every threshold of lib/layout's reading order (documented there). */
export interface OrderOptions extends ReadingOrderOptions {}

/** The defaults of every option, which `--help` shows. */
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

/** The option table: command-line names, types, bounds and descriptions. */
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
  { key: 'chainGap', type: 'number', min: 0, description: 'largest vertical gap between chained lines, × font size (a line taller than one line box: × its height over one)' },
  { key: 'rowSlack', type: 'number', min: 0, description: 'fragments this close (× font size) to the nearest one below count as one row' },
  { key: 'marginBand', type: 'number', min: 0, description: 'top/bottom margin searched for furniture, fraction of page height' },
  { key: 'furniture', type: 'boolean', description: 'tag running headers, footers and page numbers' },
];

/** Options filled in from DEFAULTS and checked. */
export function normalizeOptions(partial: Partial<OrderOptions> = {}): OrderOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (!(options.marginBand >= 0 && options.marginBand < 0.5)) throw new UsageError(`marginBand must be in [0, 0.5), got ${options.marginBand}`);
  return options;
}

/** The order stage as a Transform: each document's pages, gathered, ordered. */
export function order(partial: Partial<OrderOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('order', (group) => core.get().orderDocument(group, options), core.ready());
}

/** The command line's synopsis. */
export const USAGE = 'pdfpipe order [options] < parsed.ndjson';
/** One sentence on what the stage does, for `--help`. */
export const SUMMARY = 'Puts each page\'s text runs in reading order (columns, blocks) and tags running headers, footers and page numbers.';

/** `pdfpipe order`: NDJSON records on stdin, ordered on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'order', transforms: [order(options)] });
}
