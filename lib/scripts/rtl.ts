/**
 * Right-to-left helpers shared by `lines` and `bidi`: which text order a document's runs are in,
 * reversing text by code point, and putting diacritics drawn as separate glyphs after their letter.
 *
 * The contract between the two stages: when the engine keeps each run's glyphs in drawing order
 * (`glyph-order` in `meta.engine`; for right-to-left scripts that is visual order, left to right on
 * the page), `lines` writes a right-to-left line as the page read from right to left, glyph by glyph:
 * the exact reverse of the line's visual order. That is already the reading order of pure Arabic or
 * Hebrew; `bidi` turns it back into visual order and applies the Unicode Bidirectional Algorithm, so
 * that embedded left-to-right words and numbers read left to right again.
 */
import type { DocRecord, Item } from '../protocol/records.js';
import { drawnSpace, right } from '../layout/geometry.js';

/** True when the document's runs hold their glyphs in drawing order (no per-run reordering by the engine). */
export function isGlyphOrder(doc: DocRecord | null | undefined): boolean {
  return / glyph-order\b/.test(doc?.meta?.engine ?? '');
}

/** Reverses a string by code point (surrogate pairs stay whole). */
export function reverseText(text: string): string {
  return [...text].reverse().join('');
}

const MARK = /[\p{Mn}\p{Me}]/u;
const BASE = /[^\p{Mn}\p{Me}\s]/u;

/**
 * A run's text read from right to left. A run of several letters drawn left to right is reversed
 * glyph by glyph; its combining marks, which shapers put before their letter in visual order
 * ("اّمل" for "لمّا"), then follow it. A run that holds one letter and its marks is one cluster,
 * whatever order the generator wrote them in: the letter comes first (not a comma and marks: the
 * marks are its neighbour's). A run of several letters on an implausibly narrow advance
 * (< `LIGATURE_ADVANCE` × size per letter) is one ligature glyph whose text is already in reading
 * order ("ما"), and is kept.
 */
export function rightToLeftText(item: Pick<Item, 'text' | 'w' | 'size'>): string {
  const chars = [...item.text];
  const bases = chars.filter((c) => BASE.test(c)).length;
  // The cluster's base is a letter: marks drawn beside punctuation (a tanween left of its alef,
  // over the comma after the word) are read in the order they are drawn.
  if (bases <= 1 && !/\s/u.test(item.text.trim()) && !chars.some((c) => BASE.test(c) && !/\p{L}/u.test(c))) {
    return chars.filter((c) => !MARK.test(c)).join('') + chars.filter((c) => MARK.test(c)).join('');
  }
  if (bases > 1 && item.w < LIGATURE_ADVANCE * item.size * (bases - 1) && !/\s/u.test(item.text)) return item.text;
  return reverseText(item.text);
}

/** See rightToLeftText: advance per extra letter below which a multi-letter run is one ligature glyph, × font size. */
export const LIGATURE_ADVANCE = 0.05;

