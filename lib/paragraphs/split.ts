/**
 * Where paragraphs start inside one layout block: at a wider line gap than the block's usual one,
 * at a change of font size, at a list bullet, at a first-line indent, after a short line that
 * ends a sentence in justified text, or after a line ended by choice, not for want of room; in a
 * contents list, after each line that ends in a page number (contents.ts).
 */
import { median } from '../layout/geometry.js';
import { codePoints } from '../lang/scripts.js';
import type { Line } from '../protocol/records.js';
import { NO_SPACE_JOIN } from './hyphens.js';
import { contentsEntryEnds } from './contents.js';

/** What `splitParagraphs` reads: the thresholds that start a paragraph. */
export interface SplitOptions {
  /** A line gap more than this × the block's usual gap starts a paragraph. */
  gapRatio: number;
  /** A change of font size by more than this fraction starts a paragraph. */
  sizeChange: number;
  /** A first line indented by more than this × font size starts a paragraph. */
  indent: number;
  /** A line ended by choice (a paragraph end) when the next line's first word would have fitted
   * in the room left at its end with this much to spare (× font size). */
  chosenBreakRoom: number;
}

/** A list bullet or item number (with the space after it) at the start of a line. */
export const BULLET = /^\s*(?:[•◦▪▫●○■□‣⁃∙·\-–—*]|\(?\d{1,3}[.)]|\(?[a-z][.)]|[ivx]{1,4}[.)])\s+/u;
/**
 * Text that ends a sentence: its mark (any script's: Unicode's Sentence_Terminal, and the colon,
 * semicolon, ellipsis), with closing quotes and brackets after it ("…(see [3].)"). A bracket alone
 * ends no sentence: "…and then use (2)" goes on in the next line.
 */
export const SENTENCE_END = /(?:\p{Sentence_Terminal}|[:;…])[)\]"”»’]*\s*$/u;

/** A word segmenter, made on first use: the first one a thread makes loads ICU's break rules (about 9 ms). */
let words: Intl.Segmenter | undefined;
/** The first word of a text in a script written without spaces, as ICU's word segmenter finds it. */
export const firstSegment = (text: string): string => (words ??= new Intl.Segmenter(undefined, { granularity: 'word' })).segment(text)[Symbol.iterator]().next().value?.segment ?? '';

/**
 * True when a line ended by choice, not for want of room: the next line's first word would have
 * fitted in the space left at its end. Text set without blank lines or indents (plain-text
 * documents, some word processors) shows its paragraph ends only this way.
 *
 *   |The following items were flagged:      |   room at the end ≥ "affidavits" + a space
 *   |affidavits filed after the fifth of the|   → the line was ended on purpose
 *
 * Both lines must start at the block's edge (centred lines are short on both sides), and a line
 * ending in a hyphen was broken for want of room.
 */
export function endsByChoice(previous: Line, line: Line, left: number, rightEdge: number, spare: number): boolean {
  const rtl = previous.dir === 'rtl';
  const start = (l: Line) => (rtl ? rightEdge - (l.box.x + l.box.w) : l.box.x - left);
  if (start(previous) > 0.5 * previous.size || start(line) > 0.5 * line.size) return false;
  const text = line.text.trim();
  if (/[-\u00ad\u2010]$/u.test(previous.text.trim()) || text.length === 0) return false;
  const room = rtl ? previous.box.x - left : rightEdge - (previous.box.x + previous.box.w);
  // In scripts written without spaces a line may break after any word (Thai) or character (CJK).
  const unspaced = NO_SPACE_JOIN.test(text[0] ?? '');
  const firstWord = unspaced ? firstSegment(text) : FIRST_WORD.exec(text)![0];
  // Width per character counts the characters that advance: niqqud and harakat stack on their
  // letter and take no room, and a pointed word is no longer than its letters.
  const perChar = line.box.w / Math.max(1, advancing(text));
  return room > (advancing(firstWord) + (unspaced ? 0 : 1)) * perChar + spare * line.size;
}

/** Non-spacing and enclosing marks: drawn over or under their letter, with no advance of their own. */
const STACKED_MARK = /[\p{Mn}\p{Me}]/gu;

