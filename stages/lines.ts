/**
 * lines: glyph runs → lines of text with estimated word spaces.
 *
 * Within each layout block (from `order`), runs are grouped into rows by baseline (superscripts and
 * subscripts stay on their line) and joined left to right (right to left on RTL lines). A space is
 * inserted where the gap between two runs is wider than the line's word-space threshold, and each
 * inserted space is marked as inferred. The threshold is relative to the font size, and adapts to
 * the line: in letter-spaced text (most runs are single glyphs with even gaps) the threshold sits
 * above the line's own tracking gap, so "D e c l a r a t i o n" becomes one word again. No spaces
 * are inserted inside CJK text.
 *
 * Adds `lines` to each page; `items` pass through for later stages that look at glyph positions.
 */
import { ownOptions, pageTransform } from '../lib/protocol/stage.js';
import { boxOf, isCjkBoundary, median, mostCommon, right } from '../lib/layout/geometry.js';
import { groupRows, ROW_DEFAULTS } from '../lib/layout/rows.js';
import type { Direction, InferredMark, Item, Line, PageRecord } from '../lib/protocol/records.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { attachMarks, endsNonJoining, isGlyphOrder, nonJoiningLimit, rightToLeftText } from '../lib/scripts/rtl.js';

export interface LinesOptions {
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
  /** A run with no advance width is taken to end this far (× font size) past its start. */
  zeroWidthRun: number;
  /** On RTL lines, after an Arabic letter that does not join the next, a space needs this × the line's median word gap. */
  nonJoiningShare: number;
}

export const DEFAULTS: LinesOptions = {
  wordGap: 0.1,
  letterSpaceExtra: 0.12,
  perGlyphShare: 0.6,
  perGlyphMinRuns: 4,
  cjkGap: 0.5,
  zeroWidthRun: 1.2,
  nonJoiningShare: 0.6,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'wordGap', type: 'number', min: 0, description: 'gap between runs that is a word space, × font size' },
  { key: 'letterSpaceExtra', type: 'number', min: 0, description: 'in letter-spaced lines, word space = tracking gap + this × font size' },
  { key: 'perGlyphShare', type: 'number', min: 0, description: 'share of single-glyph runs that makes a line letter-spaced' },
  { key: 'perGlyphMinRuns', type: 'number', min: 2, description: 'runs a line needs before it can count as letter-spaced' },
  { key: 'cjkGap', type: 'number', min: 0, description: 'gap inside CJK text that is a space, × font size' },
  { key: 'zeroWidthRun', type: 'number', min: 0, description: 'where a run with no advance width is taken to end, × font size' },
  { key: 'nonJoiningShare', type: 'number', min: 0, description: "RTL lines: gap after a non-joining Arabic letter that is a space, × the line's median word gap" },
];

export function normalizeOptions(partial: Partial<LinesOptions> = {}): LinesOptions {
  return ownOptions(DEFAULTS, partial);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function lineDirection(items: readonly Item[]): Direction {
  let rtl = 0;
  let ltr = 0;
  for (const item of items) {
    if (item.dir === 'rtl') rtl += item.text.length;
    else ltr += item.text.length;
  }
  return rtl > ltr ? 'rtl' : 'ltr';
}

/** Spacing accents that some generators (groff, old TeX) draw as separate glyphs over a letter. */
const COMBINING: Record<string, string> = {
  '\u02d9': '\u0307', '\u00b8': '\u0327', '\u02db': '\u0328', '\u00b4': '\u0301', '`': '\u0300', '\u02c6': '\u0302',
  '^': '\u0302', '\u02dc': '\u0303', '~': '\u0303', '\u00a8': '\u0308', '\u02d8': '\u0306', '\u02c7': '\u030c',
  '\u02da': '\u030a', '\u02dd': '\u030b', '\u00af': '\u0304',
};

/**
 * Puts a separately drawn accent onto the letter it sits over or under: "I" + "˙" → "İ",
 * "s" + "¸" → "ş". The letter is found by the accent's centre within the run below it, assuming
 * even glyph widths in that run. Accents that sit over no run stay as they are.
 */
export function attachAccents(items: readonly Item[]): Item[] {
  // Most rows are plain ASCII with no spacing accent: nothing to attach or normalise.
  if (items.every((item) => isPlain(item.text))) return [...items];
  const out: Item[] = [];
  // A run is copied only when its text changes (the page's runs pass on to later stages as they
  // are); `copies` are the runs made here, which may be changed again below.
  const copies = new Set<Item>();
  const copy = (item: Item): Item => {
    const made = { ...item };
    copies.add(made);
    return made;
  };
  for (const item of items) {
    // Plain runs have nothing to combine or normalise, and cannot start with an accent.
    if (isPlain(item.text)) {
      out.push(item);
      continue;
    }
    // Inside a run the accent follows its letter; combine it there.
    const text = item.text.replace(ACCENT_AFTER_LETTER, (_m, letter: string, accent: string) => letter + COMBINING[accent]).normalize('NFC');
    const first = [...text][0] ?? '';
    // A run that starts with an accent drawn back over the previous run's letter: split it off.
    if (text.length > 1 && COMBINING[first] !== undefined && out.some((o) => o.x <= item.x + 0.5 && right(o) > item.x + 0.5)) {
      const glyph = item.w / [...text].length;
      out.push(Object.assign(copy(item), { text: first, w: glyph }));
      out.push(Object.assign(copy(item), { text: text.slice(first.length), x: item.x + glyph, w: item.w - glyph }));
    } else if (text === item.text) {
      out.push(item);
    } else {
      out.push(Object.assign(copy(item), { text }));
    }
  }
  const accents = out.filter((item) => COMBINING[item.text.trim()] !== undefined && item.text.trim().length === 1);
  const removed = new Set<Item>();
  for (const accent of accents) {
    const centre = accent.x + accent.w / 2;
    const found = out.findIndex((o) => o !== accent && !removed.has(o) && !accents.includes(o) && o.x <= centre && right(o) >= centre && o.text.trim() !== '');
    if (found < 0) continue;
    const host = copies.has(out[found]!) ? out[found]! : (out[found] = copy(out[found]!));
    const chars = [...host.text];
    const index = Math.min(chars.length - 1, Math.max(0, Math.floor(((centre - host.x) / Math.max(host.w, 0.01)) * chars.length)));
    chars.splice(index + 1, 0, COMBINING[accent.text.trim()]!);
    host.text = chars.join('').normalize('NFC');
    removed.add(accent);
  }
  return out.filter((item) => !removed.has(item));
}

/**
 * ASCII text without any of the spacing accents above (`, ^ and ~ are its ASCII ones, the ASCII
 * keys of COMBINING). A code unit at a time: asked of every run, where a regular expression costs
 * more than the test.
 */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === 0x60 || code === 0x5e || code === 0x7e) return false;
  }
  return true;
}

