/**
 * Page furniture: running headers, footers and page numbers. Short blocks in the top or bottom
 * margin whose text (digits masked) repeats on other pages, or that are page-number-like, get a
 * `role`.
 */
import type { PageRecord, Role } from '../protocol/records.js';
import type { LayoutBlock } from './blocks.js';
import type { Fragment } from './fragments.js';
import { collapse } from '../formats/words.js';

/** The margin band that furniture (and a line repeated across a page break) is looked for in. */
export interface MarginOptions {
  /** Height of the top and bottom margins searched for furniture, as a fraction of the page height. */
  marginBand: number;
}

/**
 * A page number in the margin: "7", "- iv -", "Page 2 of 3", "Seite 2/3", "page 2 sur 3",
 * "pagina 2 di 3", "strona 2 z 3", "صفحة 1/3".
 */
export const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página|pagina|страница|стр\.|strona|str\.|sayfa|σελίδα|sida|side|sivu|oldal|صفحة|עמוד|पृष्ठ|页|頁|ページ)\s*)?[-–—(\[]?\s*(?:\p{Nd}{1,4}|[ivxlcdm]{1,6})\s*[-–—)\]]?(?:\s*(?:\/|of|von|de|sur|di|van|af|av|z|из)\s*\p{Nd}{1,4})?$/iu;

/** Text with digits masked, so "Page 3" and "Page 4" compare equal, and whitespace collapsed. */
const furnitureKey = (text: string): string => collapse(text.toLowerCase().replace(/\p{Nd}+/gu, '#'));

const blockText = (block: LayoutBlock): string =>
  block.fragments.map((f) => f.items.map((i) => i.text).join(' ')).join(' ').trim();

/** One page's blocks in reading order, and the roles found for them. */
export interface PagePlan {
  page: PageRecord;
  blocks: LayoutBlock[];
  roles: Map<LayoutBlock, Role>;
}

/**
 * Furniture found row by row before blocks are chained: the topmost or bottommost row fragment of
 * a page, inside the margin band, that is page-number-like or whose text (digits masked) recurs
 * there on other pages. A running header set close above the text would otherwise chain into the
 * first paragraph as its first line.
 */
export function furnitureFragments(pages: readonly { page: PageRecord; fragments: readonly Fragment[] }[], options: MarginOptions): Map<Fragment, Role> {
  const candidates: { page: number; fragment: Fragment; zone: 'top' | 'bottom'; key: string; text: string }[] = [];
  for (const { page, fragments } of pages) {
    const band = options.marginBand * page.height;
    const highest = Math.min(...fragments.map((f) => f.box.y + f.box.h));
    const lowest = Math.max(...fragments.map((f) => f.box.y));
    for (const fragment of fragments) {
      const { y, h } = fragment.box;
      const zone = y + h <= band && y <= highest ? 'top' : y >= page.height - band && y + h >= lowest ? 'bottom' : null;
      if (!zone) continue;
      const text = fragment.items.map((i) => i.text).join(' ').trim();
      candidates.push({ page: page.page, fragment, zone, key: `${zone}:${furnitureKey(text)}`, text });
    }
  }
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) pagesWithKey.set(c.key, (pagesWithKey.get(c.key) ?? new Set()).add(c.page));
  const minRepeats = Math.max(2, Math.ceil(pages.length / 3));
  const roles = new Map<Fragment, Role>();
  for (const c of candidates) {
    if (PAGE_NUMBER.test(c.text)) roles.set(c.fragment, 'page-number');
    else if ((pagesWithKey.get(c.key)?.size ?? 0) >= minRepeats) roles.set(c.fragment, c.zone === 'top' ? 'header' : 'footer');
  }
  return roles;
}

/** Tags furniture across the document's pages. */
export function tagFurniture(plans: readonly PagePlan[], options: MarginOptions): void {
  const candidates: { plan: PagePlan; block: LayoutBlock; zone: 'top' | 'bottom'; key: string; text: string }[] = [];
  for (const plan of plans) {
    const band = options.marginBand * plan.page.height;
    for (const block of plan.blocks) {
      if (block.fragments.length > 2 || plan.roles.has(block)) continue;
      const zone = block.box.y + block.box.h <= band ? 'top' : block.box.y >= plan.page.height - band ? 'bottom' : null;
      if (!zone) continue;
      const text = blockText(block);
      candidates.push({ plan, block, zone, key: `${zone}:${furnitureKey(text)}`, text });
    }
  }
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) pagesWithKey.set(c.key, (pagesWithKey.get(c.key) ?? new Set()).add(c.plan.page.page));
  const minRepeats = Math.max(2, Math.ceil(plans.length / 3));
  for (const c of candidates) {
    if (PAGE_NUMBER.test(c.text)) c.plan.roles.set(c.block, 'page-number');
    else if ((pagesWithKey.get(c.key)?.size ?? 0) >= minRepeats) c.plan.roles.set(c.block, c.zone === 'top' ? 'header' : 'footer');
  }
}
