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
 * The heights measured on Nastaliq lines: the white between the rows of one line is at most
 * about 0.45 em and one line's runs span up to about 1.15 em, while successive lines lie at least
 * 1.9 em apart at the tightest leading the style is set with (a line's white gap is then 1 em).
 */
export const SLOPE_DEFAULTS: SlopeOptions = { step: 0.6, span: 1.3 };

const ARABIC_LETTER = /(?=\p{L})\p{Script=Arabic}/u;

/** True when a run holds an Arabic-script letter. */
function isCursive(item: Item): boolean {
  return ARABIC_LETTER.test(item.text);
}

/** The band being grown: its rows merged, its baselines' extent, its horizontal extent. */
interface Band {
  row: BandRow;
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** The base and character count of the heaviest row merged: the band's baseline. */
  weight: number;
}

function bandOf(row: BandRow): Band {
  let top = Infinity;
  let bottom = -Infinity;
  let left = Infinity;
  let end = -Infinity;
  for (const item of row.items) {
    top = Math.min(top, item.y);
    bottom = Math.max(bottom, item.y);
    left = Math.min(left, item.x);
    end = Math.max(end, right(item));
  }
  return { row: { base: row.base, size: row.size, items: [...row.items] }, top, bottom, left, right: end, weight: characters(row) };
}

function characters(row: BandRow): number {
  let n = 0;
  for (const item of row.items) n += item.text.length;
  return n;
}

/**
 * Merges the rows (in baseline order, as rows.ts groups them) that are parts of one sloping
 * cursive line (see the module comment). Rows without Arabic letters, and rows beside each other
 * rather than above each other (two columns), are never merged. The merged row keeps the baseline
 * of its heaviest part.
 */
export function mergeSlopingRows<R extends BandRow>(rows: readonly R[], options: SlopeOptions = SLOPE_DEFAULTS): BandRow[] {
  const out: Band[] = [];
  let lastCursive = false;
  for (const row of rows) {
    const cursive = row.items.some(isCursive);
    const band = out[out.length - 1];
    if (band && cursive && lastCursive) {
      const size = Math.max(band.row.size, row.size);
      const next = bandOf(row);
      const close = next.top - band.bottom <= options.step * size;
      const short = Math.max(band.bottom, next.bottom) - Math.min(band.top, next.top) <= options.span * size;
      const above = next.left < band.right && next.right > band.left;
      if (close && short && above) {
        band.row.items.push(...next.row.items);
        band.row.size = size;
        band.top = Math.min(band.top, next.top);
        band.bottom = Math.max(band.bottom, next.bottom);
        band.left = Math.min(band.left, next.left);
        band.right = Math.max(band.right, next.right);
        if (next.weight > band.weight) {
          band.weight = next.weight;
          band.row.base = row.base;
        }
        continue;
      }
    }
    out.push(bandOf(row));
    lastCursive = cursive;
  }
  return out.map((band) => band.row);
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
  const edges = [...new Set(items.flatMap((item) => (item.space ? [item.space.x + item.space.w] : [])))]
    .filter((edge) => edge > left && edge < end)
    .sort((a, b) => b - a);
  if (edges.length === 0) return null;
  const wordOf = (item: Item): number => {
    const centre = item.x + item.w / 2;
    let k = 0;
    while (k < edges.length && centre < edges[k]!) k++;
    return k;
  };
  const keyed = items.map((item) => ({ item, word: wordOf(item) }));
  keyed.sort((a, b) => a.word - b.word || b.item.x - a.item.x);
  const starts = new Set<number>();
  keyed.forEach((entry, i) => {
    if (i > 0 && entry.word !== keyed[i - 1]!.word) starts.add(i);
  });
  return { items: keyed.map((entry) => entry.item), starts };
}

/** True when a line's runs stand on baselines further apart than one row allows: a sloping line. */
export function isSloping(items: readonly Item[], tolerance: number): boolean {
  let top = Infinity;
  let bottom = -Infinity;
  let size = 0;
  for (const item of items) {
    top = Math.min(top, item.y);
    bottom = Math.max(bottom, item.y);
    size = Math.max(size, item.size);
  }
  return bottom - top > tolerance * size;
}
