/**
 * Running heads that do not repeat: books and papers alternate them (the author's name over even
 * pages, the title over odd ones), and a short document has each text once, so `order`, which
 * finds furniture by repetition, misses them. What repeats is their place: a single small line,
 * the topmost (or bottommost) text of its page, standing apart from the text below it, at the same
 * height on several pages — and, at the top, above where the text block starts. The furniture
 * already found (a page number, a footer that repeats on the odd pages) marks that height too: a
 * footer printed on the even pages only is once in a three-page document, and agrees with the
 * page numbers and odd-page footers beside which it stands.
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';

/** Heads on pages that agree within this many points of height are in one place. */
const SAME_PLACE = 2;
/** A head stands apart from the page's text by at least this × its own size. */
const APART = 1;

interface Candidate {
  block: Block;
  page: number;
  zone: 'top' | 'bottom';
  edge: number;
}

/** One page's candidate heads: its topmost and bottommost text, when each is one small line set apart. */
function candidates(page: PageRecord, index: number, bodySize: number): Candidate[] {
  const content = (page.blocks ?? []).filter((b) => !FURNITURE_ROLES.has(b.role) && b.text.trim() !== '');
  if (content.length < 3) return [];
  const byTop = [...content].sort((a, b) => a.box.y - b.box.y);
  const byBottom = [...content].sort((a, b) => b.box.y + b.box.h - (a.box.y + a.box.h));
  const out: Candidate[] = [];
  const head = byTop[0]!;
  const below = byTop[1]!;
  if (small(head, bodySize) && below.box.y - (head.box.y + head.box.h) >= head.size * APART) out.push({ block: head, page: index, zone: 'top', edge: head.box.y });
  const foot = byBottom[0]!;
  const above = byBottom[1]!;
  if (foot !== head && small(foot, bodySize) && foot.box.y - (above.box.y + above.box.h) >= foot.size * APART) out.push({ block: foot, page: index, zone: 'bottom', edge: foot.box.y + foot.box.h });
  return out;
}

/** One line set smaller than the body, not a sentence. */
const small = (block: Block, bodySize: number): boolean => block.lines === 1 && block.size < bodySize * 0.95 && block.text.length <= 120 && !/[.!?]$/u.test(block.text.trim());

/**
 * The furniture blocks already found (by repetition in `order`, by sequence for page numbers) as
 * places a head can agree with: those in the top half of their page at their top, the others at
 * their bottom, as candidates are.
 */
function furniturePlaces(pages: readonly PageRecord[]): Omit<Candidate, 'block'>[] {
  return pages.flatMap((page, index) =>
    (page.blocks ?? [])
      .filter((b) => FURNITURE_ROLES.has(b.role))
      .map((b) => (b.box.y + b.box.h / 2 < page.height / 2 ? { page: index, zone: 'top' as const, edge: b.box.y } : { page: index, zone: 'bottom' as const, edge: b.box.y + b.box.h })),
  );
}

/**
 * Marks as `header` (or `footer`) each candidate head whose height on the page agrees with a
 * candidate of another page, or, below the text block, with furniture already found on another
 * page (candidates after the first page only: page 1 has the title block where heads go).
 * Returns how many it marked.
 */
export function markRunningHeads(pages: readonly PageRecord[], bodySize: number): number {
  const found = pages.flatMap((page, index) => (index === 0 ? [] : candidates(page, index, bodySize)));
  // The text block: from the highest top to the lowest bottom of the pages' text that is no
  // candidate (no text stands above or below the text block but the heads). A head stands above
  // it; a heading that opens a page's text (a section starting at the top of the page) stands at it.
  const text = pages.slice(1).map((page, k) => (page.blocks ?? []).filter((b) => !FURNITURE_ROLES.has(b.role) && b.text.trim() !== '' && !found.some((c) => c.page === k + 1 && c.block === b)));
  const textTop = Math.min(...text.flatMap((blocks) => blocks.map((b) => b.box.y)));
  const textBottom = Math.max(...text.flatMap((blocks) => blocks.map((b) => b.box.y + b.box.h)));
  const all = found.filter((c) => c.zone === 'bottom' || c.edge < textTop - SAME_PLACE);
  // Furniture is a place to agree with only for a foot below the text block: a small last line
  // inside it (a line of code at the foot of a slide) is no foot for sharing a height with one.
  const furniture = furniturePlaces(pages);
  let marked = 0;
  for (const c of all) {
    const samePlace = (o: Omit<Candidate, 'block'>) => o.page !== c.page && o.zone === c.zone && Math.abs(o.edge - c.edge) <= SAME_PLACE;
    const outside = c.zone === 'top' || c.edge > textBottom + SAME_PLACE;
    const agrees = all.some(samePlace) || (outside && furniture.some(samePlace));
    if (!agrees) continue;
    c.block.role = c.zone === 'top' ? 'header' : 'footer';
    c.block.continues = false;
    marked++;
  }
  return marked;
}
