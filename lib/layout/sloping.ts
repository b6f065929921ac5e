/**
 * Sloping baselines: in Nastaliq (the cursive style of Urdu, and of Persian and Punjabi poetry and
 * calligraphy) each word descends diagonally from right to left and only its last letter rests on
 * the line's baseline, so the runs of one printed line stand at many heights, up to about one em
 * above (and a little below) the baseline. Grouped by baseline alone they fall into several rows
 * per line. This module puts them back together: rows of Arabic-script letters that follow each
 * other closely, overlap horizontally and together stay within the height one sloping line can
 * take become one row.
 *
 *      ـــــہ           ← a row of raised glyphs (the first letters of words)
 *         ـــــکـــ     ← a row a little lower
 *   ـــــــــــــــــــــ  ← the baseline row (the last letters)       } one band: one line
 *
 *   ـــــہ  ـــــکـ      ← the next line: more than `step` em of white above it
 *
 * Pure functions over rows; thresholds relative to the font size.
 */
import type { Item } from '../protocol/records.js';
import { right } from './geometry.js';
import { endsWordAlways } from '../scripts/rtl.js';

/** A row as rows.ts builds it: runs sharing a baseline. */
export interface BandRow {
  base: number;
  size: number;
  items: Item[];
}

/** The thresholds of sloping-line bands, each × the font size. */
export interface SlopeOptions {
  /** Rows whose baselines are at most this far apart (from the band's lowest to the next row's) may be one line… */
  step: number;
  /** …while the band's baselines, from highest to lowest, span at most this. */
  span: number;
}

/**
 * The heights measured on Nastaliq lines: the baselines of a row of one line and of the next row
 * it overlaps stand at most about 0.66 em apart (Chromium's word-initial ہ raised over the ج of
 * ہجوم), and one line's runs span up to about 1.4 em (Writer raises a word's first letters
 * higher than Chromium), while successive lines lie at least 1.9 em apart at the tightest leading
 * the style is set with (the white between two lines is then about 1 em).
 */
export const SLOPE_DEFAULTS: SlopeOptions = { step: 0.7, span: 1.6 };

/** A letter of the Arabic script (not a mark, digit or sign). */
export const ARABIC_LETTER = /(?=\p{L})\p{Script=Arabic}/u;
const STARTS_LETTER = /^\s*\p{L}/u;
const DIGITS = /^\p{Nd}+$/u;

/** True when a run holds an Arabic-script letter. */
function isCursive(item: Item): boolean {
  return ARABIC_LETTER.test(item.text);
}

