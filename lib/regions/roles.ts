/**
 * The core of the roles stage: what every block of a document is, from the document's own
 * statistics. The body text is the size and font that carry most characters; against it, in
 * this order:
 *   1. page numbers by their sequence (page-numbers.ts), which position alone misses, and running
 *      heads by their place when their text alternates between pages (running-heads.ts);
 *   2. the front matter of the first page with text (front-matter.ts): the title, and authors,
 *      affiliations, e-mails, keywords and dates (`front-matter`), the abstract; what stands
 *      above the title on its page is front matter too;
 *   3. captions by their lead (captions.ts);
 *   4. the bibliography, one block per entry (references.ts);
 *   5. section headings by size, numbering, capitals and a heading font (headings.ts), with a
 *      level, and those left in their paragraph's first line split off (run-in.ts);
 *   6. the entries of a contents list, each ending in a page number on one right edge (contents.ts);
 *   7. table cells: narrow blocks side by side in rows stacked one under another (tables.ts);
 *   8. display formulas: body blocks that read as math on lines of their own, and the pieces of
 *      one the layout set apart (lib/paragraphs/formulas.ts);
 *   9. notes: small print below the body at a page's foot, once the folios are known (footnotes.ts);
 * and then run-ons: none across a heading, and one wherever a body paragraph starting in lower
 * case follows one cut mid-sentence (footnotes.ts).
 * In a tagged PDF the structure comes first (tags.ts): a block's tag gives its role before these
 * rules run and gets it back after them; the rules decide where the tag says nothing.
 * Roles that `paragraphs` and `order` gave stand unless a rule here knows better: a heading the
 * rules do not confirm stays a heading; a footnote inside the bibliography is a reference.
 */
import { FURNITURE_ROLES, type Block, type PageRecord, type Role } from '../protocol/records.js';
import type { DocumentGroup } from '../protocol/stage.js';
import { median, overlapsVertically } from '../layout/geometry.js';
import { blockId } from '../formats/ids.js';
import { layoutStarts } from '../formats/sections.js';
import { letters } from '../formats/words.js';
import { displayFormula, formulaFragment } from '../paragraphs/formulas.js';
import { layoutSource, type StructureRole } from './front-matter.js';
import { bodySize, type HeadingOptions } from './headings.js';
import { SENTENCE_END } from '../paragraphs/split.js';
import { markPageNumbers } from './page-numbers.js';
import { markRunningHeads } from './running-heads.js';
import { markCaptions, type BodyStyle } from './captions.js';
import { markReferences } from './references.js';
import { markTables } from './tables.js';
import { linkNoteRefs, markFootnotes, mendRunOns } from './footnotes.js';
import { splitRunInHeadings } from './run-in.js';
import { markContents } from './contents.js';
import { applyTagRoles, restoreTagRoles } from './tags.js';

/** What the roles core reads: the heading thresholds (lib/regions/headings.ts). */
export type RegionOptions = HeadingOptions;

/** The front-matter parts of the structured output, as block roles. */
const FRONT_ROLE: Partial<Record<StructureRole, Role>> = {
  title: 'title',
  abstract: 'abstract',
  author: 'front-matter',
  affiliation: 'front-matter',
  email: 'front-matter',
  keywords: 'front-matter',
};

/** A first-page head set this much larger than the later running heads is the title. */
const TITLE_OVER_HEAD = 1.1;

/** The roles a section heading found in the layout may replace. */
const HEADING_CANDIDATES: ReadonlySet<Role> = new Set(['body', 'list-item', 'heading', 'other']);

/** The body text's size and font: the size with most characters, and the font with most of those. */
export function bodyStyle(pages: readonly PageRecord[]): BodyStyle {
  const size = bodySize(pages);
  const chars = new Map<string, number>();
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || Math.abs(block.size - size) > 0.5) continue;
      chars.set(block.font, (chars.get(block.font) ?? 0) + block.text.length);
    }
  }
  let font = '';
  for (const [name, n] of chars) if (n > (chars.get(font) ?? -1)) font = name;
  return { size, font };
}