const ACCENT_AFTER_LETTER = new RegExp(`(\\p{L})([${Object.keys(COMBINING).filter((c) => c !== '^' && c !== '~' && c !== '`').join('')}])`, 'gu');

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

const DEAD_CONSONANT_END = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D\u0DCA\u1039\u17D2]$/u;

/**
 * Joins one row's runs into a line, deciding each gap. `glyphOrder`: the runs hold their glyphs in
 * drawing order (see lib/scripts/rtl.ts); a right-to-left line is then written glyph by glyph from right to left.
 */
export function buildLine(rowItems: readonly Item[], block: number, options: LinesOptions = DEFAULTS, glyphOrder = false): Line {
  const dir = lineDirection(rowItems);
  const items = (dir === 'rtl' ? rtlRuns(rowItems, glyphOrder) : attachAccents(rowItems)).sort((a, b) => (dir === 'rtl' ? b.x - a.x : a.x - b.x));
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
  // Letter-spaced text comes as one run per glyph. Two-glyph runs are no sign of it: short words
  // make them in any prose ("y de la", "if it is so").
  const perGlyph = items.length >= options.perGlyphMinRuns && countOneCharacter(items) >= options.perGlyphShare * items.length;
  const threshold = perGlyph ? Math.max(options.wordGap, percentile(gaps, 0.25) + options.letterSpaceExtra) : options.wordGap;
  const rule = perGlyph ? 'letter-spacing' : 'gap';
  const nonJoining = dir === 'rtl' ? nonJoiningLimit(gaps, threshold, options.nonJoiningShare) : threshold;
  let text = '';
  // The end of the line so far, kept as the line grows: tests anchored at the end of a long
  // string scan all of it, and cutting the end off a string being built copies all of it.
  let tail = '';
  const inferred: InferredMark[] = [];
  items.forEach((item, i) => {
    if (i > 0) {
      const gap = gaps[i - 1]!;
      const hasSpace = ENDS_SPACE.test(tail) || STARTS_SPACE.test(item.text);
      const limit = isCjkBoundary(tail, item.text)
        ? Math.max(threshold, options.cjkGap)
        : DEAD_CONSONANT_END.test(tail) && /^\p{L}/u.test(item.text) && hasNoAdvance(items[i - 1]!)
          ? Math.max(threshold, options.zeroWidthRun)
          : dir === 'rtl' && endsNonJoining(text.slice(-MARKS_TAIL))
            ? nonJoining
            : threshold;
      if (!hasSpace && gap > limit) {
        inferred.push({ at: text.length, kind: 'space', rule });
        text += ' ';
        tail = tail.slice(-1) + ' ';
      }
    }
    text += item.text;
    tail = item.text.length >= 2 ? item.text.slice(-2) : (tail + item.text).slice(-2);
  });
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
  return line;
}

const ENDS_SPACE = /\s$/u;
const STARTS_SPACE = /^\s/u;

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

/** The pure core: builds the lines of one page. */
export function linesOfPage(page: PageRecord, partial: Partial<LinesOptions> = {}, glyphOrder = false): PageRecord {
  const options = normalizeOptions(partial);
  const byBlock = new Map<number, Item[]>();
  for (const item of page.items ?? []) {
    const block = item.block ?? 0;
    const blockItems = byBlock.get(block);
    if (blockItems) blockItems.push(item);
    else byBlock.set(block, [item]);
  }
  const lines: Line[] = [];
  for (const [block, items] of [...byBlock.entries()].sort((a, b) => a[0] - b[0])) {
    for (const row of groupRows(items, ROW_DEFAULTS)) lines.push(buildLine(row.items, block, options, glyphOrder));
  }
  return { ...page, lines };
}

export function lines(partial: Partial<LinesOptions> = {}) {
  const options = normalizeOptions(partial);
  return pageTransform('lines', (page, doc) => ({ page: linesOfPage(page, options, isGlyphOrder(doc)) }));
}

export const USAGE = 'pdfpipe lines [options] < ordered.ndjson';
export const SUMMARY = 'Groups text runs into lines by baseline and estimates word spaces from glyph gaps.';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'lines', transforms: [lines(options)] });
}
