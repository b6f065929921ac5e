/**
 * Devanagari in glyph order, put back into logical (Unicode) order.
 *
 * Some generators (XeTeX among them) write each Devanagari glyph's text in the order the glyphs are
 * drawn. Three things then differ from Unicode order:
 *
 *   drawn                 text layer     Unicode
 *   ि before its cluster   ि क            क ि      the short-i sign stands left of its consonants
 *   reph after its base   व र्            र् व      a syllable-initial र् is drawn over the end
 *   two-part vowels       ा े, आ े       ो, ओ     ो ौ ओ औ are drawn as ा or आ plus े or ै
 *
 * Whether a document's text is in glyph order is decided once, from the document itself: in
 * Unicode order ि only ever follows a consonant (or a nukta); in glyph order it mostly follows a
 * space, a vowel sign or the start of a word. The rewrites are applied only to such a document,
 * where each is unambiguous: a र् drawn as reph always follows the syllable it belongs to.
 */

const CONSONANT = '[\\u0915-\\u0939\\u0958-\\u095F\\u0978-\\u097F]';
/** A consonant cluster: consonants joined by virama, each with an optional nukta. */
const CLUSTER = `(?:${CONSONANT}\\u093C?\\u094D)*${CONSONANT}\\u093C?`;
/** Dependent vowel signs (not the virama) and the nasal signs that a reph is drawn after. */
const SIGNS = '[\\u093A\\u093B\\u093E-\\u094C\\u094E\\u094F\\u0900-\\u0902]*';

const SHORT_I = /\u093F/gu;
const AFTER_CONSONANT = new RegExp(`(?:${CONSONANT}|\\u093C)$`, 'u');
const SHORT_I_BEFORE_CLUSTER = new RegExp(`\\u093F(${CLUSTER})`, 'gu');
const REPH_AFTER_SYLLABLE = new RegExp(`(${CLUSTER}${SIGNS})\\u0930\\u094D(?!\\u200D)`, 'gu');
const TWO_PART_VOWEL = /([\u093E\u0906])([\u0947\u0948])/gu;
/** ा or आ, then े or ै: the vowel both are drawn for. */
const TWO_PART: Readonly<Record<string, string>> = { '\u093E\u0947': '\u094B', '\u093E\u0948': '\u094C', '\u0906\u0947': '\u0913', '\u0906\u0948': '\u0914' };

/** A document is in glyph order when at least this many short-i signs… */
const MIN_SHORT_I = 3;
/** …and this share of them stand where Unicode order never puts them. */
const MISPLACED_SHARE = 0.25;

/** True when the short-i signs of `texts` show Devanagari written in glyph order. */
export function isGlyphOrderDevanagari(texts: Iterable<string>): boolean {
  let total = 0;
  let misplaced = 0;
  for (const text of texts) {
    if (!text.includes('\u093F')) continue;
    for (const match of text.matchAll(SHORT_I)) {
      total += 1;
      if (!AFTER_CONSONANT.test(text.slice(Math.max(0, match.index - 2), match.index))) misplaced += 1;
    }
  }
  return total >= MIN_SHORT_I && misplaced >= MISPLACED_SHARE * total;
}

/** The three rewrites, each as a global pattern and its replacement, in the order they apply. */
export const GLYPH_ORDER_REWRITES: readonly { rule: string; pattern: RegExp; replace: (match: RegExpExecArray) => string }[] = [
  { rule: 'devanagari-short-i', pattern: SHORT_I_BEFORE_CLUSTER, replace: (m) => `${m[1]}\u093F` },
  { rule: 'devanagari-reph', pattern: REPH_AFTER_SYLLABLE, replace: (m) => `\u0930\u094D${m[1]}` },
  { rule: 'devanagari-two-part-vowel', pattern: TWO_PART_VOWEL, replace: (m) => TWO_PART[m[0]] ?? m[0] },
];