/** Right-to-left strong characters (Hebrew, Arabic, Syriac, Thaana, N'Ko, … and their presentation forms). */
export const RTL_STRONG =
  /[\u0590-\u05ff\u0600-\u0605\u0608\u060b\u060d\u061b-\u064a\u066d-\u066f\u0671-\u06d5\u06e5\u06e6\u06ee\u06ef\u06fa-\u0710\u0712-\u072f\u074d-\u07a5\u07b1-\u07ea\u07f4\u07f5\u07fa-\u0815\u081a\u0824\u0828\u0830-\u0858\u085e-\u08d2\u200f\ufb1d\ufb1f-\ufb28\ufb2a-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** Left-to-right strong characters: letters of the other scripts. */
export const LTR_STRONG = /[\p{L}\p{Mc}]/u;

/**
 * Shapers put a mark before its letter in visual order, so a run of several letters that ends with
 * marks in drawing order (XeTeX: "حقوقً" for "اساساً حقوق", the tanween drawn after a word space,
 * back over the alef of the next run) gives them to the run that starts just right of it, within
 * half an em: they go before its first glyph in drawing order, after its last letter in reading.
 */
function moveTrailingMarks(items: Item[]): void {
  for (const item of items) {
    const trailing = /[\p{Mn}\p{Me}]+$/u.exec(item.text)?.[0];
    if (!trailing || [...item.text].filter((c) => BASE.test(c)).length < 2) continue;
    const edge = right(item);
    let host: Item | undefined;
    for (const o of items) {
      if (o === item || MARKS_ONLY.test(o.text) || !BASE.test(o.text)) continue;
      const d = o.x - edge;
      if (d >= -0.1 * item.size && d <= 0.5 * item.size && (!host || o.x < host.x)) host = o;
    }
    if (!host) continue;
    item.text = item.text.slice(0, -trailing.length);
    host.text = trailing + host.text;
  }
}

/** The left edge (plus a hair, to fall inside it) of the letter run nearest to a corner mark, within half an em. */
function nearestLeftEdge(items: readonly Item[], mark: Item, removed: ReadonlySet<Item>): number | null {
  let best: number | null = null;
  for (const o of items) {
    if (o === mark || removed.has(o) || MARKS_ONLY.test(o.text) || o.text.trim() === '') continue;
    const d = Math.abs(o.x - (mark.x + mark.w / 2));
    if (d <= 0.5 * mark.size && (best === null || d < Math.abs(best - (mark.x + mark.w / 2)))) best = o.x;
  }
  return best === null ? null : best + 0.01;
}

/** Hebrew holam (and holam haser for vav), drawn at the upper left corner of its letter. */
const LEFT_CORNER_MARK = /^\s*[\u05b9\u05ba]/u;

/** A run made only of combining marks (harakat, Hebrew points, …), drawn as a glyph of its own. */
const MARKS_ONLY = /^\s*[\p{Mn}\p{Me}]+\s*$/u;

/**
 * On a right-to-left line, puts each run that holds only combining marks into the run it is drawn
 * over, right after the letter under the mark's centre, and removes it as a run. Without this a
 * separately drawn fatha or dagesh, which overlaps its letter, sorts before it (or onto a
 * neighbouring letter) and ends up at the start of the word:
 *
 *     ┌──────┐          the mark's centre (×) lies inside the letter's run, over its k-th glyph:
 *     │  ×   │ mark     the mark is inserted so that, read right to left, it follows that glyph
 *   ┌─┴──────┴──┐
 *   │  ب  ت  ك  │ run (glyph order, left to right)
 *   └───────────┘
 *
 * `glyphOrder` says whether run texts are in drawing order (left to right) or already reversed.
 */
export function attachMarks(items: readonly Item[], glyphOrder: boolean): Item[] {
  const out = items.map((item) => ({ ...item }));
  if (glyphOrder) moveTrailingMarks(out);
  const marks = out.filter((item) => MARKS_ONLY.test(item.text));
  if (marks.length === 0) return out;
  const removed = new Set<Item>();
  for (const mark of marks) {
    // A holam sits on its letter's upper left corner, often past the letter's left edge: it goes
    // with the run whose left edge is nearest, onto that run's leftmost glyph.
    const corner = LEFT_CORNER_MARK.test(mark.text);
    const centre = corner ? nearestLeftEdge(out, mark, removed) ?? mark.x + mark.w / 2 : mark.x + mark.w / 2;
    let host: Item | undefined;
    let best = Infinity;
    for (const o of out) {
      if (o === mark || removed.has(o) || MARKS_ONLY.test(o.text) || o.text.trim() === '') continue;
      // Distance of the mark's centre from the run (0 inside), then from the run's middle.
      const outside = Math.max(0, o.x - centre, centre - right(o));
      if (outside > Math.max(mark.size, o.size) * 0.1) continue;
      const score = outside * 1000 + Math.abs(o.x + o.w / 2 - centre);
      if (score < best) {
        best = score;
        host = o;
      }
    }
    if (!host) continue;
    const chars = [...host.text];
    const n = chars.length;
    // The letter under the mark, counting letters only: the marks in the run take no width.
    const letters = chars.flatMap((c, i) => (MARK.test(c) ? [] : [i]));
    const k = Math.min(n - 1, Math.max(0, Math.floor(((centre - host.x) / Math.max(host.w, 0.01)) * n)));
    const letter = markHost(chars, letters, ((centre - host.x) / Math.max(host.w, 0.01)) * letters.length, mark.text.trim());
    // In drawing order the letter under the mark is the k-th from the left; right to left, the mark
    // follows it, so it goes just before it in drawing order (just after it when already reversed).
    chars.splice(glyphOrder ? letter ?? k : n - k, 0, mark.text.trim());
    host.text = chars.join('');
    // A space after the mark (drawn last, over the end of its word) is the word's.
    if (mark.after === 'space' && host.after === undefined) host.after = 'space';
    removed.add(mark);
  }
  return out.filter((item) => !removed.has(item));
}

/**
 * Which of a run's glyphs (`letters`, indices into `chars`, drawing order) a mark goes on, from
 * `slot`, the mark's centre counted in glyphs from the run's left edge. Glyphs are taken as equally
 * wide, which they are not (a lam beside a kaf), so the glyph under the estimate may be a neighbour
 * of the mark's letter: when that glyph is no letter (a comma), or the mark composes with a
 * neighbour and not with it (hamza below makes إ of an alef, nothing of a lam), the nearer
 * neighbour that takes it is the host.
 */
function markHost(chars: readonly string[], letters: readonly number[], slot: number, mark: string): number | undefined {
  const at = Math.min(letters.length - 1, Math.max(0, Math.floor(slot)));
  const takes = (i: number | undefined): boolean => i !== undefined && /\p{L}/u.test(chars[i]!);
  const composes = (i: number | undefined): boolean => i !== undefined && (chars[i]! + mark).normalize('NFC').length < chars[i]!.length + mark.length;
  // The alef of the article, the word's first letter before its lam ("ال", the last two glyphs in
  // drawing order), is never written with a hamza.
  const article = (i: number | undefined): boolean => i !== undefined && i === letters.at(-1) && chars[i] === 'ا' && chars[letters.at(-2) ?? -1] === 'ل';
  const wanted = letters.some((i) => composes(i)) ? (i: number | undefined) => composes(i) && !article(i) : takes;
  if (wanted(letters[at])) return letters[at];
  // The neighbour on the side of the slot the mark's centre is in first.
  const sides = slot - at < 0.5 ? [at - 1, at + 1] : [at + 1, at - 1];
  for (const j of sides) if (wanted(letters[j])) return letters[j];
  return letters[at];
}

/**
 * Arabic-script letters that do not join the letter after them (alef, dal, thal, reh, zain, waw,
 * teh marbuta, hamza and their Persian and Urdu kin), after NFKC (presentation forms).
 */
export const NON_JOINING = /^[\u0621-\u0625\u0627\u0629\u062f-\u0632\u0648\u0671-\u0673\u0675-\u0677\u0688-\u0699\u06c0\u06c3-\u06cb\u06cd\u06cf\u06d2\u06d3\u06d5\u06ee\u06ef]$/u;

/** True when text (in reading order) ends with an Arabic-script letter that does not join the next one. */
export function endsNonJoining(text: string): boolean {
  const chars = [...text];
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i]!;
    if (MARK.test(c)) continue;
    return NON_JOINING.test(c.normalize('NFKC').slice(-1));
  }
  return false;
}

