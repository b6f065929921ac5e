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
 *    points.
 * 5. Thai: the rules of lib/scripts/thai.ts (private-use glyphs, error types I–VII, lost marks), and type
 *    VIII from the glyph positions: a mark drawn as its own run is put after the consonant it sits
 *    over.
 * 6. Devanagari written in glyph order (lib/scripts/devanagari.ts), in a document whose short-i signs show
 *    it: the short-i sign put after its consonants, the reph before them, ा or आ + े or ै → ो ौ ओ औ.
 * 7. The configured `repair` rules.
 *
 * pdf.js's own normalisation (parse `--normalize`, on by default) applies NFKC to a fixed set
 * inside the engine: ligatures U+FB00–FB04 and FB06, Hebrew presentation forms, Arabic
 * Presentation Forms-A. It leaves Forms-B (U+FE70–FEFC, the letters of most Arabic-script PDFs),
 * U+FDF2 and Ĳ ĳ: those are mapped here. What pdf.js already mapped matches no rule here, except
 * the doubled alef that its NFKC of "ا" + U+FDF2 gives, which `arabic-allah` undoes. With parse
 * `--no-normalize` this stage does every expansion itself, rule by rule and traceably.
 */
import { existsSync, readFileSync } from 'node:fs';
import { documentTransform, type DocumentGroup } from '../lib/protocol/stage.js';
import { diagnostic, type DiagnosticRecord, type Item, type Line, type PageRecord } from '../lib/protocol/records.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { DEBIAN_THAI_TRIE, DEBIAN_WORDS, loadLexicon } from '../lib/repair/lexicon.js';
import { Rewriter, Tally } from '../lib/repair/rewrite.js';
import { hasThai, thaiLexical, thaiOrthography, thaiWordCounts } from '../lib/scripts/thai.js';
import { GLYPH_ORDER_REWRITES, isGlyphOrderDevanagari } from '../lib/scripts/devanagari.js';

export interface RepairOptions {
  /** A rules file in PDFExtract.json's format; '' for the built-in defaults. */
  config: string;
  /** Report every change (before/after) as a diagnostic. */
  explain: boolean;
  /** What to do with the Arabic tatweel (kashida) U+0640. */
  tatweel: 'remove' | 'keep';
  /** The Thai word list (libdatrie .tri or one word a line); '' for Debian's libthai one when installed. */
  thaiLexicon: string;
  /** A word list for the ligature checks; '' for Debian's /usr/share/dict/words when installed. */
  words: string;
  /** The document language for per-language rule sets; '' to use the PDF's /Lang. */
  ruleLang: string;
  /** Re-decode text layers with broken encodings. */
  mojibake: boolean;
}

export const DEFAULTS: RepairOptions = {
  config: '',
  explain: false,
  tatweel: 'remove',
  thaiLexicon: '',
  words: '',
  ruleLang: '',
  mojibake: true,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'config', type: 'string', description: 'rules file in PDFExtract.json format (normalize/repair lists, common and per-language sets)' },
  { key: 'explain', type: 'boolean', description: 'report every change before/after as a diagnostic' },
  { key: 'tatweel', type: 'string', choices: ['remove', 'keep'], description: 'Arabic tatweel (kashida)' },
  { key: 'thaiLexicon', type: 'string', description: `Thai word list, libdatrie .tri or one word a line (default ${DEBIAN_THAI_TRIE} when installed)` },
  { key: 'words', type: 'string', description: `word list for the ligature checks (default ${DEBIAN_WORDS} when installed)` },
  { key: 'ruleLang', type: 'string', description: "document language for per-language rules (default: the PDF's /Lang)" },
  { key: 'mojibake', type: 'boolean', description: 're-decode text layers with broken 8-bit encodings' },
];

