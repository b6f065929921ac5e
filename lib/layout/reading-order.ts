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
import { byFrame, CELL_OFFSET_EM, onPage, turnedPage, upright, verticalCells } from './frames.js';

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
  // Accents drawn apart go onto their letters first: one raised over a capital would otherwise
  // stand as a row, or a block, of its own. Then dot leaders go: they are not text.
  const fragmentsIn = (items: readonly Item[], vertical: boolean): Fragment[] => {
    const { items: text, joined, rows } = stripLeaders(attachAccents(items));
    const gaps = vertical ? { ...options, fragmentGap: options.fragmentGap + CELL_OFFSET_EM, wideGap: options.wideGap + CELL_OFFSET_EM } : options;
    return fragmentsOf(text, gaps, joined, rows);
  };
  // Each run of a turned frame, as it stands on the page (runs made in the frame are turned back).
  const pageItem = new Map<Item, Item>();
  const laidOut = group.pages.map((page) => {
    const items = page.items ?? [];
    const inside = items.filter((item) => insidePage(item, page));
    if (inside.length < items.length) {
      diagnostics.push(diagnostic(page.doc, 'order', 'outside-page', `Dropped ${items.length - inside.length} text runs outside the page box`, {
        place: { page: page.page },
        count: items.length - inside.length,
      }));
    }
    // Each writing frame is laid out in its own upright coordinates; the frame with most of the
    // text is the body (a page drawn in landscape, or set in vertical lines, is read upright), the
    // others (a stamp in the margin, a label turned along an edge) come after it, like notes, with
    // the role `margin-note`.
    const cells = verticalCells(inside);
    const marked = cells.size === 0 ? inside : inside.map((item) => (cells.has(item) ? { ...item, dir: 'ttb' as const } : item));
    const [body, ...apart] = byFrame(marked).map(({ angle, items: framed }) => {
      const frame = turnedPage(page, angle);
      return {
        frame,
        fragments: fragmentsIn(
          framed.map((item) => {
            const turned = upright(item, frame);
            if (turned !== item) pageItem.set(turned, item);
            return turned;
          }),
          framed.some((item) => item.dir === 'ttb'),
        ),
      };
    });
    const frame = body?.frame ?? turnedPage(page, 0);
    return { page: { ...page, width: frame.width, height: frame.height }, original: page, frame, fragments: body?.fragments ?? [], apart };
  });
  const repeated = repeatedAtPageBreak(laidOut, options);
  for (const entry of laidOut) {
    const cut = entry.fragments.filter((f) => repeated.has(f));
    if (cut.length === 0) continue;
    entry.fragments = entry.fragments.filter((f) => !repeated.has(f));
    diagnostics.push(diagnostic(entry.page.doc, 'order', 'repeated-line', 'Dropped a line cut by the page break that the next page repeats whole', {
      place: { page: entry.page.page },
      count: cut.reduce((n, f) => n + f.items.length, 0),
    }));
  }
  const furniture = options.furniture ? furnitureFragments(laidOut, options) : new Map<Fragment, Role>();
  // Each page's furniture, in the order found: looked up once, not the whole document's per page.
  const pageOf = new Map<Fragment, number>();
  laidOut.forEach(({ fragments }, n) => fragments.forEach((fragment) => pageOf.set(fragment, n)));
  const furnitureOfPage = laidOut.map((): [Fragment, Role][] => []);
  for (const [fragment, role] of furniture) {
    const n = pageOf.get(fragment);
    if (n !== undefined) furnitureOfPage[n]!.push([fragment, role]);
  }
  const plans: PagePlan[] = laidOut.map(({ page, fragments }, n) => {
    const roles = new Map<LayoutBlock, Role>();
    const apart: LayoutBlock[] = [];
    for (const [fragment, role] of furnitureOfPage[n]!) {
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
  const pages = plans.map(({ blocks, roles }, n) => {
    const { original, frame, apart } = laidOut[n]!;
    // The turned passages, in the order of their place on the page (top to bottom, then left to right).
    const passages = apart
      .map((entry) => ({ frame: entry.frame, blocks: xyCut(chainBlocks(entry.fragments, options), options) }))
      .flatMap((entry) => entry.blocks.map((block) => ({ frame: entry.frame, block, at: onPage(block.fragments[0]!.items[0]!, entry.frame) })))
      .sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x);
    const placedBlocks = [...blocks.map((block) => ({ frame, block })), ...passages];
    const items: Item[] = [];
    // A loop over every run of the page, not a callback made per page (which loses its optimised
    // code at every full collection).
    for (let index = 0; index < placedBlocks.length; index++) {
      const { frame: blockFrame, block } = placedBlocks[index]!;
      const role = blockFrame === frame ? roles.get(block) : 'margin-note';
      for (const fragment of block.fragments) {
        for (const framed of fragment.items) {
          const item = pageItem.get(framed) ?? onPage(framed, blockFrame);
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
    }
    return { ...original, items };
  });
  return { pages, diagnostics };
}