/**
 * Letters that only ever end a word: Urdu's yeh barree (ے, ۓ), and heh carrying the Persian ezafe
 * hamza (ۀ, or ه with U+0654). What follows one of them, if a letter, starts another word.
 */
const WORD_FINAL_ONLY = /^(?:[\u06c0\u06d2\u06d3]|\u0647\u0654|\u0654\u0647)$/u;

/** True when a run is one letter that only ever ends a word (its marks aside; drawn in either order with its hamza). */
export function endsWordAlways(text: string): boolean {
  return WORD_FINAL_ONLY.test(text.replace(/[\p{Mn}\p{Me}\s]/gu, (c) => (c === '\u0654' ? c : '')));
}

/** Word gaps it takes to trust their median. */
const ENOUGH_WORD_GAPS = 3;

/**
 * The gap that is a word space after a non-joining Arabic letter, × font size. Such a letter ends its
 * glyph with a gap even inside a word ("الحر|ية": reh, then yeh): about 0.1 em, where word spaces
 * on the same line are 0.25–0.3 em. The limit is `share` × the line's median word gap (at least
 * `threshold`), when the line has at least three word gaps to take a median of; else the page's
 * (`pageGaps`: the word gaps of its right-to-left lines), as on a paragraph's last line of one or
 * two words; else `threshold`.
 *
 *     ي  ة     ر  ح  ل  ا        ← reading right to left
 *   [ية]  ←0.12→  [الحر]          not a space: below share × median word gap
 */
