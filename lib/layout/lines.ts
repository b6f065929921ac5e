/**
 * Lines: one row's runs joined left to right (right to left on RTL lines) into a line of text,
 * with a space inserted where the gap between two runs is wider than the line's word-space
 * threshold, each inserted space marked as inferred. The threshold is relative to the font size,
 * and adapts to the line: in letter-spaced text (most runs are single glyphs with even gaps) it
 * sits above the line's own tracking gap. No spaces are inserted inside CJK text.
 */
import { boxOf, drawnSpace, hasNoSpaceScript, isCjkBoundary, isThaiBoundary, median, mostCommon, right } from './geometry.js';
import { groupRows, ROW_DEFAULTS } from './rows.js';
import { ARABIC_LETTER, isSloping, slopingWords } from './sloping.js';
import { attachAccents } from './accents.js';
import { attachIndicMarks } from '../scripts/indic.js';
import { CELL_OFFSET_EM, frameOf, turnedPage, upright } from './frames.js';
import { lineDirection } from './geometry.js';
import { majorityTag } from '../regions/tags.js';
import { findNoteMarks } from './notemarks.js';
import type { Direction, Extent, InferredMark, Item, Line, NoteRef, PageRecord } from '../protocol/records.js';
import { attachMarks, endsNonJoining, endsWordAlways, fontWordGaps, isLeftOutNonJoiner, isZeroWidthNonJoiner, nonJoiningLimit, rightToLeftText, ZWNJ } from '../scripts/rtl.js';

/** The thresholds of line building, each relative to the font size. */
export interface LineOptions {
  /** A gap wider than this × font size between two runs is a word space. */
  wordGap: number;
  /** In letter-spaced lines, a gap this much (× font size) wider than the tracking gap is a word space. */
  letterSpaceExtra: number;
  /** A line is letter-spaced when at least this share of its runs are single glyphs… */
  perGlyphShare: number;
  /** …and it has at least this many runs. */
  perGlyphMinRuns: number;
  /** Inside CJK text, only a gap wider than this × font size is a space. */
  cjkGap: number;
  /** Inside Thai text, only a gap wider than this × font size is a space (Thai spaces are a space glyph wide). */
  thaiGap: number;
  /** A run with no advance width is taken to end this far (× font size) past its start. */
  zeroWidthRun: number;
  /** On RTL lines, after an Arabic letter that does not join the next, a space needs this × the line's median word gap. */
  nonJoiningShare: number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/*
 * A run that ends in a virama (a consonant with its vowel killed, as in Devanagari "स्") is half of
 * a conjunct: the next letter belongs to the same word. Some subset fonts give such a half form no
 * advance width, so the gap after it looks like a word space; after such a run only a very wide
 * gap is one. A run with its own width is measured as any other: in glyph-order text a word may end
 * in a virama (the reph of "कार्य" is drawn last: "कायर्").
 */
/** The end of an RTL line so far that decides whether its last letter joins: the letter and the marks after it. */
const MARKS_TAIL = 8;

/** A run narrower than this × its size has no advance width of its own (see buildLine). */
const NO_ADVANCE = 0.01;
const hasNoAdvance = (item: Item): boolean => item.w < NO_ADVANCE * item.size;
const centre = (item: Item): number => item.x + item.w / 2;

const DEAD_CONSONANT_END = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D\u0DCA\u1039\u17D2]$/u;

/**
 * Joins one row's runs into a line, deciding each gap. `glyphOrder`: the runs hold their glyphs in
 * drawing order (see lib/scripts/rtl.ts); a right-to-left line is then written glyph by glyph from right to left.
 */
export function buildLine(
  rowItems: readonly Item[],
  block: number,
  options: LineOptions,
  glyphOrder = false,
  refMarks: ReadonlyMap<Item, string> = NO_MARKS,
  pageWordGaps: readonly number[] = [],
): Line {
  return composeLine(measureRow(rowItems, options, glyphOrder), block, options, refMarks, pageWordGaps);
}

/** A row's runs in reading order and the gaps between them (× font size), before any is decided. */
interface MeasuredRow {
  dir: Direction;
  items: Item[];
  /** The space glyphs drawn after the row's runs, marks' runs among them (before marks join their letters). */
  spaces: Extent[];
  words: ReturnType<typeof slopingWords> | null;
  gaps: number[];
}

