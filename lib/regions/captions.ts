/**
 * Captions of figures and tables. A caption opens with its label and number ("Figure 3.",
 * "Fig. 2:", "Table IV —", "Abbildung 4:"); a sentence of the body that speaks of a figure ("Figure
 * 3 shows …") has no punctuation after the number, so a lead without it counts only before a
 * capital or where the block is set apart from the body (another size or font). A caption broken into several blocks
 * (its lines split by the paragraph rules) goes on in the blocks right below it set like it. A
 * caption's last line that the layout cut off (two captions side by side, their lines mixed with
 * a table's first row) is found by geometry: one line in the caption's type, starting at the left
 * edge of a caption line, right under the caption at the spacing of a line, not of a paragraph.
 */
import type { Block, Line, Role } from '../protocol/records.js';

/** The label words of captions, in the languages pdfpipe meets most. */
const LABEL = String.raw`(?:fig(?:ure)?s?\.?|tab(?:le)?s?\.?|plate|scheme|chart|exhibit|illustration|abb(?:ildung)?\.?|tab(?:elle)?\.?|figura|tabla|tableau|tabela|tabel|rys\.|rysunek|rycina|tabulka|obr(?:ázek)?\.?|рис(?:унок|\.)?|табл(?:ица|\.)?|图|表|圖|図)`;

/** Label, number (arabic, roman, or a letter with a number: "S2", "A.1"), then punctuation. */
const LEAD_PUNCTUATED = new RegExp(String.raw`^${LABEL}\s*(?:[A-Z]?\d{1,3}(?:[.-]\d{1,3})?[a-z]?|[IVXL]{1,6})\s*(?:[.:|—–]|-\s)`, 'iu');
/**
 * A lead in a language the list does not know: one capitalised word, a number, punctuation
 * ("Rycina 1.", "Kuva 3:", "Şekil 2."). It counts only in type smaller than the body's, where a
 * heading ("Chapter 3.", larger or the body's size) cannot be.
 */
const LEAD_ANY_WORD = /^\p{Lu}\p{Ll}{2,14}\.?\s*(?:\d{1,3}(?:[.-]\d{1,3})?[a-z]?|[IVXL]{1,6})\s*[.:|—–]\s+\p{Lu}/u;

/** The same lead without the punctuation. */
const LEAD = new RegExp(String.raw`^${LABEL}\s*(?:[A-Z]?\d{1,3}(?:[.-]\d{1,3})?[a-z]?|[IVXL]{1,6})(?=\s|$)`, 'iu');

/** What the caption rules compare a block with: the document's body text. */
export interface BodyStyle {
  size: number;
  font: string;
}

/** Sizes within this share of each other are one size (a font's sizes round differently page to page). */
const SAME_SIZE = 0.05;

/** True when a block's size or font sets it apart from the body text. */
export function setApart(block: Block, body: BodyStyle): boolean {
  return Math.abs(block.size - body.size) > body.size * SAME_SIZE || block.font !== body.font;
}

/** True when a block opens a caption. */
export function opensCaption(block: Block, body: BodyStyle): boolean {
  const text = block.text.trimStart();
  if (LEAD_PUNCTUATED.test(text)) return true;
  if (LEAD_ANY_WORD.test(text) && block.size < body.size * (1 - SAME_SIZE)) return true;
  const lead = LEAD.exec(text);
  if (!lead) return false;
  // Without punctuation, a capital after the number (or after a panel's letter) opens a caption's
  // own sentence ("Fig.1 The charge distribution…", "Fig.2 (a)The…", a list of captions set in
  // the body's type); a sentence of the body
  // goes on in lower case ("Fig. 3 shows").
  if (/^\s+(?:\(\p{Ll}\)\s*)?\p{Lu}\p{Ll}/u.test(text.slice(lead[0].length))) return true;
  // Otherwise: apart from the body, and not a sentence about the figure ("Fig. 3 shows").
  return setApart(block, body) && !/^\S+\s*\S+\s+(shows?|gives?|displays?|presents?|compares?|illustrates?|summari[sz]es?|lists?|is|are)\b/iu.test(text);
}

