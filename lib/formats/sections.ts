/**
 * Where sections start. From the PDF outline when it has entries pointing at pages of the
 * document: depth is nesting, the bookmark's title is the heading, and the section starts at the
 * block on the target page whose text matches the title (or at the top of that page). Without an
 * outline, from the headings found in the layout (lib/formats/headings.ts); their depth is the
 * numbering depth, else the rank of their size.
 */
import { blockId } from './ids.js';
import { diagnostic, type Block, type DiagnosticRecord, type DocRecord, type OutlineEntry, type PageRecord } from '../protocol/records.js';
import { APPENDIX, continuesHeading, headingFonts, headingNumber, looksLikeHeading, NUMBERING, runInHeading, type HeadingOptions } from '../regions/headings.js';
import type { StructureRole } from '../regions/front-matter.js';
import { collapse, comparable } from './words.js';

/** The stage the structure's diagnostics are reported under. */
const STAGE = 'serialize';

/** Where a section starts, and what its heading is. */
export interface Start {
  /** Position of the heading block in document order (page, index), or the first block of the page. */
  page: number;
  index: number;
  level: number;
  title: string;
  number: string | null;
  from: 'outline' | 'layout';
  /** True when the block at `index` is the heading itself. */
  onBlock: boolean;
  /** How many blocks the heading covers (a heading broken over two lines can be two blocks). */
  span: number;
  /** A heading run into its paragraph's first line: the block stays a paragraph, without the heading's text. */
  runIn: boolean;
}

/** A heading's text for matching: without its numbering, compared as `comparable`. */
const headingKey = (text: string): string => comparable(collapse(text).replace(APPENDIX, '').replace(NUMBERING, ''));

function flattenOutline(entries: readonly OutlineEntry[], level: number, out: { entry: OutlineEntry; level: number }[], seen: Set<OutlineEntry>): void {
  for (const entry of entries) {
    if (seen.has(entry) || level > 32) continue;
    seen.add(entry);
    out.push({ entry, level });
    flattenOutline(entry.children ?? [], level + 1, out, seen);
  }
}

/** The section starts the outline gives, each matched to its heading block where one is found. */
export function outlineStarts(doc: DocRecord, pages: readonly PageRecord[], diagnostics: DiagnosticRecord[]): Start[] {
  const flat: { entry: OutlineEntry; level: number }[] = [];
  flattenOutline(doc.meta.outline ?? [], 1, flat, new Set());
  const byNumber = new Map(pages.map((p) => [p.page, p]));
  const starts: Start[] = [];
  let bad = 0;
  let unordered = 0;
  let previous = { page: 0, index: -1 };
  for (const { entry, level } of flat) {
    const title = collapse(String(entry.title ?? ''));
    if (entry.page === null || !byNumber.has(entry.page) || title === '') {
      bad += 1;
      continue;
    }
    const page = byNumber.get(entry.page)!;
    const wanted = headingKey(title);
    const from = page.page === previous.page ? previous.index + 1 : 0;
    const blocks = page.blocks ?? [];
    let index = -1;
    for (let i = from; i < blocks.length && wanted !== ''; i++) {
      const text = headingKey(blocks[i]!.text);
      if (text === wanted || (text.startsWith(wanted) && text.length <= wanted.length * 1.5 + 10) || (wanted.startsWith(text) && text.length >= wanted.length * 0.6)) {
        index = i;
        break;
      }
    }
    // A heading broken over blocks: take the next ones while they continue the bookmark's title.
    let span = 1;
    if (index !== -1) {
      let joined = headingKey(blocks[index]!.text);
      while (joined.length < wanted.length && blocks[index + span]) {
        const longer = `${joined} ${headingKey(blocks[index + span]!.text)}`;
        if (!wanted.startsWith(longer)) break;
        joined = longer;
        span += 1;
      }
    }
    let start: Start = { page: page.page, index: index === -1 ? from : index, level, title, number: headingNumber(title)?.number ?? null, from: 'outline', onBlock: index !== -1, span, runIn: false };
    if (start.page < previous.page || (start.page === previous.page && start.index <= previous.index && !(index === -1 && start.index === previous.index + 1))) {
      unordered += 1;
      start = { ...start, page: previous.page, index: previous.index + 1, onBlock: false };
    }
    starts.push(start);
    previous = { page: start.page, index: start.onBlock ? start.index + start.span - 1 : start.index - 1 };
  }
  if (bad > 0) {
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'outline-bad-entry', `Ignored ${bad} outline entries without a title or pointing to a missing page`, { count: bad }),
    );
  }
  if (unordered > 0) {
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'outline-out-of-order', `${unordered} outline entries point before the entry above them; their sections start where the previous one does`, { count: unordered }),
    );
  }
  return starts;
}

/** The section starts found in the layout: headings by size, numbering, capitals and font. */
export function layoutStarts(pages: readonly PageRecord[], body: number, roles: Map<string, StructureRole>, options: HeadingOptions): Start[] {
  const found: { page: number; index: number; block: Block; title: string; span: number; runIn: boolean; number: { number: string; depth: number } | null }[] = [];
  const fonts = headingFonts(pages);
  // Nothing above the title on its page is a section heading (report numbers, institution banners).
  let titlePage = 0;
  let titleIndex = -1;
  for (const page of pages) {
    (page.blocks ?? []).forEach((_, index) => {
      if (titleIndex === -1 && roles.get(blockId(page.page, index + 1)) === 'title') [titlePage, titleIndex] = [page.page, index];
    });
  }
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]!;
      if (roles.has(blockId(page.page, index + 1)) || (page.page === titlePage && index < titleIndex)) continue;
      const runIn = runInHeading(block, page);
      if (runIn) {
        found.push({ page: page.page, index, block, title: runIn, span: 1, runIn: true, number: headingNumber(runIn) });
        continue;
      }
      if (looksLikeHeading(block, body, options, fonts)) {
        let title = collapse(block.text);
        let span = 1;
        while (span < 3 && continuesHeading(block, blocks[index + span])) {
          const more = collapse(blocks[index + span]!.text);
          title = /\p{L}-$/u.test(title) && /^\p{Ll}/u.test(more) ? title.slice(0, -1) + more : `${title} ${more}`;
          span += 1;
        }
        found.push({ page: page.page, index, block, title, span, runIn: false, number: headingNumber(title) });
        index += span - 1;
      }
    }
  }
  // Depth: the numbering when there is one; else the level of numbered headings of the same size;
  // else the rank of the size among the unnumbered headings' sizes.
  const levelBySize = new Map<number, number>();
  for (const h of found) if (h.number && !h.runIn) {
    const size = Math.round(h.block.size * 2) / 2;
    levelBySize.set(size, Math.min(levelBySize.get(size) ?? 99, h.number.depth));
  }
  const sizes = [...new Set(found.filter((h) => !h.number).map((h) => Math.round(h.block.size * 2) / 2))].sort((a, b) => b - a);
  return found.map((h) => {
    const size = Math.round(h.block.size * 2) / 2;
    const level = h.number?.depth ?? levelBySize.get(size) ?? sizes.indexOf(size) + 1;
    return { page: h.page, index: h.index, level: Math.max(1, Math.min(level, 6)), title: h.title, number: h.number?.number ?? null, from: 'layout', onBlock: true, span: h.span, runIn: h.runIn };
  });
}
