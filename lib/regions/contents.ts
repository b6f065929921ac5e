/**
 * Contents lists: the entries of a table of contents, one block each (lib/paragraphs/contents.ts
 * made them so), get the role `toc`. Their numbered titles look like section headings; what sets
 * them apart is the page number at the end, on a right edge the entries share, after the room
 * where the dot leader stood.
 *
 *     1 Introduction ................ 2   ┐
 *     1.1 Why the ponds matter ...... 2   │ at least MIN_ENTRIES blocks in a row,
 *     1.2 Scope of this report and        │ each ending in a page number on one right edge
 *         what it leaves out ........ 2   ┘
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';

/** A contents list has at least this many entries in a row. */
const MIN_ENTRIES = 3;
/** The entries' numbers end within this × font size of one right edge. */
const FLUSH = 0.6;
/** A character set solid takes at most about this × font size… */
const WIDEST_SOLID = 0.6;
/** …and the leader's room before the number is at least this × font size. */
const LEADER_GAP = 1;

/** A page number at the end of a block, arabic or roman, after a space. */
const PAGE_NUMBER = /\s(\d{1,4}|[ivxlc]{1,6})$/iu;

const right = (b: Block): number => b.box.x + b.box.w;

/** The block ends in a page number, and (on one line) is wider than its text set solid. */
function entryLike(block: Block): boolean {
  const text = block.text.trimEnd();
  if (FURNITURE_ROLES.has(block.role) || !PAGE_NUMBER.test(text) || !/\p{L}/u.test(text)) return false;
  return block.lines > 1 || block.box.w > WIDEST_SOLID * block.size * text.length + LEADER_GAP * block.size;
}

/** Gives the entries of every contents list their role `toc` (and takes away a heading's level). */
export function markContents(pages: readonly PageRecord[]): void {
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    let start = 0;
    while (start < blocks.length) {
      if (!entryLike(blocks[start]!)) {
        start++;
        continue;
      }
      // The run of entries whose numbers end on the first one's right edge.
      const edge = right(blocks[start]!);
      let end = start + 1;
      while (end < blocks.length && entryLike(blocks[end]!) && Math.abs(right(blocks[end]!) - edge) <= FLUSH * blocks[end]!.size) end++;
      const run = blocks.slice(start, end);
      if (run.length >= MIN_ENTRIES && run.filter((b) => b.lines === 1).length >= MIN_ENTRIES) {
        for (const block of run) {
          block.role = 'toc';
          delete block.level;
        }
      }
      start = end;
    }
  }
}
