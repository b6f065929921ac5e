/**
 * Roles from a tagged PDF's structure: structure first, geometry second. The parse engines give
 * each glyph run the `tag` of the structure element that says what it is (lib/engines/structure.ts);
 * `lines` and `paragraphs` carry the tag of most of the characters onto lines and blocks. Here a
 * block's tag gives its role before the rules of roles.ts run, and the tag's role is restored after
 * them wherever a rule replaced it:
 *
 *   tag                                  role          geometry may still make it
 *   H1…H6, H                             heading       title: the document's top heading is its title
 *                                                      (level from the digit, counted from the highest
 *                                                      heading tag used; H: geometry's, else 1); a lone
 *                                                      H1 that opens the document is its title
 *   Title                                title
 *   Caption                              caption
 *   Table, TR, TH, TD, THead, TBody, TFoot  table
 *   L, LI, Lbl, LBody                    list-item
 *   Note, FENote, Aside                  footnote      (notes and asides: text apart from the flow)
 *   BibEntry                             reference
 *   Formula                              formula
 *   TOC, TOCI                            toc
 *   P, BlockQuote                        body          title, heading, front-matter, abstract,
 *                                                      reference, footnote, list-item, caption: what a
 *                                                      paragraph can be (a generator's default tag:
 *                                                      LaTeX's tagging of 2022 tags headings as P)
 *   Artifact (outside the tree)          header/footer/page-number at the page's top or foot,
 *                                        else whatever geometry says
 *   anything else (Span, Div, Sect, NonStruct, Figure, …)   whatever geometry says
 *
 * A `Reference` element is a citation inside the text, not a bibliography entry, and decides
 * nothing. Page furniture found by `order` (a running head repeated on every page) stays
 * furniture whatever its tag: a repeated head that a generator tagged as text is still furniture.
 */
import { FURNITURE_ROLES, type Block, type PageRecord, type Role } from '../protocol/records.js';

/** The role each deciding tag gives (headings are handled apart, for their level). */
const TAG_ROLE: Readonly<Record<string, Role>> = {
  Title: 'title',
  Caption: 'caption',
  Table: 'table', TR: 'table', TH: 'table', TD: 'table', THead: 'table', TBody: 'table', TFoot: 'table',
  L: 'list-item', LI: 'list-item', Lbl: 'list-item', LBody: 'list-item',
  Note: 'footnote', FENote: 'footnote', Aside: 'footnote',
  BibEntry: 'reference',
  Formula: 'formula',
  TOC: 'toc', TOCI: 'toc',
  P: 'body', BlockQuote: 'body',
};

/** Tags that say "a paragraph of text" and no more. */
const PARAGRAPH_TAGS: ReadonlySet<string> = new Set(['P', 'BlockQuote']);

/** The roles a block tagged as a paragraph may take from geometry. */
const PARAGRAPH_ROLES: ReadonlySet<Role> = new Set(['body', 'heading', 'title', 'front-matter', 'abstract', 'reference', 'footnote', 'list-item', 'caption']);

const HEADING_TAG = /^H([1-6])?$/u;

/** What a tag says of a block: its role and, for a numbered heading, its level; null when it says nothing. */
export function roleOfTag(tag: string | undefined): { role: Role; level?: number } | null {
  if (tag === undefined) return null;
  const heading = HEADING_TAG.exec(tag);
  if (heading) return heading[1] ? { role: 'heading', level: Number(heading[1]) } : { role: 'heading' };
  const role = TAG_ROLE[tag];
  return role ? { role } : null;
}

/** The tag of most of the characters, among the parts that have one; undefined when none has. */
export function majorityTag(parts: readonly { tag?: string; text: string }[]): string | undefined {
  const weight = new Map<string, number>();
  for (const part of parts) if (part.tag !== undefined) weight.set(part.tag, (weight.get(part.tag) ?? 0) + part.text.length);
  let best: string | undefined;
  for (const [tag, n] of weight) if (best === undefined || n > weight.get(best)!) best = tag;
  return best;
}

