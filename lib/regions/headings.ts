/**
 * Section headings: their numbering ("2.3 Results", "IV. DISCUSSION", "Appendix A") and depth, and
 * headings found in the layout: short blocks without final punctuation that are larger than the
 * body text, or numbered, or all in capitals, or set in a font of their own; headings run into
 * their paragraph's first line; a heading broken over two blocks.
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';
import { AFFILIATION } from '../formats/metadata.js';
import { collapse, letters, UNSPACED, words } from '../formats/words.js';

/** The heading thresholds of the layout, as the structure's options set them. */
export interface HeadingOptions {
  /** A layout heading is at least this × the body text size (unless numbered or in capitals). */
  headingSize: number;
  /** A layout heading has at most this many words. */
  headingMaxWords: number;
}

/** Section numbering at the start of a heading: "2.3", "2.3.", "IV.", "A." (with a letter after it). */
export const NUMBERING = /^((?:\d{1,2}(?:\.\d{1,2})*\.?)|(?:[IVX]{1,5}\.)|(?:[A-H]\.))\s+(?=[\p{Lu}\p{Lo}])/u;

/** An appendix heading: "Appendix A: Proofs", "APPENDIX B. TABLES". */
export const APPENDIX = /^appendix\s+([A-Z]|\d{1,2})\b[.:]?\s+(?=[\p{Lu}\p{Lo}])/iu;

/** The numbering of a heading and its depth, or null. */
export function headingNumber(text: string): { number: string; depth: number } | null {
  const appendix = APPENDIX.exec(text);
  if (appendix) return { number: appendix[1] ?? '', depth: 1 };
  const match = NUMBERING.exec(text);
  if (!match) return null;
  const raw = match[1]!.replace(/\.$/, '');
  if (/^\d/.test(raw)) {
    const parts = raw.split('.');
    if (Number(parts[0]) === 0 || Number(parts[0]) > 30) return null;
    return { number: raw, depth: parts.length };
  }
  // Roman numerals are top-level sections (RevTeX's "II. METHODS"); single capitals one below.
  return { number: raw, depth: /^[IVX]+$/.test(raw) && raw !== 'X' ? 1 : 2 };
}

/** True for text written in capitals (at least four letters, no lower-case letter). */
function allCaps(text: string): boolean {
  return letters(text) >= 4 && !/\p{Ll}/u.test(text) && /\p{Lu}/u.test(text);
}

/** The size most characters of the document's body are set in. */
export function bodySize(pages: readonly PageRecord[]): number {
  const weight = new Map<number, number>();
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote') continue;
      const size = Math.round(block.size * 2) / 2;
      weight.set(size, (weight.get(size) ?? 0) + block.text.length);
    }
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, w] of weight) if (w > bestWeight) [best, bestWeight] = [size, w];
  return best || 10;
}

/** Headings that papers use without numbers and often in the body's own size. */
export const KNOWN_SECTION =
  /^(acknowledge?ments?|references|bibliography|conclusions?|introduction|appendix|discussion|summary and conclusions?|einleitung|literatur(verzeichnis)?|danksagung|remerciements|références|bibliographie|introducción|referencias|agradecimientos|введение|литература|заключение)$/iu;

/** Front-matter labels: metadata, not sections. */
const LABEL_ONLY = /^(abstract|summary|key\s*words|index terms)$/iu;

/**
 * True when a text can be a heading's: not a formula (no `=`, no operator at its end), some words
 * of three letters or more once the numbering is taken off, not a front-matter label.
 */
function isHeadingText(text: string): boolean {
  if (/[+−×·^_]$|\s-$/u.test(text) || LABEL_ONLY.test(text)) return false;
  // A sentence cut before its end ("3 The corresponding values in relation (29) is").
  if (/\s(is|are|was|were|the|of|and|to|that|a|an|with|for|in|by)$/u.test(text)) return false;
  // An institution with its address ("I. Physikalisches Institut, RWTH, D-52056 Aachen").
  if (AFFILIATION.test(text) && text.includes(',')) return false;
  const rest = text.replace(APPENDIX, '').replace(NUMBERING, '');
  if (UNSPACED.test(rest)) return letters(rest) >= 2;
  const longWords = rest.split(/\s+/u).filter((w) => letters(w) >= 3);
  // A relation is a formula unless it sits in a sentence of words ("Models with θ13 = 0").
  if (/[=≡≈≤≥∑∫]/u.test(text) && longWords.length < 3) return false;
  return longWords.reduce((n, w) => n + letters(w), 0) >= 4;
}

/**
 * Fonts that set headings in the body's own size (a bold face): not the body's font, used by at
 * least two blocks, three quarters of them single short lines without final punctuation, and for
 * under 15% of the text.
 */
export function headingFonts(pages: readonly PageRecord[]): Set<string> {
  const chars = new Map<string, number>();
  const blocks = new Map<string, { total: number; short: number }>();
  let all = 0;
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote') continue;
      const text = collapse(block.text);
      chars.set(block.font, (chars.get(block.font) ?? 0) + text.length);
      all += text.length;
      const entry = blocks.get(block.font) ?? { total: 0, short: 0 };
      entry.total += 1;
      if (block.lines === 1 && words(text).length <= 10 && !/[.,;:]$/u.test(text) && isHeadingText(text)) entry.short += 1;
      blocks.set(block.font, entry);
    }
  }
  let bodyFont = '';
  for (const [font, n] of chars) if (n > (chars.get(bodyFont) ?? -1)) bodyFont = font;
  const out = new Set<string>();
  for (const [font, { total, short }] of blocks) {
    if (font !== bodyFont && short >= 2 && short >= total * 0.75 && (chars.get(font) ?? 0) < all * 0.15) out.add(font);
  }
  return out;
}