/** How many characters of the text advance the pen (its code points less its stacked marks). */
function advancing(text: string): number {
  return codePoints(text) - (text.match(STACKED_MARK)?.length ?? 0);
}

/** A line within this × font size of a block's edge is flush with it. */
const FLUSH = 0.5;

/** The text up to its first space: its first word when the text is trimmed. */
const FIRST_WORD = /^\S*/u;

/**
 * True when a line stands beside the drop cap of a line above it (lib/layout/initials.ts): it is
 * indented to make room for the initial, not to start a paragraph.
 *
 *   ┌──┐ ong before the harbour…   ← the line with `initial`
 *   │L │ onto the shingle…         ← beside it: top above the initial's bottom, start right of it
 *   └──┘ unpaved, lined with…
 */
export function besideInitial(line: Line, initial: Line['initial']): boolean {
  if (!initial) return false;
  return line.box.y < initial.y + initial.h && line.box.x >= initial.x + initial.w - 0.5 * line.size;
}

/** Any letter: a line with none has no direction of its own. */
const LETTER = /\p{L}/u;

/** A paragraph's last line falls shorter than the lines that run on by more than this × size (see splitParagraphs). */
const RUN_ON_MARGIN = 0.5;

/** At least this many successive lines ending at one place make a measure of their own. */
const MEASURE_RUN = 3;

/**
 * Where each line's measure ends, given where each line ends (`ends`, larger = further along the
 * line): the end shared by the run of successive lines it belongs to, when at least MEASURE_RUN
 * lines end within FLUSH × size of each other; the block's own end (`blockEnds`) otherwise. Lines set round a
 * float run to the float's edge, short of the block's, and are no paragraph's last line for it.
 *
 *   text text text text text text text text text
 *   text text text text text  ┌──────┐             ← ends here, three lines and more:
 *   text text text text text  │ fig. │                a measure of their own
 *   text text text text text  └──────┘
 *   text text text text text text text text text
 */
export function measureEnds(lines: readonly Line[], ends: readonly number[], blockEnds: readonly number[]): number[] {
  const measure = [...blockEnds];
  let start = 0;
  for (let i = 1; i <= lines.length; i++) {
    if (i < lines.length && Math.abs(ends[i]! - ends[i - 1]!) < FLUSH * lines[i]!.size) continue;
    if (i - start >= MEASURE_RUN) {
      const end = Math.max(...ends.slice(start, i));
      for (let k = start; k < i; k++) measure[k] = end;
    }
    start = i;
  }
  return measure;
}