/**
 * Marks the captions of one page's blocks (in reading order): each block that opens one, and the
 * blocks right after it set in the caption's size and font, apart from the body, within a line
 * gap. Returns how many blocks it marked.
 */
export function markCaptions(blocks: readonly Block[], body: BodyStyle, lines: readonly Line[] = []): number {
  let marked = 0;
  let caption: Block | null = null;
  for (const block of blocks) {
    if (block.role === 'header' || block.role === 'footer' || block.role === 'page-number') continue;
    if (opensCaption(block, body)) {
      block.role = 'caption';
      caption = block;
      marked++;
      continue;
    }
    if (caption && continuesCaption(caption, block, body)) {
      block.role = 'caption';
      block.continues = false;
      caption = block;
      marked++;
      continue;
    }
    caption = null;
  }
  return marked + markCaptionTails(blocks, lines);
}

/** A caption's cut-off line starts within this share of the caption's size of a caption line's left edge. */
const ALIGNED = 0.25;
/** …and stands at most this × the caption's size under it: a line's leading, less than a paragraph's space. */
const LINE_LEADING = 0.5;
/** The roles `paragraphs` gives a line cut off from its caption. */
const TAIL_ROLES: ReadonlySet<Role> = new Set(['body', 'list-item', 'other']);

/**
 * Marks the one-line blocks that end a caption the layout cut short, wherever they fall in the
 * reading order: in the caption's size and font, right under its lines (the gap of a line), and
 * starting at the left edge of one of them. Returns how many it marked.
 */
function markCaptionTails(blocks: readonly Block[], lines: readonly Line[]): number {
  let marked = 0;
  const starts = lineStarts(blocks, lines);
  blocks.forEach((caption, index) => {
    if (caption.role !== 'caption') return;
    const own = starts ? lines.slice(starts[index], starts[index]! + caption.lines) : [];
    const lefts = own.length > 0 ? own.map((l) => l.box.x) : [caption.box.x];
    const bottom = caption.box.y + caption.box.h;
    const tolerance = caption.size * ALIGNED;
    const tail = blocks.find((b) => TAIL_ROLES.has(b.role) && b.lines === 1 && sameType(b, caption) &&
      b.box.y - bottom > -tolerance && b.box.y - bottom <= caption.size * LINE_LEADING &&
      b.box.x + b.box.w <= caption.box.x + caption.box.w + tolerance &&
      lefts.some((x) => Math.abs(b.box.x - x) <= tolerance));
    if (!tail) return;
    tail.role = 'caption';
    tail.continues = false;
    marked++;
  });
  return marked;
}

/**
 * Where each block's lines start in the page's lines, which `paragraphs` writes block after block
 * (a line's `block` is the layout block of `order`, which paragraphs may cut); null when the counts disagree.
 */
function lineStarts(blocks: readonly Block[], lines: readonly Line[]): number[] | null {
  const starts: number[] = [];
  let at = 0;
  for (const block of blocks) {
    starts.push(at);
    at += block.lines;
  }
  return at === lines.length ? starts : null;
}

const sameType = (a: Block, b: Block): boolean => a.font === b.font && Math.abs(a.size - b.size) <= b.size * SAME_SIZE;

/** A block right under a caption's last block, set like it and apart from the body. */
function continuesCaption(caption: Block, block: Block, body: BodyStyle): boolean {
  if (!setApart(block, body) || Math.abs(block.size - caption.size) > caption.size * SAME_SIZE) return false;
  const gap = block.box.y - (caption.box.y + caption.box.h);
  const overlaps = block.box.x < caption.box.x + caption.box.w && caption.box.x < block.box.x + block.box.w;
  return overlaps && gap > -caption.size && gap < caption.size * 1.5;
}
