/**
 * repair: fixes characters that the PDF's text layer got wrong, line by line and word by word.
 *
 * Runs after `lines` (and `bidi`), on each line's text; the inferred marks of a line move with its
 * text. Every change is made by a named rule, counted per document in one `info` diagnostic per
 * rule, and with `--explain` reported before/after. Text that is already right matches no rule.
 * In order:
 *
 * 1. Broken encodings: a line whose letters are almost all Latin-1 accented letters ("Âñåîáùàÿ")
 *    is an 8-bit code page read as Latin-1; it is re-decoded (windows-1251, windows-1253, KOI8-R)
 *    when the result is letters of one script, the code page chosen per document (fewest
 *    undecodable bytes, then the document's language). A line whose letters come out of a font
 *    with no ToUnicode as a constant shift of the code points (Cyrillic read as Greek and Coptic)
 *    is shifted back when the result is one script with the case and vowel pattern of real text.
 * 2. The configured `normalize` rules (`common`, then the document's language), in the format of
 *    PDFExtract.json: `{"language": [{"name": "common", "config": {"normalize": [[regex, replace]],
 *    "repair": [...]}}]}`. The defaults: compatibility ligatures (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ, Ĳ ĳ, Ǆ ǅ ǆ …)
 *    expanded, NBSP and other fixed-width spaces made plain spaces (not deleted, which would glue
 *    words), soft hyphens inside words removed. `config/pdfextract.json` has PDFExtract's own
 *    rules (quote and dash folding, space before punctuation) for `--config`.
 * 3. Ligature damage, checked against known words (the document's own words and a word list):
 *    a space next to a ligature's letters removed when the joined word is known and the parts are
 *    not ("ef ficient"); letters swallowed by a ligature put back when exactly one of ff fi fl ffi
 *    ffl makes an unknown word known ("eects" → "effects"); a soft hyphen put back at the end of a
 *    line whose last word and the next line's first make one known word ("Ef" | "ficient").
 * 4. Arabic script: presentation forms (U+FB50–FDFF, U+FE70–FEFC) → base letters, lam-alef → lam +
 *    alef, the Allah ligature U+FDF2 after an alef without a second alef, tatweel removed or kept
 *    (`--tatweel`); ZWNJ is never touched. Hebrew presentation forms (U+FB1D–FB4F) → letters and
 *    points. In a Persian or Urdu document, Arabic ي ى ك → ی ک (`persian-yeh-kaf`).
 * 5. Thai: the rules of lib/scripts/thai.ts (private-use glyphs, error types I–VII, lost marks), and type
 *    VIII from the glyph positions: a mark drawn as its own run is put after the consonant it sits
 *    over.
 * 6. Devanagari and Bengali written in glyph order (lib/scripts/indic.ts), in a document whose pre-base
 *    vowel signs show it: those signs (ि; ি ে ৈ) put after their consonants, the reph before them,
 *    ा or आ + े or ै → ो ौ ओ औ, ে + া or ৗ → ো ৌ; in any document a nasal sign after its vowel sign,
 *    and signs written after a danda before it.
 * 7. The configured `repair` rules.
 *
 * pdf.js's own normalisation (parse `--normalize`, on by default) applies NFKC to a fixed set
 * inside the engine: ligatures U+FB00–FB04 and FB06, Hebrew presentation forms, Arabic
 * Presentation Forms-A. It leaves Forms-B (U+FE70–FEFC, the letters of most Arabic-script PDFs),
 * U+FDF2 and Ĳ ĳ: those are mapped here. What pdf.js already mapped matches no rule here, except
 * the doubled alef that its NFKC of "ا" + U+FDF2 gives, which `arabic-allah` undoes. With parse
 * `--no-normalize` this stage does every expansion itself, rule by rule and traceably.
 *
 * The rules live in lib/repair (rules.ts: the configurable rules; encodings.ts: broken encodings;
 * ligatures.ts: ligature damage; document.ts: the per-document core that runs them all) and
 * lib/scripts (arabic-hebrew.ts, thai.ts, devanagari.ts).
 */
import { documentTransform, LazyModule } from '../lib/protocol/stage.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { DEBIAN_THAI_TRIE, DEBIAN_WORDS } from '../lib/repair/lexicon.js';
import { loadContext, type ContextOptions, type RepairContext } from '../lib/repair/context.js';
import type { RepairDocumentOptions } from '../lib/repair/document.js';

const core = new LazyModule(() => import('../lib/repair/document.js'));

/** The stage's options: where its rules and word lists are (`ContextOptions`), and what the core reads. */
export interface RepairOptions extends ContextOptions, RepairDocumentOptions {}

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: RepairOptions = {
  config: '',
  explain: false,
  tatweel: 'remove',
  thaiLexicon: '',
  words: '',
  ruleLang: '',
  mojibake: true,
};

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'config', type: 'string', description: 'rules file in PDFExtract.json format (normalize/repair lists, common and per-language sets)' },
  { key: 'explain', type: 'boolean', description: 'report every change before/after as a diagnostic' },
  { key: 'tatweel', type: 'string', choices: ['remove', 'keep'], description: 'Arabic tatweel (kashida)' },
  { key: 'thaiLexicon', type: 'string', description: `Thai word list, libdatrie .tri or one word a line (default ${DEBIAN_THAI_TRIE} when installed)` },
  { key: 'words', type: 'string', description: `word list for the ligature checks (default ${DEBIAN_WORDS} when installed)` },
  { key: 'ruleLang', type: 'string', description: "document language for per-language rules (default: the PDF's /Lang)" },
  { key: 'mojibake', type: 'boolean', description: 're-decode text layers with broken 8-bit encodings' },
];

/** Options completed from `DEFAULTS`, checked; throws UsageError on a bad value. */
export function normalizeOptions(partial: Partial<RepairOptions> = {}): RepairOptions {
  const options = { ...DEFAULTS, ...partial };
  if (options.tatweel !== 'remove' && options.tatweel !== 'keep') {
    throw new UsageError(`Option --tatweel expects one of remove, keep, got "${String(options.tatweel)}"`);
  }
  return options;
}

/** The stage as a Transform. Throws (before any input) when the config or a word list is bad. */
export function repair(partial: Partial<RepairOptions> = {}, context?: RepairContext) {
  const options = normalizeOptions(partial);
  let ctx = context;
  if (!ctx) {
    try {
      ctx = loadContext(options);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const ready = ctx;
  return documentTransform('repair', (group) => core.get().repairDocument(group, options, ready), core.ready());
}

/** The command line's usage line. */
export const USAGE = 'pdfpipe repair [options] < lines.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = 'Fixes characters the text layer got wrong: ligatures, spaces, Arabic/Hebrew forms, Thai, broken encodings.';

/** The command line: reads records on stdin, writes them with their lines repaired on stdout. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  let context: RepairContext;
  try {
    context = loadContext(normalizeOptions(options));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
  return runFilter({ stage: 'repair', transforms: [repair(options, context)] });
}
