/**
 * Running heads that do not repeat: books and papers alternate them (the author's name over even
 * pages, the title over odd ones), and a short document has each text once, so `order`, which
 * finds furniture by repetition, misses them. What repeats is their place: a single small line,
 * the topmost (or bottommost) text of its page, standing apart from the text below it, at the same
 * height on several pages — and, at the top, above where the text block starts.
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
 * Marks as `header` (or `footer`) each candidate head whose height on the page agrees with a
 * candidate of another page (after the first: page 1 has the title block where heads go). Returns
 * how many it marked.
 */
export function markRunningHeads(pages: readonly PageRecord[], bodySize: number): number {
  const found = pages.flatMap((page, index) => (index === 0 ? [] : candidates(page, index, bodySize)));
  // Where the text block starts: the highest top of the pages' text that is no candidate (no
  // text stands above the text block but the heads). A head stands above it; a heading that opens
  // a page's text (a section starting at the top of the page) stands at it.
  const tops = pages.slice(1).flatMap((page, k) => {
    const content = (page.blocks ?? []).filter((b) => !FURNITURE_ROLES.has(b.role) && b.text.trim() !== '' && !found.some((c) => c.page === k + 1 && c.block === b));
    return content.length > 0 ? [Math.min(...content.map((b) => b.box.y))] : [];
  });
  const textTop = Math.min(...tops);
  const all = found.filter((c) => c.zone === 'bottom' || c.edge < textTop - SAME_PLACE);
  let marked = 0;
  for (const c of all) {
    const agrees = all.some((o) => o.page !== c.page && o.zone === c.zone && Math.abs(o.edge - c.edge) <= SAME_PLACE);
    if (!agrees) continue;
    c.block.role = c.zone === 'top' ? 'header' : 'footer';
    c.block.continues = false;
    marked++;
  }
  return marked;
}