/** A row's extent: its baselines from highest to lowest, its left and right edges. */
interface Extent {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function extentOf(row: BandRow): Extent {
  const extent = { top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
  for (const item of row.items) {
    extent.top = Math.min(extent.top, item.y);
    extent.bottom = Math.max(extent.bottom, item.y);
    extent.left = Math.min(extent.left, item.x);
    extent.right = Math.max(extent.right, right(item));
  }
  return extent;
}

function characters(row: BandRow): number {
  let n = 0;
  for (const item of row.items) n += item.text.length;
  return n;
}

/**
 * Merges the rows (in baseline order, as rows.ts groups them) that are parts of one sloping
 * cursive line (see the module comment): two rows of Arabic letters are linked when the lower one
 * starts at most `step` em below the upper one's lowest baseline and they overlap horizontally, and
 * linked rows are one line while together they span at most `span` em. A row of raised first
 * letters at one end of the line and one at the other need not overlap each other: both overlap the
 * baseline row. Rows without Arabic letters, and rows beside each other rather than above each other
 * (two columns), are never merged. The merged row keeps the baseline of its heaviest part.
 */
export function mergeSlopingRows<R extends BandRow>(rows: readonly R[], options: SlopeOptions = SLOPE_DEFAULTS): BandRow[] {
  const cursive = rows.map((row) => row.items.some(isCursive));
  // Without Arabic letters no row merges: most pages.
  if (!cursive.includes(true)) return [...rows];
  const extents = rows.map(extentOf);
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  // Each set's baselines, highest and lowest, kept at its root.
  const top = extents.map((e) => e.top);
  const bottom = extents.map((e) => e.bottom);
  for (let i = 0; i < rows.length; i++) {
    if (!cursive[i]) continue;
    const a = extents[i]!;
    for (let j = i + 1; j < rows.length; j++) {
      const b = extents[j]!;
      const size = Math.max(rows[i]!.size, rows[j]!.size);
      if (b.top - a.bottom > options.step * size) break;
      if (!cursive[j] || b.left >= a.right || b.right <= a.left) continue;
      const ri = find(i);
      const rj = find(j);
      if (ri === rj) continue;
      const high = Math.min(top[ri]!, top[rj]!);
      const low = Math.max(bottom[ri]!, bottom[rj]!);
      if (low - high > options.span * size) continue;
      parent[rj] = ri;
      top[ri] = high;
      bottom[ri] = low;
    }
  }
  const merged = new Map<number, { row: BandRow; weight: number }>();
  const out: BandRow[] = [];
  rows.forEach((row, i) => {
    const root = find(i);
    const weight = characters(row);
    const band = merged.get(root);
    if (!band) {
      const made = { row: { base: row.base, size: row.size, items: [...row.items] }, weight };
      merged.set(root, made);
      out.push(made.row);
      return;
    }
    band.row.items.push(...row.items);
    band.row.size = Math.max(band.row.size, row.size);
    if (weight > band.weight) {
      band.weight = weight;
      band.row.base = row.base;
    }
  });
  return out;
}

/**
 * The words of a sloping right-to-left line, from the space glyphs the page draws between them. In
 * Nastaliq the gaps between runs say little: the glyphs of one word overlap and stand apart by their
 * offsets, and the tall first letter of a word reaches back over the tail of the word before. The
 * runs record the space glyphs drawn after them (`space`); each space ends the word on its right,
 * and a run whose centre lies left of a space's right end belongs to a word further on. The runs of
 * a word read from right to left by their left edges (a word's last letter reaches furthest left).
 *
 *    [  word 2   ][·][   word 1   ]      · a space glyph: runs centred left of its right end
 *          ╲___________↗                   (the overhanging first letter of word 2) are in word 2
 *
 * A run that is a letter that only ever ends a word (lib/scripts/rtl.ts) ends its word too, space
 * glyph or none.
 *
 * Returns the runs in reading order and the indices where a word starts (after the first), or
 * null when no space glyph lies inside the line.
 */
export function slopingWords(items: readonly Item[]): { items: Item[]; starts: Set<number> } | null {
  let left = Infinity;
  let end = -Infinity;
  for (const item of items) {
    left = Math.min(left, item.x);
    end = Math.max(end, right(item));
  }
  const edges = [...new Set(items.flatMap((item) => (item.space && item.space.w > 0 ? [item.space.x + item.space.w] : [])))]
    .filter((edge) => edge > left && edge < end)
    .sort((a, b) => b - a);
  if (edges.length === 0) return null;
  const wordOf = (item: Item): number => {
    const centre = item.x + item.w / 2;
    let k = 0;
    while (k < edges.length && centre < edges[k]!) k++;
    return k;
  };
  const narrowestSpace = Math.min(...items.flatMap((item) => (item.space && item.space.w > 0 ? [item.space.w] : [])));
  const keyed = items.map((item) => ({ item, word: wordOf(item) }));
  keyed.sort((a, b) => a.word - b.word || b.item.x - a.item.x);
  const starts = new Set<number>();
  keyed.forEach((entry, i) => {
    if (i === 0) return;
    const before = keyed[i - 1]!;
    // Some generators draw no space glyph after a word-final letter whose tail reaches under the
    // next word (Urdu's yeh barree, the Persian ezafe): the letter itself ends the word.
    if (entry.word !== before.word || (endsWordAlways(before.item.text) && STARTS_LETTER.test(entry.item.text))) starts.add(i);
    // Digits do not slope or join: beside a letter, a gap as wide as the line's narrowest space
    // glyph is a word space, drawn or not (Writer draws none after "۳" in "۳ دن").
    else if ((DIGITS.test(before.item.text) || DIGITS.test(entry.item.text)) && before.item.x - right(entry.item) >= narrowestSpace) starts.add(i);
  });
  return { items: keyed.map((entry) => entry.item), starts };
}

/**
 * True when a line's runs of Arabic-script letters stand on baselines further apart than one row
 * allows: a sloping line. Raised digits and signs (note marks) do not make a line sloping.
 */
export function isSloping(items: readonly Item[], tolerance: number): boolean {
  let top = Infinity;
  let bottom = -Infinity;
  let size = 0;
  for (const item of items) {
    if (!isCursive(item)) continue;
    top = Math.min(top, item.y);
    bottom = Math.max(bottom, item.y);
    size = Math.max(size, item.size);
  }
  return bottom - top > tolerance * size;
}
