/**
 * lines: glyph runs → lines of text with estimated word spaces.
 *
 * Within each layout block (from `order`), runs are grouped into rows by baseline (superscripts and
 * subscripts stay on their line; lib/layout/rows.ts) and each row is joined into a line
 * (lib/layout/lines.ts): left to right (right to left on RTL lines), with a space, marked as
 * inferred, wherever the gap between two runs is wider than the line's word-space threshold. In
 * letter-spaced text the threshold sits above the line's own tracking gap, so
 * "D e c l a r a t i o n" becomes one word again.
 *
 * Adds `lines` to each page; `items` pass through for later stages that look at glyph positions.
 */
import { LazyModule, ownOptions, pageTransform } from '../lib/protocol/stage.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { isGlyphOrder } from '../lib/scripts/rtl.js';
import type { LineOptions } from '../lib/layout/lines.js';

const core = new LazyModule(() => import('../lib/layout/lines.js'));

/** The lines stage's options: the thresholds of lib/layout/lines.ts (documented there). */
export interface LinesOptions extends LineOptions {}

/** The defaults of every option, which `--help` shows. */
export const DEFAULTS: LinesOptions = {
  wordGap: 0.1,
  letterSpaceExtra: 0.12,
  perGlyphShare: 0.6,
  perGlyphMinRuns: 4,
  cjkGap: 0.5,
  thaiGap: 0.22,
  zeroWidthRun: 1.2,
  nonJoiningShare: 0.6,
};

/** The option table: command-line names, types, bounds and descriptions. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'wordGap', type: 'number', min: 0, description: 'gap between runs that is a word space, × font size' },
  { key: 'letterSpaceExtra', type: 'number', min: 0, description: 'in letter-spaced lines, word space = tracking gap + this × font size' },
  { key: 'perGlyphShare', type: 'number', min: 0, description: 'share of single-glyph runs that makes a line letter-spaced' },
  { key: 'perGlyphMinRuns', type: 'number', min: 2, description: 'runs a line needs before it can count as letter-spaced' },
  { key: 'cjkGap', type: 'number', min: 0, description: 'gap inside CJK text that is a space, × font size' },
  { key: 'thaiGap', type: 'number', min: 0, description: 'gap inside Thai text that is a space, × font size' },
  { key: 'zeroWidthRun', type: 'number', min: 0, description: 'where a run with no advance width is taken to end, × font size' },
  { key: 'nonJoiningShare', type: 'number', min: 0, description: "RTL lines: gap after a non-joining Arabic letter that is a space, × the line's median word gap" },
];

/** Options filled in from DEFAULTS. */
export function normalizeOptions(partial: Partial<LinesOptions> = {}): LinesOptions {
  return ownOptions(DEFAULTS, partial);
}

/** The lines stage as a Transform: each page's runs, as lines. */
export function lines(partial: Partial<LinesOptions> = {}) {
  const options = normalizeOptions(partial);
  return pageTransform('lines', (page, doc) => ({ page: core.get().linesOfPage(page, options, isGlyphOrder(doc)) }), core.ready());
}

/** The command line's synopsis. */
export const USAGE = 'pdfpipe lines [options] < ordered.ndjson';

/** One sentence on what the stage does, for `--help`. */
export const SUMMARY = 'Groups text runs into lines by baseline and estimates word spaces from glyph gaps.';

/** `pdfpipe lines`: NDJSON records on stdin, with lines on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'lines', transforms: [lines(options)] });
}