export function normalizeOptions(partial: Partial<RepairOptions> = {}): RepairOptions {
  const options = { ...DEFAULTS, ...partial };
  if (options.tatweel !== 'remove' && options.tatweel !== 'keep') {
    throw new UsageError(`Option --tatweel expects one of remove, keep, got "${String(options.tatweel)}"`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// Configurable rules

/** One search/replace rule; `$1` in the replacement is a capture group. */
export interface Rule {
  name: string;
  search: RegExp;
  replace: string;
}

export interface RuleSet {
  normalize: Rule[];
  repair: Rule[];
}

/** Rules by language name ('common' applies to every document). */
export type RepairConfig = Map<string, RuleSet>;

/** Built-in rules that a config may switch off by name (`"rules": {"ligature-space": false}`). */
export const BUILTIN_RULES = [
  'mojibake', 'shifted-encoding', 'ligature-space', 'ligature-swallowed', 'lost-soft-hyphen', 'arabic-presentation', 'arabic-allah',
  'tatweel', 'hebrew-presentation', 'thai-pua', 'thai-space-before-aa', 'thai-nikhahit-aa', 'thai-sara-e-e',
  'thai-am-aa', 'thai-mark-order', 'thai-missing-mark', 'thai-wrong-mark', 'nul', 'thai-sara-am-lexicon', 'thai-split-word', 'thai-reattach-mark',
  'devanagari-short-i', 'devanagari-reph', 'devanagari-two-part-vowel',
] as const;

/** The default rules, as a config file would give them. */
export const DEFAULT_CONFIG_SOURCE = {
  language: [
    {
      name: 'common',
      config: {
        normalize: [
          ['[\\uFB00-\\uFB06\\uFB13-\\uFB17\\u0132\\u0133\\u013F\\u0140\\u0149\\u01C4-\\u01CC\\u01F1-\\u01F3]', '$nfkc', 'ligature'],
          ['[\\u00A0\\u2000-\\u200A\\u202F\\u205F]', ' ', 'space'],
          ['(?<=\\p{L})\\u00AD(?=\\p{L})', '', 'soft-hyphen'],
        ],
        repair: [],
      },
    },
  ],
};

/**
 * Reads a config in PDFExtract.json's format. Rules are `[search, replace]` or `[search, replace,
 * name]`; the replacement `$nfkc` applies NFKC to the match. Throws an Error naming the rule or key.
 */
export function parseConfig(source: unknown, file = 'config'): { rules: RepairConfig; disabled: Set<string> } {
  const rules: RepairConfig = new Map();
  const disabled = new Set<string>();
  if (typeof source !== 'object' || source === null) throw new Error(`${file}: expected a JSON object`);
  const root = source as { language?: unknown; rules?: unknown };
  if (root.rules !== undefined) {
    if (typeof root.rules !== 'object' || root.rules === null) throw new Error(`${file}: "rules" must be an object of rule names`);
    for (const [name, on] of Object.entries(root.rules)) {
      if (!(BUILTIN_RULES as readonly string[]).includes(name)) {
        throw new Error(`${file}: unknown rule "${name}", expected one of ${BUILTIN_RULES.join(', ')}`);
      }
      if (on === false) disabled.add(name);
    }
  }
  const languages = root.language ?? [];
  if (!Array.isArray(languages)) throw new Error(`${file}: "language" must be a list`);
  for (const entry of languages as { name?: unknown; config?: Record<string, unknown> }[]) {
    if (typeof entry?.name !== 'string') throw new Error(`${file}: a language entry without "name"`);
    const set: RuleSet = rules.get(entry.name) ?? { normalize: [], repair: [] };
    for (const kind of ['normalize', 'repair'] as const) {
      const list = entry.config?.[kind] ?? [];
      if (!Array.isArray(list)) throw new Error(`${file}: ${entry.name}.${kind} must be a list`);
      list.forEach((rule: unknown, i: number) => {
        const name = Array.isArray(rule) && typeof rule[2] === 'string' ? rule[2] : `${entry.name}.${kind}[${i}]`;
        if (!Array.isArray(rule) || typeof rule[0] !== 'string' || typeof rule[1] !== 'string') {
          throw new Error(`${file}: rule ${name} must be [search, replace]`);
        }
        let search: RegExp;
        try {
          search = new RegExp(rule[0], 'gu');
        } catch (error) {
          throw new Error(`${file}: rule ${name} has an invalid regex /${rule[0]}/: ${(error as Error).message}`);
        }
        set[kind].push({ name, search, replace: rule[1] });
      });
    }
    rules.set(entry.name, set);
  }
  return { rules, disabled };
}

/** Loads a config file (or the defaults for ''), throwing an Error that names the file. */
export function loadConfig(path: string): { rules: RepairConfig; disabled: Set<string> } {
  if (path === '') return parseConfig(DEFAULT_CONFIG_SOURCE, 'default rules');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(json, path);
}

/** A replacement with `$1`…`$9` and `$&` filled in from the match, as PDFExtract (Java) writes them. */
function expand(replacement: string, m: RegExpExecArray): string {
  return replacement.replace(/\$(\d|&)/g, (_all, g: string) => (g === '&' ? m[0] : m[Number(g)] ?? ''));
}

function applyRules(line: Rewriter, rules: readonly Rule[]): void {
  for (const rule of rules) {
    line.replace(rule.search, (m) => (rule.replace === '$nfkc' ? m[0].normalize('NFKC') : expand(rule.replace, m)), rule.name);
  }
}

// ---------------------------------------------------------------------------------------------
// Broken encodings

const CODE_PAGES = ['windows-1251', 'windows-1253', 'koi8-r'] as const;
const SCRIPT_OF: Record<string, RegExp> = {
  'windows-1251': /\p{Script=Cyrillic}/u,
  'windows-1253': /\p{Script=Greek}/u,
  'koi8-r': /\p{Script=Cyrillic}/u,
};

/** The Latin-1 characters that are letters (\p{L}), by code. */
const LATIN1_LETTER = Uint8Array.from({ length: 0x100 }, (_, code) => (/\p{L}/u.test(String.fromCharCode(code)) ? 1 : 0));

/** True when a line looks like an 8-bit code page read as Latin-1. */
export function looksLatin1Mojibake(text: string): boolean {
  // Asked of every line: one walk over the text, no array of its letters.
  let letters = 0;
  let high = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return false;
    if (LATIN1_LETTER[code] === 1) {
      letters++;
      if (code >= 0xc0) high++;
    }
  }
  if (letters < 4) return false;
  return high / letters >= 0.9;
}

/** One decoder per code page (a decoder without streaming keeps no state between texts). */
const DECODERS = new Map<string, InstanceType<typeof TextDecoder>>();
/** Per code page and character: 0 not a letter, 1 a letter of another script, 2 a letter of the code page's script. */
const LETTER_IN_SCRIPT = new Map<string, Map<string, number>>();

/** Re-decodes a Latin-1 line in a code page; null when the result is not letters of one script. */
export function redecode(text: string, codePage: (typeof CODE_PAGES)[number]): string | null {
  let decoder = DECODERS.get(codePage);
  if (!decoder) DECODERS.set(codePage, (decoder = new TextDecoder(codePage)));
  const decoded = decoder.decode(Buffer.from(text, 'latin1'));
  // Real text has capitals at the start of words (or whole words in capitals), not inside them:
  // a table of accented letters ("àÀâÂ") is not a code page mix-up.
  if (/\p{Ll}\p{Lu}/u.test(decoded)) return null;
  let kinds = LETTER_IN_SCRIPT.get(codePage);
  if (!kinds) LETTER_IN_SCRIPT.set(codePage, (kinds = new Map()));
  let letters = 0;
  let inScript = 0;
  for (const c of decoded) {
    let kind = kinds.get(c);
    if (kind === undefined) kinds.set(c, (kind = !/\p{L}/u.test(c) ? 0 : SCRIPT_OF[codePage]!.test(c) ? 2 : 1));
    if (kind > 0) letters++;
    if (kind === 2) inScript++;
  }
  return letters > 0 && inScript / letters >= 0.9 ? decoded : null;
}

/** Picks the document's code page: fewest undecodable bytes over its mojibake lines, then its language. */
export function chooseCodePage(lines: readonly string[], lang: string): (typeof CODE_PAGES)[number] | null {
  let best: (typeof CODE_PAGES)[number] | null = null;
  let bestScore = Infinity;
  for (const cp of CODE_PAGES) {
    let bad = 0;
    let ok = 0;
    for (const text of lines) {
      const out = redecode(text, cp);
      if (out === null) bad += text.length;
      else {
        ok += 1;
        bad += (out.match(/\ufffd/gu) ?? []).length;
      }
    }
    const preferred = (cp === 'windows-1253') === (lang === 'el') ? 0 : 0.5;
    const score = bad + preferred;
    if (ok > 0 && score < bestScore) {
      best = cp;
      bestScore = score;
    }
  }
  return best;
}

const FREQUENT_RUSSIAN = new Set('оеаинтс');

/** Per BMP code point: 1 a lower-case letter (\p{Ll}), 2 a capital (\p{Lu}), 3 neither, 0 not looked at yet. */
const CASE_OF = new Uint8Array(0x10000);

function caseOf(point: number): number {
  if (point < 0x10000 && CASE_OF[point] !== 0) return CASE_OF[point]!;
  const char = String.fromCodePoint(point);
  const kind = /\p{Ll}/u.test(char) ? 1 : /\p{Lu}/u.test(char) ? 2 : 3;
  if (point < 0x10000) CASE_OF[point] = kind;
  return kind;
}

/** /\p{Ll}.*\p{Lu}/u on a word without line breaks: a capital somewhere after a lower-case letter, one walk, no expression per word. */
function lowerThenUpper(word: string): boolean {
  let lower = false;
  for (let i = 0; i < word.length; ) {
    const point = word.codePointAt(i)!;
    i += point > 0xffff ? 2 : 1;
    const kind = caseOf(point);
    if (kind === 2 && lower) return true;
    if (kind === 1) lower = true;
  }
  return false;
}

const UNASSIGNED = new Map<string, boolean>();
/** True for a code point no character is assigned to (\p{Cn}), looked up once per character. */
function isUnassigned(char: string): boolean {
  let unassigned = UNASSIGNED.get(char);
  if (unassigned === undefined) {
    unassigned = /\p{Cn}/u.test(char);
    if (UNASSIGNED.size < 65536) UNASSIGNED.set(char, unassigned);
  }
  return unassigned;
}
/** Letters (and unassigned codes, and Greek-block symbols) that a glyph-id shift may have produced. */
const SHIFTABLE = /(?!\p{Script=Latin})[\p{L}\p{Cn}\u0370-\u03ff]/gu;
const RUSSIAN_VOWELS = /[аеёиоуыэюяАЕЁИОУЫЭЮЯ]/u;

/**
 * A document whose letters are a constant code-point shift of Cyrillic (a subset font without
 * ToUnicode whose codes are glyph ids, its glyphs in Unicode order): shifted back when the result is Cyrillic letters, with few capitals
 * inside words and a vowel share of real text. Returns the offset, or null.
 */
export function findCyrillicShift(texts: readonly string[]): number | null {
  // Latin letters are left out: glyph ids in the ASCII range cannot be told from real Latin text.
  const all = texts.join(' ');
  const letters = all.match(SHIFTABLE) ?? [];
  if (letters.length < 50) return null;
  // Letters of one script already, with ordinary case: nothing to shift.
  const split = all.split(/\s+/);
  const mixedCase = split.filter((w) => w.length > 1 && lowerThenUpper(w)).length;
  const words = split.filter((w) => w.length > 1).length;
  if (mixedCase < 0.3 * words && !letters.some(isUnassigned)) return null;
  const codes = letters.map((c) => c.codePointAt(0)!);
  const counts = new Map<number, number>();
  for (const code of codes) {
    for (let target = 0x410; target <= 0x44f; target++) {
      const d = target - code;
      if (d !== 0) counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  }
  // Every offset that lands all letters in the Cyrillic block counts the same; among those, the
  // one whose most frequent letters are Russian's most frequent (о е а и н т с) wins.
  const most = Math.max(0, ...counts.values());
  if (most < 0.9 * codes.length) return null;
  let best: number | null = null;
  let bestFit = -1;
  for (const [d, n] of counts) {
    if (n !== most) continue;
    const fit = codes.filter((c) => FREQUENT_RUSSIAN.has(String.fromCodePoint(c + d))).length;
    if (fit > bestFit) [best, bestFit] = [d, fit];
  }
  if (best === null) return null;
  const shifted = String.fromCodePoint(...codes.map((c) => c + best!));
  const vowels = [...shifted].filter((c) => RUSSIAN_VOWELS.test(c)).length / shifted.length;
  const capitals = [...shifted].filter((c) => /\p{Lu}/u.test(c)).length / shifted.length;
  return vowels >= 0.3 && vowels <= 0.55 && capitals < 0.15 ? best : null;
}

// ---------------------------------------------------------------------------------------------
// Ligatures against known words

/** Share of a document's distinct words a word list must have for the list to apply to it. */
const WORD_LIST_SHARE = 0.6;
/** Words a document needs before the absence of ff/fi/fl in it says that ligatures were lost… */
const LIGATURE_EVIDENCE_WORDS = 100;
/** …and the share of words with ff, fi or fl below which they were. */
const LIGATURE_LOST_SHARE = 0.003;
const LIGATURE_END = /(?:ff|fi|fl|ffi|ffl|f)$/u;
const LIGATURE_START = /^(?:ff|fi|fl|ffi|ffl)/u;
const INSERTS = ['ff', 'fi', 'fl', 'ffi', 'ffl'];

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** Known words: the document's own (with counts) and an optional word list. */
export class Vocabulary {
  readonly counts = new Map<string, number>();
  constructor(readonly list: ReadonlySet<string> | null) {}
  addText(text: string): void {
    if (isAscii(text)) {
      // The same words without the expression: runs of ASCII letters.
      for (let i = 0; i < text.length; ) {
        if (!isAsciiLetter(text.charCodeAt(i))) {
          i++;
          continue;
        }
        let end = i + 1;
        while (end < text.length && isAsciiLetter(text.charCodeAt(end))) end++;
        this.count(text.slice(i, end).toLowerCase());
        i = end;
      }
      return;
    }
    for (const w of text.match(/\p{L}+/gu) ?? []) this.count(w.toLowerCase());
  }
  private count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  /**
   * A word is known when the list has it; with no list, when the document uses it at least twice
   * (once is the damaged occurrence itself).
   */
  known(word: string): boolean {
    const key = word.toLowerCase();
    if (this.list) return this.list.has(key);
    return (this.counts.get(key) ?? 0) >= 2;
  }
  /**
   * A joined word is known when the list has it; with no list, when the document writes it whole
   * at least twice (a code listing that lost its spaces writes "ifctx" too, once).
   */
  knownWhole(word: string): boolean {
    const key = word.toLowerCase();
    if (this.list) return this.list.has(key);
    return (this.counts.get(key) ?? 0) >= 2;
  }
}

function ligatureRules(line: Rewriter, vocab: Vocabulary, disabled: ReadonlySet<string>, afterHyphen = false, ligaturesLost = false): void {
  if (!disabled.has('ligature-space')) {
    const joinable = (parts: string[]): boolean =>
      !parts.every((p) => vocab.known(p)) && vocab.knownWhole(parts.join(''));
    // Both rules need a space before an f, or after an f, fi or fl; most lines have none, and
    // the expressions, tried at every word, are slow.
    const spaceNextToF = (text: string): boolean => text.includes(' f') || text.includes('f ') || text.includes('fi ') || text.includes('fl ');
    // A ligature standing alone between two pieces of a word: "de fi nition".
    if (line.text.includes(' f')) line.replace(/(?<!\p{L})(\p{Script=Latin}+) (ffi|ffl|ff|fi|fl) (\p{Script=Latin}+)(?!\p{L})/gu, (m) => {
      const parts = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
      return joinable(parts) ? parts.join('') : null;
    }, 'ligature-space');
    // A space before or after a ligature's letters: "ef ficient", "offi cial". The right-hand word
    // is only looked at, so that each space is tried.
    if (spaceNextToF(line.text)) line.replace(/(?<!\p{L})(\p{Script=Latin}+) (?=(\p{Script=Latin}+)(?!\p{L}))/gu, (m) => {
      const left = m[1] ?? '';
      const right = m[2] ?? '';
      if (!LIGATURE_END.test(left) && !LIGATURE_START.test(right)) return null;
      if (!/^\p{Ll}/u.test(right)) return null;
      return joinable([left, right]) ? left : null;
    }, 'ligature-space');
  }
  if (ligaturesLost && !disabled.has('ligature-swallowed')) {
    // Pieces of a word hyphenated across lines are not words: the last word before a line-end
    // hyphen and the first word after one are left alone.
    // Lower-case words between spaces (or quotes, brackets, sentence punctuation) only: not names,
    // not code ("sort.Ints", "(res").
    line.replace(/(?<=^|[\s("“‘])\p{Ll}{3,}(?=$|[\s,.;:!?)"”’])/gu, (m) => {
      const word = m[0];
      if (afterHyphen && m.index === line.text.search(/\p{L}/u)) return null;
      if (/f[fil]/u.test(word)) return null;
      // Unknown to the list (or, with no list, rarer than the candidate in the document).
      if (vocab.list ? vocab.known(word) : false) return null;
      const found = new Set<string>();
      for (let i = 0; i <= word.length; i++) {
        for (const lig of INSERTS) {
          const candidate = word.slice(0, i) + lig + word.slice(i);
          const inDoc = vocab.counts.get(candidate.toLowerCase()) ?? 0;
          const ok = vocab.list ? vocab.known(candidate) : inDoc > (vocab.counts.get(word.toLowerCase()) ?? 0);
          if (ok) found.add(candidate);
        }
      }
      return found.size === 1 ? [...found][0]! : null;
    }, 'ligature-swallowed');
  }
}

/**
 * A word broken across two lines whose soft hyphen the generator dropped ("Ef" | "ficient"): the
 * first line gets its soft hyphen back, so that joining the lines joins the word. Only when the
 * joined word is in the word list and the two pieces are not both words.
 */
function markLostSoftHyphens(lines: Line[], vocab: Vocabulary, tally: Tally): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1]!;
    if (next.block !== line.block || next.role !== line.role) continue;
    const left = /(?<![\p{L}\p{M}\-\u00ad])(\p{Script=Latin}+)$/u.exec(line.text)?.[1];
    const right = /^(\p{Ll}+)(?![\p{L}\-])/u.exec(next.text)?.[1];
    if (!left || !right) continue;
    if ((vocab.known(left) && vocab.known(right)) || !vocab.list?.has((left + right).toLowerCase())) continue;
    const rw = new Rewriter(line.text, line.inferred, tally);
    rw.apply([{ start: line.text.length, end: line.text.length, text: '\u00ad' }], 'lost-soft-hyphen');
    lines[i] = { ...line, text: rw.text, inferred: rw.marks };
  }
}

// ---------------------------------------------------------------------------------------------
// Arabic and Hebrew

const ALLAH = '\u0627\u0644\u0644\u0647';

function rtlRules(line: Rewriter, options: RepairOptions, disabled: ReadonlySet<string>): void {
  // Every rule below needs a character from U+0627 (alef) up: text below it has nothing to change.
  if (!hasCodeFrom(line.text, 0x627)) return;
  if (!disabled.has('arabic-presentation')) {
    line.replace(/[\ufb50-\ufdf1\ufdf3-\ufdff\ufe70-\ufefc]+/gu, (m) => {
      // Isolated harakat forms decompose to a space + mark: keep the mark only.
      return m[0].normalize('NFKC').replace(/ (?=\p{M})/gu, '');
    }, 'arabic-presentation');
  }
  if (!disabled.has('arabic-allah')) {
    // U+FDF2 is ALEF LAM LAM HEH; after an alef (bi-llah, written "با" + ﷲ) the alef is not repeated.
    line.replace(/\u0627?\ufdf2/gu, () => ALLAH, 'arabic-allah');
    // The same, when pdf.js's normalisation has already expanded the ligature.
    line.replace(/\u0627\u0627\u0644\u0644\u0647/gu, () => ALLAH, 'arabic-allah');
  }
  if (options.tatweel === 'remove' && !disabled.has('tatweel')) {
    line.replace(/(?<=[\p{Script=Arabic}\p{M}])\u0640+/gu, () => '', 'tatweel');
  }
  if (!disabled.has('hebrew-presentation')) {
    line.replace(/[\ufb1d-\ufb4f]+/gu, (m) => m[0].normalize('NFKC').normalize('NFC'), 'hebrew-presentation');
  }
}

/** True when a text has a UTF-16 code unit at or above `code`. */
function hasCodeFrom(text: string, code: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= code) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Thai type VIII: marks re-attached by position

const THAI_MARK = /^[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]$/u;
const THAI_BASE = /[\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46]/u;

/**
 * Moves each Thai above/below mark that was drawn as a run of its own to the consonant it sits
 * over: the consonant is found by the mark's centre within the run below it, assuming even glyph
 * widths in that run. Works on the line's text, where the mark stands after some consonant.
 */
export function reattachMarks(line: Rewriter, items: readonly Item[]): void {
  const marks = items.filter((i) => THAI_MARK.test(i.text));
  if (marks.length === 0) return;
  for (const mark of marks) {
    const centre = mark.x + mark.w / 2;
    const host = items.find((o) => o !== mark && !THAI_MARK.test(o.text) && THAI_BASE.test(o.text) && o.x <= centre && o.x + o.w >= centre);
    if (!host) continue;
    const spacing = [...host.text].map((c, i) => ({ c, i })).filter(({ c }) => !THAI_MARK.test(c));
    if (spacing.length === 0) continue;
    const k = Math.min(spacing.length - 1, Math.max(0, Math.floor(((centre - host.x) / Math.max(host.w, 0.01)) * spacing.length)));
    const target = spacing[k]!.i;
    // Where the line has the host's text followed (directly or after another run) by the mark.
    const at = line.text.indexOf(host.text);
    if (at < 0) continue;
    const markAt = line.text.indexOf(mark.text, at + host.text.length);
    if (markAt < 0 || markAt > at + host.text.length) continue;
    // Insert after the target consonant and any marks it already carries.
    let insertAt = at + target + 1;
    while (insertAt < at + host.text.length && THAI_MARK.test(line.text[insertAt] ?? '')) insertAt += 1;
    if (insertAt === markAt) continue;
    const edits = [
      { start: insertAt, end: insertAt, text: mark.text },
      { start: markAt, end: markAt + mark.text.length, text: '' },
    ];
    line.apply(edits, 'thai-reattach-mark');
  }
}

function itemsOfLine(page: PageRecord, line: Line): Item[] {
  const { box } = line;
  return (page.items ?? []).filter(
    (i) => (i.block ?? 0) === line.block && i.x >= box.x - 0.5 && i.x <= box.x + box.w + 0.5 && Math.abs(i.y - line.base) <= Math.max(line.size, 1) * 0.5,
  );
}

// ---------------------------------------------------------------------------------------------
// The core

/** What a repair run needs besides its options: rules, word lists. */
export interface RepairContext {
  rules: RepairConfig;
  disabled: ReadonlySet<string>;
  thai: ReadonlySet<string> | null;
  words: ReadonlySet<string> | null;
}

/** Loads the rules and word lists; throws an Error naming the file that is missing or bad. */
export function loadContext(options: RepairOptions): RepairContext {
  const { rules, disabled } = loadConfig(options.config);
  const thaiPath = options.thaiLexicon || (existsSync(DEBIAN_THAI_TRIE) ? DEBIAN_THAI_TRIE : '');
  const wordsPath = options.words || (existsSync(DEBIAN_WORDS) ? DEBIAN_WORDS : '');
  const words = wordsPath ? new Set([...loadLexicon(wordsPath)].map((w) => w.toLowerCase())) : null;
  return { rules, disabled, thai: thaiPath ? loadLexicon(thaiPath) : null, words };
}

/** The pure core: repairs one document's lines; returns new pages and diagnostics. */
export function repairDocument(group: DocumentGroup, options: RepairOptions, context: RepairContext): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const { doc } = group;
  const lang = (options.ruleLang || doc.meta.lang || '').toLowerCase().split(/[-_]/)[0] ?? '';
  const sets = [context.rules.get('common'), lang ? context.rules.get(lang) : undefined].filter((s): s is RuleSet => s !== undefined);
  const tally = new Tally(options.explain);
  const diagnostics: DiagnosticRecord[] = [];
  const disabled = context.disabled;
  const allLines = group.pages.flatMap((p) => p.lines ?? []);

  const thaiCounts = context.thai && allLines.some((l) => hasThai(l.text)) ? thaiWordCounts(allLines.map((l) => l.text.replace(/\S*[\u0000\uf700-\uf71a]\S*/gu, ' '))) : new Map<string, number>();
  // The word list counts only for a document written in its language: most of the document's
  // distinct words must be in it. Otherwise the document's own words are the vocabulary.
  const docWords = new Vocabulary(null);
  for (const line of allLines) docWords.addText(line.text.normalize('NFKC'));
  const distinct = [...docWords.counts.keys()].filter((w) => w.length > 1);
  const inList = context.words ? distinct.filter((w) => context.words!.has(w)).length : 0;
  const listFits = context.words !== null && distinct.length > 0 && inList >= WORD_LIST_SHARE * distinct.length;
  const vocab = new Vocabulary(listFits ? context.words : null);
  // Letters a ligature swallowed are looked for only in a document that shows it: many words and
  // (almost) none with ff, fi or fl, where English has them in about 2 % of words.
  const tokens = [...docWords.counts.values()].reduce((a, b) => a + b, 0);
  const withLigature = [...docWords.counts].filter(([w]) => /f[fil]/u.test(w)).reduce((a, [, n]) => a + n, 0);
  const ligaturesLost = tokens >= LIGATURE_EVIDENCE_WORDS && withLigature < LIGATURE_LOST_SHARE * tokens;
  for (const [w, n] of docWords.counts) vocab.counts.set(w, n);

  // Broken encodings are decided once per document.
  const mojibakeOn = options.mojibake && !disabled.has('mojibake');
  const latin1Lines = mojibakeOn ? allLines.filter((l) => looksLatin1Mojibake(l.text)).map((l) => l.text) : [];
  const codePage = latin1Lines.length > 0 ? chooseCodePage(latin1Lines, lang) : null;
  const shift = options.mojibake && !disabled.has('shifted-encoding') ? findCyrillicShift(allLines.map((l) => l.text)) : null;
  const devanagariRewrites = isGlyphOrderDevanagari(allLines.map((l) => l.text)) ? GLYPH_ORDER_REWRITES.filter((r) => !disabled.has(r.rule)) : [];

  const pages = group.pages.map((page) => {
    if (!page.lines) return page;
    const lines = page.lines.map((line, index) => {
      const afterHyphen = /[-\u00ad\u2010]\s*$/u.test(page.lines![index - 1]?.text ?? '');
      const rw = new Rewriter(line.text, line.inferred, tally);
      if (codePage && looksLatin1Mojibake(rw.text)) {
        const decoded = redecode(rw.text, codePage);
        if (decoded !== null) rw.apply([{ start: 0, end: rw.text.length, text: decoded }], 'mojibake');
      }
      if (shift !== null) {
        rw.replace(SHIFTABLE, (m) => {
          const c = String.fromCodePoint(m[0].codePointAt(0)! + shift);
          return /\p{Script=Cyrillic}/u.test(c) ? c : null;
        }, 'shifted-encoding');
        // The same fonts give glyph ids for spaces, digits and punctuation: in the standard
        // TrueType glyph order, space is glyph 3 and ASCII follows it.
        if (/\p{Script=Cyrillic}/u.test(rw.text)) rw.replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f]/gu, (m) => String.fromCharCode(m[0].charCodeAt(0) + 0x1d), 'shifted-encoding');
      }
      for (const set of sets) applyRules(rw, set.normalize);
      ligatureRules(rw, vocab, disabled, afterHyphen, ligaturesLost);
      rtlRules(rw, options, disabled);
      if (hasThai(rw.text) || rw.text.includes('\u0000')) {
        thaiOrthography(rw, disabled);
        if (!disabled.has('thai-reattach-mark') && page.items) reattachMarks(rw, itemsOfLine(page, line));
        if (context.thai) thaiLexical(rw, context.thai, disabled, thaiCounts);
      }
      for (const { rule, pattern, replace } of devanagariRewrites) rw.replace(pattern, replace, rule);
      if (!disabled.has('nul') && rw.text.includes('\u0000')) {
        // A glyph the text layer could not name, outside Thai: nothing better than dropping it.
        rw.replace(/\u0000+/gu, () => '', 'nul');
      }
      for (const set of sets) applyRules(rw, set.repair);
      if (rw.text === line.text) return line;
      return { ...line, text: rw.text, inferred: rw.marks };
    });
    if (listFits && !disabled.has('lost-soft-hyphen')) markLostSoftHyphens(lines, vocab, tally);
    return { ...page, lines };
  });

  if (context.thai === null && allLines.some((l) => hasThai(l.text))) {
    diagnostics.push(diagnostic(doc.id, 'repair', 'no-thai-lexicon', `No Thai word list (install libthai-data or give --thai-lexicon): Thai rules I and III and lost marks are skipped`, { severity: 'warning' }));
  }
  for (const change of tally.changes) {
    diagnostics.push(diagnostic(doc.id, 'repair', 'change', `${change.rule}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)} in ${JSON.stringify(change.context)}`, { severity: 'info' }));
  }
  for (const [rule, count] of [...tally.counts.entries()].sort()) {
    diagnostics.push(diagnostic(doc.id, 'repair', `rule:${rule}`, `${rule} changed the text ${count} time${count === 1 ? '' : 's'}`, { severity: 'info', count }));
  }
  return { pages, diagnostics };
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
  return documentTransform('repair', (group) => repairDocument(group, options, ready));
}

export const USAGE = 'pdfpipe repair [options] < lines.ndjson';
export const SUMMARY = 'Fixes characters the text layer got wrong: ligatures, spaces, Arabic/Hebrew forms, Thai, broken encodings.';

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
