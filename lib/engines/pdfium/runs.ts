/**
 * PDFium's glyphs into runs and runs into items, pure functions on display coordinates: where a run
 * ends (a change of font, size, baseline or orientation, or a gap wider than GAP_EM), a run's
 * direction, and a right-to-left run's text turned back into glyph (drawing) order, as the pdf.js
 * engine reports it.
 */
import { engineItem, type Direction, type Extent, type Item } from '../../protocol/records.js';
import bidiModule, { type Bidi } from 'bidi-js';
import { endsNonJoining } from '../../scripts/rtl.js';
import { preBaseBeforeReph } from '../../scripts/indic.js';
import { angleOf } from '../../layout/frames.js';

/*
 * Run splitting, relative to the font size (em) of the run, as in the pdf.js adapter:
 *
 *   ┌──┐┌──┐   ┌──┐       gap = distance between the advance boxes of two neighbouring glyphs
 *   │ab││cd│ ← │ef│       (whichever side the next glyph lies on, so right-to-left runs work too);
 *   └──┘└──┘   └──┘       a gap > GAP_EM em, a baseline shift > BASELINE_EM em, or a size change
 *         ^gap^           > SIZE_RATIO ends the run.
 */
const GAP_EM = 0.1;
/** A baseline shift beyond this (× em) ends a run, and sets lines apart. */
export const BASELINE_EM = 0.25;
const SIZE_RATIO = 0.01;

/** Rounds a coordinate or size to hundredths of a point. */
export const round = (v: number): number => Math.round(v * 100) / 100;

// bidi-js is a CommonJS module whose export is the factory; its typings declare it as an ES default.
/** The Unicode Bidirectional Algorithm of bidi-js (for its mirrored brackets). */
export const uba = (bidiModule as unknown as () => Bidi)();

/**
 * The character PDFium had before it mirrored it, reading it in a right-to-left line; null for one
 * it does not mirror. PDFium's mirror table is not Unicode's: it mirrors the curly quotation marks
 * (drawn ”مرحبا“, read “مرحبا”), which Unicode leaves alone, and not the angles and relations later
 * Unicode versions (and bidi-js) mirror. Measured with a Chromium page of every punctuation mark
 * and symbol from U+0021 to U+2AFF, each between Arabic letters.
 */
export function unmirroredByPdfium(ch: string): string | null {
  if (NOT_MIRRORED_BY_PDFIUM.has(ch)) return null;
  return QUOTES_MIRRORED_BY_PDFIUM.get(ch) ?? uba.getMirroredCharacter(ch);
}
const QUOTES_MIRRORED_BY_PDFIUM = new Map([['\u2018', '\u2019'], ['\u2019', '\u2018'], ['\u201c', '\u201d'], ['\u201d', '\u201c']]);
const NOT_MIRRORED_BY_PDFIUM: ReadonlySet<string> = new Set('∟∠∡∢∤≅≌⊸⟋⟍⟜⦛⦠⦣⦤⦥⦨⦩⦪⦫⦬⦭⦮⦯⧨⧩⩻⩼⪅⪆⪇⪈⪉⪊⪍⪎⪏⪐⪝⪞⪟⪠⪱⪲⪵⪶⪷⪸⪹⪺⫇⫈⫉⫊⫋⫌⫮');

/** A Hebrew, Arabic (or other right-to-left script) character, presentation forms included. */
export const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
/** A letter of any script. */
export const LETTER = /\p{L}/u;
/** A combining mark. */
export const COMBINING_MARK = /\p{M}/u;
/** What pdf.js's normalisation covers: ligatures, presentation forms and odd spaces. */
export const NORMALIZED = /[\uFB00-\uFDFF\uFE70-\uFEFF\u00A0\u2000-\u200A\u202F\u205F\u3000]/gu;

/** One glyph in display coordinates. */
export interface Glyph {
  ch: string;
  left: number;
  right: number;
  /** Baseline origin, display coordinates. */
  ox: number;
  oy: number;
  size: number;
  font: string;
  /** Horizontal in display space (left to right baseline), or not. */
  horizontal: boolean;
  /** Unit baseline direction in display space, for non-horizontal glyphs. */
  dx: number;
  dy: number;
  /** The structure tag of its text object, in a tagged PDF (structure.ts). */
  tag?: string;
}

