/**
 * Page numbers that `order` did not take for furniture: a lone number at the top or foot of the
 * page whose value runs with the page count. Books and journals move the folio between the outer
 * corners of odd and even pages, or between head and foot on a chapter's first page, so position
 * alone cannot find them; the sequence can: on most pages that carry one, value − page index is
 * the same number.
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';
import { PAGE_NUMBER } from '../layout/furniture.js';

/** A folio: a number alone, arabic or roman, maybe in dashes or brackets ("– 12 –", "[iv]", "Page 7"). */
const FOLIO = /^(?:page\s+|p\.\s*)?[-–—([]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?$/iu;

/** The share of the pages that carry a candidate which must agree on the offset. */
const AGREEING_SHARE = 0.5;

/** The value of a roman numeral, or NaN. */
export function romanValue(text: string): number {
  const digits: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };
  let total = 0;
  const lower = text.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const value = digits[lower[i]!];
    if (value === undefined) return Number.NaN;
    const next = digits[lower[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** The number a folio says, or null when the text is not one. */
export function folioValue(text: string): { value: number; roman: boolean } | null {
  const match = FOLIO.exec(text.trim());
  if (!match) return null;
  const digits = match[1]!;
  if (/^\d+$/u.test(digits)) return { value: Number(digits), roman: false };
  const value = romanValue(digits);
  return Number.isNaN(value) ? null : { value, roman: true };
}

interface Candidate {
  block: Block;
  page: number;
  offset: string;
}

/**
 * Marks as `page-number` every one-line folio that is the topmost or bottommost text of its page
 * and whose value − page index agrees with the one most such folios share (on at least two pages
 * and half of the pages with a candidate). Returns how many blocks it marked.
 */
export function markPageNumbers(pages: readonly PageRecord[]): number {
  const candidates: Candidate[] = [];
  pages.forEach((page, index) => {
    const content = (page.blocks ?? []).filter((b) => !FURNITURE_ROLES.has(b.role) && b.text.trim() !== '');
    if (content.length < 2) return;
    const highest = Math.min(...content.map((b) => b.box.y));
    const lowest = Math.max(...content.map((b) => b.box.y + b.box.h));
    for (const block of content) {
      if (block.lines !== 1) continue;
      const folio = folioValue(block.text);
      if (!folio) continue;
      const atEdge = block.box.y <= highest + block.size * 0.5 || block.box.y + block.box.h >= lowest - block.size * 0.5;
      if (atEdge) candidates.push({ block, page: index, offset: `${folio.roman ? 'r' : 'a'}${folio.value - index}` });
    }
  });
  // A running head or foot that reads as a folio once it is in logical order (`order` saw the
  // visual order of right-to-left text: "صفحة 1/3" drawn backwards) is one.
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if ((block.role === 'header' || block.role === 'footer') && PAGE_NUMBER.test(block.text.trim())) block.role = 'page-number';
    }
  }
  const support = new Map<string, number>();
  for (const c of candidates) support.set(c.offset, (support.get(c.offset) ?? 0) + 1);
  const pagesWithCandidate = new Set(candidates.map((c) => c.page)).size;
  let marked = 0;
  for (const c of candidates) {
    const agreeing = support.get(c.offset) ?? 0;
    if (agreeing >= 2 && agreeing >= pagesWithCandidate * AGREEING_SHARE) {
      c.block.role = 'page-number';
      c.block.continues = false;
      marked++;
    }
  }
  return marked;
}
