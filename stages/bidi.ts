/**
 * bidi: lines in visual order → lines in logical (reading) order, for right-to-left scripts.
 *
 * PDFs draw Arabic, Persian, Urdu and Hebrew in visual order: glyphs left to right on the page. The
 * `lines` stage writes a right-to-left line as the page read from right to left (lib/scripts/rtl.ts), which
 * is already the reading order of pure Arabic or Hebrew, but turns embedded English words and
 * numbers backwards ("letnI", "4791"). This stage, for each line that holds right-to-left text:
 *
 * 1. decides the paragraph direction. UAX #9 takes the first strong character (rules P2, P3); on
 *    the page, the first character of a right-to-left paragraph is its rightmost one and of a
 *    left-to-right paragraph its leftmost one. A direction is taken when the strong character at
 *    its starting edge agrees with it and the other does not, unless the line's own strong
 *    characters are clearly (2 : 1) of the other direction (a Hebrew sentence that starts with
 *    "Intel" and ends with "Python" has Latin at both edges); when neither decides (a line of
 *    numbers, a short line with one English word), the clear majority of the line's layout block,
 *    then the page's majority; a diagnostic counts these guesses;
 * 2. turns the line back into visual order and applies the Unicode Bidirectional Algorithm
 *    (bidi-js) to it with that paragraph direction. Reordering is its own inverse for what PDFs
 *    hold — right-to-left runs with embedded left-to-right words, numbers and neutral punctuation
 *    between them — so the visual line comes out in reading order: right-to-left runs reversed,
 *    embedded left-to-right words and numbers in their own order, brackets at right-to-left levels
 *    mirrored (UAX #9 rule L4: the glyph drawn as ")" opens a right-to-left parenthesis). Generators
 *    disagree here: some map the mirrored glyph to ")" (Quartz, Chromium), others to the "(" it
 *    stands for (Word). With `--mirror auto` a line's brackets are mirrored unless that leaves
 *    them less well paired than not mirroring ("15)ב()4(" against "15(ב)(4)");
 * 3. keeps combining marks (harakat, Hebrew points) after their base letter, whatever level the
 *    algorithm would give them on their own, and moves the inferred-space marks with their spaces.
 *
 * Explicit direction controls (LRE, RLO, LRI, PDF, …, LRM, RLM, ALM) inside the PDF's text are
 * meaningless in visual order: they are removed before reordering and counted in a diagnostic.
 * Lines without right-to-left characters are left as they are. When the engine has already
 * reordered each run itself (no `glyph-order` in `meta.engine`), line texts are not reordered again:
 * only their direction is set, and a diagnostic says so.
 */
import bidiModule, { type Bidi } from 'bidi-js';
import { ownOptions, pageTransform } from '../lib/protocol/stage.js';
import { diagnostic, type DiagnosticRecord, type DocRecord, type Direction, type InferredMark, type Line, type PageRecord } from '../lib/protocol/records.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { isGlyphOrder } from '../lib/scripts/rtl.js';

export interface BidiOptions {
  /** Paragraph direction: decided per line (`auto`), or forced for every line that holds right-to-left text. */
  paragraphDirection: 'auto' | 'ltr' | 'rtl';
  /** Mirror brackets at right-to-left levels (UAX #9 rule L4): always, never, or when it pairs them better. */
  mirror: 'auto' | 'always' | 'never';
}

export const DEFAULTS: BidiOptions = {
  paragraphDirection: 'auto',
  mirror: 'auto',
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'paragraphDirection', type: 'string', choices: ['auto', 'ltr', 'rtl'], description: 'paragraph direction of lines with right-to-left text' },
  { key: 'mirror', type: 'string', choices: ['auto', 'always', 'never'], description: 'mirror brackets at right-to-left levels (auto: unless that pairs them worse)' },
];

export function normalizeOptions(partial: Partial<BidiOptions> = {}): BidiOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (!['auto', 'ltr', 'rtl'].includes(options.paragraphDirection)) {
    throw new Error(`Unexpected direction "${String(options.paragraphDirection)}", expected auto, ltr or rtl`);
  }
  return options;
}

