/**
 * resegment: re-places word spaces inside lines with a language model of the document itself.
 *
 * Space estimation from glyph gaps leaves two kinds of damage: words spread into letters or
 * fragments ("t o", "Declara tion") and words glued together ("lalibertaddepalabra"). Following
 * Tiedemann's pdf2xml, a unigram model is built per document from its own lines (plus optional word
 * lists, `--lexicon`), and each line is re-segmented by dynamic programming:
 *
 * - merge: a run of space-separated tokens becomes one word when the joined word is known, at least
 *   one of the tokens is a fragment (a single letter, or a string the document uses nowhere else),
 *   and the joined word scores better than the tokens apart;
 * - split: a token that is longer than the document's long words, changes from lower to upper case
 *   inside, or fills a whole line of a spaced script, is split into known words when that scores
 *   better and enough of the pieces are the document's common words (so compounds stay whole).
 *
 * Both searches look back at most as far as the longest known word, so the cost is linear in the
 * line's length. Lines in scripts written without spaces (Thai, Lao, Khmer, Myanmar, CJK) are left
 * alone. With `--lm` an n-gram model (ARPA text read in-process, or a KenLM binary model scored
 * through KenLM's `query`) has the last word on each changed line: the line keeps whichever of its
 * old and new forms the model scores higher. Every change is marked in the line's `inferred` marks
 * (`join`/`merge-fragments`, `space`/`split-glued`); `--explain` also reports each changed line as
 * an `info` diagnostic.
 *
 * Rewrites `text` and `inferred` of each page's `lines`. Works per document (the model is the
 * document's). De-hyphenation at line ends is done where lines are joined, in `paragraphs`.
 *
 * The algorithms live in lib/repair: word-model.ts (the document's word model, `--lexicon` files),
 * segment.ts (the merge and split searches over one line), segment-document.ts (the per-document
 * core and the n-gram rescoring).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { afterReady, LazyModule, ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import { diagnostic, errorRecord, type DiagnosticRecord, type PageRecord, type PipeRecord } from '../lib/protocol/records.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { openModel } from '../lib/lm/open.js';
import { ModelError, type LanguageModel } from '../lib/lm/model.js';
import { loadLexicon } from '../lib/repair/word-model.js';
import type { DocumentResult, ResegmentDocumentOptions } from '../lib/repair/segment-document.js';

const core = new LazyModule(() => import('../lib/repair/segment-document.js'));

/** The stage's options: what the core reads (`ResegmentDocumentOptions`), and the word lists and model it loads. */
export interface ResegmentOptions extends ResegmentDocumentOptions {
  /** Word lists or text files (comma-separated paths) whose words join the document's own. */
  lexicon: string;
  /** An n-gram model (ARPA text or KenLM binary) that decides between a line's old and new forms. */
  lm: string;
}

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: ResegmentOptions = {
  lexicon: '',
  lm: '',
  explain: false,
  mergeMargin: 1,
  splitMargin: 2,
  commonShare: 0.4,
  gluedLine: 20,
};

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'lexicon', type: 'string', description: 'word lists or text files whose words count as known (comma-separated paths)' },
  { key: 'lm', type: 'string', description: 'n-gram model (ARPA file, or KenLM binary through `query`) to confirm each change' },
  { key: 'explain', type: 'boolean', description: 'report each changed line as a diagnostic' },
  { key: 'mergeMargin', type: 'number', min: 0, description: 'log10 score a merge must win by' },
  { key: 'splitMargin', type: 'number', min: 0, description: 'log10 score a split must win by' },
  { key: 'commonShare', type: 'number', min: 0, description: "share of a split's pieces that must be common words" },
  { key: 'gluedLine', type: 'number', min: 1, description: 'letters of a space-less line that is split as a whole' },
];

/** Options completed from `DEFAULTS`, checked; throws UsageError on a bad value. */
export function normalizeOptions(partial: Partial<ResegmentOptions> = {}): ResegmentOptions {
  const options = ownOptions(DEFAULTS, partial);
  for (const key of ['mergeMargin', 'splitMargin', 'commonShare', 'gluedLine'] as const) {
    if (!Number.isFinite(options[key]) || options[key] < 0) throw new UsageError(`--${key} must be a number ≥ 0`);
  }
  return options;
}

/**
 * The Transform: buffers each document, re-segments it, and (with `--lm`) lets the n-gram model
 * confirm each change. A model that fails leaves the document with its un-resegmented lines and a
 * diagnostic saying why; the document is never lost.
 */
export function resegment(partial: Partial<ResegmentOptions> = {}): Transform {
  const options = normalizeOptions(partial);
  const lexicon = loadLexicon(options.lexicon);
  let lm: LanguageModel | null = null;
  let lmError: string | null = null;
  if (options.lm) {
    try {
      lm = openModel(options.lm);
    } catch (error) {
      if (error instanceof ModelError) throw new UsageError(error.message);
      throw error;
    }
  }
  let group: { doc: DocumentGroup['doc']; pages: PageRecord[]; diagnostics: DiagnosticRecord[] } | null = null;
  const emit = (stream: Transform, records: readonly PipeRecord[]): void => {
    for (const r of records) stream.push(r);
  };
  return new Transform({
    objectMode: true,
    transform: afterReady(core.ready(), function (record, _enc, done) {
      if (record.type === 'doc') {
        group = { doc: record, pages: [], diagnostics: [] };
        return done();
      }
      if (group && record.type === 'page' && record.doc === group.doc.id) {
        group.pages.push(record);
        return done();
      }
      if (group && record.type === 'diagnostic' && record.doc === group.doc.id) {
        group.diagnostics.push(record);
        return done();
      }
      if (!group || !((record.type === 'end' || record.type === 'error') && record.doc === group.doc.id)) {
        this.push(record);
        return done();
      }
      const current = group;
      group = null;
      this.push(current.doc);
      if (record.type === 'error') {
        emit(this, [...current.pages, ...current.diagnostics, record]);
        return done();
      }
      let result: DocumentResult;
      try {
        result = core.get().resegmentDocument({ ...current, outcome: record }, options, lexicon);
      } catch (error) {
        this.push(errorRecord(current.doc.id, 'resegment', 'stage-failed', `resegment failed: ${(error as Error).message}`));
        return done();
      }
      const finish = (extra: DiagnosticRecord[]): void => {
        emit(this, [...current.diagnostics, ...result.pages, ...result.diagnostics, ...extra, record]);
        done();
      };
      if (!lm || lmError) {
        return finish(lmError ? [diagnostic(current.doc.id, 'resegment', 'lm-failed', lmError)] : []);
      }
      const original = current.pages;
      core.get().rescore(result, lm, current.doc.id).then(
        (mismatch) => finish(mismatch ? [mismatch] : []),
        (error: unknown) => {
          // The model failed: the document keeps its lines as they came.
          result.pages = original;
          result.diagnostics = [];
          finish([diagnostic(current.doc.id, 'resegment', 'lm-failed', `language model failed, lines left as they were: ${(error as Error).message}`)]);
        },
      );
    }),
    flush(done: TransformCallback) {
      if (lm) lm.close().then(() => done(), () => done());
      else done();
    },
  });
}

/** The command line's usage line. */
export const USAGE = 'pdfpipe resegment [options] < lines.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = "Merges spaced-out letters and splits glued words with the document's own word model.";

/** The command line: reads records on stdin, writes them with their lines re-segmented on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'resegment', transforms: [resegment(options)] });
}