/**
 * A turned glyph's advance along its baseline, from its box upright on the page: a glyph box of
 * advance `a` and height `h` turned to the baseline direction (c, s) fills a box W = a·|c| + h·|s|
 * wide and H = a·|s| + h·|c| high. Solved for `a` where the turn is nearer an axis than
 * AXIS_SOLVABLE allows; near 45° the two equations are one, and the height is taken as one em.
 */
export function turnedAdvance(width: number, height: number, dx: number, dy: number, size: number): number {
  const c = Math.abs(dx);
  const s = Math.abs(dy);
  const det = c * c - s * s;
  if (Math.abs(det) >= AXIS_SOLVABLE) return Math.max(0, (width * c - height * s) / det);
  return c + s > 0 ? Math.max(0, (width + height) / (c + s) - size) : 0;
}

/** |cos² − sin²| of a turn below which its box does not tell advance from height (within about 15° of 45°). */
const AXIS_SOLVABLE = 0.5;

/** Glyphs gathered into one run. */
export interface Run {
  glyphs: Glyph[];
}

function gapBetween(prev: Glyph, next: Glyph): number {
  return Math.max(next.left - prev.right, prev.left - next.right);
}

/** Whether `next` carries on `run`: same font, size, baseline and direction, and no gap wider than GAP_EM em. */
export function continues(run: Run, next: Glyph): boolean {
  const prev = run.glyphs[run.glyphs.length - 1];
  const first = run.glyphs[0];
  if (!prev || !first) return true;
  if (next.font !== prev.font || next.horizontal !== prev.horizontal || next.tag !== prev.tag) return false;
  if (Math.abs(next.size - first.size) > SIZE_RATIO * first.size) return false;
  const em = first.size || 1;
  if (next.horizontal) {
    if (Math.abs(next.oy - prev.oy) > BASELINE_EM * em) return false;
    // A mark drawn before the letter it sits on starts no run with a letter it does not cover:
    // XeTeX draws the hamza of "أن" just before the nun, over the alef it draws last.
    if (run.glyphs.length === 1 && COMBINING_MARK.test(prev.ch) && !COMBINING_MARK.test(next.ch) && (next.right <= prev.left || next.left >= prev.right)) return false;
    return gapBetween(prev, next) <= GAP_EM * em;
  }
  // Rotated or vertical text: same direction, next origin about one advance further on.
  if (Math.abs(next.dx - prev.dx) > 0.05 || Math.abs(next.dy - prev.dy) > 0.05) return false;
  const along = (next.ox - prev.ox) * prev.dx + (next.oy - prev.oy) * prev.dy;
  const across = Math.abs((next.ox - prev.ox) * -prev.dy + (next.oy - prev.oy) * prev.dx);
  return across <= BASELINE_EM * em && along >= -GAP_EM * em && along <= (prev.right - prev.left) + 1.1 * em;
}

/** A gap narrower than this × em is inside a word, whatever gaps PDFium made up spaces for. */
const MIN_WORD_GAP_EM = 0.05;
/** A gap in a run at least this share of the narrowest gap PDFium made up a space for in its font ends the run. */
const WORD_GAP_SHARE = 0.9;

/**
 * The gaps PDFium made up spaces for, per font: the narrowest, in em. After a mark (of no advance,
 * which PDFium measures the next gap from) a gap as wide as that is a word gap PDFium made no
 * space for: XeTeX's FreeSerif "नहीं गाँव", 0.09 em like the other word gaps of the line. The run
 * ends there, and \`lines\` measures the gap. Only there: in letter-spaced text PDFium makes up
 * spaces between letters too, and a gap after a letter is left to \`continues\`.
 */
export class MadeUpSpaceGaps {
  private readonly narrowest = new Map<string, number>();

  /** A space PDFium made up stood between the run \`before\` and the glyph \`after\`. */
  seen(before: readonly Glyph[], after: Glyph): void {
    const last = before[before.length - 1];
    if (!last || last.font !== after.font || !last.horizontal || !after.horizontal || Math.abs(last.oy - after.oy) > BASELINE_EM * last.size) return;
    const gap = extentGap(before, after) / (last.size || 1);
    if (gap >= MIN_WORD_GAP_EM) this.narrowest.set(last.font, Math.min(this.narrowest.get(last.font) ?? Infinity, gap));
  }

