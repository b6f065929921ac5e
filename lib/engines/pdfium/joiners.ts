/**
 * Zero-width joiners and non-joiners drawn apart from their word. LibreOffice draws some as text
 * objects of their own, before the rest of their line: PDFium reads such a joiner as a run alone,
 * and `lines`, which orders a line's runs by their places, sets it beside the word it stands in
 * ("‌نوهها" for "نوه‌ها": the joiner before the word, its halves joined). A lone joiner of no width
 * waits here for the run drawn across its place on its baseline, and goes between that run's
 * glyphs where it stands; its own item is then left out.
 */
import type { Item } from '../../protocol/records.js';
import { BASELINE_EM, type Glyph } from './runs.js';

/** U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER. */
const JOINER = /^[\u200c\u200d]$/u;

/** A glyph narrower than this × its size has no width (the joiners are drawn with none). */
const NO_WIDTH_EM = 0.01;

/**
 * Where a joiner goes among a run's glyphs (in drawing order): before the first glyph whose centre
 * is past the joiner's place from its neighbour's, both on its baseline; -1 when no two are.
 */
export function joinerPlace(glyphs: readonly Glyph[], joiner: Glyph): number {
  for (let k = 1; k < glyphs.length; k++) {
    const a = glyphs[k - 1]!;
    const b = glyphs[k]!;
    if (!a.horizontal || !b.horizontal) continue;
    if (Math.abs(a.oy - joiner.oy) > BASELINE_EM * a.size || Math.abs(b.oy - joiner.oy) > BASELINE_EM * b.size) continue;
    const ca = (a.left + a.right) / 2;
    const cb = (b.left + b.right) / 2;
    if (Math.min(ca, cb) < joiner.ox && joiner.ox < Math.max(ca, cb)) return k;
  }
  return -1;
}

/** The lone joiners of a page that wait for their word, and those that found it. */
export class FloatingJoiners {
  private readonly waiting: { glyph: Glyph; item: Item }[] = [];
  /** The items of the joiners that went into their word's run: to be left out. */
  readonly placed = new Set<Item>();

  /** Notes the item a run became: a lone joiner of no width waits for its word. */
  note(glyphs: readonly Glyph[], item: Item): void {
    const only = glyphs[0];
    if (glyphs.length === 1 && only?.horizontal && JOINER.test(only.ch) && only.right - only.left <= NO_WIDTH_EM * only.size) this.waiting.push({ glyph: only, item });
  }

  /** Puts into a run about to become an item the waiting joiners it was drawn across. */
  into(glyphs: Glyph[]): void {
    if (this.waiting.length === 0 || glyphs.length < 2) return;
    for (let w = 0; w < this.waiting.length; w++) {
      const { glyph, item } = this.waiting[w]!;
      // A joiner with a space after it stands at a word's end, not inside one.
      if (item.after !== undefined) continue;
      const at = joinerPlace(glyphs, glyph);
      if (at < 0) continue;
      glyphs.splice(at, 0, glyph);
      this.placed.add(item);
      this.waiting.splice(w--, 1);
    }
  }
}
