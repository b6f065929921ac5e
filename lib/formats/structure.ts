/**
 * The logical structure of a document, from its `doc` header and its pages' blocks (pure): the
 * metadata (title, authors, affiliations, e-mail addresses, keywords, abstract), the section tree
 * with every block nested under its section, and each paragraph's keywords. The XML writer
 * (lib/formats/xml.ts) turns it into markup; nothing here knows about XML.
 *
 * Metadata comes from two sources, both kept: the Info dictionary or XMP packet
 * (lib/formats/metadata.ts) and the first page's layout (lib/formats/front-matter.ts). Sections
 * come from the PDF outline, else from the headings found in the layout (lib/formats/sections.ts,
 * lib/formats/headings.ts). Keywords are TF-IDF over the paragraphs (lib/formats/keywords.ts).
 */
import { blockId, sectionId } from './ids.js';
import { diagnostic, FURNITURE_ROLES, type Block, type Box, type DiagnosticRecord, type DocRecord, type PageRecord } from '../protocol/records.js';
import { fieldSource, type MetaSource } from './metadata.js';
import { layoutSource, type StructureRole } from '../regions/front-matter.js';
import { bodySize, type HeadingOptions } from '../regions/headings.js';
import { layoutStarts, outlineStarts, type Start } from './sections.js';
import { tfidfKeywords, validLang } from './keywords.js';
import { collapse, letters } from './words.js';

/** The structure's options: the heading thresholds and the keywords per paragraph. */
export interface StructureOptions extends HeadingOptions {
  /** How many keywords to keep per paragraph. */
  keywords: number;
}

/** The structure's default options. */
export const DEFAULTS: StructureOptions = { keywords: 5, headingSize: 1.1, headingMaxWords: 14 };

/** One block of the document, where it is on the page and what it was taken for. */
export interface Paragraph {
  /** The block's id (lib/formats/ids.ts): page number and 1-based index among the page's blocks. */
  id: string;
  page: number;
  box: Box;
  role: StructureRole;
  lang: string | null;
  /** The block's direction from the records (`paragraphs`: the most common direction of its lines). */
  dir: 'ltr' | 'rtl';
  text: string;
  continues: boolean;
  /** The terms that set this paragraph apart from the rest of the document, best first. */
  keywords: string[];
  /** A table row (role `table`): its place in its table and its cells' texts, in column order. */
  row?: TableRowCells;
}

/** A table row's cells, their texts cut from the block's by the block's `table` offsets. */
export interface TableRowCells {
  table: number;
  index: number;
  header: boolean;
  cells: { col: number; span: number; text: string }[];
}

/** The row of a table-row block, or undefined for any other block. */
function rowCells(block: Block): TableRowCells | undefined {
  if (!block.table) return undefined;
  const cells = block.table.cells.map((c) => ({ col: c.col, span: c.span, text: collapse(block.text.slice(c.start, c.end)) }));
  return { table: block.table.table, index: block.table.row, header: block.table.header, cells };
}

/** A section: its heading, its paragraphs and the sections nested in it. */
export interface Section {
  id: string;
  /** 1 for top-level sections. */
  level: number;
  /** Where the section came from. */
  from: 'outline' | 'layout';
  /** Its numbering as printed ("2.3", "IV"), when it has one. */
  number: string | null;
  title: string;
  /** The page the section starts on. */
  page: number;
  /** The heading block, when one was found on the page (null for an outline entry without a matching block). */
  heading: Paragraph | null;
  /** The ids of further blocks the heading was made of (a heading broken over two blocks). */
  more: string[];
  paragraphs: Paragraph[];
  sections: Section[];
}

/** The structure of one document, with the metadata of each source and the diagnostics. */
export interface Structure {
  id: string;
  source: string;
  pages: number;
  lang: string | null;
  /** Which source the chosen metadata comes from. */
  metaFrom: 'info' | 'xmp' | 'layout' | 'none';
  meta: MetaSource;
  info: MetaSource;
  xmp: MetaSource;
  layout: MetaSource;
  /** Where the sections came from. */
  sectionsFrom: 'outline' | 'layout' | 'none';
  /** Blocks before the first section. */
  front: Paragraph[];
  sections: Section[];
  diagnostics: DiagnosticRecord[];
}

