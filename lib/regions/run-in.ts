/**
 * Headings that the paragraph rules left inside their paragraph: a first line set in a bold face
 * of the body's own size ("Article 5" over its text, where the size changes too little to split
 * on), or a numbered heading run into the first line ("IV. GROUND STATE We now …", "2.2. Adams
 * operations. There are …"). Each is split off as a block of its own with the role `heading`.
 */
import type { Block, InferredMark, Line, PageRecord } from '../protocol/records.js';
import { collapse, words } from '../formats/words.js';
import { headingNumber, runInHeading } from './headings.js';

/** A font name that says bold (or heavier): the face headings are set in at the body's size. */
const BOLD_FACE = /bold|black|heavy|semibold|demi|[-_,]bd\b|[-_,]b$|cmbx|bx\d/iu;

/** A heading line is at most this share of its paragraph's width, and this many words. */
const HEADING_WIDTH = 0.7;
const HEADING_WORDS = 8;

/** The marks that end a line inside a block's text. */
const LINE_JOINS = new Set(['line-join', 'dehyphenate', 'keep-hyphen', 'no-space-script']);

/** The page line a block's text starts with, found by its text inside the block's box. */
function firstLine(block: Block, lines: readonly Line[], text: string): Line | undefined {
  return lines.find((l) => collapse(l.text) === text && l.box.y >= block.box.y - 1 && l.box.y <= block.box.y + block.size * 2 && l.box.x >= block.box.x - 1);
}

/**
 * Where a block's heading ends (a UTF-16 offset into its text) when its first line is a heading
 * set in a bold face apart from the lines below it, or a numbered run-in heading; else null.
 */
export function headingEnd(block: Block, page: PageRecord, bodyFont: string): number | null {
  if ((block.role !== 'body' && block.role !== 'list-item') || block.lines < 2) return null;
  const runIn = runInHeading(block, page);
  if (runIn && block.text.startsWith(runIn)) return runIn.length;
  const mark = block.inferred.find((m) => LINE_JOINS.has(m.rule));
  if (!mark) return null;
  const text = collapse(block.text.slice(0, mark.at));
  if (text === '' || words(text).length > HEADING_WORDS || /[,;:]$/u.test(text)) return null;
  const line = firstLine(block, page.lines ?? [], text);
  if (!line || line.font === bodyFont || !BOLD_FACE.test(line.font) || BOLD_FACE.test(bodyFont)) return null;
  if (line.box.w > block.box.w * HEADING_WIDTH && !headingNumber(text)) return null;
  // The rest is set in the body's face: the bold line stands apart from it.
  const rest = (page.lines ?? []).filter((l) => l !== line && l.block === line.block && l.box.y > line.box.y && l.box.y < block.box.y + block.box.h);
  if (rest.length === 0 || rest.some((l) => BOLD_FACE.test(l.font))) return null;
  return mark.at;
}

/** Splits every block with a heading in its first line into the heading and the paragraph. */
export function splitRunInHeadings(pages: readonly PageRecord[], bodyFont: string): number {
  let split = 0;
  for (const page of pages) {
    if (!page.blocks) continue;
    const out: Block[] = [];
    for (const block of page.blocks) {
      const end = headingEnd(block, page, bodyFont);
      if (end === null) {
        out.push(block);
        continue;
      }
      out.push(...splitAt(block, end));
      split++;
    }
    page.blocks = out;
  }
  return split;
}

/** The block cut at `end`: a one-line heading and the paragraph after it. */
function splitAt(block: Block, end: number): [Block, Block] {
  const headText = block.text.slice(0, end).trimEnd();
  // What ends a run-in heading ("2.2. Adams operations. There …") goes with neither part.
  const restStart = end + (/^[\s.:—–]*/u.exec(block.text.slice(end))?.[0].length ?? 0);
  const lineHeight = block.box.h / block.lines;
  const shift = (marks: readonly InferredMark[], from: number, to: number, by: number): InferredMark[] =>
    marks.filter((m) => m.at > from && m.at < to).map((m) => ({ ...m, at: m.at - by }));
  const heading: Block = {
    ...block,
    text: headText,
    role: 'heading',
    box: { ...block.box, h: Math.round(lineHeight * 100) / 100 },
    lines: 1,
    inferred: shift(block.inferred, -1, headText.length, 0),
  };
  const body: Block = {
    ...block,
    text: block.text.slice(restStart),
    continues: false,
    box: { ...block.box, y: Math.round((block.box.y + lineHeight) * 100) / 100, h: Math.round((block.box.h - lineHeight) * 100) / 100 },
    lines: block.lines - 1,
    inferred: shift(block.inferred, restStart - 1, block.text.length + 1, restStart),
  };
  return [heading, body];
}