/** The roles the tags gave, kept to be restored after the geometry rules. */
export type TagRoles = Map<Block, { role: Role; level?: number }>;

/**
 * Gives every tagged block the role its tag says (see the table above), and returns those roles.
 * Blocks `order` made furniture keep it; an Artifact above or below all the page's other text
 * becomes a header or a footer (a page number when it is one).
 */
export function applyTagRoles(pages: readonly PageRecord[]): TagRoles {
  const decided: TagRoles = new Map();
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    const text = blocks.filter((b) => b.tag !== undefined && b.tag !== 'Artifact' && !FURNITURE_ROLES.has(b.role));
    const top = Math.min(...text.map((b) => b.box.y));
    const bottom = Math.max(...text.map((b) => b.box.y + b.box.h));
    for (const block of blocks) {
      if (FURNITURE_ROLES.has(block.role)) continue;
      if (block.tag === 'Artifact') {
        if (text.length === 0) continue;
        const above = block.box.y + block.box.h <= top;
        if (!above && block.box.y < bottom) continue;
        block.role = /^\W*\d+\W*$/u.test(block.text) ? 'page-number' : above ? 'header' : 'footer';
        decided.set(block, { role: block.role });
        continue;
      }
      const said = roleOfTag(block.tag);
      if (!said) continue;
      block.role = said.role;
      if (said.level !== undefined) block.level = said.level;
      // `join` decided run-ons between body paragraphs; a heading, caption or cell runs on from nothing.
      if (said.role !== 'body' && said.role !== 'list-item') block.continues = false;
      decided.set(block, said);
    }
  }
  titleAndLevels(pages, decided);
  return decided;
}

/**
 * Many generators tag the document's title H1 and its sections H2 (HTML's habit): where no block
 * is tagged Title, a single H1 that is the document's first heading, on the first page with text,
 * is the title; and heading levels count from the highest heading tag left, so that H2 sections
 * are level 1 and H3 subsections level 2.
 */
function titleAndLevels(pages: readonly PageRecord[], decided: TagRoles): void {
  const entries = [...decided].filter(([, said]) => said.role === 'heading' || said.role === 'title');
  if (!entries.some(([, said]) => said.role === 'title')) {
    const h1 = entries.filter(([, said]) => said.level === 1);
    const first = pages.find((p) => (p.blocks ?? []).some((b) => !FURNITURE_ROLES.has(b.role) && b.text.trim() !== ''));
    const only = h1.length === 1 ? h1[0]! : undefined;
    if (only && entries[0] === only && first?.blocks?.includes(only[0])) {
      only[0].role = 'title';
      delete only[0].level;
      decided.set(only[0], { role: 'title' });
    }
  }
  const levels = [...decided.values()].filter((said) => said.role === 'heading' && said.level !== undefined).map((said) => said.level!);
  const top = Math.min(...levels);
  if (levels.length === 0 || top <= 1) return;
  for (const [block, said] of decided) {
    if (said.role !== 'heading' || said.level === undefined) continue;
    said.level = said.level - top + 1;
    block.level = said.level;
  }
}

/**
 * After the geometry rules: every block whose tag decided its role gets it back, unless it was a
 * paragraph the rules found to be one of the things a paragraph can be.
 */
export function restoreTagRoles(decided: TagRoles): void {
  for (const [block, said] of decided) {
    if (block.tag !== undefined && PARAGRAPH_TAGS.has(block.tag) && PARAGRAPH_ROLES.has(block.role)) continue;
    if (said.role === 'heading' && block.role === 'title') {
      delete block.level;
      continue;
    }
    if (block.role !== said.role) {
      block.role = said.role;
      if (said.role !== 'body' && said.role !== 'list-item') block.continues = false;
    }
    if (said.role === 'heading') block.level = said.level ?? block.level ?? 1;
    else delete block.level;
  }
}
