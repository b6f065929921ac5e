/**
 * Drop caps: a paragraph's first letter set two to four times the body size, spanning the first
 * lines of the paragraph, which are indented to make room for it. Grouped by baseline, the initial
 * joins whichever line its baseline is nearest (often the second or third) and its tall box pulls
 * the lines beside it into one row; read apart, "L" + "ong" becomes two words in two places.
 *
 *   ┌──┐ ong before the harbour was…   ← the first line: the initial's word starts here
 *   │L │ onto the shingle every…
 *   └──┘ unpaved, lined with carts…
 *   from the sea before dawn…
 *
 * Pure functions over runs; thresholds are relative to the size of the lines beside the initial.
 */
import type { Item } from '../protocol/records.js';
import { ASCENT, DESCENT, boxOf, right } from './geometry.js';

/** A drop cap is at least this × the size of the lines beside it. */
export const INITIAL_SIZE_RATIO = 1.8;
/** …has at most this many characters (an initial, or an initial after an opening quote)… */
const INITIAL_MAX_CHARS = 2;
/** …and the lines beside it start at most this × their size right of its right edge… */
const INITIAL_GAP = 1.5;
/** …or overlap it by at most this × their size (a glyph's advance may exceed its ink). */
const INITIAL_OVERLAP = 0.3;
/** At least this many lines stand beside it. */
const INITIAL_MIN_LINES = 2;
/** The first line starts this × its size right of the other lines beside the initial: the initial is a word of its own ("A narrow"). */
const INITIAL_WORD_SPACE = 0.15;

/** One letter (with an optional opening quote or mark), the shape of an initial. */
const INITIAL_TEXT = /^[\p{Pi}\p{Ps}"'„«]?\p{L}\p{M}*$/u;

/** A row of runs by baseline, as groupRows builds them. */
interface RowLike {
  base: number;
  size: number;
  items: Item[];
}

/** True when a run has the shape of a drop cap: one letter, large. Its neighbours decide. */
export function mayBeInitial(item: Item): boolean {
  const text = item.text.trim();
  return text.length > 0 && text.length <= INITIAL_MAX_CHARS && INITIAL_TEXT.test(text);
}

/**
 * The run of the first line that an initial opens, or undefined when `initial` is no drop cap. The
 * lines beside it are the rows of body-size runs whose baseline lies within the initial's height
 * and whose first run starts just right of it; with at least INITIAL_MIN_LINES of them, the topmost
 * is the first line of the paragraph, and its first run holds the rest of the initial's word.
 */
export function initialHost(initial: Item, rows: readonly RowLike[]): { host: Item; space: boolean } | undefined {
  const top = initial.y - ASCENT * initial.size;
  const bottom = initial.y + DESCENT * initial.size;
  const edge = right(initial);
  const beside: { row: RowLike; first: Item }[] = [];
  for (const row of rows) {
    if (row.items.length === 0 || row.size * INITIAL_SIZE_RATIO > initial.size) continue;
    if (row.base < top || row.base > bottom + 0.5 * row.size) continue;
    const first = row.items.reduce((a, b) => (b.x < a.x ? b : a));
    if (first.x < edge - INITIAL_OVERLAP * row.size || first.x > edge + INITIAL_GAP * row.size) continue;
    beside.push({ row, first });
  }
  if (beside.length < INITIAL_MIN_LINES) return undefined;
  beside.sort((a, b) => a.row.base - b.row.base);
  const [head, ...rest] = beside;
  const restStart = Math.min(...rest.map((r) => r.first.x));
  const space = head!.first.x - restStart > INITIAL_WORD_SPACE * head!.row.size;
  return { host: head!.first, space };
}

/**
 * The initial and the first run of its line as one run, on that line: "L" + "ong" → "Long". The
 * run keeps the drop cap's box (`initial`), so that the lines indented beside it are not taken
 * for paragraphs that start with an indent.
 */
export function joinInitial(initial: Item, host: Item, space: boolean): Item {
  const box = boxOf([initial]);
  return { ...host, text: initial.text.trim() + (space ? ' ' : '') + host.text, x: initial.x, w: right(host) - initial.x, initial: box };
}