// bidi-js is a CommonJS module whose export is the factory; its typings declare it as an ES default.
const uba = (bidiModule as unknown as () => Bidi)();

/** Characters that can make a line need reordering: right-to-left letters, Arabic digits, controls. */
const NEEDS_BIDI = /[\u0590-\u08ff\u200e\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
/** Explicit embedding, override and isolate controls, and the implicit marks. */
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** Combining marks, kept with their base letter. */
const MARK = /^[\p{Mn}\p{Me}]$/u;

type Strong = 'ltr' | 'rtl' | null;

function strongOf(char: string): Strong {
  const type = uba.getBidiCharTypeName(char);
  if (type === 'L') return 'ltr';
  if (type === 'R' || type === 'AL') return 'rtl';
  return null;
}

/** Counts of strong characters, for majorities. */
interface Tally {
  ltr: number;
  rtl: number;
}

function tally(text: string): Tally {
  const t: Tally = { ltr: 0, rtl: 0 };
  for (const char of text) {
    const s = strongOf(char);
    if (s) t[s]++;
  }
  return t;
}

const majority = (t: Tally): Strong => (t.rtl > t.ltr ? 'rtl' : t.ltr > t.rtl ? 'ltr' : null);

/** A block's direction when one direction has at least CLEAR_MAJORITY times the other's strong characters. */
export const CLEAR_MAJORITY = 2;

function clearMajority(t: Tally | undefined): Strong {
  if (!t) return null;
  if (t.rtl > 0 && t.rtl >= CLEAR_MAJORITY * t.ltr) return 'rtl';
  if (t.ltr > 0 && t.ltr >= CLEAR_MAJORITY * t.rtl) return 'ltr';
  return null;
}

/**
 * The paragraph direction of a line in visual order (code points, left to right): the direction
 * whose starting edge holds a strong character of that direction, when exactly one does; null when
 * the first-strong rule cannot tell.
 *
 *    visual:  [L … … R]   starts left with L → ltr fits; starts right with R → rtl fits: ambiguous
 *    visual:  [R … … R]   only rtl fits          visual: [L … … L]   only ltr fits
 */
export function firstStrongDirection(visual: readonly string[]): Strong {
  let leftmost: Strong = null;
  let rightmost: Strong = null;
  for (const char of visual) {
    const s = strongOf(char);
    if (s) {
      leftmost = s;
      break;
    }
  }
  for (let i = visual.length - 1; i >= 0; i--) {
    const s = strongOf(visual[i]!);
    if (s) {
      rightmost = s;
      break;
    }
  }
  const ltrFits = leftmost === 'ltr';
  const rtlFits = rightmost === 'rtl';
  return ltrFits === rtlFits ? null : ltrFits ? 'ltr' : 'rtl';
}

/**
 * A line's paragraph direction from its own text: the first strong character (firstStrongDirection),
 * unless the line's strong characters are clearly (CLEAR_MAJORITY : 1) of the other direction (a
 * Hebrew sentence that begins with "Intel" and ends with "Python" has Latin at both edges); when
 * the first-strong rule cannot tell, the line's clear majority. Null when neither decides.
 */
function lineDirection(units: readonly Unit[], text: string): Strong {
  const first = firstStrongDirection(units.map((u) => u.char));
  const own = clearMajority(tally(text));
  return own ?? first;
}

/** One code point of the line, with where it came from (UTF-16 offset in the input text). */
interface Unit {
  char: string;
  from: number;
  /** Combining marks that follow it in reading order. */
  marks: Unit[];
}

/**
 * Reorders a line given in visual order (left to right) into logical order, with the given
 * paragraph direction. Returns the new text and, for each UTF-16 offset of the input, the offset of
 * the same character in the output (-1 for removed controls).
 */
export function visualToLogical(
  visualText: string,
  direction: 'ltr' | 'rtl',
  mirror: BidiOptions['mirror'] = 'auto',
): { text: string; offsets: Map<number, number> } {
  const units: Unit[] = [];
  let offset = 0;
  for (const char of visualText) {
    units.push({ char, from: offset, marks: [] });
    offset += char.length;
  }
  const result = reorderUnits(units, direction);
  const text = mirror === 'never' || (mirror === 'auto' && unpaired(result.mirrored) > unpaired(result.plain)) ? result.plain : result.mirrored;
  return { text, offsets: result.offsets };
}

/**
 * Reorders units given in visual order into logical order: the text with brackets at
 * right-to-left levels mirrored, the same without mirroring (the offsets are the same for both),
 * and where each input offset went.
 */
function reorderUnits(units: Unit[], direction: 'ltr' | 'rtl'): { mirrored: string; plain: string; offsets: Map<number, number> } {
  // The string the algorithm sees, and where each of its UTF-16 code units comes from.
  let visual = '';
  const unitOf: number[] = [];
  const startOf: number[] = [];
  units.forEach((unit, i) => {
    startOf.push(visual.length);
    visual += unit.char;
    for (let k = 0; k < unit.char.length; k++) unitOf.push(i);
  });
  const levels = uba.getEmbeddingLevels(visual, direction);
  const mirrors = uba.getMirroredCharactersMap(visual, levels.levels);
  const order: number[] = [];
  const seen = new Set<number>();
  for (const index of uba.getReorderedIndices(visual, levels)) {
    const unit = unitOf[index]!;
    if (!seen.has(unit)) {
      seen.add(unit);
      order.push(unit);
    }
  }
  let mirrored = '';
  let plain = '';
  const offsets = new Map<number, number>();
  for (const i of order) {
    const unit = units[i]!;
    offsets.set(unit.from, plain.length);
    // Mirrored characters are single BMP code units, like the characters they replace.
    mirrored += mirrors.get(startOf[i]!) ?? unit.char;
    plain += unit.char;
    for (const mark of unit.marks) {
      offsets.set(mark.from, plain.length);
      mirrored += mark.char;
      plain += mark.char;
    }
  }
  return { mirrored, plain, offsets };
}

const OPENING = '([{<«‹⁅⁽₍〈⟨⟪⟦⟮⦃⦅⦇⦉⦋⦍⦏⦑⦓⦕⦗⧼';
const CLOSING = ')]}>»›⁆⁾₎〉⟩⟫⟧⟯⦄⦆⦈⦊⦌⦎⦐⦒⦔⦖⦘⧽';

/** How many brackets of a text are unpaired (a closing one before its opening one counts twice). */
export function unpaired(text: string): number {
  const stack: string[] = [];
  let bad = 0;
  for (const char of text) {
    const open = OPENING.indexOf(char);
    if (open >= 0) {
      stack.push(CLOSING[open]!);
      continue;
    }
    if (CLOSING.includes(char)) {
      if (stack[stack.length - 1] === char) stack.pop();
      else bad += 2;
    }
  }
  return bad + stack.length;
}

/**
 * Splits a line's text (in the order `lines` wrote it) into units in visual order, with combining
 * marks kept on the letter they follow, and explicit direction controls dropped.
 */
function visualUnits(line: Line, glyphOrder: boolean): { units: Unit[]; controls: number } {
  const readOrder: Unit[] = [];
  let controls = 0;
  let offset = 0;
  for (const char of line.text) {
    const from = offset;
    offset += char.length;
    CONTROLS.lastIndex = 0;
    if (CONTROLS.test(char)) {
      controls++;
      continue;
    }
    const last = readOrder[readOrder.length - 1];
    if (MARK.test(char) && last) last.marks.push({ char, from, marks: [] });
    else readOrder.push({ char, from, marks: [] });
  }
  const rtlWritten = glyphOrder && line.dir === 'rtl';
  return { units: rtlWritten ? readOrder.reverse() : readOrder, controls };
}

/** Maps the inferred marks of a line through a reordering. */
function moveMarks(inferred: readonly InferredMark[], offsets: Map<number, number>): InferredMark[] {
  const out: InferredMark[] = [];
  for (const mark of inferred) {
    const at = offsets.get(mark.at);
    if (at !== undefined) out.push({ ...mark, at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The pure core: reorders the lines of one page. */
export function bidiOfPage(
  page: PageRecord,
  doc: DocRecord | null,
  partial: Partial<BidiOptions> = {},
): { page: PageRecord; diagnostics: DiagnosticRecord[] } {
  const options = normalizeOptions(partial);
  const diagnostics: DiagnosticRecord[] = [];
  // Lines without string text (records from elsewhere) are passed on untouched.
  const needsBidi = (line: Line): boolean => typeof line.text === 'string' && NEEDS_BIDI.test(line.text);
  if (!Array.isArray(page.lines) || !page.lines.some(needsBidi)) return { page, diagnostics };
  const glyphOrder = isGlyphOrder(doc);
  const byBlock = new Map<number, Tally>();
  const pageTally: Tally = { ltr: 0, rtl: 0 };
  for (const line of page.lines) {
    if (typeof line.text !== 'string') continue;
    const t = tally(line.text);
    const b = byBlock.get(line.block) ?? { ltr: 0, rtl: 0 };
    b.ltr += t.ltr;
    b.rtl += t.rtl;
    byBlock.set(line.block, b);
    pageTally.ltr += t.ltr;
    pageTally.rtl += t.rtl;
  }
  let guessed = 0;
  let controls = 0;
  const reordered = new Map<Line, { mirrored: string; plain: string }>();
  const lines = page.lines.map((line): Line => {
    if (line.dir === 'ttb' || !needsBidi(line)) return line;
    const split = visualUnits(line, glyphOrder);
    controls += split.controls;
    let dir: Strong = options.paragraphDirection === 'auto' ? lineDirection(split.units, line.text) : options.paragraphDirection;
    if (dir === null) {
      guessed++;
      dir = clearMajority(byBlock.get(line.block)) ?? majority(pageTally) ?? (line.dir === 'rtl' ? 'rtl' : 'ltr');
    }
    if (!glyphOrder) return { ...line, dir: dir as Direction };
    const { mirrored, plain, offsets } = reorderUnits(split.units, dir);
    const out: Line = { ...line, text: mirrored, dir, inferred: moveMarks(Array.isArray(line.inferred) ? line.inferred : [], offsets) };
    reordered.set(out, { mirrored, plain });
    return out;
  });
  // Brackets are mirrored or not for the whole page: a parenthesis often opens on one line and
  // closes on the next, so a line alone cannot tell which way pairs them.
  const all = [...reordered.values()];
  const keepPlain =
    options.mirror === 'never' ||
    (options.mirror === 'auto' && unpaired(all.map((r) => r.mirrored).join('\n')) > unpaired(all.map((r) => r.plain).join('\n')));
  if (keepPlain) for (const [line, r] of reordered) line.text = r.plain;
  const docId = doc?.id ?? page.doc;
  if (guessed > 0) {
    diagnostics.push(
      diagnostic(docId, 'bidi', 'direction-guessed', `Unexpected line without a clear first strong character, expected one: direction taken from the block's majority`, {
        place: { page: page.page },
        count: guessed,
        severity: 'info',
      }),
    );
  }
  if (controls > 0) {
    diagnostics.push(
      diagnostic(docId, 'bidi', 'direction-controls-removed', `Unexpected explicit direction controls in visual-order text, expected none: removed`, {
        place: { page: page.page },
        count: controls,
      }),
    );
  }
  if (!glyphOrder) {
    diagnostics.push(
      diagnostic(docId, 'bidi', 'engine-reordered', `Unexpected runs already reordered by the engine (${doc?.meta?.engine ?? 'unknown engine'}), expected glyph order: lines keep their text`, {
        place: { page: page.page },
        severity: 'info',
      }),
    );
  }
  return { page: { ...page, lines }, diagnostics };
}

export function bidi(partial: Partial<BidiOptions> = {}) {
  const options = normalizeOptions(partial);
  return pageTransform('bidi', (page, doc) => bidiOfPage(page, doc, options));
}

export const USAGE = 'pdfpipe bidi [options] < lines.ndjson';
export const SUMMARY = 'Puts right-to-left lines into reading order (Unicode Bidirectional Algorithm over visual order).';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'bidi', transforms: [bidi(options)] });
}
