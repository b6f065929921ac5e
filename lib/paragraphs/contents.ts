/**
 * Contents entries inside one layout block: in a contents list (its dot leaders dropped by
 * lib/layout/leaders.ts) every line that ends in a page number on the block's right edge ends an
 * entry, and a line without one is a title wrapped onto the next line.
 *
 *     2.1 Sampling the ponds                 7   ← ends an entry
 *     2.2 Counting animals and plants along       ← wrapped: continues
 *         the shore                          7   ← ends the entry
 */
import type { Line } from '../protocol/records.js';

/** A block is a contents list when at least this share of its lines end an entry… */
const ENTRY_SHARE = 0.6;
/** …and at least this many do. */
const MIN_ENTRIES = 3;
/** An entry's number ends within this × font size of the block's right edge. */
const FLUSH = 0.6;
/** Between an entry's title and its number stands at least this × font size (the leader dropped). */
const LEADER_GAP = 1;

/** A page number at the end of a line, arabic or roman, after a space. */
const PAGE_NUMBER = /\s(\d{1,4}|[ivxlc]{1,6})$/iu;

/**
 * For each line, whether it ends a contents entry; null when the block is no contents list.
 * An entry's number sits flush with the right edge the block's numbers share, a clear gap after
 * its title (where the leader stood).
 */
export function contentsEntryEnds(lines: readonly Line[]): boolean[] | null {
  if (lines.length < MIN_ENTRIES) return null;
  const rightEdge = Math.max(...lines.map((l) => l.box.x + l.box.w));
  const ends = lines.map((line) => {
    const text = line.text.trimEnd();
    if (!PAGE_NUMBER.test(text) || !/\p{L}/u.test(text)) return false;
    if (rightEdge - (line.box.x + line.box.w) > FLUSH * line.size) return false;
    return hasLeaderGap(line);
  });
  const n = ends.filter(Boolean).length;
  return n >= MIN_ENTRIES && n >= ENTRY_SHARE * lines.length ? ends : null;
}

/** A character set solid takes at most about this × font size. */
const WIDEST_SOLID = 0.6;

/** The line's box is wider than its text would be set solid: a leader's room before the number. */
function hasLeaderGap(line: Line): boolean {
  return line.box.w > WIDEST_SOLID * line.size * line.text.trimEnd().length + LEADER_GAP * line.size;
}
