/**
 * Arabic and Hebrew text-layer repairs. Arabic script: presentation forms (U+FB50–FDFF,
 * U+FE70–FEFC) → base letters, lam-alef → lam + alef, the Allah ligature U+FDF2 after an alef
 * without a second alef, tatweel removed or kept; ZWNJ is never touched. Hebrew presentation forms
 * (U+FB1D–FB4F) → letters and points. Persian and Urdu whose font wrote Arabic yeh and kaf for
 * their own (`persoArabicYehKaf`).
 */
import type { Rewriter } from '../repair/rewrite.js';

/** What the Arabic rules read of the repair stage's options. */
export interface TatweelOptions {
  /** What to do with the Arabic tatweel (kashida) U+0640. */
  tatweel: 'remove' | 'keep';
}

const ALLAH = '\u0627\u0644\u0644\u0647';

/** The Arabic and Hebrew rules on one line, those in `disabled` left out. */
export function rtlRules(line: Rewriter, options: TatweelOptions, disabled: ReadonlySet<string>): void {
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

/** Letters Persian or Urdu use and Arabic does not: پ چ ژ گ ٹ ڈ ڑ ں ے. */
const PERSO_ARABIC_ONLY = /[\u067e\u0686\u0698\u06af\u0679\u0688\u0691\u06ba\u06d2]/gu;
/** Arabic yeh, alef maksura and kaf (ي ى ك). */
const ARABIC_YEH_KAF = /[\u064a\u0649\u0643]/gu;
const ARABIC_LETTER = /[\u0621-\u064a\u0671-\u06d3]/gu;
/** A document is Persian or Urdu when at least this many of its Arabic-script letters… */
const MIN_PERSO_ARABIC_LETTERS = 3;
/** …and this share of them are letters Arabic does not use (about 2 % in Persian, 6 % in Urdu prose). */
const PERSO_ARABIC_SHARE = 0.005;

/**
 * True when a document is Persian or Urdu (letters Arabic does not use) and has Arabic ي ى ك: a
 * font whose glyphs for ی and ک are those of Arabic yeh and kaf (in the middle of a word they look
 * the same) had them mapped to the Arabic letters, which Persian and Urdu do not write.
 */
export function isPersoArabicWithArabicYehKaf(texts: readonly string[]): boolean {
  let own = 0;
  let letters = 0;
  let arabic = 0;
  for (const text of texts) {
    own += text.match(PERSO_ARABIC_ONLY)?.length ?? 0;
    letters += text.match(ARABIC_LETTER)?.length ?? 0;
    arabic += text.match(ARABIC_YEH_KAF)?.length ?? 0;
  }
  return own >= MIN_PERSO_ARABIC_LETTERS && own >= PERSO_ARABIC_SHARE * letters && arabic > 0;
}

/** ي and ى → ی, ك → ک, in a document `isPersoArabicWithArabicYehKaf` found. */
export function persoArabicYehKaf(line: Rewriter): void {
  line.replace(ARABIC_YEH_KAF, (m) => (m[0] === '\u0643' ? '\u06a9' : '\u06cc'), 'persian-yeh-kaf');
}

/** True when a text has a UTF-16 code unit at or above `code`. */
function hasCodeFrom(text: string, code: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= code) return true;
  return false;
}