export function nonJoiningLimit(gaps: readonly number[], threshold: number, share: number, pageGaps: readonly number[] = []): number {
  const own = gaps.filter((g) => g > threshold);
  const words = (own.length >= ENOUGH_WORD_GAPS ? own : pageGaps.filter((g) => g > threshold)).sort((a, b) => a - b);
  if (words.length < ENOUGH_WORD_GAPS) return threshold;
  const median = words[words.length >> 1]!;
  return Math.max(threshold, share * median);
}

/** The zero-width non-joiner: stops the letter before it joining the next, inside a word. */
export const ZWNJ = '\u200c';
const ENDS_ARABIC_LETTER = /\p{Script=Arabic}[\p{Mn}\p{Me}]*$/u;
const STARTS_ARABIC_LETTER = /^\p{Script=Arabic}/u;

/**
 * True when the space glyph drawn after `before` (its `space`) stands for a zero-width non-joiner.
 * A shaper (HarfBuzz, as XeTeX uses it) draws a default-ignorable character as the font's space
 * glyph with its advance taken away, and the font's ToUnicode reads that glyph as a space: the run
 * after it then starts where the space starts, `gap` (user units) far less than the space glyph is
 * wide. Between two Arabic-script letters the invisible character that keeps them apart inside a
 * word is U+200C, part of the word's spelling ("خانه‌ی", "می‌رود"); a real space has its advance.
 *
 *   [ی] [space, advance 0] [خانه]   →  "خانه‌ی", not "خانهی" nor "خانه ی"
 */
export function isZeroWidthNonJoiner(before: Pick<Item, 'space'>, gap: number, tail: string, next: string): boolean {
  return drawnSpace(before, gap) === false && ENDS_ARABIC_LETTER.test(tail) && STARTS_ARABIC_LETTER.test(next);
}

/**
 * True when the run before (its text `tail`, in reading order) ends in a letter drawn in the form
 * that joins nothing after it (`endsUnjoined`, lib/engines/pdfium/forms.ts), one that joins both
 * ways as the line reads it, and the next run, going
 * on the same word, starts with an Arabic-script letter: the word's non-joiner, which the text
 * layer left out. Not between lam and alef: a font draws the lam of their ligature in a form of its
 * own, which may be as wide as its final form, and some producers end the lam's run there ("أهلاً").
 */
export function isLeftOutNonJoiner(before: Pick<Item, 'endsUnjoined'>, tail: string, next: string): boolean {
  return before.endsUnjoined === true && ENDS_ARABIC_WORD_LETTER.test(tail) && !endsNonJoining(tail) && STARTS_ARABIC_LETTER.test(next) && !(ENDS_LAM.test(tail) && STARTS_ALEF.test(next));
}
const ENDS_ARABIC_WORD_LETTER = /(?=\p{L})\p{Script=Arabic}[\p{Mn}\p{Me}]*$/u;
const ENDS_LAM = /[\u0644\u06b5-\u06b8][\p{Mn}\p{Me}]*$/u;
const STARTS_ALEF = /^[\u0622\u0623\u0625\u0627\u0671-\u0673\u0675]/u;

