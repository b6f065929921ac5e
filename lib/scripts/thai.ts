/**
 * Thai text-layer repairs. Thai PDFs lose characters in known ways (Thai PDF post-processing
 * studies list seven error types); each is a named rule here:
 *
 *   thai-sara-am-lexicon  (I)   SARA AA written where SARA AM belongs ("คา" for "คำ"), decided
 *                               with the lexicon: changed only when the word list then covers more
 *   thai-space-before-aa  (II)  a space before SARA AA (or any other dependent vowel or mark)
 *   thai-split-word       (III) a space inside a word, removed when the joined text is covered
 *                               better by the lexicon than the two sides apart
 *   thai-nikhahit-aa      (IV)  NIKHAHIT + SARA AA (with a tone mark between or not) → SARA AM
 *   thai-sara-e-e         (V)   SARA E + SARA E → SARA AE
 *   thai-am-aa            (VI)  a SARA AA right after SARA AM dropped
 *   thai-mark-order       (VII) tone mark before an above/below vowel put after it (canonical order)
 *   thai-pua              the private-use glyphs U+F700–U+F71A that Thai fonts use for shifted
 *                         tone marks and vowels, mapped to the real characters
 *   thai-missing-mark     a NUL standing for a mark whose glyph had no Unicode value: the mark
 *                         that makes a word of the lexicon
 * Type VIII (a mark attached to the wrong consonant) needs glyph positions; the repair stage does
 * it from the page's items (`reattachMarks` below).
 *
 * "Covered by the lexicon" is measured by `unknownChars`: the fewest characters of a Thai run that
 * no lexicon word covers, by dynamic programming over the run (ICU's dictionary break iterator,
 * through Intl.Segmenter, proposes the split first; the program is the fallback).
 */
import type { Item } from '../protocol/records.js';
import type { Rewriter } from '../repair/rewrite.js';

/** Shifted glyphs of Thai fonts in the Private Use Area and the characters they stand for. */
export const THAI_PUA: Readonly<Record<string, string>> = {
  '\uf700': '\u0e10', '\uf701': '\u0e34', '\uf702': '\u0e35', '\uf703': '\u0e36', '\uf704': '\u0e37',
  '\uf705': '\u0e48', '\uf706': '\u0e49', '\uf707': '\u0e4a', '\uf708': '\u0e4b', '\uf709': '\u0e4c',
  '\uf70a': '\u0e48', '\uf70b': '\u0e49', '\uf70c': '\u0e4a', '\uf70d': '\u0e4b', '\uf70e': '\u0e4c',
  '\uf70f': '\u0e0d', '\uf710': '\u0e31', '\uf711': '\u0e4d', '\uf712': '\u0e47', '\uf713': '\u0e48',
  '\uf714': '\u0e49', '\uf715': '\u0e4a', '\uf716': '\u0e4b', '\uf717': '\u0e4c', '\uf718': '\u0e38',
  '\uf719': '\u0e39', '\uf71a': '\u0e3a',
};

const TONE = '\u0e48-\u0e4b';
/** Above and below vowels (and MAITAIKHU) that come before a tone mark in canonical order. */
const ABOVE_BELOW = '\u0e31\u0e34-\u0e3a\u0e47';
/** Characters that never start a word: dependent vowels, tone marks and signs. */
const DEPENDENT = '\u0e31\u0e33-\u0e3a\u0e47-\u0e4e';
const THAI_RUN = /[\u0e01-\u0e4e\u0000]+/gu;
/** Marks that Thai fonts' broken cmaps give for another: SARA U for THANTHAKHAT. */
const CONFUSED: Readonly<Record<string, readonly string[]>> = { '\u0e38': ['\u0e4c'] };
const MARK_CANDIDATES = ['\u0e48', '\u0e49', '\u0e47', '\u0e4c', '\u0e34', '\u0e35', '\u0e31', '\u0e4a', '\u0e4b', '\u0e36', '\u0e37', '\u0e38', '\u0e39'];

/** True when the text has Thai letters. */
export const hasThai = (text: string): boolean => /[\u0e01-\u0e4e\uf700-\uf71a]/u.test(text);

/** ICU's Thai word segmenter, made on first use: the first one a thread makes loads ICU's break rules (about 9 ms), and most documents have no Thai. */
let thaiWords: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (thaiWords ??= new Intl.Segmenter('th', { granularity: 'word' }));

/**
 * How well the lexicon covers a Thai run: the fewest characters no word covers, then the fewest
 * words (one long known word beats two short ones), by dynamic programming over the run.
 */
