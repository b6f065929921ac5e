/**
 * langid: the language of every block, stretches of another script inside a block, and the
 * document's language distribution.
 *
 * Blocks long enough to judge are identified with franc (lib/lang/identify.ts) among the candidate
 * languages, with the PDF's /Lang as the prior; a Cyrillic language whose alphabet lacks letters the
 * block keeps writing is ruled out (lib/lang/alphabets.ts). The document's languages are then counted by
 * characters; a block too short to judge takes the language its script has in this document (or
 * /Lang), or `und` when nothing says — never a guess. Garbled text (a wrong 8-bit table, glyphs
 * mapped to the wrong letters) is `und` too. Inside a block, runs of another script
 * (Latin names in Arabic or Hebrew text) get their own language as `spans`: franc's when the run
 * is long enough, else the language that script has elsewhere in the document, else, for Latin
 * runs, `embeddedLatin` (English by default: names and terms quoted in Latin letters inside
 * non-Latin text are overwhelmingly English). `lang`: keep only blocks in that language; with
 * `mark`, keep all and set `selected` on each.
 *
 * Before `lang` filters, blocks that stand beside their translation (two columns, or the cells of
 * table rows, in two languages) are paired (lib/regions/parallel.ts).
 *
 * Writes `lang` (and `spans`, `parallel`) on blocks, `lang` and `languages` on the `doc` record.
 * Works per document (lib/lang/document.ts), because the document's distribution is the prior of
 * its short blocks.
 */
import { documentTransform, LazyModule, ownOptions } from '../lib/protocol/stage.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { DEFAULT_CANDIDATES, isKnownLanguage } from '../lib/lang/codes.js';
import type { DocumentLanguageOptions } from '../lib/lang/document.js';

const core = new LazyModule(() => import('../lib/lang/document.js'));

/** Options of the langid stage: those of a document's identification. */
export interface LangidOptions extends DocumentLanguageOptions {}

export const DEFAULTS: LangidOptions = {
  lang: '',
  mark: false,
  candidates: DEFAULT_CANDIDATES.join(','),
  minLetters: 20,
  priorRatio: 0.9,
  embeddedLatin: 'en',
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'lang', type: 'string', description: 'keep only blocks in this language (ISO 639-1)' },
  { key: 'mark', type: 'boolean', description: 'with --lang: keep all blocks, mark them `selected`' },
  { key: 'candidates', type: 'string', description: "comma-separated candidate languages ('' = all of franc's 187)" },
  { key: 'minLetters', type: 'number', min: 1, description: "fewest letters franc judges; shorter blocks take the document's language" },
  { key: 'priorRatio', type: 'number', min: 0, description: "a prior language wins at this fraction of franc's best score" },
  { key: 'embeddedLatin', type: 'string', description: "language of short Latin runs in non-Latin text ('' = und)" },
];

export function normalizeOptions(partial: Partial<LangidOptions> = {}): LangidOptions {
  const options = ownOptions(DEFAULTS, partial);
  for (const code of [options.lang, options.embeddedLatin, ...options.candidates.split(',')].map((c) => c.trim())) {
    if (code !== '' && !isKnownLanguage(code)) throw new UsageError(`Unknown language code "${code}", expected ISO 639-1 or 639-3`);
  }
  if (options.mark && !options.lang) throw new UsageError('Option --mark needs --lang');
  return options;
}

export function langid(partial: Partial<LangidOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('langid', (group) => core.get().langidOfDocument(group, options), core.ready());
}

export const USAGE = 'pdfpipe langid [options] < blocks.ndjson';
export const SUMMARY = "Tags each block's language (franc, ISO 639-1), other-script runs inside blocks, and the document's language distribution.";

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  const normalized = normalizeOptions(options);
  return runFilter({ stage: 'langid', transforms: [langid(normalized)] });
}