function measureRow(rowItems: readonly Item[], options: LineOptions, glyphOrder: boolean): MeasuredRow {
  const dir = lineDirection(rowItems);
  // Right-to-left runs go by their centres: a narrow letter kerned into the end of its neighbour's
  // box (Lateef's alef after reh in "برای") has the larger left edge but comes after it, and a run
  // with no advance (a non-joiner) sits at its pen position, inside the box of the joining letter
  // drawn over it, so right edges would put it after that letter.
  const sorted = (dir === 'rtl' ? rtlRuns(rowItems, glyphOrder) : attachIndicMarks(attachAccents(rowItems))).sort((a, b) => (dir === 'rtl' ? centre(b) - centre(a) : a.x - b.x));
  // A sloping Nastaliq line reads its words from the space glyphs (lib/layout/sloping.ts).
  const words = dir === 'rtl' && isSloping(sorted, ROW_DEFAULTS.baselineTolerance) ? slopingWords(sorted) : null;
  const items = words?.items ?? sorted;
  const gaps: number[] = [];
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const gap = dir === 'rtl' ? a.x - right(b) : b.x - right(a);
    // Some font subsets give glyphs no advance width (Chromium does so for Devanagari half forms):
    // the run's true width is hidden in the gap after it, so measure from an estimated right edge.
    const hidden = hasNoAdvance(dir === 'rtl' ? b : a) ? options.zeroWidthRun : 0;
    gaps.push(gap / Math.max(a.size, b.size, 1) - hidden);
  }
  return { dir, items, words, gaps, spaces: rowItems.flatMap((item) => (item.space ? [item.space] : [])) };
}

/**
 * Decides each gap of a measured row and writes the line. `pageWordGaps`: the word gaps of the
 * page's right-to-left lines, for a line too short to measure its own (see nonJoiningLimit).
 */