export function coverage(run: string, lexicon: ReadonlySet<string>, maxWord = 24): [unknown: number, words: number] {
  const n = run.length;
  const unknown = new Array<number>(n + 1).fill(Infinity);
  const words = new Array<number>(n + 1).fill(Infinity);
  unknown[0] = 0;
  words[0] = 0;
  const better = (j: number, u: number, w: number): void => {
    if (u < unknown[j]! || (u === unknown[j] && w < words[j]!)) {
      unknown[j] = u;
      words[j] = w;
    }
  };
  for (let i = 0; i < n; i++) {
    const u = unknown[i]!;
    if (u === Infinity) continue;
    better(i + 1, u + 1, words[i]! + 1);
    for (let j = i + 2; j <= Math.min(n, i + maxWord); j++) if (lexicon.has(run.slice(i, j))) better(j, u, words[i]! + 1);
  }
  return [unknown[n]!, words[n]!];
}

/** The fewest characters of a Thai run that no lexicon word covers (0 = a valid word sequence). */
export function unknownChars(run: string, lexicon: ReadonlySet<string>): number {
  // ICU's dictionary segmentation first: when every segment is a word, the run is covered.
  let icuUnknown = 0;
  for (const s of segmenter().segment(run)) if (!lexicon.has(s.segment)) icuUnknown += s.segment.length;
  if (icuUnknown === 0) return 0;
  return Math.min(coverage(run, lexicon)[0], icuUnknown);
}

/** The context-free rules (PUA, II, IV, V, VI, VII); safe on correct text, which they never match. */
export function thaiOrthography(line: Rewriter, disabled: ReadonlySet<string> = new Set()): void {
  const on = (rule: string): boolean => !disabled.has(rule);
  if (on('thai-pua')) line.replace(/[\uf700-\uf71a]/gu, (m) => THAI_PUA[m[0]] ?? null, 'thai-pua');
  if (on('thai-space-before-aa')) line.replace(new RegExp(`(?<=[\\u0e01-\\u0e4e])\\s+(?=[\\u0e32${DEPENDENT}])`, 'gu'), () => '', 'thai-space-before-aa');
  if (on('thai-nikhahit-aa')) line.replace(new RegExp(`\\u0e4d([${TONE}]?)\\u0e32|([${TONE}])\\u0e4d\\u0e32`, 'gu'), (m) => `${m[1] ?? m[2] ?? ''}\u0e33`, 'thai-nikhahit-aa');
  if (on('thai-sara-e-e')) line.replace(/\u0e40\u0e40/gu, () => '\u0e41', 'thai-sara-e-e');
  if (on('thai-am-aa')) line.replace(new RegExp(`\\u0e33([${TONE}]?)\\u0e32`, 'gu'), (m) => `${m[1] ?? ''}\u0e33`, 'thai-am-aa');
  if (on('thai-mark-order')) line.replace(new RegExp(`([${TONE}])([${ABOVE_BELOW}])`, 'gu'), (m) => `${m[2]}${m[1]}`, 'thai-mark-order');
  if (on('thai-mark-order')) line.replace(new RegExp(`\\u0e33([${TONE}])`, 'gu'), (m) => `${m[1]}\u0e33`, 'thai-mark-order');
}

/** Applies `fix` to each Thai run of the line. */
function perRun(line: Rewriter, rule: string, fix: (run: string) => string | null, disabled: ReadonlySet<string>): void {
  if (!disabled.has(rule)) line.replace(THAI_RUN, (m) => (/[\u0e01-\u0e2e]/u.test(m[0]) ? fix(m[0]) : null), rule);
}

/** Counts of the words (ICU segments) of a document's intact Thai text, for choosing between candidates. */
export function thaiWordCounts(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const run of text.match(/[\u0e01-\u0e4e]+/gu) ?? []) {
      for (const s of segmenter().segment(run)) counts.set(s.segment, (counts.get(s.segment) ?? 0) + 1);
    }
  }
  return counts;
}

/** How often the document uses the word (ICU segment) that covers position `at` of `run`. */
function usage(run: string, at: number, counts: ReadonlyMap<string, number>): number {
  for (const s of segmenter().segment(run)) if (at >= s.index && at < s.index + s.segment.length) return counts.get(s.segment) ?? 0;
  return 0;
}

const contextIndexes = new WeakMap<ReadonlySet<string>, Map<string, number>>();

/**
 * How many lexicon words have the mark at `at` in the same surroundings (two letters before, one
 * after; or one before and one after): the lexicon as a prior for which mark a lost glyph was.
 */
function markContext(text: string, at: number, lexicon: ReadonlySet<string>): number {
  let index = contextIndexes.get(lexicon);
  if (!index) {
    index = new Map();
    for (const word of lexicon) {
      for (let j = 1; j < word.length; j++) {
        if (!/[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]/u.test(word[j]!)) continue;
        for (const key of [word.slice(Math.max(0, j - 2), j + 2), `${word.slice(j - 1, j + 2)}`]) {
          index.set(key, (index.get(key) ?? 0) + 1);
        }
      }
    }
    contextIndexes.set(lexicon, index);
  }
  const wide = index.get(text.slice(Math.max(0, at - 2), at + 2)) ?? 0;
  const narrow = index.get(text.slice(at - 1, at + 2)) ?? 0;
  return wide * 1000 + narrow;
}

