/**
 * paragraphs: lines → blocks (paragraphs, headings, list items, furniture, footnotes).
 *
 * Inside each layout block a new paragraph starts at a wider line gap than the block's usual one,
 * at a change of font size, at a list bullet, at a first-line indent, or (in justified text) after
 * a short line that ends a sentence. Headings are short paragraphs set larger than the document's
 * body text; footnotes are small text below the body at the foot of the page. Lines are joined
 * with a space (none inside CJK or Thai text), and a line-end hyphen is removed when the joined
 * word reads better: kept when the document itself writes the hyphenated form, removed otherwise.
 * A paragraph that runs on past a column or page break is marked `continues`.
 *
 * Adds `blocks` to each page. Works per document, because body size and run-on paragraphs span pages.
 * The algorithms are in lib/paragraphs/: split.ts (where paragraphs start), hyphens.ts (line-end
 * hyphens and the joining of lines) and blocks.ts (the per-document core).
 */
import { documentTransform, LazyModule, ownOptions } from '../lib/protocol/stage.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import type { SplitOptions } from '../lib/paragraphs/split.js';
import type { RoleOptions } from '../lib/paragraphs/blocks.js';

const core = new LazyModule(() => import('../lib/paragraphs/blocks.js'));

/** Where paragraphs split (lib/paragraphs/split.ts), and which are headings and footnotes (lib/paragraphs/blocks.ts). */
export interface ParagraphsOptions extends SplitOptions, RoleOptions {}

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: ParagraphsOptions = {
  gapRatio: 1.3,
  sizeChange: 0.12,
  chosenBreakRoom: 0.5,
  indent: 0.9,
  headingSize: 1.12,
  headingMaxLines: 3,
  footnoteSize: 0.92,
};

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'gapRatio', type: 'number', min: 1, description: "line gap that starts a paragraph, × the block's usual gap" },
  { key: 'sizeChange', type: 'number', min: 0, description: 'change of font size that starts a paragraph, fraction' },
  { key: 'chosenBreakRoom', type: 'number', min: 0, description: "room to spare after the next line's first word that ends a paragraph, × font size" },
  { key: 'indent', type: 'number', min: 0, description: 'first-line indent that starts a paragraph, × font size' },
  { key: 'headingSize', type: 'number', min: 1, description: 'size of a heading relative to body text' },
  { key: 'headingMaxLines', type: 'number', min: 1, description: 'most lines a heading has' },
  { key: 'footnoteSize', type: 'number', min: 0, description: 'largest footnote size relative to body text' },
];

/** Options completed from `DEFAULTS`, keeping only this stage's keys. */
export function normalizeOptions(partial: Partial<ParagraphsOptions> = {}): ParagraphsOptions {
  return ownOptions(DEFAULTS, partial);
}

/** The stage as an object-mode Transform over records. */
export function paragraphs(partial: Partial<ParagraphsOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('paragraphs', (group) => core.get().blocksOfDocument(group, options), core.ready());
}

/** The command line's usage line. */
export const USAGE = 'pdfpipe paragraphs [options] < lines.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = 'Groups lines into paragraphs, headings, list items and footnotes; joins lines and removes line-end hyphens.';

/** The command line: reads records on stdin, writes them with blocks on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'paragraphs', transforms: [paragraphs(options)] });
}