function composeLine(
  row: MeasuredRow,
  block: number,
  options: LineOptions,
  refMarks: ReadonlyMap<Item, string>,
  pageWordGaps: readonly number[],
  fontGaps: ReadonlyMap<string, number> = new Map(),
  spaceWidths: ReadonlyMap<string, number> = new Map(),
  marked: (font: string) => boolean = () => false,
): Line {
  const { dir, items, words, gaps } = row;
  // Letter-spaced text comes as one run per glyph. Two-glyph runs are no sign of it: short words
  // make them in any prose ("y de la", "if it is so").
  // A line of mathematics has many one-glyph runs too (variables, relations, indices), but its
  // words come whole: where most of the characters stand in runs of whole words, it is set word by
  // word, and its gaps are word spaces.
  const perGlyph = items.length >= options.perGlyphMinRuns && countOneCharacter(items) >= options.perGlyphShare * items.length && wordRunShare(items) < WORD_RUN_SHARE;
  // A font whose own gaps break below `wordGap` has its in-word gaps (after non-joining letters too) below that break.
  const fontGap = fontGaps.get(mostCommon(items.map((item) => item.font)));
  const wordGap = fontGap ?? options.wordGap;
  const threshold = perGlyph ? Math.max(wordGap, percentile(gaps, 0.25) + options.letterSpaceExtra) : wordGap;
  const rule = perGlyph ? 'letter-spacing' : 'gap';
  const nonJoining = fontGap !== undefined ? threshold : dir === 'rtl' ? nonJoiningLimit(gaps, threshold, options.nonJoiningShare, pageWordGaps) : threshold;
  let text = '';
  // The end of the line so far, kept as the line grows: tests anchored at the end of a long
  // string scan all of it, and cutting the end off a string being built copies all of it.
  let tail = '';
  const inferred: InferredMark[] = [];
  const refs: NoteRef[] = [];
  // A loop, not a callback: a callback made at each call loses its optimised code at every full
  // collection (V8 holds that code through the function objects running it, and only weakly for
  // the next one made from the same source), and this one runs for every run of every line.
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    // A note's reference mark is kept beside the text, at its place (lib/layout/notemarks.ts).
    const ref = refMarks.get(item);
    if (ref !== undefined) {
      refs.push({ label: ref, at: text.length });
      continue;
    }
    if (i > 0 && text !== '') {
      const gap = gaps[i - 1]!;
      const hasSpace = ENDS_SPACE.test(tail) || STARTS_SPACE.test(item.text);
      const limit = isCjkBoundary(tail, item.text)
        ? Math.max(threshold, options.cjkGap) + (item.dir === 'ttb' && items[i - 1]!.dir === 'ttb' ? CELL_OFFSET_EM : 0)
        : isThaiBoundary(tail, item.text)
          ? Math.max(threshold, options.thaiGap)
          : DEAD_CONSONANT_END.test(tail) && /^\p{L}/u.test(item.text) && hasNoAdvance(items[i - 1]!)
            ? Math.max(threshold, options.zeroWidthRun)
            : dir === 'rtl' && endsNonJoining(text.slice(-MARKS_TAIL))
              ? nonJoining
              : threshold;
      // A letter that only ever ends a word (Urdu's yeh barree) ends it, however close the next.
      const wordEnd = dir === 'rtl' && endsWordAlways(items[i - 1]!.text) && STARTS_LETTER.test(item.text);
      const before = items[i - 1]!;
      // The room between the two runs as drawn (gaps[] allows for runs drawn with no advance).
      const boxRoom = dir === 'rtl' ? before.x - right(item) : item.x - right(before);
      // The space glyph drawn after a run speaks of this gap when it lies between the two runs'
      // centres; the engine may hand a run a space drawn past the next run (after a comma set in
      // another font) or on its other side (between sloping Nastaliq words). On a right-to-left
      // line a space drawn with its advance starts that far from the run before it, though a swash
      // of the next run reach over it (Nastaliq's kaf) and leave the boxes no room between them.
      const space = before.space;
      const spaceCentre = space ? space.x + space.w / 2 : NaN;
      const spaced = dir === 'rtl' && space && centre(item) < spaceCentre && spaceCentre < centre(before) ? before : NO_SPACE;
      const room = spaced.space ? Math.max(boxRoom, before.x - spaced.space.x) : boxRoom;
      // A space glyph drawn with its advance is a word space, however narrow the font's space.
      const spaceDrawn = drawnSpace(spaced, room) === true || movedSpace(spaced.space, before);
      // A gap between Hangul and a Latin letter or digit, of a font that draws its word spaces, with
      // no space glyph in it and narrower than the font's space, is CJK autospace (drawnSpaceWidths).
      const spaceWidth = spaceWidths.get(before.font);
      // So is one after an Arabic letter that does not join the next (alef, waw, lam-alef), whose
      // glyph ends short of its advance, in one font, where the engine saw no space or line end after the run (nor
      // after a mark on its end) and no space glyph (a mark's run's too) lies between.
      const unjoined = dir === 'rtl' && before.after === undefined && before.font === item.font && endsNonJoining(text.slice(-MARKS_TAIL)) && ARABIC_LETTER.test(item.text) && !row.spaces.some((space) => spaceBetween(space, item, before));
      const unspaced = spaceWidth !== undefined && gap < spaceWidth && (spacedOtherwise(tail, item.text) || unjoined) && !spaceInGap(before, item) && !spaceInGap(item, before);
      const wide = (gap > limit && !unspaced && !digitPitch(before, item)) || (gap > MARKER_FLOOR && markedGap(before, item) && marked(before.font));
      if (!hasSpace && (words ? words.starts.has(i) : wide || wordEnd || spaceDrawn)) {
        inferred.push({ at: text.length, kind: 'space', rule: spaceDrawn && !(wide || wordEnd) ? 'space-glyph' : rule });
        text += ' ';
        tail = tail.slice(-1) + ' ';
      } else if (!hasSpace && (isZeroWidthNonJoiner(spaced, room, text.slice(-MARKS_TAIL), item.text) || (dir === 'rtl' && isLeftOutNonJoiner(before, text.slice(-MARKS_TAIL), item.text)))) {
        // A space glyph without advance between two Arabic letters, or a letter drawn unjoined
        // before the rest of its word: the word's non-joiner.
        text += ZWNJ;
        tail = tail.slice(-1) + ZWNJ;
      }
    }
    const written = composed(item.text);
    text += written;
    tail = written.length >= 2 ? written.slice(-2) : (tail + written).slice(-2);
  }
  const role = items.find((i) => i.role)?.role;
  const line: Line = {
    text,
    box: boxOf(items),
    base: Math.round(median(items.map((i) => i.y)) * 100) / 100,
    font: mostCommon(items.map((i) => i.font)),
    size: Math.round(median(items.map((i) => i.size)) * 100) / 100,
    dir,
    block,
    inferred,
  };
  if (role) line.role = role;
  if (refs.length > 0) line.refs = refs;
  const tag = majorityTag(items);
  if (tag !== undefined) line.tag = tag;
  const initial = items[0]?.initial;
  if (initial !== undefined) line.initial = initial;
  const cell = items[0]?.cell;
  if (cell !== undefined) line.cell = cell;
  return line;
}

