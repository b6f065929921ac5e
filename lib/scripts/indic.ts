/**
 * Devanagari and Bengali in glyph order, put back into logical (Unicode) order.
 *
 * Some generators (XeTeX among them) write each glyph's text in the order the glyphs are drawn.
 * Then these differ from Unicode order:
 *
 *   drawn                        text layer     Unicode
 *   pre-base vowel sign          ि क, ে ক       क ि, ক ে   ि (Bengali ি ে ৈ) stands left of its consonants
 *   reph after its base          व र्, য র্      र् व, র্ য   a syllable-initial ra+virama is drawn over the end
 *   two-part vowels (Devanagari) ा े, आ े        ो, ओ       ो ौ ओ औ are drawn as ा or आ plus े or ै
 *   two-part vowels (Bengali)    ে ক া          ক ো        ো ৌ are drawn as ে before and া or ৗ after
 *   nasal sign before its vowel  हय ं ो, হ ঁ া    हय ो ं, হ া ঁ the sign drawn over the vowel sign before it
 *
 * Whether a document's text is in glyph order is decided once per script, from the document
 * itself: in Unicode order a pre-base sign only ever follows a consonant (or a nukta); in glyph
 * order it mostly follows a space, a vowel sign or the start of a word. The rewrites are applied
 * only to such a document, where each is unambiguous: a reph always follows the syllable it
 * belongs to. A nasal sign (candrabindu, anusvara) before a vowel sign is put after it in every
 * document (`indicNasalOrder`): Unicode order never has a vowel sign after one, and Writer writes
 * them so too.
 */

/** What differs between the scripts: their letters, and the rule names the repair reports. */
interface IndicScript {
  name: string;
  consonant: string;
  /** The nukta, virama and ra themselves (not escapes). */
  nukta: string;
  virama: string;
  ra: string;
  /** Dependent vowel signs and nasal signs a reph is drawn after (a character class body). */
  signs: string;
  /** The vowel signs drawn left of their consonants. */
  preBase: string;
  preBaseRule: string;
  /** Drawn pair → the vowel (after the pre-base signs are moved). */
  twoPart: Readonly<Record<string, string>>;
}

const DEVANAGARI: IndicScript = {
  name: 'devanagari',
  consonant: '\\u0915-\\u0939\\u0958-\\u095F\\u0978-\\u097F',
  nukta: '\u093C',
  virama: '\u094D',
  ra: '\u0930',
  signs: '\\u093A\\u093B\\u093E-\\u094C\\u094E\\u094F\\u0900-\\u0902',
  preBase: '\\u093F',
  preBaseRule: 'devanagari-short-i',
  twoPart: { '\u093E\u0947': '\u094B', '\u093E\u0948': '\u094C', '\u0906\u0947': '\u0913', '\u0906\u0948': '\u0914' },
};

const BENGALI: IndicScript = {
  name: 'bengali',
  consonant: '\\u0995-\\u09B9\\u09CE\\u09DC-\\u09DF\\u09F0\\u09F1',
  nukta: '\u09BC',
  virama: '\u09CD',
  ra: '\u09B0',
  signs: '\\u09BE-\\u09CC\\u09D7\\u0981-\\u0983',
  preBase: '\\u09BF\\u09C7\\u09C8',
  preBaseRule: 'bengali-pre-base-vowel',
  twoPart: { '\u09C7\u09BE': '\u09CB', '\u09C7\u09D7': '\u09CC' },
};

export interface GlyphOrderRewrite {
  rule: string;
  pattern: RegExp;
  replace: (match: RegExpExecArray) => string;
}

/** A script's rewrites, each as a global pattern and its replacement, in the order they apply. */
function rewritesOf(s: IndicScript): GlyphOrderRewrite[] {
  const cluster = `(?:[${s.consonant}]${s.nukta}?${s.virama})*[${s.consonant}]${s.nukta}?`;
  const twoPart = new RegExp(Object.keys(s.twoPart).join('|'), 'gu');
  const rewrites: GlyphOrderRewrite[] = [
    { rule: s.preBaseRule, pattern: new RegExp(`([${s.preBase}])(${cluster})`, 'gu'), replace: (m) => `${m[2]}${m[1]}` },
    { rule: `${s.name}-reph`, pattern: new RegExp(`(${cluster}[${s.signs}]*)${s.ra}${s.virama}(?!\\u200D)`, 'gu'), replace: (m) => `${s.ra}${s.virama}${m[1]}` },
    { rule: `${s.name}-two-part-vowel`, pattern: twoPart, replace: (m) => s.twoPart[m[0]] ?? m[0] },
  ];
  return rewrites;
}

/** A document is in glyph order when at least this many pre-base signs… */
const MIN_PRE_BASE = 3;
/** …and this share of them stand where Unicode order never puts them. */
const MISPLACED_SHARE = 0.25;

/** True when the pre-base signs of `texts` show the script written in glyph order. */
function isGlyphOrder(s: IndicScript, texts: Iterable<string>): boolean {
  const preBase = new RegExp(`[${s.preBase}]`, 'gu');
  const afterConsonant = new RegExp(`[${s.consonant}${s.nukta}]$`, 'u');
  let total = 0;
  let misplaced = 0;
  for (const text of texts) {
    for (const match of text.matchAll(preBase)) {
      total += 1;
      if (!afterConsonant.test(text.slice(Math.max(0, match.index - 2), match.index))) misplaced += 1;
    }
  }
  return total >= MIN_PRE_BASE && misplaced >= MISPLACED_SHARE * total;
}

/** The rewrites of every script the document shows in glyph order. */
export function glyphOrderRewrites(texts: readonly string[]): GlyphOrderRewrite[] {
  return [DEVANAGARI, BENGALI].filter((s) => isGlyphOrder(s, texts)).flatMap(rewritesOf);
}

/** Candrabindu or anusvara, then a dependent vowel sign (Devanagari, Bengali). */
const NASAL_BEFORE_VOWEL = /([\u0901\u0902])([\u093E-\u094C])|([\u0981\u0982])([\u09BE-\u09CC\u09D7])/gu;

/** The rewrite that puts a nasal sign after the vowel sign it was written before, in any document. */
export const NASAL_ORDER: GlyphOrderRewrite = {
  rule: 'indic-nasal-order',
  pattern: NASAL_BEFORE_VOWEL,
  replace: (m) => (m[1] ? `${m[2]}${m[1]}` : `${m[4]}${m[3]}`),
};
