/**
 * Greek: the accents and breathings of a capital, set as a glyph of their own before it. Greek
 * writes a capital's tonos or breathing to its upper left, and fonts without precomposed accented
 * capitals (TeX's CB fonts) draw the spacing accent as a glyph before the letter: "΄Οταν" for
 * "Όταν", "῾Ο" for "Ὁ". Running text has no other use for a spacing Greek accent before a letter:
 * at the start of a word, one before a capital vowel (or rho, for the rough breathing) is that
 * capital's.
 */
import type { Rewriter } from '../repair/rewrite.js';

/**
 * A spacing Greek accent a capital takes before it, at the start of a word, before a capital
 * vowel or rho: the tonos (oxia), and the breathings alone or with an accent (koronis, psili,
 * dasia and their combinations). The varia alone, the perispomeni alone and the dialytika accents
 * stand before no capital in Greek writing (and the varia decomposes to a grave accent, U+0060,
 * not a combining mark), so they are left as they are.
 */
const ACCENT_BEFORE_CAPITAL = /(?<!\p{L})(?:([\u0384\u1fbd\u1fbf\u1fcd-\u1fcf\u1fdd-\u1fdf\u1ffd\u1ffe])([ΑΕΗΙΟΥΩ])|(\u1ffe)(Ρ))/gu;

/** The combining marks a spacing Greek accent stands for (its compatibility decomposition, less the space). */
function combiningOf(accent: string): string {
  return accent.normalize('NFKD').replace(/^ /u, '');
}

/** `greek-capital-accent`: a spacing accent before a capital goes onto it ("΄Ο" → "Ό"). */
export function greekCapitalAccents(line: Rewriter): void {
  if (!/[\u0384\u0385\u1fbd-\u1fff]/u.test(line.text)) return;
  line.replace(ACCENT_BEFORE_CAPITAL, (m) => `${m[2] ?? m[4]}${combiningOf(m[1] ?? m[3]!)}`.normalize('NFC'), 'greek-capital-accent');
}
