/**
 * bidi: lines in visual order → lines in logical (reading) order, for right-to-left scripts.
 *
 * PDFs draw Arabic, Persian, Urdu and Hebrew in visual order: glyphs left to right on the page. The
 * `lines` stage writes a right-to-left line as the page read from right to left (lib/scripts/rtl.ts), which
 * is already the reading order of pure Arabic or Hebrew, but turns embedded English words and
 * numbers backwards ("letnI", "4791"). This stage, for each line that holds right-to-left text:
 *
 * 1. decides the paragraph direction. UAX #9 takes the first strong character (rules P2, P3); on
 *    the page, the first character of a right-to-left paragraph is its rightmost one and of a
 *    left-to-right paragraph its leftmost one. A direction is taken when the strong character at
 *    its starting edge agrees with it and the other does not, unless the line's own strong
 *    characters are clearly (2 : 1) of the other direction (a Hebrew sentence that starts with
 *    "Intel" and ends with "Python" has Latin at both edges); when neither decides (a line of
 *    numbers, a short line with one English word), the clear majority of the line's layout block,
 *    then the page's majority; a diagnostic counts these guesses;
 * 2. turns the line back into visual order and applies the Unicode Bidirectional Algorithm
 *    (bidi-js) to it with that paragraph direction. Reordering is its own inverse for what PDFs
 *    hold — right-to-left runs with embedded left-to-right words, numbers and neutral punctuation
 *    between them — so the visual line comes out in reading order: right-to-left runs reversed,
 *    embedded left-to-right words and numbers in their own order, brackets at right-to-left levels
 *    mirrored (UAX #9 rule L4: the glyph drawn as ")" opens a right-to-left parenthesis). Generators
 *    disagree here: some map the mirrored glyph to ")" (Quartz, Chromium), others to the "(" it
 *    stands for (Word). With `--mirror auto` a line's brackets are mirrored unless that leaves
 *    them less well paired than not mirroring ("15)ב()4(" against "15(ב)(4)");
 * 3. keeps combining marks (harakat, Hebrew points) after their base letter, whatever level the
 *    algorithm would give them on their own, and moves the inferred-space marks with their spaces.
 *
 * Explicit direction controls (LRE, RLO, LRI, PDF, …, LRM, RLM, ALM) inside the PDF's text are
 * meaningless in visual order: they are removed before reordering and counted in a diagnostic.
 * Lines without right-to-left characters are left as they are. When the engine has already
 * reordered each run itself (no `glyph-order` in `meta.engine`), line texts are not reordered again:
 * only their direction is set, and a diagnostic says so. The algorithm is in lib/scripts/bidi.ts.
 */
import { LazyModule, ownOptions, pageTransform } from '../lib/protocol/stage.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import type { ReorderOptions } from '../lib/scripts/bidi.js';

const core = new LazyModule(() => import('../lib/scripts/bidi.js'));

/** Options of the bidi stage: those of the reordering. */
export interface BidiOptions extends ReorderOptions {}

export const DEFAULTS: BidiOptions = {
  paragraphDirection: 'auto',
  mirror: 'auto',
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'paragraphDirection', type: 'string', choices: ['auto', 'ltr', 'rtl'], description: 'paragraph direction of lines with right-to-left text' },
  { key: 'mirror', type: 'string', choices: ['auto', 'always', 'never'], description: 'mirror brackets at right-to-left levels (auto: unless that pairs them worse)' },
];

export function normalizeOptions(partial: Partial<BidiOptions> = {}): BidiOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (!['auto', 'ltr', 'rtl'].includes(options.paragraphDirection)) {
    throw new Error(`Unexpected direction "${String(options.paragraphDirection)}", expected auto, ltr or rtl`);
  }
  return options;
}

export function bidi(partial: Partial<BidiOptions> = {}) {
  const options = normalizeOptions(partial);
  return pageTransform('bidi', (page, doc) => core.get().bidiOfPage(page, doc, options), core.ready());
}

export const USAGE = 'pdfpipe bidi [options] < lines.ndjson';
export const SUMMARY = 'Puts right-to-left lines into reading order (Unicode Bidirectional Algorithm over visual order).';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'bidi', transforms: [bidi(options)] });
}
