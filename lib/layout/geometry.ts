/**
 * Geometry shared by the layout stages: the box arithmetic over glyph runs, medians, and where
 * words run on without spaces. Pure functions over records; thresholds are passed in, relative to
 * the font size, by the stage that owns them.
 */
import type { Box, Direction, Item } from '../protocol/records.js';

/** Vertical extent of a run from its baseline: ink lies roughly in [y - ASCENT·size, y + DESCENT·size]. */
export const ASCENT = 0.8;
/** The depth of ink below the baseline, × size (see ASCENT). */
export const DESCENT = 0.25;

/** The top of a run's ink. */
export const top = (item: Item): number => item.y - ASCENT * item.size;
/** The bottom of a run's ink. */
export const bottom = (item: Item): number => item.y + DESCENT * item.size;
/** The right edge of a run. */
export const right = (item: Item): number => item.x + item.w;

/** An equation number: a short label in parentheses, "(4)", "(2.3.1)", "(B6)", set at the margin
 * beside display math. */
export const EQUATION_NUMBER = /^\(\s*[\p{L}\p{N}][\p{L}\p{N}.\-–′']{0,9}\s*\)$/u;

/** The smallest box around the runs. */
export function boxOf(items: readonly Item[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const item of items) {
    x0 = Math.min(x0, item.x);
    x1 = Math.max(x1, right(item));
    y0 = Math.min(y0, top(item));
    y1 = Math.max(y1, bottom(item));
  }
  return { x: hundredths(x0), y: hundredths(y0), w: hundredths(x1 - x0), h: hundredths(y1 - y0) };
}

/** A coordinate to hundredths of a point, as records write them. */
export const hundredths = (v: number): number => Math.round(v * 100) / 100;

/** The smallest box around boxes. */
export function unionBox(boxes: readonly Box[]): Box {
  // Math.min and Math.max a box at a time: the same result as over the spread lists, without them.
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w);
    y1 = Math.max(y1, b.y + b.h);
  }
  return { x: hundredths(x0), y: hundredths(y0), w: hundredths(x1 - x0), h: hundredths(y1 - y0) };
}

/** True when two boxes share some height: they sit on one line or side by side. */
export const overlapsVertically = (a: Box, b: Box): boolean => a.y < b.y + b.h && b.y < a.y + a.h;

/** The value that occurs most often ('' for none). */
export function mostCommon(values: readonly string[]): string {
  // Most lines are in one font: a list of one value needs no counting.
  const first = values[0];
  if (typeof first === 'string' && values.every((v) => v === first)) return first;
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** The median (0 for none). */
export function median(values: readonly number[]): number {
  // Most calls are over the runs of one fragment or line, often one or two.
  if (values.length <= 2) return values.length === 0 ? 0 : values.length === 1 ? values[0]! : (values[0]! + values[1]!) / 2;
  const n = values.length;
  const mid = n >> 1;
  // Sorted in a buffer kept between calls (a new typed array per call was most of the function's
  // time): by insertion for the short lists most calls bring, by the typed array's own sort (no
  // comparison function called back) for longer ones. Both order numbers as the comparison below
  // does except zeros (-0 before 0) and NaN, which take the slow way.
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  let plain = true;
  for (let i = 0; i < n && plain; i++) {
    const v = values[i]!;
    plain = typeof v === 'number' && v === v && v !== 0;
    scratch[i] = v;
  }
  if (plain) {
    if (n <= INSERTION_SORT_MAX) {
      for (let i = 1; i < n; i++) {
        const v = scratch[i]!;
        let j = i - 1;
        while (j >= 0 && scratch[j]! > v) {
          scratch[j + 1] = scratch[j]!;
          j--;
        }
        scratch[j + 1] = v;
      }
    } else scratch.subarray(0, n).sort();
    return n % 2 ? scratch[mid]! : (scratch[mid - 1]! + scratch[mid]!) / 2;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
/** The buffer `median` sorts in, grown as needed. */
let scratch = new Float64Array(64);
/** Lists up to this long are sorted by insertion. */
const INSERTION_SORT_MAX = 24;

/** Text that is written without spaces between words. */
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** True when the boundary between two strings lies inside CJK text (no word spaces there). */
export function isCjkBoundary(left: string, right: string): boolean {
  const a = left.at(-1) ?? '';
  const b = right[0] ?? '';
  return NO_SPACE_SCRIPT.test(a) || NO_SPACE_SCRIPT.test(b);
}

/** True when the text has a character of a script written without spaces between words (CJK, Thai). */
export function hasNoSpaceScript(text: string): boolean {
  return NO_SPACE_SCRIPT.test(text) || THAI.test(text);
}

/** A Thai letter or mark. */
const THAI = /[\u0e01-\u0e5b]/u;

/**
 * True when the boundary between two strings lies inside Thai text. Thai separates phrases, not
 * words, with a space as wide as a space glyph; a run split inside a word (Chromium splits at
 * marks it positions) leaves narrower gaps that are no space.
 */
export function isThaiBoundary(left: string, right: string): boolean {
  return THAI.test(left.at(-1) ?? '') && THAI.test(right[0] ?? '');
}

/** A drawn space glyph whose next run starts within this share of its width from it took no room. */
const ZERO_ADVANCE_SHARE = 0.2;

/**
 * What the space glyph drawn after a run (its `space`) says of the gap of `gap` user units to the
 * next run: true when the space took its room there (a word space, however narrow the font's space
 * is: Lateef's is 0.15 em, and its glyphs overhang it), false when the next run starts where the
 * space starts (a glyph drawn with no advance: a shaper's stand-in for an invisible character),
 * null when no space glyph was drawn.
 */
export function drawnSpace(before: Pick<Item, 'space'>, gap: number): boolean | null {
  const space = before.space;
  if (!space || space.w <= 0) return null;
  return gap >= ZERO_ADVANCE_SHARE * space.w;
}

/** The direction of most of a row's text, by its runs' directions. */
export function lineDirection(items: readonly Item[]): Direction {
  let rtl = 0;
  let ltr = 0;
  for (const item of items) {
    if (item.dir === 'rtl') rtl += item.text.length;
    else ltr += item.text.length;
  }
  return rtl > ltr ? 'rtl' : 'ltr';
}