/** A character past the letters whose Unicode forms never change under NFC. */
const MAY_COMPOSE = /[^\u0000-\u02ff]/u;

/**
 * A run's text in Unicode's composed form (NFC), as the words are written elsewhere: some fonts map
 * a letter's glyph to the letter and its mark apart (XeTeX's Scheherazade, "ا" + U+0654 for "أ"),
 * which reads the same and matches no word written whole.
 */
const composed = (text: string): string => (MAY_COMPOSE.test(text) ? text.normalize('NFC') : text);

const NO_MARKS: ReadonlyMap<Item, string> = new Map();
const NO_SPACE: Pick<Item, 'space'> = {};

/** A space glyph with no advance of its own is a word space when drawn this far (× font size) past the run before it. */
const SPACE_MOVE = 0.03;

/**
 * A space glyph whose font gives it no advance (Writer's subset of Lateef), set apart from the run
 * before it by a move of the pen: the producer drew the word space and spaced it by positioning.
 * One drawn where that run ends, or inside it, is a helper glyph inside a word (Writer's Amiri
 * draws one before a shadda).
 */
function movedSpace(space: Item['space'], before: Item): boolean {
  return space !== undefined && space.w === 0 && before.x - space.x >= SPACE_MOVE * before.size;
}
const ENDS_SPACE = /\s$/u;
const STARTS_LETTER = /^\p{L}/u;
const STARTS_SPACE = /^\s/u;

/** A letter-spaced line has fewer than this share of its characters in runs of three letters or more. */
const WORD_RUN_SHARE = 0.5;

/** The share of a line's characters that stand in runs of three or more letters. */
function wordRunShare(items: readonly Item[]): number {
  let inWords = 0;
  let all = 0;
  for (const item of items) {
    all += item.text.length;
    if (/\p{L}{3}/u.test(item.text)) inWords += item.text.length;
  }
  return all === 0 ? 0 : inWords / all;
}

/** How many runs hold one code point (besides spaces around it). */
function countOneCharacter(items: readonly Item[]): number {
  let n = 0;
  for (const item of items) if (isOneCharacter(item.text.trim())) n++;
  return n;
}

/** One code point (a single glyph's text), without spreading the string into an array. */
function isOneCharacter(text: string): boolean {
  return text.length === 1 || (text.length === 2 && text.codePointAt(0)! > 0xffff);
}

/** Right-to-left path: diacritics into their letters' runs; in glyph order, each run read right to left. */
function rtlRuns(items: readonly Item[], glyphOrder: boolean): Item[] {
  const runs = attachMarks(attachAccents(items), glyphOrder);
  return glyphOrder ? runs.map((item) => ({ ...item, text: rightToLeftText(item) })) : runs;
}

/**
 * A block's runs by table cell, in the order `order` put the cells (a table row's cells side by
 * side share baselines, but each is read whole before the next); one group outside tables.
 */
function byCell(items: readonly Item[]): Item[][] {
  if (items[0]?.cell === undefined) return [items as Item[]];
  const cells = new Map<number, Item[]>();
  for (const item of items) {
    const col = item.cell?.col ?? -1;
    const cell = cells.get(col);
    if (cell) cell.push(item);
    else cells.set(col, [item]);
  }
  return [...cells.values()];
}

/** A font that draws a space glyph for at least this share of its gaps wider than `wordGap` draws its word spaces. */
const SPACED_SHARE = 0.5;
/** …and, to say so of all of a page's lines, at least this many… */
const MIN_DRAWN_SPACES = 5;
/** …or this many, in a font beside one that says so. */
const MIN_DRAWN_SPACES_BESIDE = 2;

/** Per font, the advances (× font size) of the space glyphs drawn after its runs, and how many of its gaps are wider than `wordGap`. */
function spaceTally(rows: readonly MeasuredRow[], wordGap: number): Map<string, { widths: number[]; wide: number }> {
  const tally = new Map<string, { widths: number[]; wide: number }>();
  for (const row of rows) {
    row.items.forEach((item, i) => {
      const counts = tally.get(item.font) ?? { widths: [], wide: 0 };
      if (item.space && item.space.w > 0) counts.widths.push(item.space.w / item.size);
      if (i < row.gaps.length && row.gaps[i]! > wordGap) counts.wide += 1;
      tally.set(item.font, counts);
    });
  }
  return tally;
}