/** Puts SARA AM together from NIKHAHIT + SARA AA, for scoring candidates. */
const composeAm = (text: string): string => text.replace(new RegExp(`\\u0e4d([${TONE}]?)\\u0e32`, 'gu'), '$1\u0e33');

/**
 * A glyph the text layer could not name: NUL, or a character of another script (a CJK ideograph, a
 * private-use code) standing inside a Thai word.
 */
const STRAY = /(?<=[\u0e01-\u0e4e])[^\u0000-\u024f\u0e00-\u0e7f\s\p{P}\p{S}\p{N}\u200b-\u200d](?=[\u0e01-\u0e4e])/gu;

/** The lexicon rules: lost marks, wrong marks, I (Sara Aa → Sara Am) and III (split words). */
export function thaiLexical(
  line: Rewriter,
  lexicon: ReadonlySet<string>,
  disabled: ReadonlySet<string> = new Set(),
  counts: ReadonlyMap<string, number> = new Map(),
): void {
  if (!disabled.has("thai-missing-mark")) line.replace(STRAY, () => '\u0000', 'thai-missing-mark');
  perRun(line, 'thai-missing-mark', (run) => {
    if (!run.includes('\u0000')) return null;
    let text = run;
    for (let i = text.indexOf('\u0000'); i >= 0; i = text.indexOf('\u0000', i + 1)) {
      // A lost glyph is some mark: the one that makes the most of the run known words, then the
      // one the document uses most in that word; dropping it is the last resort.
      const options = [...MARK_CANDIDATES, '\u0e4d'].map((mark) => text.slice(0, i) + mark + text.slice(i + 1));
      // A lost NIKHAHIT often comes with a stray tone mark beside it: try it without either one.
      const isTone = (c: string | undefined): boolean => c !== undefined && new RegExp(`[${TONE}]`, 'u').test(c);
      if (isTone(text[i - 1])) options.push(text.slice(0, i - 1) + '\u0e4d' + text.slice(i + 1));
      if (isTone(text[i + 1])) options.push(text.slice(0, i) + '\u0e4d' + text.slice(i + 2));
      options.push(text.slice(0, i) + text.slice(i + 1));
      // Dropping the glyph is the last resort: it must make strictly more of the run known.
      const drop = options.pop()!;
      let best = drop;
      let bestScore = [unknownChars(composeAm(drop.replace(/\u0000/g, '')), lexicon) + 0.5, 0];
      for (const option of options) {
        const clean = composeAm(option.replace(/\u0000/g, ''));
        const at = Math.min(i, clean.length - 1);
        const score = [unknownChars(clean, lexicon), -markContext(clean, at, lexicon) - usage(clean, at, counts)];
        if (score[0]! < bestScore[0]! || (score[0] === bestScore[0] && score[1]! < bestScore[1]!)) {
          best = option;
          bestScore = score;
        }
      }
      text = composeAm(best);
      i = Math.max(-1, i - 2);
    }
    return text;
  }, disabled);
  // A mark the font maps to a wrong code (THANTHAKHAT read as SARA U): replaced only when the run
  // then becomes a sequence of known words and was not one before.
  perRun(line, 'thai-wrong-mark', (run) => {
    let text = run;
    if (unknownChars(text, lexicon) === 0) return null;
    for (let i = 0; i < text.length; i++) {
      for (const mark of CONFUSED[text[i]!] ?? []) {
        const candidate = text.slice(0, i) + mark + text.slice(i + 1);
        if (unknownChars(candidate, lexicon) === 0) return candidate;
      }
    }
    return null;
  }, disabled);
  perRun(line, 'thai-sara-am-lexicon', (run) => {
    if (!run.includes('\u0e32')) return null;
    let text = run;
    let [unknown, words] = coverage(text, lexicon);
    // Only where a SARA AM makes fewer unknown characters, or fewer words with none unknown around.
    for (let i = text.indexOf('\u0e32'); i >= 0; i = text.indexOf('\u0e32', i + 1)) {
      const candidate = text.slice(0, i) + '\u0e33' + text.slice(i + 1);
      const [u, w] = coverage(candidate, lexicon);
      if (u < unknown || (u === unknown && w < words)) {
        text = candidate;
        [unknown, words] = [u, w];
      }
    }
    return text;
  }, disabled);
  // III: a space between two Thai runs that splits a word.
  if (!disabled.has('thai-split-word')) line.replace(/([\u0e01-\u0e4e]+) ([\u0e01-\u0e4e]+)/gu, (m) => {
    const [, left = '', right = ''] = m;
    if (/^[\u0e46\u0e2f]|[\u0e46\u0e2f]$/u.test(right) || /[\u0e46\u0e2f]$/u.test(left)) return null;
    const apart = unknownChars(left, lexicon) + unknownChars(right, lexicon);
    if (apart === 0) return null;
    return unknownChars(left + right, lexicon) < apart ? left + right : null;
  }, 'thai-split-word');
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