/** The pure core: every page's blocks with their roles decided (copies; the input is not changed). */
export function rolesOfDocument(group: DocumentGroup, options: RegionOptions): { pages: PageRecord[] } {
  const pages = group.pages.map((page) => (page.blocks ? { ...page, blocks: page.blocks.map((b) => ({ ...b })) } : page));
  const wasBody = new Set(pages.flatMap((p) => (p.blocks ?? []).filter((b) => b.role === 'body' || b.role === 'list-item')));
  const tagged = applyTagRoles(pages);
  markPageNumbers(pages);
  markRunningHeads(pages, bodySize(pages));
  const body = bodyStyle(pages);

  restoreTitleHead(pages, body.size);
  const front = new Map<string, StructureRole>();
  const first = pages.find((p) => (p.blocks ?? []).some((b) => !FURNITURE_ROLES.has(b.role) && letters(b.text) > 0));
  layoutSource(first, body.size, front);
  if (first?.blocks && titleStandsOut(first, front, body)) markFrontMatter(first, first.blocks, front);

  for (const page of pages) markCaptions(page.blocks ?? [], body, page.lines ?? []);

  markReferences(pages, body.size);
  splitRunInHeadings(pages, body.font);

  for (const start of layoutStarts(pages, body.size, front, options)) {
    if (!start.onBlock || start.runIn) continue;
    const blocks = pages.find((p) => p.page === start.page)?.blocks ?? [];
    for (let k = 0; k < start.span; k++) {
      const block = blocks[start.index + k];
      if (!block || !HEADING_CANDIDATES.has(block.role)) continue;
      block.role = 'heading';
      block.level = start.level;
    }
  }

  markContents(pages);
  for (const page of pages) {
    markTables(page.blocks ?? []);
    markFormulas(page.blocks ?? []);
  }
  markFootnotes(pages, body.size);
  linkNoteRefs(pages);
  restoreTagRoles(tagged);
  endRunOns(pages, wasBody);
  mendRunOns(pages);
  return { pages };
}

/**
 * True when the block the layout took for the title is set apart from the body text: larger, in
 * another font, or in capitals. A page that opens with a paragraph of body text has no title
 * block, and nothing on it is front matter.
 */
function titleStandsOut(page: PageRecord, front: ReadonlyMap<string, StructureRole>, body: BodyStyle): boolean {
  const title = (page.blocks ?? []).find((_, index) => front.get(blockId(page.page, index + 1)) === 'title');
  if (!title) return false;
  const capitals = !/\p{Ll}/u.test(title.text) && /\p{Lu}/u.test(title.text);
  return title.size > body.size * 1.05 || title.font !== body.font || capitals;
}

/**
 * Gives the first page's front-matter blocks their roles. Blocks above the title are front matter,
 * and so are those between the title and the last block taken for front matter (a date, a report
 * number, a dedication passed over among the authors).
 */
function markFrontMatter(page: PageRecord, blocks: Block[], front: ReadonlyMap<string, StructureRole>): void {
  const roleAt = (index: number): Role | undefined => FRONT_ROLE[front.get(blockId(page.page, index + 1)) ?? 'other'];
  const titleAt = blocks.findIndex((_, index) => roleAt(index) === 'title');
  let lastAt = -1;
  blocks.forEach((_, index) => {
    if (roleAt(index)) lastAt = index;
  });
  blocks.forEach((block, index) => {
    const role = roleAt(index);
    if (role) block.role = role;
    else if ((index < titleAt || (titleAt >= 0 && index < lastAt)) && !FURNITURE_ROLES.has(block.role)) block.role = 'front-matter';
    // A title broken over two blocks (centred lines) is one paragraph: the second part runs on.
    if (role === 'title' && index > 0 && roleAt(index - 1) === 'title') {
      block.continues = true;
      block.joinRule = 'title';
    }
  });
}

