/**
 * Reading order of one document: per page, runs outside the page box, the dot leaders of a contents
 * list and lines repeated across a page break dropped, rows cut into fragments, fragments chained into blocks, blocks put in
 * reading order (a table's rows each one block, lib/layout/tables.ts); across pages, furniture tagged. The steps are in the modules of lib/layout; the
 * order stage (stages/order.ts) holds the options' defaults.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { diagnostic, type DiagnosticRecord, type Item, type PageRecord, type Role } from '../protocol/records.js';
import { bottom, right, top } from './geometry.js';
import { fragmentsOf, type Fragment, type FragmentOptions } from './fragments.js';
import { chainBlocks, type ChainOptions, type LayoutBlock } from './blocks.js';
import { xyCut, type GutterOptions } from './columns.js';
import { furnitureFragments, tagFurniture, type MarginOptions, type PagePlan } from './furniture.js';
import { repeatedAtPageBreak } from './page-breaks.js';
import { stripLeaders } from './leaders.js';
import { attachAccents } from './accents.js';
import { findTables } from './tables.js';

/** Every threshold of reading order, and whether to tag furniture. */
export interface ReadingOrderOptions extends FragmentOptions, ChainOptions, GutterOptions, MarginOptions {
  /** Tag running headers, footers and page numbers. */
  furniture: boolean;
}

function insidePage(item: Item, page: PageRecord): boolean {
  return right(item) > 0 && item.x < page.width && bottom(item) > 0 && top(item) < page.height;
}

/** The pure core: orders every page of one document. */
export function orderDocument(group: DocumentGroup, options: ReadingOrderOptions): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const diagnostics: DiagnosticRecord[] = [];
  const fragmented = group.pages.map((page) => {
    const items = page.items ?? [];
    const inside = items.filter((item) => insidePage(item, page));
    if (inside.length < items.length) {
      diagnostics.push(diagnostic(page.doc, 'order', 'outside-page', `Dropped ${items.length - inside.length} text runs outside the page box`, {
        place: { page: page.page },
        count: items.length - inside.length,
      }));
    }
    // Accents drawn apart go onto their letters first: one raised over a capital would otherwise
    // stand as a row, or a block, of its own. Then dot leaders go: they are not text.
    const { items: text, joined } = stripLeaders(attachAccents(inside));
    return { page, fragments: fragmentsOf(text, options, joined) };
  });
  const repeated = repeatedAtPageBreak(fragmented, options);
  for (const entry of fragmented) {
    const cut = entry.fragments.filter((f) => repeated.has(f));
    if (cut.length === 0) continue;
    entry.fragments = entry.fragments.filter((f) => !repeated.has(f));
    diagnostics.push(diagnostic(entry.page.doc, 'order', 'repeated-line', 'Dropped a line cut by the page break that the next page repeats whole', {
      place: { page: entry.page.page },
      count: cut.reduce((n, f) => n + f.items.length, 0),
    }));
  }
  const furniture = options.furniture ? furnitureFragments(fragmented, options) : new Map<Fragment, Role>();
  const plans: PagePlan[] = fragmented.map(({ page, fragments }) => {
    const roles = new Map<LayoutBlock, Role>();
    const apart: LayoutBlock[] = [];
    const onPage = new Set(fragments);
    for (const [fragment, role] of furniture) {
      if (!onPage.has(fragment)) continue;
      const block = { fragments: [fragment], box: fragment.box };
      apart.push(block);
      roles.set(block, role);
    }
    // A table's rows are blocks of their own, its cells side by side in each: read row by row.
    const { tables, rest } = findTables(fragments.filter((f) => !furniture.has(f)));
    const chained = chainBlocks(rest, options);
    return { page, blocks: xyCut([...chained, ...tables.flatMap((t) => t.rows), ...apart], options), roles };
  });
  if (options.furniture) tagFurniture(plans, options);
  const pages = plans.map(({ page, blocks, roles }) => {
    const items: Item[] = [];
    blocks.forEach((block, index) => {
      const role = roles.get(block);
      for (const fragment of block.fragments) {
        for (const item of fragment.items) {
          // A role from before is dropped with a rest copy (slow) only where there is one; `delete`
          // would turn the object into a slow dictionary for every stage after this one.
          let placed: Item;
          if (item.role === undefined) placed = { ...item, block: index };
          else {
            const { role: _formerRole, ...rest } = item;
            placed = { ...rest, block: index };
          }
          if (role) placed.role = role;
          items.push(placed);
        }
      }
    });
    return { ...page, items };
  });
  return { pages, diagnostics };
}