/**
 * The fonts of a page that draw their word spaces as glyphs (SPACED_SHARE of their gaps wider than
 * `wordGap`, MIN_DRAWN_SPACES at least), with the median advance of those glyphs (× font size, as
 * gaps are measured). Such a producer leaves a gap without a glyph where it spaces otherwise, and
 * a gap of that kind narrower than the font's own space is no word space where that is known to
 * happen (spacedOtherwise).
 */
function drawnSpaceWidths(rows: readonly MeasuredRow[], wordGap: number): Map<string, number> {
  const widths = new Map<string, number>();
  const tally = spaceTally(rows, wordGap);
  for (const [font, { widths: drawn, wide }] of tally) {
    if (drawn.length >= MIN_DRAWN_SPACES && drawn.length >= SPACED_SHARE * wide) widths.set(font, median(drawn));
  }
  // Where the page's producer shows that it draws its spaces, a font of a few words (a title in a
  // synthetic bold, a subset of its own) is measured by the spaces it has.
  if (widths.size === 0) return widths;
  for (const [font, { widths: drawn, wide }] of tally) {
    if (!widths.has(font) && drawn.length >= MIN_DRAWN_SPACES_BESIDE && drawn.length >= SPACED_SHARE * wide) widths.set(font, median(drawn));
  }
  return widths;
}

const HANGUL = /\p{Script=Hangul}/u;

/**
 * Whether a producer that draws its word spaces may space the boundary between two texts (the end
 * of one, the start of the next) other than with a space glyph: between Hangul and a letter or
 * digit of another script (the autospace Writer and Word put there: "5 월", "SNS 에"), and before
 * punctuation that follows its word (a Bengali vowel sign's box short of its advance, "হলো ,").
 * Elsewhere a gap without a glyph may be a word space all the same: a space glyph lost to the
 * reading (an Indic word's, drawn among its reordered signs), cells of a table, a number and the
 * year after it.
 */
