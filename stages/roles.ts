/**
 * roles: what every block of a page is — title, front matter, abstract, heading (with a level),
 * body, list item, caption, formula, footnote, reference, page furniture.
 *
 * `order` finds running heads and page numbers by repetition and `paragraphs` tells headings,
 * list items and footnotes by size and position; what a corpus builder also needs to know (is
 * this a caption, a bibliography entry, the title block, a display formula?) takes the whole
 * document: its body size and font, its first page, its sequence of page numbers, its headings.
 * Every rule reads the document's own statistics (lib/regions/roles.ts says in which order), so
 * that the text outputs can keep every word, each block tagged, or select the roles a user
 * wants (`serialize --roles`).
 *
 * Rewrites `role` on blocks (and `level` on headings); joins the pieces of a bibliography entry
 * into one block. Works per document.
 */
import { documentTransform, LazyModule, ownOptions } from '../lib/protocol/stage.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import type { RegionOptions } from '../lib/regions/roles.js';

const core = new LazyModule(() => import('../lib/regions/roles.js'));

/** The roles stage's options: the heading thresholds. */
export interface RolesOptions extends RegionOptions {}

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: RolesOptions = { headingSize: 1.12, headingMaxWords: 14 };

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'headingSize', type: 'number', min: 1, description: 'size of a heading relative to body text' },
  { key: 'headingMaxWords', type: 'number', min: 1, description: 'most words a section heading has' },
];

/** Options completed from `DEFAULTS`, keeping only this stage's keys. */
export function normalizeOptions(partial: Partial<RolesOptions> = {}): RolesOptions {
  return ownOptions(DEFAULTS, partial);
}

/** The stage as an object-mode Transform over records. */
export function roles(partial: Partial<RolesOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('roles', (group) => core.get().rolesOfDocument(group, options), core.ready());
}

/** The command line's usage line. */
export const USAGE = 'pdfpipe roles [options] < blocks.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = 'Tells what every block is: title, front matter, abstract, heading, caption, formula, reference, footnote, page furniture.';

/** The command line: reads records with blocks on stdin, writes them with roles on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'roles', transforms: [roles(options)] });
}