  /** Whether the gap before \`next\` is one of those, though PDFium made up no space there. */
  parts(run: Run, next: Glyph): boolean {
    const prev = run.glyphs[run.glyphs.length - 1];
    if (!prev || !next.horizontal) return false;
    // Asked of every glyph: the gap, which is all but always narrow, first.
    const em = prev.size || 1;
    const gap = gapBetween(prev, next);
    if (gap < MIN_WORD_GAP_EM * em) return false;
    const narrowest = this.narrowest.get(next.font);
    if (narrowest === undefined || !COMBINING_MARK.test(prev.ch)) return false;
    const least = Math.max(MIN_WORD_GAP_EM, WORD_GAP_SHARE * narrowest) * em;
    // The gap from the run's extent is at most the gap from its last glyph (a mark's box may stand
    // back over its letter): that one first, as it mostly settles it.
    return gap >= least && extentGap(run.glyphs, next) >= least;
  }
}

/** The gap between a glyph and the extent of a run's glyphs, on either side. */
function extentGap(glyphs: readonly Glyph[], next: Glyph): number {
  let left = Infinity;
  let right = -Infinity;
  for (const g of glyphs) {
    left = Math.min(left, g.left);
    right = Math.max(right, g.right);
  }
  return Math.max(next.left - right, left - next.right);
}

/** Whether a horizontal glyph stands on the run's baseline, in its font, within GAP_EM em of the run's extent (not only of its last glyph). */
export function touchesRun(run: Run, next: Glyph): boolean {
  const first = run.glyphs[0];
  if (!first || !next.horizontal || !first.horizontal || next.font !== first.font) return false;
  const em = first.size || 1;
  if (Math.abs(next.oy - first.oy) > BASELINE_EM * em) return false;
  let left = Infinity;
  let right = -Infinity;
  for (const g of run.glyphs) {
    left = Math.min(left, g.left);
    right = Math.max(right, g.right);
  }
  return Math.max(next.left - right, left - next.right) <= GAP_EM * em;
}

/**
 * The spacing accents some generators draw as glyphs of their own over (or under) a letter: TeX's
 * `\accent` in OT1 fonts (the accent first, then the letter, the pen moved back under it), groff's
 * accent strings (the letter first, then the accent moved back over it).
 */