function spacedOtherwise(before: string, after: string): boolean {
  const a = before.at(-1) ?? '';
  const b = after[0] ?? '';
  if (CLOSING_PUNCTUATION.test(b) && WORD_END.test(a)) return true;
  if (OPENING_PUNCTUATION.test(a) && WORD_START.test(b)) return true;
  // Guillemets, which French spaces, hold to the Arabic and Hebrew words they enclose ("‹نعم›").
  if ((CLOSING_GUILLEMET.test(b) && RTL_WORD_END.test(a)) || (OPENING_GUILLEMET.test(a) && RTL_WORD_START.test(b))) return true;
  return (HANGUL.test(a) && OTHER_WORD_CHARACTER.test(b)) || (OTHER_WORD_CHARACTER.test(a) && HANGUL.test(b));
}
/** Punctuation that follows its word without a space in every language (not ; : ! ? », which French spaces, nor code's :=). */
const CLOSING_PUNCTUATION = /^[,.)\]}”’\u0964\u0965]/u;
/** Brackets and quotation marks that open a word without a space in every language (not «, which French spaces). */
const OPENING_PUNCTUATION = /^[([{“‘‚„]$/u;
const OPENING_GUILLEMET = /^[«‹]$/u;
const CLOSING_GUILLEMET = /^[»›]/u;
const WORD_END = /[\p{L}\p{M}\p{N}]/u;
const WORD_START = /^[\p{L}\p{N}]/u;
const RTL_WORD_END = /(?=[\p{L}\p{M}\p{N}])[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const RTL_WORD_START = /^(?=[\p{L}\p{N}])[\p{Script=Arabic}\p{Script=Hebrew}]/u;
/** A letter or digit of a script other than Hangul. */
const OTHER_WORD_CHARACTER = /^(?!\p{Script=Hangul})[\p{L}\p{Nd}]$/u;

/**
 * The fonts whose runs end with a space glyph of no advance at MARKED_SHARE of their gaps wider than
 * `wordGap` (MIN_DRAWN_SPACES at least), on a page, or all of a page's fonts when its gaps in all
 * fonts do (a title's font has too few gaps of its own): the producer marks its word spaces so
 * (xdvipdfmx draws one where a word ends), and a gap with one, however narrow, is a word space
 * (after Lateef's non-joining letters 0.09 em). Elsewhere such a glyph is as likely a helper inside
 * a word (Writer's Amiri draws one before a shadda).
 */
function markedSpaceFonts(rows: readonly MeasuredRow[], wordGap: number): (font: string) => boolean {
  const tally = new Map<string, [number, number]>();
  const page: [number, number] = [0, 0];
  for (const row of rows) {
    for (let i = 0; i < row.gaps.length; i++) {
      if (row.gaps[i]! <= wordGap) continue;
      const before = row.items[i]!;
      const counts = tally.get(before.font) ?? [0, 0];
      const one = markedGap(before, row.items[i + 1]!) ? 1 : 0;
      counts[0] += one;
      counts[1] += 1;
      page[0] += one;
      page[1] += 1;
      tally.set(before.font, counts);
    }
  }
  const marks = ([marked, wide]: [number, number]): boolean => marked >= MIN_DRAWN_SPACES && marked >= MARKED_SHARE * wide;
  if (marks(page)) return () => true;
  const fonts = new Set([...tally].flatMap(([font, counts]) => (marks(counts) ? [font] : [])));
  return (font) => fonts.has(font);
}
/** The share of a font's (or page's) gaps wider than `wordGap` that hold a zero-advance space glyph when its producer marks word ends so. */
const MARKED_SHARE = 0.9;
/** A marked gap narrower than this × em (a mark's run drawn over its letter's) is no word space. */
const MARKER_FLOOR = 0.03;

/** Whether a space glyph of no advance, drawn after run `a`, lies in its gap to `b`. */
function markedGap(a: Item, b: Item): boolean {
  return a.space?.w === 0 && spaceInGap(a, b);
}

/**
 * Whether two runs are single digits set one digit's advance apart: one number, whatever the gap
 * between their inks (Chromium's Persian digits in Nazli, each in a span of its own, ink boxes
 * narrower than their advances: "۱۴۰۲" drawn with gaps of 0.2 em). Digits of one font share an
 * advance of about half an em; a word space between them adds a quarter em more.
 */
function digitPitch(a: Item, b: Item): boolean {
  return ONE_DIGIT.test(a.text) && ONE_DIGIT.test(b.text) && a.font === b.font && Math.abs(centre(a) - centre(b)) <= DIGIT_PITCH_EM * Math.max(a.size, b.size);
}
const ONE_DIGIT = /^\p{Nd}$/u;
/** Digits whose centres stand at most this × em apart are one number's. */
const DIGIT_PITCH_EM = 0.6;

/** Whether the space glyph drawn after run `a` lies between the centres of `a` and `b`. */
function spaceInGap(a: Item, b: Item): boolean {
  return a.space !== undefined && spaceBetween(a.space, a, b);
}

/** Whether a space glyph lies between the centres of runs `a` and `b`. */
function spaceBetween(space: Extent, a: Item, b: Item): boolean {
  const at = space.x + space.w / 2;
  return at > Math.min(centre(a), centre(b)) && at < Math.max(centre(a), centre(b));
}

/** The fonts of a page's right-to-left rows that draw their word spaces as glyphs (SPACED_SHARE). */
function spacedFonts(rows: readonly MeasuredRow[], wordGap: number): Set<string> {
  const tally = spaceTally(rows.filter((row) => row.dir === 'rtl'), wordGap);
  return new Set([...tally].flatMap(([font, { widths, wide }]) => (widths.length >= SPACED_SHARE * wide && widths.length > 0 ? [font] : [])));
}

/** Words carry signs when at least this share of a line's letters and marks are a script's own signs. */
const SIGNED_SHARE = 0.15;
/** A script's own sign (a Devanagari vowel sign), not a diacritic scripts share (U+0300–U+036F: accents, a formula's hat). */
const SCRIPT_SIGNS = /(?!\p{Script=Inherited})\p{M}/gu;
const LETTERS_AND_MARKS = /[\p{L}\p{M}]/gu;

/** The share of a script's own signs among the letters and marks of runs (most rows have none: their letters are not counted). */
function signShare(items: readonly Item[]): number {
  let signs = 0;
  for (const item of items) signs += item.text.match(SCRIPT_SIGNS)?.length ?? 0;
  if (signs === 0) return 0;
  let all = 0;
  for (const item of items) all += item.text.match(LETTERS_AND_MARKS)?.length ?? 0;
  return signs / all;
}

/** The pure core: builds the lines of one page. */
export function linesOfPage(page: PageRecord, options: LineOptions, glyphOrder = false): PageRecord {
  const byBlock = new Map<number, Item[]>();
  for (const item of page.items ?? []) {
    const block = item.block ?? 0;
    const blockItems = byBlock.get(block);
    if (blockItems) blockItems.push(item);
    else byBlock.set(block, [item]);
  }
  const rows: { block: number; items: Item[] }[] = [];
  for (const [block, items] of [...byBlock.entries()].sort((a, b) => a[0] - b[0])) {
    // A block of turned or vertical text (one frame: lib/layout/frames.ts) is read in its frame,
    // and its lines' boxes are in that frame's coordinates.
    const angle = frameOf(items[0]!);
    const frame = turnedPage(page, angle);
    const framed = angle === 0 ? items : items.map((item) => upright(item, frame));
    for (const cell of byCell(framed)) {
      for (const row of groupRows(cell, ROW_DEFAULTS)) rows.push({ block, items: row.items });
    }
  }
  // Note marks are matched across the page: the mark in the body, its note at the foot.
  const marks = findNoteMarks(rows);
  const measured = rows.map((row) => {
    // The run a note opens with: the first, or the last of a right-to-left row.
    const labelled = row.items.find((item) => marks.labels.has(item));
    const opening = labelled && marks.labels.get(labelled);
    const rest = !opening ? row.items : opening.rest === '' ? row.items.filter((item) => item !== labelled) : row.items.map((item) => (item === labelled ? { ...item, text: opening.rest } : item));
    return { block: row.block, label: opening?.label, row: measureRow(rest, options, glyphOrder) };
  });
  // The marks by run; a right-to-left row's runs are copies (rtlRuns), found by their place.
  const place = (item: Item): string => `${item.x} ${item.y} ${item.w} ${item.text}`;
  const refsByPlace = new Map([...marks.refs].map(([item, label]) => [place(item), label]));
  const refsOf = (row: MeasuredRow): ReadonlyMap<Item, string> =>
    refsByPlace.size === 0 ? marks.refs : new Map(row.items.flatMap((item): [Item, string][] => {
      const label = marks.refs.get(item) ?? refsByPlace.get(place(item));
      return label === undefined ? [] : [[item, label]];
    }));
  // The page's word gaps on right-to-left lines: a line's last few words (too few gaps of its own
  // to measure) are spaced as the lines above them.
  const pageWordGaps = measured.flatMap(({ row }) => (row.dir === 'rtl' && !row.words ? row.gaps.filter((g) => g > options.wordGap) : []));
  // Fonts whose word spaces are narrower than `wordGap`, by their own gaps (lib/scripts/rtl.ts);
  // not those that draw their spaces, which say where words end (drawnSpace).
  const spaced = spacedFonts(measured.map(({ row }) => row), options.wordGap);
  const fontGaps = fontWordGaps(
    measured.flatMap(({ row }) => (row.dir === 'rtl' && !row.words ? row.gaps.flatMap((gap, i) => (spaced.has(row.items[i]!.font) ? [] : [{ font: row.items[i]!.font, gap }])) : [])),
    options.wordGap,
  );
  // Left-to-right lines whose words carry signs (Devanagari's and Bengali's vowel signs, …) in
  // scripts written with spaces: a sign may overhang the space, which then measures narrower than
  // `wordGap`. Only fonts whose runs end at word spaces alone (XeTeX's) take a gap of their own.
  const spacedLtr = new Set(measured.map(({ row }) => row).filter((row) => row.dir === 'ltr' && signShare(row.items) >= SIGNED_SHARE && !row.items.some((item) => hasNoSpaceScript(item.text))));
  const spaceRunGaps = fontWordGaps(
    measured.flatMap(({ row }) => (spacedLtr.has(row) ? row.gaps.map((gap, i) => ({ font: row.items[i]!.font, gap })) : [])),
    options.wordGap,
    false,
  );
  const spaceWidths = drawnSpaceWidths(measured.map(({ row }) => row), options.wordGap);
  const marked = markedSpaceFonts(measured.map(({ row }) => row), options.wordGap);
  const lines = measured.map(({ block, label, row }) => {
    const line = composeLine(row, block, options, refsOf(row), pageWordGaps, row.dir === 'rtl' ? fontGaps : spacedLtr.has(row) ? spaceRunGaps : undefined, spaceWidths, marked);
    return label === undefined ? line : { ...line, label };
  });
  return { ...page, lines };
}
