/**
 * Arabic and Hebrew text-layer repairs. Arabic script: presentation forms (U+FB50–FDFF,
 * U+FE70–FEFC) → base letters, lam-alef → lam + alef, the Allah ligature U+FDF2 after an alef
 * without a second alef, tatweel removed or kept; ZWNJ is never touched. Hebrew presentation forms
 * (U+FB1D–FB4F) → letters and points.
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

/** True when a text has a UTF-16 code unit at or above `code`. */
function hasCodeFrom(text: string, code: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= code) return true;
  return false;
}