/** Splits the lines of one layout block into paragraphs (arrays of lines). */
export function splitParagraphs(lines: readonly Line[], options: SplitOptions): Line[][] {
  if (lines.length === 0) return [];
  const sizeJump = (a: Line, b: Line): boolean => Math.abs(b.size - a.size) > options.sizeChange * Math.max(a.size, b.size);
  // A contents list: one paragraph per entry, a wrapped title joined to the line with its number
  // (a heading above the list, set larger, is no wrapped title).
  const entryEnds = contentsEntryEnds(lines);
  if (entryEnds) {
    const entries: Line[][] = [[lines[0]!]];
    for (let i = 1; i < lines.length; i++) {
      if (entryEnds[i - 1] || sizeJump(lines[i - 1]!, lines[i]!)) entries.push([lines[i]!]);
      else entries[entries.length - 1]!.push(lines[i]!);
    }
    return entries;
  }
  // The usual line gap is measured between lines of one size: the gap above or below a heading
  // set larger is no line gap of the text, and in a short block it would outvote the text's own.
  const gaps: number[] = [];
  const sameSizeGaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i]!.base - lines[i - 1]!.base;
    if (gap <= 0) continue;
    gaps.push(gap);
    if (!sizeJump(lines[i - 1]!, lines[i]!)) sameSizeGaps.push(gap);
  }
  const usual = median(sameSizeGaps.length > 0 ? sameSizeGaps : gaps);
  const left = Math.min(...lines.map((l) => l.box.x));
  const rightEdge = Math.max(...lines.map((l) => l.box.x + l.box.w));
  // A line starts at the block's left edge and ends at its right, or the other way round in a
  // right-to-left block set flush right (as many lines flush with the right edge as with the left):
  // indents are at the start, the room left by a short line at the end.
  const flushLeft = lines.filter((l) => l.box.x - left < FLUSH * l.size).length;
  const flushRight = lines.filter((l) => rightEdge - (l.box.x + l.box.w) < FLUSH * l.size).length;
  const fromRight = 2 * lines.filter((l) => l.dir === 'rtl').length > lines.length && flushRight >= flushLeft;
  // A line of left-to-right words in such a block (an English paragraph among Hebrew ones) still
  // starts at the left; a line of digits and signs alone (a paragraph's last, ".2026") does not.
  const startsRight = (l: Line): boolean => fromRight && !(l.dir === 'ltr' && LETTER.test(l.text));
  const indent = (l: Line): number => (startsRight(l) ? rightEdge - (l.box.x + l.box.w) : l.box.x - left);
  const lineEnd = (l: Line): number => (startsRight(l) ? -l.box.x : l.box.x + l.box.w);
  const ends = measureEnds(lines, lines.map(lineEnd), lines.map((l) => (startsRight(l) ? -left : rightEdge)));
  const measureEnd = new Map(lines.map((l, i) => [l, ends[i]!]));
  const room = (l: Line): number => measureEnd.get(l)! - lineEnd(l);
  const fullLines = lines.slice(0, -1).filter((l) => room(l) < 0.6 * l.size).length;
  const justified = lines.length >= 3 && fullLines >= 0.6 * (lines.length - 1);
  const indentedLines = lines.filter((l) => indent(l) > options.indent * l.size).length;
  // How far short of the line's end a line that runs on into a flush line falls, at most (the
  // raggedness of the block's lines): CJK set solid falls short by a fraction of an em, ragged
  // Latin by several.
  const runOnRoom = Math.max(0, ...lines.slice(0, -1).filter((l, i) => indent(lines[i + 1]!) <= options.indent * lines[i + 1]!.size).map(room));
  const paragraphs: Line[][] = [[lines[0]!]];
  let initial = lines[0]!.initial;
  for (let i = 1; i < lines.length; i++) {
    const previous = lines[i - 1]!;
    const line = lines[i]!;
    if (line.initial) initial = line.initial;
    const gap = line.base - previous.base;
    const sizeChanged = sizeJump(previous, line);
    const wideGap = usual > 0 && gap > options.gapRatio * usual;
    const bullet = BULLET.test(line.text);
    // First-line indents only mean a new paragraph when indented lines are the minority, or when
    // the line before starts at the edge and ends a sentence, and either indented lines are no
    // more than half (paragraphs of two lines indent every other line) or it stops short, shorter
    // than the lines that run on by RUN_ON_MARGIN em (a paragraph's last line).
    const indentedLine = indent(line) > options.indent * line.size && !besideInitial(line, initial);
    const endsSentence = indent(previous) <= options.indent * previous.size && SENTENCE_END.test(previous.text);
    const stopsShort = room(previous) > runOnRoom + RUN_ON_MARGIN * previous.size;
    const indented =
      indentedLine && (indentedLines < lines.length / 2 || (endsSentence && (indentedLines <= lines.length / 2 || stopsShort)));
    const shortEnd = justified && room(previous) > 2 * previous.size && SENTENCE_END.test(previous.text);
    // …measured to the end of the previous line's own measure (a line set beside a float ends at the float).
    const previousEnd = measureEnd.get(previous)!;
    const chosenBreak = startsRight(previous)
      ? endsByChoice(previous, line, -previousEnd, rightEdge, options.chosenBreakRoom)
      : endsByChoice(previous, line, left, previousEnd, options.chosenBreakRoom);
    // In a tagged PDF, a line whose structure tag differs from the line before starts another element.
    const tagChange = line.tag !== undefined && previous.tag !== undefined && line.tag !== previous.tag;
    // A note that opens with its label (lib/layout/notemarks.ts) starts a paragraph of its own.
    const noteStart = line.label !== undefined;
    if (wideGap || sizeChanged || bullet || indented || shortEnd || chosenBreak || tagChange || noteStart || gap < 0) paragraphs.push([line]);
    else paragraphs[paragraphs.length - 1]!.push(line);
  }
  return paragraphs;
}
