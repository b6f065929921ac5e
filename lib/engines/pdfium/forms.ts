/**
 * Zero-width non-joiners a text layer leaves out, read back from the forms of the glyphs. Persian
 * writes U+200C inside words ("بهره‌مند", "بین‌المللی"): the letter before it takes a form that
 * joins nothing after it. Some producers (cairo, under Pango) draw the forms and write no character
 * for the joiner, and the letter ends its run; `lines` then joins the two runs ("بهرهمند"), another
 * word to a reader or a tokenizer.
 *
 * A letter that joins on both sides has a form of its own for each side it joins, and a font gives
 * the forms their own advances: Noto Sans Arabic's heh is 0.53 em alone, 0.37 em starting a word.
 * The document's own glyphs tell them apart: a letter with a letter after it in its run is in a
 * form that joins it (mostly: inside words); a letter that ends its run is in one that does not
 * (mostly: at words' ends). A run whose last letter is drawn with an advance the document gives
 * that letter at words' ends and seldom inside them joins nothing after it (`endsUnjoined` on its
 * item): where `lines` finds the next run going on the same word, a non-joiner stands between.
 *
 *     بهره‌مند   runs  [بهره] [مند]    the last heh 0.53 em, as that letter after reh at words' ends,
 *                                     not 0.37 em, as it is with a letter after it
 *   → "بهره" is unjoined; `lines` writes بهره + U+200C + مند
 *
 * Counts are kept per font, letter and whether the letter before joins it (final against medial,
 * isolated against initial), over the document's pages so far.
 */
import { NON_JOINING, ZWNJ } from '../../scripts/rtl.js';
import { ARABIC_LETTER, COMBINING_MARK, type Glyph } from './runs.js';

const TATWEEL = '\u0640';
/** The first presentation form: a presentation form names its own form, it has no other. */
const FIRST_PRESENTATION_FORM = 0xfb50;

/** An Arabic-script letter that joins the letter after it (and the one before): not alef, dal, reh, waw, hamza, teh marbuta and their kin, nor tatweel. */
const joinsBothWays = (ch: string): boolean =>
  ARABIC_LETTER.test(ch) && !NON_JOINING.test(ch) && ch !== TATWEEL && ch.charCodeAt(0) < FIRST_PRESENTATION_FORM;

/**
 * Advances are counted in bins of this × the glyph's size, and a bin's count takes in the bins
 * ADVANCE_SLACK_BINS either side: a font's advances of one glyph are equal but for float rounding.
 */
const ADVANCE_BIN_EM = 0.002;
const ADVANCE_SLACK_BINS = 1;
/** A run's last letter is unjoined when its advance is that of at least this many of the letter's run ends… */
const MIN_ENDS = 2;
/** …and inside runs the letter was seen at least this many times, as many with another advance… */
const MIN_INSIDE = 3;
/** …this many times or more as often as with the run's last letter's advance. */
const INSIDE_RATIO = 4;

type Counts = Map<number, number>;

/** A letter of a run, in reading order: whether a letter follows it in its run, and whether anything does. */
interface Placed {
  glyph: Glyph;
  key: string;
  /** The key of the same letter after the other kind of letter before it (joining it, or not). */
  otherKey: string;
  bin: number;
  /** Nothing follows in its run but what parts letters (a non-joiner drawn): counted among the ends. */
  last: boolean;
  /** It ends its run. */
  end: boolean;
}

/** The advances of a document's Arabic-script letters, at runs' ends and inside runs. */
export class ArabicForms {
  private readonly ends = new Map<string, Counts>();
  private readonly inside = new Map<string, Counts>();

  /** Counts the letters of a run (its glyphs in drawing order). */
  see(glyphs: readonly Glyph[]): void {
    for (const letter of lettersOf(glyphs)) bump(letter.last ? this.ends : this.inside, letter.key, letter.bin);
  }

  /** Whether the run's last letter (reading right to left) is drawn in a form that joins nothing after it (see above). */
  unjoined(glyphs: readonly Glyph[]): boolean {
    const letter = lettersOf(glyphs).at(-1);
    if (!letter?.end || near(this.ends.get(letter.key), letter.bin) < MIN_ENDS) return false;
    // A letter seen inside runs too seldom after a letter that joins it (or after one that does not)
    // is measured against its forms inside runs in the other case: forms that join the next letter.
    const inside = [this.inside.get(letter.key), this.inside.get(letter.otherKey)].find((counts) => total(counts) >= MIN_INSIDE);
    if (!inside) return false;
    let most = letter.bin;
    for (const bin of inside.keys()) if (near(inside, bin) > near(inside, most)) most = bin;
    return near(inside, most) >= MIN_INSIDE && near(inside, most) >= INSIDE_RATIO * near(inside, letter.bin);
  }
}

/**
 * The run's letters that join on both sides, read right to left (a horizontal run whose letters
 * are one glyph each, with no glyph sharing another's place), each with what it is counted under;
 * none for any other run.
 */
function lettersOf(glyphs: readonly Glyph[]): Placed[] {
  if (glyphs.length === 0 || !glyphs.some((g) => joinsBothWays(g.ch))) return [];
  if (glyphs.some((g) => !g.horizontal || (g.ch.length !== 1 && g.ch !== ''))) return [];
  const visual = glyphs.filter((g) => !COMBINING_MARK.test(g.ch)).sort((a, b) => a.left - b.left);
  const placed: Placed[] = [];
  for (let k = visual.length - 1; k >= 0; k--) {
    const glyph = visual[k]!;
    if (!joinsBothWays(glyph.ch)) continue;
    const next = visual[k - 1];
    const previous = visual[k + 1];
    if ((next && next.ox === glyph.ox) || (previous && previous.ox === glyph.ox)) continue;
    // After the letter: another letter (joined to it or not), or nothing in its run, or a mark
    // that parts them: a non-joiner drawn, punctuation.
    const last = next === undefined || next.ch === ZWNJ;
    if (!last && !ARABIC_LETTER.test(next.ch)) continue;
    const joinedBefore = previous !== undefined && joinsBothWays(previous.ch);
    const bin = Math.round((glyph.right - glyph.left) / (ADVANCE_BIN_EM * glyph.size));
    const key = (joined: boolean): string => `${glyph.font}\u0000${glyph.ch}\u0000${joined ? 1 : 0}`;
    placed.push({ glyph, key: key(joinedBefore), otherKey: key(!joinedBefore), bin, last, end: next === undefined });
  }
  return placed;
}

/** How many advances were counted in all. */
function total(counts: Counts | undefined): number {
  let sum = 0;
  for (const n of counts?.values() ?? []) sum += n;
  return sum;
}

/** How many advances were counted in the bins within ADVANCE_SLACK_BINS of `bin`. */
function near(counts: Counts | undefined, bin: number): number {
  let sum = 0;
  for (let b = bin - ADVANCE_SLACK_BINS; b <= bin + ADVANCE_SLACK_BINS; b++) sum += counts?.get(b) ?? 0;
  return sum;
}

function bump(map: Map<string, Counts>, key: string, bin: number): void {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = new Map()));
  counts.set(bin, (counts.get(bin) ?? 0) + 1);
}