export const SPACING_ACCENT = /^[\u00b4`\u02c6^\u02dc~\u00a8\u02c7\u02d8\u02d9\u00b8\u02db\u02dd\u02da\u00af]$/u;

/**
 * A spacing accent drawn over its letter overlaps the letter's advance box by more than this share
 * of the narrower of the two; neighbours in running text (kerned pairs, `x^2`, a backquote in
 * code) do not.
 *
 *      ┌─´─┐              accent box
 *   ┌──┼───┼┐             letter box: overlap ≥ ACCENT_OVERLAP × min(widths)
 */
const ACCENT_OVERLAP = 0.5;

/** Whether one of two neighbouring glyphs is a spacing accent drawn over (or under) the other, a letter. */
export function accentOver(a: Glyph, b: Glyph): boolean {
  if (!a.horizontal || !b.horizontal) return false;
  const aAccent = SPACING_ACCENT.test(a.ch);
  const bAccent = SPACING_ACCENT.test(b.ch);
  if (aAccent === bAccent || !LETTER.test(aAccent ? b.ch : a.ch)) return false;
  if (Math.abs(a.oy - b.oy) > ACCENT_RISE_EM * Math.max(a.size, b.size)) return false;
  const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  return overlap > ACCENT_OVERLAP * Math.min(a.right - a.left, b.right - b.left);
}

/** An accent over a capital may be raised this far (× em) above the letter's baseline. */
export const ACCENT_RISE_EM = 0.6;

/** Characters PDFium's line analysis leaves in their own order inside right-to-left text: letters of left-to-right scripts and digits. */
const KEPT_FORWARD = /^(?:\p{Nd}|(?![\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])\p{L})$/u;

/**
 * A right-to-left run's text in glyph order: the order its glyphs are drawn, left to right on the
 * page (visual order), as the pdf.js engine reports it, so that `lines` and `bidi` treat both
 * engines alike (`glyph-order` in `meta.engine`).
 *
 * PDFium gives right-to-left text in drawing order when it did not recognise the line, and in
 * logical order when it did: it reversed the line's right-to-left letters and the neutrals among
 * them, mirroring brackets and quotation marks, and kept left-to-right letters and digits in their own order. A run
 * whose glyphs go left to right is in drawing order and is kept. A run that goes right to left (or
 * is one right-to-left glyph of several characters) is turned back: reversed, each stretch of
 * left-to-right letters and digits turned again ("3-ל" drawn, "ל-3" from PDFium, "3-ל" again), and
 * brackets and quotation marks mirrored back (`unmirroredByPdfium`). Characters of one glyph share an origin (a ligature, a letter and its
 * marks); within such a cluster the marks come first, as shapers draw them before their letter, and
 * the letters follow in the order of the slices of the glyph's box PDFium gives them (in the order
 * reversed when the slices are the same):
 *
 *   from PDFium:  ָ ׁ ש ל  (marks first, the cluster's origin shared)
 *   reversed:     ל ש ׁ ָ
 *   glyph order:  ל ׁ ָ ש  (the cluster: marks, then its letter)     `lines` reads it back: ש ָ ׁ ל
 */
export function glyphOrderText(glyphs: readonly Glyph[]): string {
  const first = glyphs[0];
  const last = glyphs[glyphs.length - 1];
  const asGiven = glyphs.map((g) => g.ch).join('');
  if (!first || !last || !first.horizontal) return asGiven;
  if (first.ox < last.ox) return ligaturesInDrawingOrder(glyphs);
  const oneGlyph = (): boolean => glyphs.every((g) => g.ox === first.ox && g.oy === first.oy);
  if (first.ox === last.ox && !(RTL_CHAR.test(asGiven) && oneGlyph())) return asGiven;
  const reversed = [...glyphs].reverse();
  const ordered: Glyph[] = [];
  for (let i = 0; i < reversed.length; ) {
    const head = reversed[i]!;
    let j = i + 1;
    while (j < reversed.length && reversed[j]!.ox === head.ox && reversed[j]!.oy === head.oy) j++;
    const cluster = reversed.slice(i, j);
    const letters = cluster.filter((g) => !COMBINING_MARK.test(g.ch));
    const sliced = letters.some((g) => g.left !== letters[0]!.left || g.right !== letters[0]!.right);
    ordered.push(...cluster.filter((g) => COMBINING_MARK.test(g.ch)), ...(sliced ? letters.sort((a, b) => a.left - b.left) : ligatureInGlyphOrder(letters)));
    i = j;
  }
  let text = '';
  let forward: string[] = [];
  for (const { ch } of ordered) {
    if (KEPT_FORWARD.test(ch)) {
      forward.push(ch);
      continue;
    }
    text += forward.reverse().join('') + (unmirroredByPdfium(ch) ?? ch);
    forward = [];
  }
  return text + forward.reverse().join('');
}

/** The letters of each Arabic presentation-form ligature, as its compatibility decomposition gives them (reading order): "لا" for U+FEFB. */
const PRESENTATION_LIGATURES: ReadonlySet<string> = (() => {
  const found = new Set<string>();
  for (const [from, to] of [[0xfb50, 0xfdff], [0xfe70, 0xfeff]] as const) {
    for (let c = from; c <= to; c++) {
      const letters = String.fromCharCode(c).normalize('NFKC').replace(/[\p{M}\s]/gu, '');
      if ([...letters].length > 1) found.add(letters);
    }
  }
  return found;
})();

/**
 * The letters of one right-to-left glyph that share its box, from a run PDFium reversed (given
 * here reversed back, in PDFium's reading order), in glyph order. PDFium reverses a right-to-left
 * line character by character, so a ligature whose ToUnicode holds several characters ("لا", as
 * LibreOffice writes lam-alef) comes in the reverse of its map, which is already glyph order; a
 * presentation form (U+FEFB) it decomposes after reversing, so its letters come in reading order,
 * to be reversed. Which of the two happened shows in the letters: PDFium's order is the
 * decomposition of a presentation form only in the second case.
 */
function ligatureInGlyphOrder(readingBack: Glyph[]): Glyph[] {
  const asPdfiumGave = [...readingBack].reverse();
  return PRESENTATION_LIGATURES.has(asPdfiumGave.map((g) => g.ch).join('')) ? readingBack : asPdfiumGave;
}

/**
 * A run PDFium left in drawing order, with each ligature of right-to-left letters (its characters share
 * one origin and box: lam-alef, "لا" in its ToUnicode) turned to drawing order too: the map holds
 * a ligature's letters in reading order, while the run's other glyphs go left to right on the
 * page, so that `lines`, reading the run back from right to left glyph by glyph, would swap them.
 * PDFium sometimes turns a ligature itself (cairo's lam-alef comes as "ال"): a letter that joins
 * nothing after it (alef, dal, reh, waw) can only end a ligature in reading order, so letters in
 * an order where one stands before another are in drawing order already.
 */
function ligaturesInDrawingOrder(glyphs: readonly Glyph[]): string {
  let text = '';
  for (let i = 0; i < glyphs.length; ) {
    const head = glyphs[i]!;
    let j = i + 1;
    while (j < glyphs.length && glyphs[j]!.ox === head.ox && glyphs[j]!.oy === head.oy && glyphs[j]!.left === head.left && glyphs[j]!.right === head.right) j++;
    const cluster = glyphs.slice(i, j).map((g) => g.ch);
    const letters = cluster.filter((c) => RTL_CHAR.test(c) && !COMBINING_MARK.test(c));
    const readingOrder = !cluster.slice(0, -1).some((c) => endsNonJoining(c));
    text += letters.length > 1 && letters.length === cluster.length && readingOrder ? cluster.reverse().join('') : cluster.join('');
    i = j;
  }
  return text;
}

/** Hebrew holam (and holam haser for vav), drawn at the upper left corner of its letter. */
const LEFT_CORNER_MARK = /^[\u05b9\u05ba]$/u;

/**
 * A run of right-to-left letters and marks, each mark a glyph of its own at its own origin
 * (LibreOffice), in drawing order as glyphOrderText gives it and `lines` expects it: the letters
 * left to right on the page, every mark just before the letter it is drawn over, the letter whose
 * box holds the centre of the mark's box. PDFium may report such a mark before or after its letter
 * (and the run in either direction); its place on the page says which letter it belongs to. Null
 * when the run is anything else (glyphs sharing an origin are one glyph's characters, see
 * glyphOrderText; digits and brackets keep glyphOrderText's handling) or a mark lies over no letter.
 *
 *       ◌َ        ← the mark's centre over the right letter: drawn "ب ◌َ ت"
 *    [ب][ت]
 */
export function marksBeforeTheirLetters(glyphs: readonly Glyph[]): Glyph[] | null {
  if (!glyphs.every((g) => g.horizontal && RTL_CHAR.test(g.ch))) return null;
  const marks = glyphs.filter((g) => COMBINING_MARK.test(g.ch));
  if (marks.length === 0 || glyphs.some((g, i) => glyphs.some((o, j) => j > i && o.ox === g.ox && o.oy === g.oy))) return null;
  // By centres: a narrow letter kerned into its neighbour's box has the larger left edge but stands before it.
  const letters = glyphs.filter((g) => !COMBINING_MARK.test(g.ch)).sort((a, b) => a.left + a.right - b.left - b.right);
  const over = new Map<Glyph, Glyph[]>();
  for (const mark of marks) {
    const centre = (mark.left + mark.right) / 2;
    // A holam sits on its letter's upper left corner, often past the letter's left edge.
    const under = LEFT_CORNER_MARK.test(mark.ch)
      ? letters.reduce<Glyph | undefined>((best, g) => (Math.abs(g.left - centre) <= 0.5 * g.size && (!best || Math.abs(g.left - centre) < Math.abs(best.left - centre)) ? g : best), undefined)
      : letters.find((g) => g.left <= centre && centre < g.right);
    // A mark goes on a letter: one over punctuation or between glyphs (a tanween drawn left of its
    // alef, over the comma after it) on the nearest letter, within MARK_REACH_EM.
    const host = under && LETTER.test(under.ch) ? under : nearestLetter(letters, centre);
    if (!host) return null;
    over.set(host, [...(over.get(host) ?? []), mark]);
  }
  return letters.flatMap((g) => [...(over.get(g) ?? []), g]);
}

/** A mark over no letter goes on the nearest within this × its size. */
const MARK_REACH_EM = 0.5;

/** The letter whose box lies nearest `x`, within MARK_REACH_EM; undefined for none. */
function nearestLetter(glyphs: readonly Glyph[], x: number): Glyph | undefined {
  let best: Glyph | undefined;
  let bestDistance = Infinity;
  for (const g of glyphs) {
    const distance = Math.max(g.left - x, x - g.right, 0);
    if (LETTER.test(g.ch) && distance <= MARK_REACH_EM * g.size && distance < bestDistance) {
      best = g;
      bestDistance = distance;
    }
  }
  return best;
}

/** A run's direction: right to left when its right-to-left characters are at least as many as its other letters. */
export function directionOf(text: string): { dir: Direction; letters: number } {
  let rtl = 0;
  let letters = 0;
  for (const ch of text) {
    if (RTL_CHAR.test(ch)) rtl += 1;
    else if (LETTER.test(ch)) letters += 1;
  }
  return { dir: rtl > 0 && rtl >= letters ? 'rtl' : 'ltr', letters };
}

/** An Arabic letter (not a mark, digit or sign of the Arabic block). */
export const ARABIC_LETTER = /^[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06fc\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufefc]$/u;
/** What a kashida's glyph comes out as when its font gives it no text: nothing, a control code, or the character its code has in a standard 8-bit encoding (ASCII or Latin-1, not a letter). */
const KASHIDA_STAND_IN = /^(?:|[\u0000-\u001f\u0021-\u0040\u005b-\u0060\u007b-\u00bf])$/u;

/**
 * Justified Arabic is stretched with kashidas: tatweel glyphs drawn inside a word, between a
 * letter that joins forward and the next letter. Some producers give that glyph no text (LibreOffice
 * leaves it out of the ToUnicode map), and PDFium then reports its raw code, or what that code
 * means in a standard encoding ("بس3بب", "مك=ان"). A glyph that stands between two Arabic letters
 * of its run, the one on its right (before it in reading) joining forward, and that is itself no
 * letter of any script (nothing, a control code, an ASCII or Latin-1 digit, sign or punctuation)
 * is that kashida: it becomes U+0640, which the repair stage removes. A longer stretch takes two
 * or more ("ش44ب"). An abbreviation's full stop ("د.م") follows a letter that does not join, and
 * is kept.
 */
export function kashidasFromContext(glyphs: readonly Glyph[]): readonly Glyph[] {
  let out: Glyph[] | null = null;
  for (let i = 1; i < glyphs.length - 1; i++) {
    if (!KASHIDA_STAND_IN.test(glyphs[i]!.ch) || !ARABIC_LETTER.test(glyphs[i - 1]!.ch)) continue;
    let j = i;
    while (j < glyphs.length - 1 && KASHIDA_STAND_IN.test(glyphs[j]!.ch)) j++;
    const a = glyphs[i - 1]!;
    const b = glyphs[j]!;
    if (ARABIC_LETTER.test(b.ch) && !endsNonJoining((a.ox > b.ox ? a : b).ch)) {
      out ??= [...glyphs];
      for (let k = i; k < j; k++) out[k] = { ...glyphs[k]!, ch: '\u0640' };
    }
    i = j - 1;
  }
  return out ?? glyphs;
}

/** Turns a run of glyphs into an item; whitespace-only runs give null (as in the pdf.js adapter). */
export function runToItem(runGlyphs: readonly Glyph[], normalize: boolean): Item | null {
  const glyphs = kashidasFromContext(runGlyphs);
  let text = glyphs.map((g) => g.ch).join('');
  if (normalize) text = text.replace(NORMALIZED, (c) => (/\s/u.test(c) ? ' ' : c.normalize('NFKC')));
  if (text.trim() === '') return null;
  const first = glyphs[0]!;
  const { dir, letters } = directionOf(text);
  // Runs without left-to-right letters ("(," beside Hebrew) may have been reversed by PDFium too.
  if ((dir === 'rtl' || letters === 0) && glyphs.length > 1) {
    const placed = marksBeforeTheirLetters(glyphs);
    text = placed ? placed.map((g) => g.ch).join('') : glyphOrderText(glyphs);
    if (normalize) text = text.replace(NORMALIZED, (c) => (/\s/u.test(c) ? ' ' : c.normalize('NFKC')));
  } else if (dir === 'ltr' && glyphs.length > 2) {
    const placed = indicMarksAfterTheirLetters(glyphs);
    if (placed) text = placed.map((g) => g.ch).join('');
  }
  let x: number;
  let w: number;
  if (first.horizontal) {
    let left = Infinity;
    let right = -Infinity;
    for (const g of glyphs) {
      left = Math.min(left, g.left);
      right = Math.max(right, g.right);
    }
    x = left;
    w = right - left;
  } else {
    const last = glyphs[glyphs.length - 1]!;
    x = first.ox;
    w = Math.hypot(last.ox - first.ox, last.oy - first.oy) + (last.right - last.left);
  }
  // A shaper draws a mark before its letter and may move its origin up or down to place it: the
  // run's baseline is that of its first glyph that is not a mark.
  const base = glyphs.find((g) => !COMBINING_MARK.test(g.ch)) ?? first;
  return engineItem(text, round(x), round(base.oy), round(w), round(first.size), first.font, dir, first.horizontal ? undefined : angleOf(first.dx, first.dy), first.tag);
}

/**
 * An Indic vowel sign or other mark below or above a letter (a nonspacing mark) drawn after the
 * letter that follows its own: XeTeX's Lohit Bengali draws the u-kar of "দু" with its ink under the
 * দ but after the প of "দুপুরে" ("দপু"). A nonspacing mark whose ink centre lies inside an earlier
 * letter's box, and not inside the box of the letter just before it, goes right after that letter
 * (and the marks already on it). Null when no mark moves.
 *
 *      [দ][প]         ink of ু under দ, drawn after প:  দ প ু  →  দ ু প
 *        ু
 */
export function indicMarksAfterTheirLetters(glyphs: readonly Glyph[]): Glyph[] | null {
  if (!glyphs.some((g) => INDIC_NONSPACING_MARK.test(g.ch))) return null;
  const out: Glyph[] = [];
  let moved = false;
  for (const glyph of glyphs) {
    const lastLetter = out.findLast((g) => !COMBINING_MARK.test(g.ch));
    const centre = (glyph.left + glyph.right) / 2;
    const inside = (g: Glyph): boolean => g.left <= centre && centre < g.right;
    if (INDIC_NONSPACING_MARK.test(glyph.ch) && lastLetter && glyph.horizontal && !inside(lastLetter)) {
      const host = out.findLastIndex((g) => !COMBINING_MARK.test(g.ch) && INDIC_LETTER.test(g.ch) && inside(g));
      if (host >= 0) {
        let at = host + 1;
        while (at < out.length && COMBINING_MARK.test(out[at]!.ch)) at++;
        out.splice(at, 0, glyph);
        moved = true;
        continue;
      }
    }
    out.push(glyph);
  }
  return moved ? out : null;
}
/** The nonspacing marks and the letters of the Brahmic scripts of India (U+0900–U+0DFF). */
const INDIC_NONSPACING_MARK = /^(?=\p{Mn})[\u0900-\u0dff]$/u;
const INDIC_LETTER = /^(?=\p{L})[\u0900-\u0dff]/u;

/**
 * The characters of one glyph (PDFium gives them one origin and one box) that draws a reph with the
 * pre-base sign of the syllable it heads, put in glyph order, the sign first (preBaseBeforeReph).
 */
export function rephGlyphInGlyphOrder(characters: Glyph[]): void {
  const first = characters[0];
  if (!first || characters.length < 3 || characters.some((g) => g.left !== first.left || g.right !== first.right)) return;
  const ordered = [...preBaseBeforeReph(characters.map((g) => g.ch).join(''))];
  if (ordered.length === characters.length) characters.forEach((g, k) => (g.ch = ordered[k]!));
}

/** A glyph of marks, or a reph, of the Brahmic scripts of India (U+0900–U+0DFF). */
const INDIC_MARKS_OR_REPH = /^(?:[\u0930\u09B0][\u094D\u09CD]|(?:(?=\p{M})[\u0900-\u0dff])+)$/u;
/** A glyph's text in those scripts (or none). */
const INDIC_TEXT = /^[\u0900-\u0dff]*$/u;
/** A glyph drawn back onto a run stands on its baseline within this × its size. */
const DRAWN_BACK_BASE_EM = 0.2;

/**
 * The glyphs of `run` with `group` put in their place, when `group` (one glyph's characters) is a
 * reph or marks of an Indian script drawn after the run ended, back over it on its baseline: XeTeX
 * draws FreeSerif's reph of "धर्मनिरपेक्ष" after the whole word, over its म. It goes after the
 * glyph whose middle is last left of its own, as it would in glyph order; null otherwise.
 */
export function drawnBackInto(run: readonly Glyph[], group: readonly Glyph[]): Glyph[] | null {
  const first = group[0];
  // Asked at the start of every run: most start outside those scripts.
  const code = first?.ch.charCodeAt(0) ?? 0;
  if (!first || run.length === 0 || code < 0x900 || code > 0xdff || !INDIC_MARKS_OR_REPH.test(group.map((g) => g.ch).join(''))) return null;
  if (!run.every((g) => g.horizontal && INDIC_TEXT.test(g.ch))) return null;
  const middle = (Math.min(...group.map((g) => g.left)) + Math.max(...group.map((g) => g.right))) / 2;
  const left = Math.min(...run.map((g) => g.left));
  const right = Math.max(...run.map((g) => g.right));
  if (middle <= left || middle >= right || Math.abs(first.oy - run[0]!.oy) > DRAWN_BACK_BASE_EM * first.size) return null;
  let at = 0;
  run.forEach((g, k) => {
    if ((g.left + g.right) / 2 < middle) at = k + 1;
  });
  return [...run.slice(0, at), ...group, ...run.slice(at)];
}

/** A space glyph that PDFium's character order gives to no run: its extent and its origin's y. */
export interface LooseSpace extends Extent {
  y: number;
}

/** How far (em of the run) from a run's end a space glyph no run owns may begin, along the line and across it, to be that run's. */
export const LOOSE_SPACE_REACH_EM = 1;

/**
 * LibreOffice draws a Nastaliq line word by word, and PDFium ends its line inside it where the
 * baseline steps: the space between two words can then come after a line end, owned by no run. A
 * space follows (in reading) the run that ends where it begins: on a right-to-left line the run on
 * its right, ending at its left edge; on a left-to-right one the run on its left. The space goes
 * to the run whose end is nearest its start, within LOOSE_SPACE_REACH_EM along the line and across
 * it (Nastaliq's words step up and down), among the runs without a space of their own; a space
 * with no such run (one that indents a line) stays unowned. `lines` then sees it between the two
 * words, as it sees the others. The runs are looked up by their ends, sorted, so that a page of
 * indented lines costs no more than a sort.
 */
export function looseSpacesToTheirRuns(items: Item[], loose: readonly LooseSpace[]): Item[] {
  if (loose.length === 0) return items;
  // Where each run without a space ends along the line, and where a space after it would begin.
  const ends = items.filter((item) => !item.space).map((item) => ({ item, at: item.dir === 'rtl' ? item.x : item.x + item.w })).sort((a, b) => a.at - b.at);
  const reach = LOOSE_SPACE_REACH_EM * ends.reduce((most, e) => Math.max(most, e.item.size), 0);
  for (const space of loose) {
    let owner: Item | undefined;
    let nearest = Infinity;
    // A right-to-left run's end meets the space's right edge, a left-to-right one's its left.
    for (let k = firstAtOrAfter(ends, space.x - reach); k < ends.length && ends[k]!.at <= space.x + space.w + reach; k++) {
      const { item, at } = ends[k]!;
      if (item.space) continue;
      const along = Math.abs(at - (item.dir === 'rtl' ? space.x + space.w : space.x));
      const em = LOOSE_SPACE_REACH_EM * item.size;
      if (along > em || Math.abs(item.y - space.y) > em || along >= nearest) continue;
      owner = item;
      nearest = along;
    }
    if (owner) owner.space = { x: space.x, w: space.w };
  }
  return items;
}

/** The index of the first entry at or past `at` in entries sorted by `at`. */
function firstAtOrAfter(entries: readonly { at: number }[], at: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
