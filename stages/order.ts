/**
 * order: reading order within each page, and page furniture across pages.
 *
 * 1. Runs outside the page box are dropped (counted in a diagnostic).
 * 2. Rows (runs on one baseline) are cut into fragments wherever the gap between runs is wider
 *    than `fragmentGap` em, so that the two halves of a row in a two-column page become two
 *    fragments.
 * 3. Fragments are chained into layout blocks: a fragment joins the one right below it when each
 *    is the other's only horizontally overlapping neighbour on the adjacent row and the gap is
 *    small. A column's lines chain; a title that spans two columns does not (it overlaps two).
 *
 *        [      title spanning both      ]   ← overlaps two fragments below: not chained
 *        [left column line] [right column]   ← each chains only with the line below it
 *        [left column line] [right column]
 *
 * 4. Blocks are put in reading order by recursive XY-cut: split at a horizontal band of white space
 *    that no block crosses (top to bottom), else at a vertical one (left to right).
 * 5. Running headers, footers and page numbers: short blocks in the top or bottom margin whose
 *    text (digits masked) repeats on other pages, or that are page-number-like, get a `role`.
 *
 * Writes `block` (reading-order index) and `role` on each item, and sorts `items` by block.
 */
import { documentTransform, type DocumentGroup } from '../lib/stage.js';
import { boxOf, groupRows, median, right, bottom, top, ROW_DEFAULTS } from '../lib/layout.js';
import { diagnostic, type Box, type DiagnosticRecord, type Item, type PageRecord, type Role } from '../lib/records.js';
import { helpText, parseArgs, runFilter, UsageError, type OptionSpec } from '../lib/cli.js';

export interface OrderOptions {
  /** A gap wider than this × font size inside a row separates two fragments (column gutter, table cell). */
  fragmentGap: number;
  /** Fragments on successive rows chain into one block when the vertical gap is under this × font size. */
  chainGap: number;
  /** Height of the top and bottom margins searched for furniture, as a fraction of the page height. */
  marginBand: number;
  /** Tag running headers, footers and page numbers. */
  furniture: boolean;
}

export const DEFAULTS: OrderOptions = {
  fragmentGap: 1.0,
  chainGap: 1.6,
  marginBand: 0.12,
  furniture: true,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'fragmentGap', type: 'number', min: 0, description: 'gap inside a row that splits it, × font size' },
  { key: 'chainGap', type: 'number', min: 0, description: 'largest vertical gap between chained lines, × font size' },
  { key: 'marginBand', type: 'number', min: 0, description: 'top/bottom margin searched for furniture, fraction of page height' },
  { key: 'furniture', type: 'boolean', description: 'tag running headers, footers and page numbers' },
];

export function normalizeOptions(partial: Partial<OrderOptions> = {}): OrderOptions {
  const options = { ...DEFAULTS, ...partial };
  if (!(options.marginBand >= 0 && options.marginBand < 0.5)) throw new UsageError(`marginBand must be in [0, 0.5), got ${options.marginBand}`);
  return options;
}

interface Fragment {
  items: Item[];
  box: Box;
  base: number;
  size: number;
  row: number;
}

interface LayoutBlock {
  fragments: Fragment[];
  box: Box;
}

function overlapX(a: Box, b: Box): number {
  return Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
}

/** Cuts each row into fragments at wide gaps. */
export function fragmentsOf(items: readonly Item[], options: OrderOptions): Fragment[] {
  const fragments: Fragment[] = [];
  groupRows(items, ROW_DEFAULTS).forEach((row, rowIndex) => {
    let current: Item[] = [];
    const close = (): void => {
      if (current.length === 0) return;
      fragments.push({ items: current, box: boxOf(current), base: row.base, size: median(current.map((i) => i.size)), row: rowIndex });
      current = [];
    };
    for (const item of row.items) {
      const previous = current[current.length - 1];
      if (previous && item.x - right(previous) > options.fragmentGap * Math.max(previous.size, item.size)) close();
      current.push(item);
    }
    close();
  });
  return fragments;
}

/** Chains fragments into blocks (see the file comment). */
export function chainBlocks(fragments: readonly Fragment[], options: OrderOptions): LayoutBlock[] {
  const byRow = new Map<number, Fragment[]>();
  for (const f of fragments) byRow.set(f.row, [...(byRow.get(f.row) ?? []), f]);
  const rowIds = [...byRow.keys()].sort((a, b) => a - b);
  // For each fragment, the overlapping fragments of the nearest row below that has any.
  const below = new Map<Fragment, Fragment[]>();
  const above = new Map<Fragment, Fragment[]>();
  for (const f of fragments) {
    for (const rowId of rowIds) {
      if (rowId <= f.row) continue;
      const candidates = byRow.get(rowId)!.filter((g) => overlapX(f.box, g.box) > 0);
      if (candidates.length > 0) {
        below.set(f, candidates);
        for (const g of candidates) above.set(g, [...(above.get(g) ?? []), f]);
        break;
      }
    }
  }
  const next = new Map<Fragment, Fragment>();
  const hasPrevious = new Set<Fragment>();
  for (const f of fragments) {
    const down = below.get(f);
    if (!down || down.length !== 1) continue;
    const g = down[0]!;
    if ((above.get(g) ?? []).length !== 1) continue;
    const gap = g.box.y - (f.box.y + f.box.h);
    if (gap > options.chainGap * Math.max(f.size, g.size)) continue;
    next.set(f, g);
    hasPrevious.add(g);
  }
  const blocks: LayoutBlock[] = [];
  for (const f of fragments) {
    if (hasPrevious.has(f)) continue;
    const chain: Fragment[] = [];
    for (let cur: Fragment | undefined = f; cur; cur = next.get(cur)) chain.push(cur);
    blocks.push({ fragments: chain, box: boxOf(chain.flatMap((c) => c.items)) });
  }
  return blocks;
}