/**
 * A title that `order` took for a running head because later pages repeat it as one (AMS styles
 * put the title in the head of odd pages): on the first page it is set larger than the body and
 * than the running heads after it, and is given back to the page as text.
 */
function restoreTitleHead(pages: readonly PageRecord[], bodySize: number): void {
  const first = pages.find((p) => (p.blocks ?? []).length > 0);
  if (!first?.blocks) return;
  const later = pages.filter((p) => p !== first).flatMap((p) => (p.blocks ?? []).filter((b) => b.role === 'header' || b.role === 'footer'));
  if (later.length === 0) return;
  const typical = median(later.map((b) => b.size));
  for (const block of first.blocks) {
    if ((block.role === 'header' || block.role === 'footer') && block.size >= bodySize * 0.95 && block.size > typical * TITLE_OVER_HEAD) block.role = 'body';
  }
}

/** Blocks set apart from the text that flows around them. */
const FLOATS: ReadonlySet<Role> = new Set(['caption', 'table', 'other']);

/** Roles that open what follows them: nothing runs on from the paragraph before one across it. */
const OPENING: ReadonlySet<Role> = new Set(['title', 'front-matter', 'abstract', 'heading']);

/**
 * `join` decided run-ons between body paragraphs; a paragraph that turned out to be a heading (or
 * the title, or front matter) stands between two sections, so the paragraph after it starts
 * afresh. A caption or a table is a float the text runs on around: a run-on decided against it
 * stands only where the text before the float stopped mid-sentence or the block starts in lower case.
 */
function endRunOns(pages: readonly PageRecord[], wasBody: ReadonlySet<Block>): void {
  let previous: Block | null = null;
  let lastBody: Block | null = null;
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote' || block.role === 'margin-note') continue;
      const running = block.role === 'body' || block.role === 'list-item';
      if (block.continues && previous && wasBody.has(previous) && running) {
        if (OPENING.has(previous.role)) block.continues = false;
        // Decided against a float (a caption, a table cell) taken for text: the paragraph runs on
        // from the text before the float only if that stopped mid-sentence or this goes on in lower case.
        else if (FLOATS.has(previous.role) && lastBody && SENTENCE_END.test(lastBody.text) && !/^\p{Ll}/u.test(block.text)) block.continues = false;
      } else if (!block.continues && running && previous && FLOATS.has(previous.role) && lastBody && !SENTENCE_END.test(lastBody.text) && /^\p{Ll}/u.test(block.text)) {
        // Decided against the float itself: the sentence the float interrupts goes on here.
        block.continues = true;
        block.joinRule = 'float';
      }
      if (running) lastBody = block;
      previous = block;
    }
  }
}

/**
 * Display formulas: body blocks that read as math and stand on lines of their own. A piece of
 * math beside the words of a line (an inline fraction the layout set apart) is part of the
 * sentence and stays body.
 */
function markFormulas(blocks: readonly Block[]): void {
  const mathLike = (b: Block): boolean => displayFormula(b) || formulaFragment(b);
  const candidates = blocks.filter((b) => b.role === 'body' && mathLike(b));
  const prose = blocks.filter((b) => (b.role === 'body' || b.role === 'list-item') && !candidates.includes(b));
  for (const block of candidates) {
    // On a line of the same column: the paragraph's box covers the piece's height and some of its width.
    const inLine = prose.some((p) => overlapsVertically(p.box, block.box) && p.box.x < block.box.x + block.box.w && block.box.x < p.box.x + p.box.w);
    if (!inLine) block.role = 'formula';
    // A mark without a letter or digit on a line of text (a bar or hat the layout set apart from
    // its letter) is neither prose nor a formula of its own.
    else if (!/[\p{L}\p{N}]/u.test(block.text)) block.role = 'other';
  }
}