const STAGE = 'serialize';

/** A block's language: its own (set by language identification), else the document's /Lang. */
const blockLang = (block: Block, doc: DocRecord): string | null => validLang((block as Block & { lang?: unknown }).lang) ?? validLang(doc.meta.lang);

/** The structure of one document (pure). */
export function documentStructure(doc: DocRecord, allPages: readonly PageRecord[], partial: Partial<StructureOptions> = {}): Structure {
  const options = { ...DEFAULTS, ...partial };
  const diagnostics: DiagnosticRecord[] = [];
  // Ids are made of page numbers: a page number seen twice would give two blocks one id.
  const seenPages = new Set<number>();
  const pages = allPages.filter((p) => !seenPages.has(p.page) && seenPages.add(p.page));
  if (pages.length < allPages.length) {
    diagnostics.push(diagnostic(doc.id, STAGE, 'duplicate-page', `Ignored ${allPages.length - pages.length} page records whose page number came before`, { count: allPages.length - pages.length }));
  }
  const body = bodySize(pages);
  const roles = new Map<string, StructureRole>();
  const first = pages.find((p) => (p.blocks ?? []).some((b) => !FURNITURE_ROLES.has(b.role) && letters(b.text) > 0));
  if (first && first.page !== 1) {
    diagnostics.push(diagnostic(doc.id, STAGE, 'no-text-on-first-page', `Page 1 has no text; the front matter was looked for on page ${first.page}`, { place: { page: first.page } }));
  }
  const layout = layoutSource(first, body, roles);
  const infoDict = doc.meta.info ?? {};
  const { source: info, reason: infoReason } = fieldSource({ title: infoDict.Title, author: infoDict.Author, keywords: infoDict.Keywords, description: infoDict.Subject }, doc.id);
  const xmpDict = doc.meta.xmp ?? {};
  const { source: xmp, reason: xmpReason } = fieldSource(
    { title: xmpDict['dc:title'], author: xmpDict['dc:creator'], keywords: xmpDict['pdf:keywords'] ?? xmpDict['dc:subject'], description: xmpDict['dc:description'] },
    doc.id,
  );
  let metaFrom: Structure['metaFrom'] = 'none';
  let meta: MetaSource = layout;
  const chosen = info.title !== null ? info : xmp.title !== null ? xmp : null;
  if (chosen) {
    metaFrom = chosen === info ? 'info' : 'xmp';
    // The dictionary's title is the title; dictionaries are thin, so the other one and the page fill the gaps.
    const other = chosen === info ? xmp : info;
    const pick = <T>(list: (T[] | T | null)[]): T[] | T | null => list.find((v) => (Array.isArray(v) ? v.length > 0 : v !== null)) ?? null;
    meta = {
      title: chosen.title,
      authors: (pick([chosen.authors, other.authors, layout.authors]) as string[] | null) ?? [],
      affiliations: layout.affiliations,
      emails: (pick([chosen.emails, other.emails, layout.emails]) as string[] | null) ?? [],
      keywords: (pick([chosen.keywords, other.keywords, layout.keywords]) as string[] | null) ?? [],
      abstract: chosen.abstract ?? other.abstract ?? layout.abstract,
    };
  } else if (layout.title !== null) {
    metaFrom = 'layout';
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'title-from-layout', `The title was taken from the layout of page ${first?.page ?? 1}: the Info dictionary's was not used because ${infoReason}, the XMP metadata's because ${xmpReason}`, { severity: 'info' }),
    );
  } else {
    diagnostics.push(diagnostic(doc.id, STAGE, 'no-title', 'No title was found, neither in the Info dictionary or XMP metadata nor on the first page'));
  }

  let starts = outlineStarts(doc, pages, diagnostics);
  let sectionsFrom: Structure['sectionsFrom'] = 'outline';
  if (starts.length === 0) {
    starts = layoutStarts(pages, body, roles, options);
    sectionsFrom = starts.length > 0 ? 'layout' : 'none';
    if (starts.length > 0) {
      diagnostics.push(diagnostic(doc.id, STAGE, 'sections-from-layout', `The PDF has no usable outline; ${starts.length} headings were found by size, numbering and capitals`, { severity: 'info', count: starts.length }));
    }
  }

  // Every block, in reading order, with its role; keywords over the paragraphs that carry text.
  const all: Paragraph[] = [];
  const position = new Map<string, number>();
  for (const page of pages) {
    (page.blocks ?? []).forEach((block, index) => {
      const id = blockId(page.page, index + 1);
      position.set(`${page.page}:${index}`, all.length);
      const paragraph: Paragraph = { id, page: page.page, box: block.box, role: roles.get(id) ?? block.role, lang: blockLang(block, doc), dir: block.dir === 'rtl' ? 'rtl' : 'ltr', text: collapse(block.text), continues: block.continues, keywords: [] };
      const row = rowCells(block);
      if (row) paragraph.row = row;
      all.push(paragraph);
    });
  }
  const textual = all.filter((p) => !FURNITURE_ROLES.has(p.role as Block['role']) && p.text !== '');
  // A paragraph continued across a page or column is one paragraph for its keywords.
  const groups: Paragraph[][] = [];
  for (const p of textual) {
    const last = groups[groups.length - 1];
    if (p.continues && last) last.push(p);
    else groups.push([p]);
  }
  const keywords = tfidfKeywords(groups.map((g) => ({ text: g.map((p) => p.text).join(' '), lang: g[0]!.lang })), options.keywords);
  groups.forEach((g, i) => {
    g[0]!.keywords = keywords[i] ?? [];
  });

  // Nest: each start opens a section at its level; blocks go to the innermost open section.
  const front: Paragraph[] = [];
  const roots: Section[] = [];
  const startAt = new Map<number, Start[]>();
  for (const start of starts) {
    const at = position.get(`${start.page}:${start.index}`) ?? all.length;
    const list = startAt.get(at) ?? [];
    list.push(start);
    startAt.set(at, list);
  }
  let sectionCount = 0;
  // The stack holds each open section with the rank it was opened at (outline depth, numbering
  // depth or size rank); a section's level is its depth in the tree.
  const stack: { section: Section; rank: number }[] = [];
  const open = (start: Start, heading: Paragraph | null): void => {
    while (stack.length > 0 && stack[stack.length - 1]!.rank >= start.level) stack.pop();
    const section: Section = {
      id: sectionId(++sectionCount),
      level: stack.length + 1,
      from: start.from,
      number: start.number,
      title: start.title,
      page: start.page,
      heading,
      more: [],
      paragraphs: [],
      sections: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.section.sections.push(section);
    else roots.push(section);
    stack.push({ section, rank: start.level });
  };
  for (let i = 0; i <= all.length; i++) {
    const opening = startAt.get(i) ?? [];
    let consumed = false;
    let skip = 0;
    for (const start of opening) {
      const paragraph = all[i];
      if (start.runIn && paragraph && paragraph.text.startsWith(start.title)) {
        // The heading leaves the paragraph, which stays (with its id) as the section's first.
        paragraph.text = paragraph.text.slice(start.title.length).replace(/^[\s.:]+/u, '');
        open(start, null);
        continue;
      }
      const heading = start.onBlock && !consumed ? paragraph ?? null : null;
      open(start, heading);
      if (heading) {
        heading.role = 'heading';
        consumed = true;
        const section = stack[stack.length - 1]!.section;
        for (let k = 1; k < start.span && all[i + k]; k++) section.more.push(all[i + k]!.id);
        skip = Math.max(0, start.span - 1);
      }
    }
    const paragraph = all[i];
    if (skip > 0) {
      i += skip;
      continue;
    }
    if (!paragraph || consumed) continue;
    const current = stack[stack.length - 1];
    if (current) current.section.paragraphs.push(paragraph);
    else front.push(paragraph);
  }
  return { id: doc.id, source: doc.source, pages: doc.meta.pages ?? pages.length, lang: validLang(doc.meta.lang), metaFrom, meta, info, xmp, layout, sectionsFrom, front, sections: roots, diagnostics };
}
