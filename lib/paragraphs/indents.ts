/**
 * First-line indents: whether a document starts its paragraphs with one, and whether the
 * paragraph after a break starts flush (then it runs on from the one before).
 */
import type { Block, Line, PageRecord } from '../protocol/records.js';
import { joinable, linesOfBlocks } from './breaks.js';

/** Start of a line on the side where its text begins (the right for right-to-left text). */
const startOf = (line: Line): number => (line.dir === 'rtl' ? -(line.box.x + line.box.w) : line.box.x);

/**
 * Whether a paragraph's first line is set in from its second by more than half a font size (and at
 * most 4 × size, an indent's width); null when the lines do not tell (one line, or starts that
 * differ too much for an indent: a centred or broken line).
 */
function indentOf(lines: readonly Line[]): boolean | null {
  const [first, second] = lines;
  if (!first || !second || first.dir !== second.dir) return null;
  const indent = startOf(first) - startOf(second);
  if (indent > 4 * first.size || indent < -0.5 * first.size) return null;
  return indent > 0.5 * first.size;
}

/**
 * Whether the document starts its paragraphs with an indent: at least five of its body paragraphs
 * of two lines or more, and a quarter of them, have an indented first line (not most: the halves
 * after a break, the text after a formula, references and captions start flush). Then an
 * unindented first line after a break continues a paragraph.
 */
export function indentsParagraphs(pages: readonly PageRecord[]): boolean {
  let indented = 0;
  let counted = 0;
  for (const page of pages) {
    const lines = linesOfBlocks(page);
    (page.blocks ?? []).forEach((block, index) => {
      const own = lines?.[index];
      if (!joinable(block) || !own) return;
      const indent = indentOf(own);
      if (indent === null) return;
      counted++;
      if (indent) indented++;
    });
  }
  return indented >= 5 && indented >= 0.25 * counted;
}

/**
 * The paragraph after a break starts flush: its first line is not set in from its second, or, for
 * a paragraph of one line, from the lines of its column on the page (within `3 × size` of it).
 */
export function unindented(block: Block, lines: readonly Line[] | undefined, column: readonly Line[]): boolean {
  if (!joinable(block) || !lines?.[0]) return false;
  const own = indentOf(lines);
  if (own !== null) return !own;
  const first = lines[0];
  const near = column.filter((l) => l !== first && l.dir === first.dir && Math.abs(startOf(l) - startOf(first)) <= 3 * first.size);
  return near.length > 0 && near.every((l) => startOf(first) - startOf(l) <= 0.5 * first.size);
}

