/**
 * join: decides, at every page, column or box break, whether the paragraph after the break runs
 * on from the one before it (one sentence, one paragraph) — and writes the decision as the block's
 * `continues`, with the rule that made it (`joinRule`) and what goes between (`joiner`).
 *
 * `paragraphs` guesses run-ons with a loose test; join re-decides every pair of body paragraphs
 * separated by a break, in this order:
 *   0. a left paragraph whose last line stops short of its other lines ended there, and a change
 *      of font size (by more than `joinSizeChange`) starts a new paragraph (no join; `absolute_eof`
 *      rules come first, the size before `join_words`);
 *   1. rules in PDFExtract's configuration format (lib/paragraphs/join-rules.ts): `absolute_eof` forbids a
 *      join, `join_words` makes one — the set of the pair's language first, then `common`;
 *   2. with a language model (`joinLm`: an ARPA file read in-process, a KenLM binary model scored
 *      by KenLM's `query` as the resegment stage does, or any model given to the library), the
 *      margin of running on over a sentence break (lib/lm/join-model.ts) against `lmThreshold`;
 *   3. without one, pdf2xml's rule: join when the left part lacks sentence-final punctuation and
 *      the right part starts lowercase. Beyond pdf2xml, a right part that starts with a capital
 *      or in a script without case joins when the left paragraph's last line runs to its far edge
 *      (the break cut it; it did not end) and, for a capital, the left ends in a lowercase letter
 *      or one of a script without case. Where the paragraph's own lines cannot tell whether its
 *      last line is full (one line, or a ragged end), the column's measure does (`measuredFull`):
 *      the line is full when the first word after the break would not have fitted at its end.
 *   4. where paragraphs start with an indent (`indentsParagraphs`), a full line that ends a
 *      sentence before a flush line runs on (`unindented`): the break fell after a sentence.
 * A display formula (`displayFormula`) joins the paragraph before it, its pieces join each other
 * (`formula`), and the text after it goes on with the paragraph when it starts in lower case and,
 * where paragraphs are indented, flush (`after-formula`); otherwise the paragraphs stage's
 * decision stands.
 * Headings, list items, footnotes and page furniture never join, and furniture between two body
 * paragraphs (a running header) does not separate them. A short block repeated at the top or
 * foot of several pages is a running head that `order` missed: join gives it the role `header`
 * or `footer`, so that it drops out of text like other furniture. Inside one layout block, where
 * `paragraphs` decides, join only mends a split that cut a sentence (`within`).
 *
 * Works per document: a break can fall between pages. The algorithms are in lib/paragraphs/:
 * breaks.ts (the decision at one break, last-line shapes), formulas.ts, indents.ts, interruptions.ts
 * (running heads and trailing notes) and join.ts (the per-document core).
 */
import { asyncDocumentTransform, documentTransform, LazyModule, ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { defaultJoinRules, JoinConfigError, loadJoinRules, rejectedJoinRules, type JoinRules } from '../lib/paragraphs/join-rules.js';
import type { JoinModel } from '../lib/lm/join-model.js';
import { openModel } from '../lib/lm/open.js';
import { ModelError, type LanguageModel } from '../lib/lm/model.js';
import { ArpaModel } from '../lib/lm/arpa.js';
import { isKnownLanguage } from '../lib/lang/codes.js';
import type { DiagnosticRecord, PageRecord } from '../lib/protocol/records.js';
import type { JoinCoreOptions, JoinSettings } from '../lib/paragraphs/join.js';

const core = new LazyModule(() => import('../lib/paragraphs/join.js'));

/** The join stage's options: the rules and model files, and what the core reads (lib/paragraphs/join.ts). */
export interface JoinOptions extends JoinSettings {
  /** A rules file in PDFExtract.json's format; '' uses pdfpipe's built-in rules. */
  joinRules: string;
  /** An n-gram model for the join decision (ARPA text, or a KenLM binary model through `query`); '' decides without a model. */
  joinLm: string;
}

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: JoinOptions = { joinRules: '', joinLang: '', joinLm: '', lmThreshold: 0, lmContext: 3, fullLine: 1.5, within: true, joinSizeChange: 0.05 };

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'joinRules', type: 'string', description: "join rules in PDFExtract.json's format ('' = built-in)" },
  { key: 'joinLang', type: 'string', description: "language of the join rules when blocks have none ('' = detect)" },
  { key: 'joinLm', type: 'string', description: "n-gram model for join decisions: ARPA file, or KenLM binary through `query` ('' = rules only)" },
  { key: 'lmThreshold', type: 'number', description: 'join when the log10 odds of running on exceed this' },
  { key: 'lmContext', type: 'number', min: 1, description: 'words of context on each side of a break for the model' },
  { key: 'fullLine', type: 'number', min: 0, description: "a last line this close to the paragraph's edge (× font size) is full" },
  { key: 'within', type: 'boolean', description: 'also mend splits inside a layout block that cut a sentence' },
  { key: 'joinSizeChange', type: 'number', min: 0, description: 'change of font size across a break that ends the paragraph, fraction' },
];

