/**
 * The Unicode Bidirectional Algorithm over lines in visual order (bidi-js): each line's paragraph
 * direction from its strong characters (the first strong character at the edge where a direction
 * starts, the line's, block's or page's clear majority), its reordering into logical order with
 * brackets at right-to-left levels mirrored or not, combining marks kept after their base letter,
 * and explicit direction controls removed. The bidi stage (stages/bidi.ts) runs it on every page.
 */
import bidiModule, { type Bidi } from 'bidi-js';
import { diagnostic, type DiagnosticRecord, type DocRecord, type Direction, type InferredMark, type Line, type NoteRef, type PageRecord } from '../protocol/records.js';
import { isGlyphOrder } from './rtl.js';

/** Options of the reordering. */
export interface ReorderOptions {
  /** Paragraph direction: decided per line (`auto`), or forced for every line that holds right-to-left text. */
  paragraphDirection: 'auto' | 'ltr' | 'rtl';
  /** Mirror brackets at right-to-left levels (UAX #9 rule L4): always, never, or when it pairs them better. */
  mirror: 'auto' | 'always' | 'never';
}

// bidi-js is a CommonJS module whose export is the factory; its typings declare it as an ES default.
const uba = (bidiModule as unknown as () => Bidi)();

/** Characters that can make a line need reordering: right-to-left letters, Arabic digits, controls. */
const NEEDS_BIDI = /[\u0590-\u08ff\u200e\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
/** Explicit embedding, override and isolate controls, and the implicit marks. */
/** The characters of bidirectional class B, and the neutral (U+FFFC, class ON) put in their place. */
const PARAGRAPH_SEPARATORS = /[\n\r\u001c-\u001e\u0085\u2029]/gu;
const NEUTRAL = '\ufffc';
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
  mirror: ReorderOptions['mirror'] = 'auto',
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
  // A line is one paragraph: a paragraph separator inside it (a glyph a font maps to U+001C)
  // would split it in two, each ordered on its own; the algorithm sees a neutral there.
  const levels = uba.getEmbeddingLevels(visual.replace(PARAGRAPH_SEPARATORS, NEUTRAL), direction);
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

/** Maps note reference marks through a reordering: each stays after the character it followed. */
function moveRefs(refs: readonly NoteRef[], offsets: Map<number, number>): NoteRef[] {
  return refs
    .map((ref) => {
      const before = ref.at > 0 ? offsets.get(ref.at - 1) : undefined;
      return { ...ref, at: before !== undefined ? before + 1 : ref.at };
    })
    .sort((a, b) => a.at - b.at);
}

/** The pure core: reorders the lines of one page. */
/**
 * A letter's marks in canonical order, as NFC (and the truth of pointed text) has them: a qamats
 * before a dagesh, a fatha before a shadda, whatever order the glyphs were drawn in. Marks are only
 * reordered, never composed, so the text keeps its length and the offsets of inferred marks hold.
 */
export function canonicalMarkOrder(text: string): string {
  return text.replace(MARK_SEQUENCE, (marks) => {
    const ordered = marks.normalize('NFD');
    return ordered.length === marks.length ? ordered : marks;
  });
}

const MARK_SEQUENCE = /\p{Mn}{2,}/gu;

export function bidiOfPage(
  page: PageRecord,
  doc: DocRecord | null,
  options: ReorderOptions,
): { page: PageRecord; diagnostics: DiagnosticRecord[] } {
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
    if (Array.isArray(line.refs)) out.refs = moveRefs(line.refs, offsets);
    reordered.set(out, { mirrored, plain });
    return out;
  });
  // Brackets are mirrored or not for the whole page: a parenthesis often opens on one line and
  // closes on the next, so a line alone cannot tell which way pairs them.
  const all = [...reordered.values()];
  const keepPlain =
    options.mirror === 'never' ||
    (options.mirror === 'auto' && unpaired(all.map((r) => r.mirrored).join('\n')) > unpaired(all.map((r) => r.plain).join('\n')));
  for (const [line, r] of reordered) line.text = canonicalMarkOrder(keepPlain ? r.plain : r.mirrored);
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