/** Gaps wider than this (× font size) are no gaps inside a line's words: columns, tabs, wide spaces. */
const FONT_GAP_CEILING = 0.5;
/** A font's gaps tell its break when it has this many (a title's few do not)… */
const FONT_GAP_MIN = 16;
/** …and that it has no gap inside words (all at least half `wordGap`) when it has this many. */
const FONT_GAP_MIN_SPACES_ONLY = 8;
/** …each side of the break this many… */
const FONT_GAP_SIDE = 2;
/** …and the break this width (× font size) with no gap in it. */
const FONT_GAP_JUMP = 0.02;
/** A gap narrower than this (× font size) is no word space, whatever a font's gaps show. */
const FONT_GAP_FLOOR = 0.03;

/**
 * The word-gap threshold of each font on right-to-left lines, where the document shows one below
 * `wordGap`. A font's gaps between runs are two clusters: inside words (runs split at non-joining
 * letters, near 0; overlaps are left out) and word spaces. Most fonts space words 0.2–0.3 em, well above
 * `wordGap`; some (Lateef) only 0.07–0.15 em, and their letters overhang the space. The threshold is
 * the middle of the widest empty stretch between the font's sorted gaps whose middle lies below
 * `wordGap` (at least FONT_GAP_MIN gaps, the stretch at least FONT_GAP_JUMP wide, FONT_GAP_SIDE gaps
 * on each side); never below FONT_GAP_FLOOR. A font with no such stretch whose narrowest gap is at
 * least half `wordGap` (its runs end only at spaces, as XeTeX's do) takes half that gap. Without
 * `inWordGaps` only that last rule applies (left-to-right lines: there a stretch among gaps below
 * `wordGap` may part a formula's tight symbols from its loose ones, not letters from spaces), and
 * FONT_GAP_MIN_SPACES_ONLY gaps are enough to show it (a one-line document's dozen).
 *
 *   gaps (em):  0.01 0.02 0.02 0.03 │ 0.07 0.08 0.10 0.13 0.15 …   → threshold 0.05
 */
export function fontWordGaps(pairs: readonly { font: string; gap: number }[], wordGap: number, inWordGaps = true): Map<string, number> {
  const byFont = new Map<string, number[]>();
  for (const { font, gap } of pairs) {
    // Overlapping runs (kerned, or a letter's tail under the next) are never a word space.
    if (gap <= 0 || gap >= FONT_GAP_CEILING) continue;
    const gaps = byFont.get(font);
    if (gaps) gaps.push(gap);
    else byFont.set(font, [gap]);
  }
  const limits = new Map<string, number>();
  for (const [font, gaps] of byFont) {
    if (gaps.length < (inWordGaps ? FONT_GAP_MIN : FONT_GAP_MIN_SPACES_ONLY)) continue;
    gaps.sort((a, b) => a - b);
    let best = 0;
    let at = -1;
    for (let i = FONT_GAP_SIDE; i <= gaps.length - FONT_GAP_SIDE; i++) {
      const jump = gaps[i]! - gaps[i - 1]!;
      if (jump > best && gaps[i]! + gaps[i - 1]! < 2 * wordGap) {
        best = jump;
        at = i;
      }
    }
    if (at < 0 || best < FONT_GAP_JUMP || !inWordGaps) {
      // No gap inside a word at all (runs split only at spaces): every gap from half `wordGap` up is one.
      if (gaps[0]! >= wordGap / 2 && gaps[0]! < wordGap) limits.set(font, Math.max(FONT_GAP_FLOOR, gaps[0]! / 2));
      continue;
    }
    limits.set(font, Math.max(FONT_GAP_FLOOR, (gaps[at]! + gaps[at - 1]!) / 2));
  }
  return limits;
}