/**
 * Options with the rules and model loaded (loading errors are usage errors: nothing can run). An
 * ARPA file is read in-process (`model`); any other model file is a KenLM binary model, scored by
 * KenLM's `query` in a child process (`sentenceModel`, asked in one batch per document).
 */
export interface ResolvedJoinOptions extends JoinOptions, JoinCoreOptions {
  sentenceModel: LanguageModel | null;
}

/** Options as given: any of the stage's, and the rules and models already loaded. */
type JoinInput = Partial<JoinOptions> & { rules?: JoinRules; model?: JoinModel | null; sentenceModel?: LanguageModel | null };

/** Options completed from `DEFAULTS`, the language checked, the rules and model loaded. */
export function normalizeOptions(partial: JoinInput = {}): ResolvedJoinOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (options.joinLang && !isKnownLanguage(options.joinLang)) {
    throw new UsageError(`Unknown language code "${options.joinLang}", expected ISO 639-1 or 639-3`);
  }
  let rules = partial.rules;
  let model = partial.model ?? null;
  let sentenceModel = partial.sentenceModel ?? null;
  try {
    rules ??= options.joinRules ? loadJoinRules(options.joinRules) : defaultJoinRules();
    if (!model && !sentenceModel && options.joinLm) {
      const lm = openModel(options.joinLm);
      if (lm instanceof ArpaModel) model = { forward: lm };
      else sentenceModel = lm;
    }
  } catch (error) {
    if (error instanceof JoinConfigError || error instanceof ModelError) throw new UsageError(error.message);
    throw error;
  }
  return { ...options, rules, model, sentenceModel };
}

/** The pure core (lib/paragraphs/join.ts): join decisions for one document. */
export async function joinDocument(group: DocumentGroup, partial: JoinInput = {}): Promise<{ pages: PageRecord[]; diagnostics: DiagnosticRecord[] }> {
  await core.ready();
  return joinLoaded(group, partial);
}

/** `joinDocument` once the core is loaded. */
function joinLoaded(group: DocumentGroup, partial: JoinInput): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const options = normalizeOptions(partial);
  return { ...core.get().decideBreaks(group, options), diagnostics: rejectedWarnings(group.doc.id, options.rules) };
}

/** A warning per configured rule that was left out (its Java regex has no JavaScript form). */
function rejectedWarnings(doc: string, rules: JoinRules): DiagnosticRecord[] {
  return rejectedJoinRules(rules).map((message) => ({ type: 'diagnostic', doc, severity: 'warning', stage: 'join', code: 'config-rule-rejected', message }));
}

/** The core with a model that scores whole sentences and answers later (KenLM's `query`), scored in one batch per document. */
export async function joinDocumentScored(group: DocumentGroup, partial: JoinInput & { sentenceModel: LanguageModel }): Promise<{ pages: PageRecord[]; diagnostics?: DiagnosticRecord[] }> {
  const { decideBreaksScored } = await core.ready();
  return decideBreaksScored(group, normalizeOptions(partial), partial.sentenceModel);
}

/** The stage as an object-mode Transform over records (async when KenLM's `query` scores). */
export function join(partial: JoinInput = {}) {
  const options = normalizeOptions(partial);
  const sentenceModel = options.sentenceModel;
  if (sentenceModel && !options.model) {
    return asyncDocumentTransform('join', (group) => joinDocumentScored(group, { ...options, sentenceModel }), () => sentenceModel.close(), core.ready());
  }
  return documentTransform('join', (group) => joinLoaded(group, options), core.ready());
}

/** The command line's usage line. */
export const USAGE = 'pdfpipe join [options] < blocks.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = 'Decides whether paragraphs split by a page, column or box break run on (rules, a language model, or pdf2xml\'s rule).';

/** The command line: reads records on stdin, writes them with join decisions on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'join', transforms: [join(options)] });
}