/** True when a block looks like a section heading by its layout. */
export function looksLikeHeading(block: Block, body: number, options: HeadingOptions, fonts: ReadonlySet<string> = new Set()): boolean {
  // A paragraph of more lines than a heading has is let go before its text is read (most blocks).
  if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote' || block.role === 'caption' || block.lines > 3) return false;
  const text = collapse(block.text);
  const count = words(text).length;
  const numbered = headingNumber(text);
  // The numbering and "Appendix A" count as words too.
  if (count === 0 || count > options.headingMaxWords + (numbered ? 2 : 0) || text.length > 160) return false;
  if (letters(text) < (UNSPACED.test(text) ? 2 : 3) || letters(text) < text.length * 0.5) return false;
  // A final stop only after a numeral ("IV.", "Article 5.", a letter numeral "סעיף יא.").
  if (/[.,;:=]$/u.test(text) && !/^([IVX]+|\d+)\.$/u.test(text) && !/\s[\p{L}\p{N}]{1,3}\.$/u.test(text)) return false;
  if (!/^[\p{Lu}\p{Lo}\d]/u.test(text)) return false;
  if (/^(figure|fig\.|table|tab\.)\s*\d/iu.test(text)) return false;
  if (!isHeadingText(text)) return false;
  if (numbered || (KNOWN_SECTION.test(text) && block.lines === 1)) return block.size >= body * 0.85;
  if (allCaps(text) && count <= 8) return block.size >= body * 0.85;
  if (fonts.has(block.font) && block.lines === 1 && count <= 10) return block.size >= body * 0.85;
  return block.role === 'heading' || block.size >= body * options.headingSize;
}

/** A numbered heading in capitals, followed by a sentence ("IV. GROUND STATE We now …"). */
const RUN_IN_CAPS = /^((?:[IVX]{1,5}\.|\d{1,2}(?:\.\d{1,2})*\.?)(?:\s+[\p{Lu}\d][\p{Lu}\d'’-]*)+)\s+(?=\p{Lu}\p{Ll}+\s)/u;

/** "2.2. Title words. " at the start of a paragraph: a numbered run-in heading ended by a full stop. */
const RUN_IN_STOPPED = /^(\d{1,2}(?:\.\d{1,2})+\.\s+[^.]{3,80}?)\.\s+(?=[\p{Lu}\d])/u;

/** Marks that end a line inside a block's text (the joins `paragraphs` made). */
const LINE_JOINS = new Set(['line-join', 'dehyphenate', 'keep-hyphen', 'no-space-script']);

/**
 * The first line of a block that starts with a numbered heading run into its paragraph
 * ("1. Introduction" on its own line, set like the text below it, so `paragraphs` joined them),
 * or null. The line must be short against the block (under 70% of its width, measured on the
 * page's line when it is found) and the next line must start a sentence.
 */
export function runInHeading(block: Block, page: PageRecord): string | null {
  if (block.role !== 'body' && block.role !== 'list-item') return null;
  // A numbered heading in capitals, then the paragraph's words: "IV. GROUND STATE We now minimize …".
  const caps = RUN_IN_CAPS.exec(block.text);
  if (caps && isHeadingText(caps[1]!) && words(block.text.slice(caps[0].length)).length >= 2) return collapse(caps[1]!);
  // A subsection run in with a full stop, as AMS styles set them: "2.2. Adams operations. There are …".
  const stopped = RUN_IN_STOPPED.exec(block.text);
  if (stopped && isHeadingText(stopped[1]!)) return collapse(stopped[1]!);
  if (block.lines < 2) return null;
  const mark = block.inferred.find((m) => LINE_JOINS.has(m.rule));
  if (!mark) return null;
  const first = block.text.slice(0, mark.at).trim();
  const next = block.text.slice(mark.kind === 'break' ? mark.at + 1 : mark.at);
  if (!headingNumber(first) || words(first).length > 10 || first.length > 70 || /[.,;:]$/u.test(first) || !isHeadingText(first)) return null;
  if (!/^[\p{Lu}\p{Lo}\d]/u.test(next)) return null;
  const line = (page.lines ?? []).find((l) => collapse(l.text) === collapse(first) && l.box.y >= block.box.y - 1 && l.box.y <= block.box.y + block.size * 2);
  const width = line ? line.box.w : first.length * block.size * 0.5;
  return width < block.box.w * 0.7 ? collapse(first) : null;
}

/** True when `next` continues the heading `block` on the line below (same font and size, right under it). */
export function continuesHeading(block: Block, next: Block | undefined): boolean {
  if (!next || next.font !== block.font || Math.abs(next.size - block.size) > 0.3 || next.lines > 2) return false;
  const text = collapse(next.text);
  if (words(text).length > 10 || headingNumber(text) || /[.;:]$/u.test(text)) return false;
  const gap = next.box.y - (block.box.y + block.box.h);
  return gap > -block.size * 0.5 && gap < block.size * 0.8 && Math.abs(next.box.x - block.box.x) < block.size * 20;
}
