/**
 * Blocks that stand between two halves of a paragraph without separating them: running heads and
 * feet that `order` missed, and notes set small after a page's last body paragraph.
 */
import { FURNITURE_ROLES, type Block } from '../protocol/records.js';

/** Short first or last blocks of a page whose text comes back on other pages: running heads and feet. */
export function repeatedBlocks(pages: readonly { page: number; blocks: Block[] }[]): Set<Block> {
  // Exact text: with numbers folded, section titles ("Article 7", "Article 9") would match.
  const key = (b: Block): string => b.text.toLowerCase().replace(/\s+/gu, ' ').trim();
  const seen = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const block of page.blocks) {
      if (block.text.length > 80 || block.lines > 2) continue;
      const pagesOf = seen.get(key(block)) ?? new Set<number>();
      pagesOf.add(page.page);
      seen.set(key(block), pagesOf);
    }
  }
  const out = new Set<Block>();
  for (const page of pages) {
    // Only at the top or the foot of the page, where running heads and feet stand.
    const content = page.blocks.filter((b) => !FURNITURE_ROLES.has(b.role) && b.role !== 'footnote');
    for (const block of [content[0], content[content.length - 1]]) {
      if (!block || block.role === 'heading' || block.text.length > 80 || block.lines > 2) continue;
      if ((seen.get(key(block))?.size ?? 0) >= 2) out.add(block);
    }
  }
  return out;
}

/** Blocks after a page's last body paragraph set smaller than it: notes, whatever role they got. */
export function trailingSmallBlocks(blocks: readonly Block[]): Set<Block> {
  const out = new Set<Block>();
  const body = blocks.filter((b) => b.role === 'body');
  if (body.length === 0) return out;
  // The body size: the size that carries most of the page's body text.
  const weight = new Map<number, number>();
  for (const b of body) weight.set(b.size, (weight.get(b.size) ?? 0) + b.text.length);
  const size = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  let last = -1;
  blocks.forEach((b, i) => {
    if (b.role === 'body' && b.size >= 0.95 * size) last = i;
  });
  for (const block of blocks.slice(last + 1)) if (block.size < 0.95 * size) out.add(block);
  return out;
}
