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
 *   ya-phala (Bengali)           ব য্           ব ্য         one glyph after its consonant, mapped ya then virama
 *
 * Whether a document's text is in glyph order is decided once per script, from the document
 * itself: in Unicode order a pre-base sign only ever follows a consonant (or a nukta); in glyph
 * order it mostly follows a space, a vowel sign or the start of a word. The rewrites are applied
 * only to such a document, where each is unambiguous: a reph always follows the syllable it
 * belongs to. A nasal sign (candrabindu, anusvara) before a vowel sign is put after it in every
 * document (`indicNasalOrder`): Unicode order never has a vowel sign after one, and Writer writes
 * them so too.
 */
import type { Item } from '../protocol/records.js';
import { right } from '../layout/geometry.js';

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
  /** The nasal signs a font may draw with a pre-base sign as one glyph ("िं"). */
  nasal: string;
  preBaseRule: string;
  /** Drawn pair → the vowel (after the pre-base signs are moved). */
  twoPart: Readonly<Record<string, string>>;
  /** The consonant whose post-base form a glyph of its own draws after its cluster (Bengali's ya-phala), if any. */
  postBase?: string;
}

const DEVANAGARI: IndicScript = {
  name: 'devanagari',
  consonant: '\\u0915-\\u0939\\u0958-\\u095F\\u0978-\\u097F',
  nukta: '\u093C',
  virama: '\u094D',
  ra: '\u0930',
  signs: '\\u093A\\u093B\\u093E-\\u094C\\u094E\\u094F\\u0900-\\u0902',
  preBase: '\\u093F',
  nasal: '\\u0900-\\u0902',
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
  nasal: '\\u0981\\u0982',
  preBaseRule: 'bengali-pre-base-vowel',
  twoPart: { '\u09C7\u09BE': '\u09CB', '\u09C7\u09D7': '\u09CC' },
  postBase: '\u09AF',
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
  // The reph goes first, before the pre-base signs move: a reph drawn after its syllable follows
  // the syllable's consonants and post-base signs, never a pre-base sign (drawn left of them). A
  // reph right after a pre-base sign was drawn at its syllable's start (Lohit: "सिर्दयों" for
  // सर्दियों) and moves with the cluster it heads when the pre-base sign moves past it.
  const postBase = `(?:(?![${s.preBase}])[${s.signs}])*`;
  const rewrites: GlyphOrderRewrite[] = [];
  // The ya-phala, one glyph drawn after its consonant, written ya then virama ("বয্স্ত" for
  // ব্যস্ত): after a consonant, before anything but another ya, it is virama then ya.
  const ya = s.postBase;
  if (ya) rewrites.push({ rule: `${s.name}-ya-phala`, pattern: new RegExp(`([${s.consonant}]${s.nukta}?)${ya}${s.virama}(?!${ya})`, 'gu'), replace: (m) => `${m[1]}${s.virama}${ya}` });
  rewrites.push(
    { rule: `${s.name}-reph`, pattern: new RegExp(`(${cluster}${postBase})${s.ra}${s.virama}(?!\\u200D)`, 'gu'), replace: (m) => `${s.ra}${s.virama}${m[1]}` },
    // A nasal sign drawn in one glyph with the pre-base sign ("िं") moves with it.
    { rule: s.preBaseRule, pattern: new RegExp(`([${s.preBase}][${s.nasal}]*)(${cluster})`, 'gu'), replace: (m) => `${m[2]}${m[1]}` },
    { rule: `${s.name}-two-part-vowel`, pattern: twoPart, replace: (m) => s.twoPart[m[0]] ?? m[0] },
  );
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

/** Devanagari and Bengali dependent vowel signs and nasal signs (combining or spacing). */
const INDIC_SIGNS = '\\u0900-\\u0903\\u093A\\u093B\\u093E-\\u094C\\u094E\\u094F\\u0955-\\u0957\\u0981-\\u0983\\u09BE-\\u09CC\\u09D7';
/** Signs written after a danda: they belong to the syllable before it. */
const SIGNS_AFTER_DANDA = new RegExp(`([\\u0900-\\u09FF])([\\u0964\\u0965])([${INDIC_SIGNS}]+)`, 'gu');

/**
 * The rewrite that puts vowel and nasal signs written after a danda back onto the syllable before
 * it, in any document ("ह।ै" → "है।"): Unicode order never has a sign after a danda, but a font
 * that draws a sign over the end of its syllable may draw it after the danda that follows.
 */
export const SIGN_AFTER_DANDA: GlyphOrderRewrite = {
  rule: 'indic-sign-after-danda',
  pattern: SIGNS_AFTER_DANDA,
  replace: (m) => `${m[1]}${m[3]}${m[2]}`,
};

/** A run of Devanagari or Bengali combining signs alone (ै, ू, ं …), drawn as a glyph of its own. */
const INDIC_MARKS_ONLY = /^\s*[\u0900-\u0902\u093A\u093C\u0941-\u0948\u094D\u0951-\u0957\u0962\u0963\u0981\u09BC\u09C1-\u09C4\u09CD\u09E2\u09E3]+\s*$/u;
const INDIC_LETTER = /[\u0904-\u0939\u093D\u0950\u0958-\u0961\u0972-\u097F\u0985-\u09B9\u09BD\u09CE\u09DC-\u09E1\u09F0\u09F1]/u;
const COMBINING = /\p{Mn}/u;
const VIRAMA = /[\u094D\u09CD]/u;
const NUKTA = /[\u093C\u09BC]/u;
/** A sign's centre may lie this far (× font size) outside the run it is drawn on. */
const MARK_REACH = 0.1;

/**
 * On a left-to-right line, puts each run that holds only Devanagari or Bengali combining signs into
 * the letter run it is drawn on, after the syllable under its centre, and removes it as a run. A
 * font that draws a sign as a glyph of its own, moved back over its syllable (FreeSerif's ू, Lohit's
 * ै under XeTeX), gives it a run after the word, which would read "झलेू" for झूले and "बठकरै" for
 * बैठकर. The syllable is found by the sign's centre among the run's advancing characters (combining
 * signs take no width), taken as even; a sign over a half form goes to the conjunct's last
 * consonant, one over a spacing sign or punctuation to the letter before it.
 *
 *       ू                   centre over the first of the run's advancing glyphs (झ, ल):
 *   [ झ  ल े ]  →  झूले      the sign follows झ
 */
export function attachIndicMarks(items: readonly Item[]): Item[] {
  if (!items.some((item) => INDIC_MARKS_ONLY.test(item.text))) return [...items];
  const out = items.map((item) => ({ ...item }));
  const removed = new Set<Item>();
  for (const mark of out) {
    if (!INDIC_MARKS_ONLY.test(mark.text)) continue;
    const centre = mark.x + mark.w / 2;
    const reach = MARK_REACH * mark.size;
    const host = out.find((o) => o !== mark && !removed.has(o) && !INDIC_MARKS_ONLY.test(o.text) && INDIC_LETTER.test(o.text) && o.x - reach <= centre && centre <= right(o) + reach);
    if (!host) continue;
    const chars = [...host.text];
    const advancing = chars.flatMap((c, i) => (COMBINING.test(c) ? [] : [i]));
    const share = (centre - host.x) / Math.max(host.w, 0.01);
    let at = advancing[Math.min(advancing.length - 1, Math.max(0, Math.floor(share * advancing.length)))]!;
    // Back from a spacing sign or punctuation to its letter; on from a half form to its conjunct's end.
    while (at > 0 && !INDIC_LETTER.test(chars[at]!)) at--;
    if (!INDIC_LETTER.test(chars[at]!)) continue;
    for (;;) {
      while (NUKTA.test(chars[at + 1] ?? '')) at++;
      if (VIRAMA.test(chars[at + 1] ?? '') && INDIC_LETTER.test(chars[at + 2] ?? '')) at += 2;
      else break;
    }
    chars.splice(at + 1, 0, mark.text.trim());
    host.text = chars.join('');
    // The run covers the sign's advance too: the gap after it is measured from there.
    const end = Math.max(right(host), right(mark));
    host.x = Math.min(host.x, mark.x);
    host.w = end - host.x;
    removed.add(mark);
  }
  return out.filter((item) => !removed.has(item));
}

/** One glyph's text that is a reph and a pre-base sign ("र्ि"), with any nasal sign after them. */
const REPH_WITH_PRE_BASE = /^([\u0930\u09B0][\u094D\u09CD])([\u093F\u09BF\u09C7\u09C8][\u0900-\u0902\u0981\u0982]*)$/u;

/**
 * The text of one glyph that draws a reph with the pre-base sign of the syllable it heads (Noto
 * Serif Devanagari's i-matra made for a reph, "र्ि" in XeTeX's map), in the order glyph-order text
 * has them when drawn apart, the sign first (Lohit's "सिर्दयों"): the reph then goes with the
 * cluster the sign moves past. Drawn apart, a reph before a pre-base sign ends the syllable before.
 */
export function preBaseBeforeReph(text: string): string {
  return text.length > 2 ? text.replace(REPH_WITH_PRE_BASE, '$2$1') : text;
}
