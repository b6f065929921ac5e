/**
 * The core of the paragraphs stage: the lines of each layout block split into paragraphs, each
 * given a role (heading, list item, footnote, or body; furniture keeps its own), its lines joined,
 * and marked `continues` where it runs on from the last body paragraph before it. Works per
 * document, because body size and run-on paragraphs span pages.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { median, mostCommon, unionBox } from '../layout/geometry.js';
import { FURNITURE_ROLES, type Block, type Line, type PageRecord, type Role } from '../protocol/records.js';
import { joinLines, vocabulary } from './hyphens.js';
import { roomForNextSyllable } from './hangul.js';
import { BULLET, SENTENCE_END, splitParagraphs, type SplitOptions } from './split.js';
import { majorityTag } from '../regions/tags.js';

/** What the core reads besides `SplitOptions`: the sizes and lengths of headings and footnotes. */
export interface RoleOptions {
  /** A paragraph of at most this many lines set this much larger than body text is a heading. */
  headingSize: number;
  headingMaxLines: number;
  /** Text at most this × body size at the foot of a page, below the body, is a footnote. */
  footnoteSize: number;
}

const STARTS_LOWER = /^\p{Ll}/u;

/** The size of body text: the size that carries most characters. */
export function bodySize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    if (line.role && FURNITURE_ROLES.has(line.role)) continue;
    const size = Math.round(line.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/** The pure core: blocks for every page of one document. */
export function blocksOfDocument(group: DocumentGroup, options: SplitOptions & RoleOptions): { pages: PageRecord[] } {
  const allLines = group.pages.flatMap((p) => p.lines ?? []);
  const words = vocabulary(allLines);
  const body = bodySize(allLines);
  // Each page's layout blocks (runs of lines with one block number), split into paragraphs but
  // table rows and furniture, which stay as they stand.
  const pageBlocks = group.pages.map((page) => {
    const lines = page.lines ?? [];
    const found: { lines: Line[]; given: Role | undefined; furniture: Role | undefined; parts: Line[][] }[] = [];
    let index = 0;
    while (index < lines.length) {
      const blockId = lines[index]!.block;
      const group: Line[] = [];
      while (index < lines.length && lines[index]!.block === blockId) group.push(lines[index++]!);
      const given = group.find((l) => l.role)?.role;
      const furniture = given && FURNITURE_ROLES.has(given) ? given : undefined;
      found.push({ lines: group, given, furniture, parts: group[0]!.cell || furniture ? [group] : splitParagraphs(group, options) });
    }
    return found;
  });
  // Korean: whether the producer breaks lines only at spaces, from the paragraphs of body text.
  if (words.hangul) {
    words.hangul.spacesOnly = group.pages.some((page, p) =>
      pageBlocks[p]!.some((b) => !b.furniture && !b.lines[0]!.cell && b.parts.some((part) => Math.abs(median(part.map((l) => l.size)) - body) < 0.5 && roomForNextSyllable(part, page.items ?? []))),
    );
  }
  let previousBody: Block | null = null;
  const pages = group.pages.map((page, p) => {
    const lines = page.lines ?? [];
    const blocks: Block[] = [];
    const bodyBottom = Math.max(0, ...lines.filter((l) => !l.role && Math.abs(l.size - body) < 0.5).map((l) => l.box.y + l.box.h));
    for (const { lines: group, given, parts } of pageBlocks[p]!) {
      if (group[0]!.cell) {
        blocks.push(tableRowBlock(group, words));
        continue;
      }
      parts.forEach((part, partIndex) => {
        const size = median(part.map((l) => l.size));
        let role: Role = given ?? 'body';
        const first = part[0]!;
        if (!given) {
          if (size >= options.headingSize * body && part.length <= options.headingMaxLines) role = 'heading';
          else if (BULLET.test(first.text)) role = 'list-item';
          else if (size <= options.footnoteSize * body && first.box.y >= bodyBottom - 1 && part.every((l) => l.box.y > page.height / 2)) role = 'footnote';
        }
        const { text, inferred, refs } = joinLines(part, words);
        const block: Block = {
          text,
          box: unionBox(part.map((l) => l.box)),
          role,
          font: mostCommon(part.map((l) => l.font)),
          size: Math.round(size * 100) / 100,
          dir: mostCommon(part.map((l) => l.dir)) === 'rtl' ? 'rtl' : 'ltr',
          continues: false,
          lines: part.length,
          inferred,
        };
        const tag = majorityTag(part);
        if (tag !== undefined) block.tag = tag;
        if (refs.length > 0) block.refs = refs;
        if (first.label !== undefined) block.label = first.label;
        // The first paragraph of a layout block may run on from the last body paragraph before it.
        if (partIndex === 0 && role !== 'heading' && role !== 'margin-note' && previousBody && runsOn(previousBody, block)) block.continues = true;
        if (role === 'body' || role === 'list-item') previousBody = block;
        else if (role === 'heading') previousBody = null;
        blocks.push(block);
      });
    }
    return { ...page, blocks };
  });
  return { pages };
}

/**
 * A table row found by `order` as one paragraph of role `table`: each cell's lines joined as a
 * paragraph's are (a wrapped cell is one run of words), the cells in column order separated by a
 * space, each cell's stretch of the text kept in `table`.
 */
function tableRowBlock(lines: readonly Line[], words: ReturnType<typeof vocabulary>): Block {
  const cells: Line[][] = [];
  for (const line of lines) {
    const last = cells[cells.length - 1];
    if (last && last[0]!.cell!.col === line.cell!.col) last.push(line);
    else cells.push([line]);
  }
  let text = '';
  const inferred: Block['inferred'] = [];
  const placed: NonNullable<Block['table']>['cells'] = [];
  for (const cell of cells) {
    if (text.length > 0) {
      inferred.push({ at: text.length, kind: 'space', rule: 'table-cell' });
      text += ' ';
    }
    const joined = joinLines(cell, words);
    for (const mark of joined.inferred) inferred.push({ ...mark, at: mark.at + text.length });
    const place = cell[0]!.cell!;
    placed.push({ col: place.col, span: place.span, start: text.length, end: text.length + joined.text.length });
    text += joined.text;
  }
  const first = lines[0]!.cell!;
  const block: Block = {
    text,
    box: unionBox(lines.map((l) => l.box)),
    role: 'table',
    font: mostCommon(lines.map((l) => l.font)),
    size: Math.round(median(lines.map((l) => l.size)) * 100) / 100,
    dir: mostCommon(lines.map((l) => l.dir)) === 'rtl' ? 'rtl' : 'ltr',
    continues: false,
    lines: lines.length,
    inferred,
    table: { table: first.table, row: first.row, header: first.header === true, cells: placed },
  };
  const tag = majorityTag(lines);
  if (tag !== undefined) block.tag = tag;
  return block;
}

/**
 * A paragraph runs on when the previous one stops mid-sentence and this one does not start a new
 * one. A closing bracket (an equation's number, a citation) may end a sentence or not: only a
 * lower-case start goes on after it.
 */
function runsOn(previous: Block, next: Block): boolean {
  if (next.role !== 'body' || SENTENCE_END.test(previous.text)) return false;
  if (/[)\]]\s*$/u.test(previous.text)) return STARTS_LOWER.test(next.text);
  return STARTS_LOWER.test(next.text) || /[,\-\u00ad]$/u.test(previous.text) || !/[.!?。]$/u.test(previous.text.trim());
}
