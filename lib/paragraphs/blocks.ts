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
  let previousBody: Block | null = null;
  const pages = group.pages.map((page) => {
    const lines = page.lines ?? [];
    const blocks: Block[] = [];
    const bodyBottom = Math.max(0, ...lines.filter((l) => !l.role && Math.abs(l.size - body) < 0.5).map((l) => l.box.y + l.box.h));
    let index = 0;
    while (index < lines.length) {
      const blockId = lines[index]!.block;
      const group: Line[] = [];
      while (index < lines.length && lines[index]!.block === blockId) group.push(lines[index++]!);
      // Furniture is one block as it stands; a passage `order` set apart (a margin note) keeps its role.
      const given = group.find((l) => l.role)?.role;
      const furniture = given && FURNITURE_ROLES.has(given) ? given : undefined;
      const parts = furniture ? [group] : splitParagraphs(group, options);
      parts.forEach((part, partIndex) => {
        const size = median(part.map((l) => l.size));
        let role: Role = given ?? 'body';
        const first = part[0]!;
        if (!given) {
          if (size >= options.headingSize * body && part.length <= options.headingMaxLines) role = 'heading';
          else if (BULLET.test(first.text)) role = 'list-item';
          else if (size <= options.footnoteSize * body && first.box.y >= bodyBottom - 1 && part.every((l) => l.box.y > page.height / 2)) role = 'footnote';
        }
        const { text, inferred } = joinLines(part, words);
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

/** A paragraph runs on when the previous one stops mid-sentence and this one does not start a new one. */
function runsOn(previous: Block, next: Block): boolean {
  if (next.role !== 'body' || SENTENCE_END.test(previous.text)) return false;
  return STARTS_LOWER.test(next.text) || /[,\-\u00ad]$/u.test(previous.text) || !/[.!?。]$/u.test(previous.text.trim());
}