/** Orders blocks by recursive XY-cut: horizontal white bands first, then vertical ones. */
export function xyCut(blocks: readonly LayoutBlock[]): LayoutBlock[] {
  if (blocks.length <= 1) return [...blocks];
  const horizontal = splitAlong(blocks, (b) => b.box.y, (b) => b.box.y + b.box.h);
  if (horizontal.length > 1) return horizontal.flatMap(xyCut);
  const vertical = splitAlong(blocks, (b) => b.box.x, (b) => b.box.x + b.box.w);
  if (vertical.length > 1) return vertical.flatMap(xyCut);
  return [...blocks].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

/** Splits blocks into groups separated by gaps along one axis that no block crosses. */
function splitAlong(blocks: readonly LayoutBlock[], start: (b: LayoutBlock) => number, end: (b: LayoutBlock) => number): LayoutBlock[][] {
  const sorted = [...blocks].sort((a, b) => start(a) - start(b));
  const groups: LayoutBlock[][] = [];
  let reach = -Infinity;
  for (const block of sorted) {
    // A small overlap (touching descenders and ascenders) is not a crossing.
    if (groups.length === 0 || start(block) >= reach - 0.5) groups.push([block]);
    else groups[groups.length - 1]!.push(block);
    reach = Math.max(reach, end(block));
  }
  return groups;
}

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página|pagina|страница|стр\.)\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—)\]]?(?:\s*(?:\/|of|von|de|из)\s*\d{1,4})?$/iu;

/** Text with digits masked, so "Page 3" and "Page 4" compare equal. */
const furnitureKey = (text: string): string => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

const blockText = (block: LayoutBlock): string =>
  block.fragments.map((f) => f.items.map((i) => i.text).join(' ')).join(' ').trim();

interface PagePlan {
  page: PageRecord;
  blocks: LayoutBlock[];
  roles: Map<LayoutBlock, Role>;
}

/** Tags furniture across the document's pages. */
export function tagFurniture(plans: readonly PagePlan[], options: OrderOptions): void {
  const candidates: { plan: PagePlan; block: LayoutBlock; zone: 'top' | 'bottom'; key: string; text: string }[] = [];
  for (const plan of plans) {
    const band = options.marginBand * plan.page.height;
    for (const block of plan.blocks) {
      if (block.fragments.length > 2) continue;
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

function insidePage(item: Item, page: PageRecord): boolean {
  return right(item) > 0 && item.x < page.width && bottom(item) > 0 && top(item) < page.height;
}

/** The pure core: orders every page of one document. */
export function orderDocument(group: DocumentGroup, partial: Partial<OrderOptions> = {}): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const options = normalizeOptions(partial);
  const diagnostics: DiagnosticRecord[] = [];
  const plans: PagePlan[] = group.pages.map((page) => {
    const items = page.items ?? [];
    const inside = items.filter((item) => insidePage(item, page));
    if (inside.length < items.length) {
      diagnostics.push(diagnostic(page.doc, 'order', 'outside-page', `Dropped ${items.length - inside.length} text runs outside the page box`, {
        place: { page: page.page },
        count: items.length - inside.length,
      }));
    }
    const blocks = xyCut(chainBlocks(fragmentsOf(inside, options), options));
    return { page, blocks, roles: new Map() };
  });
  if (options.furniture) tagFurniture(plans, options);
  const pages = plans.map(({ page, blocks, roles }) => {
    const items: Item[] = [];
    blocks.forEach((block, index) => {
      const role = roles.get(block);
      for (const fragment of block.fragments) {
        for (const item of fragment.items) {
          const placed: Item = { ...item, block: index };
          if (role) placed.role = role;
          else delete placed.role;
          items.push(placed);
        }
      }
    });
    return { ...page, items };
  });
  return { pages, diagnostics };
}

export function order(partial: Partial<OrderOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('order', (group) => orderDocument(group, options));
}

export const USAGE = 'pdfpipe order [options] < parsed.ndjson';
export const SUMMARY = 'Puts each page\'s text runs in reading order (columns, blocks) and tags running headers, footers and page numbers.';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'order', transforms: [order(options)] });
}
