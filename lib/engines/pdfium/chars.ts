/**
 * The character loop: a page's characters, as PDFium's text API reports them (box, origin, matrix,
 * font, flags), read into glyph runs and items in display coordinates. Characters PDFium generated
 * end a run and become the `after` mark of the item before; the glyphs of an ActualText span are
 * held apart and become one item; a cluster a font maps twice is read once; characters without a
 * usable Unicode map are counted.
 */
import type { Extent, Item } from '../../protocol/records.js';
import { heaps, Scratch, type PdfiumModule } from './module.js';
import { readBytes } from './strings.js';
import { accentOver, COMBINING_MARK, continues, drawnBackInto, looseSpacesToTheirRuns, MadeUpSpaceGaps, rephGlyphInGlyphOrder, round, runToItem, SPACING_ACCENT, touchesRun, turnedAdvance, type Glyph, type LooseSpace, type Run } from './runs.js';
import { FloatingJoiners } from './joiners.js';
import type { ArabicForms } from './forms.js';
import { actualTextSpan, objectsOutOfTheText, spanItem } from './actual-text.js';
import { drawnForward, loneBracketsInGlyphOrder, PUNCTUATION_RUN, rightToLeftMarksOnTheirLine } from './right-to-left.js';
import { objectTag } from './structure.js';
import { derivedGlyphContexts, derivedGlyphTexts, mainScript, misreadCode, programScripts, unflaggedGlyphText, type ProgramScripts } from './font-texts.js';
import { CONTEXT_CHARACTERS, textInContext, type GlyphContexts, type GlyphsBefore } from '../font-contexts.js';
import { isOfScript, letterScript, type ScriptClass } from '../../lang/scripts.js';
import type { GlyphSample } from '../font-program.js';

/** A pointed letter's advance reaches the next origin only within this many em of its own. */
const ADVANCE_EM = 1.5;
/** A mark's origin may lie this many em above or below its letter's baseline. */
const MARK_SHIFT_EM = 0.5;
/**
 * A cluster's box starts at its origin when that lies at most this many em left of PDFium's
 * slices; further left, the origin is a mark's, drawn apart (a tanween over an alef).
 */
const ORIGIN_SLACK_EM = 0.1;
/** A Hebrew or Arabic point (PDFium reports a pointed letter drawn as one glyph with its point first). */
const RTL_POINT = /[\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED]/u;

/** Where a glyph (or a space glyph) was drawn: its origin, display coordinates, and its size. */
type Origin = Pick<Glyph, 'ox' | 'oy' | 'size'>;

/**
 * A letter drawn with its marks, whose characters PDFium reports at one origin: PDFium slices a
 * box among them that may be far narrower than the letter's advance (a gimel with dagesh and
 * qamats gets under half its width, a tsadi with dagesh and hiriq a fifth) and start right of its
 * origin (ORIGIN_SLACK_EM), which opens false word gaps beside it. The origins are right: each character gets the
 * whole box, from the origin on. Right-to-left text comes in logical order, so the glyph is drawn
 * just before `before`, the glyph (or space glyph) read before it: the pen went from its origin to
 * that one's, within ADVANCE_EM em, and the letter's advance reaches there. After a space PDFium
 * flags as made up (a gap of unknown width) there is no `before`. Marks drawn as glyphs of their
 * own (LibreOffice) are no such cluster and keep their boxes.
 *
 *     the cluster                    before
 *     ox ─────────────────────────▶ ox
 *     │     [PDFium's slices]      │  ה
 */
function pointedCluster(held: Glyph[], left: number, right: number, before: Origin | null): void {
  const first = held[0]!;
  // The shared origin may be a mark's, raised or lowered to place it (a sukun over a lam): the
  // letter stands on the baseline of the glyph drawn after it.
  if (before && first.horizontal && first.oy !== before.oy && Math.abs(first.oy - before.oy) <= MARK_SHIFT_EM * first.size) {
    for (const g of held) g.oy = before.oy;
  }
  const advance = before ? before.ox - first.ox : 0;
  if (before && first.horizontal && first.oy === before.oy && advance > 0 && advance < ADVANCE_EM * first.size && RTL_POINT.test(held.map((g) => g.ch).join(''))) {
    right = Math.max(right, before.ox);
  }
  if (first.horizontal && first.ox >= left - ORIGIN_SLACK_EM * first.size) left = Math.min(left, first.ox);
  for (const g of held) {
    g.left = left;
    g.right = right;
  }
}

/** A glyph whose ink is taller than this × em is drawn (a space glyph's ink box is a line). */
const INK_EM = 0.02;

/** A space glyph narrower than this × em has no advance of its own: its width is recorded as 0 (see `Item.space`). */
const SPACE_ADVANCE = 0.05;

/** A page's items and the number of its characters without a usable Unicode map. */
export interface PageText {
  items: Item[];
  unmapped: number;
  /**
   * Glyphs read as their raw codes that their font's program cannot draw (font-texts.ts,
   * `misreadCode`): written U+FFFD, and counted by the main script of their font's program, so
   * that OCR reads the page in the script its fonts are made for.
   */
  misread: Map<ScriptClass, number>;
}

/**
 * A font on the page whose Unicode map covers at least MAPPED_SHARE of its characters maps them
 * on purpose: a code it leaves out is a glyph its producer gave no text (LibreOffice's kashida,
 * the tatweel it stretches a justified Arabic word with), and PDFium's stand-in for it, a control
 * code (U+0002), is no character of the text. A font that maps few or none of its codes (8-bit
 * TeX fonts, Type 3) keeps even those: they are its encoding, which the repair stage reads.
 */
const MAPPED_SHARE = 0.5;
/** How many of a font's mapped characters tell the script it sets. */
const SCRIPT_SAMPLE = 200;
/** What a word is made of (and spaces and format characters): a character of none of these between two letters may be a glyph number (unflaggedGlyphText). */
const WORD_CHARACTER = /^[\p{L}\p{M}\p{N}\s\p{Cf}]$/u;
/** Per BMP code point: 1 a WORD_CHARACTER, 2 not, 0 not looked at yet (asked of every glyph: a regular expression each time is slow). */
const IS_WORD_CHARACTER = new Uint8Array(0x10000);

/** Whether a code point is a WORD_CHARACTER. */
function isWordCharacter(code: number): boolean {
  if (code >= 0x10000) return WORD_CHARACTER.test(String.fromCodePoint(code));
  let known = IS_WORD_CHARACTER[code]!;
  if (known === 0) IS_WORD_CHARACTER[code] = known = WORD_CHARACTER.test(String.fromCharCode(code)) ? 1 : 2;
  return known === 1;
}
/** A C0 or C1 control code. */
const CONTROL = /^[\u0000-\u001f\u007f-\u009f]$/u;

/**
 * The fonts on a text page with glyphs their Unicode map leaves out, by PDFium font handle: those
 * glyphs (raw code and box width in em), and whether the font maps its other glyphs (see
 * MAPPED_SHARE).
 */
function fontsWithMapGaps(calls: CharCalls, textPage: number, count: number, boxPtr: number, f32: () => Float32Array): Map<number, { samples: GlyphSample[]; mapped: boolean; script: string | null }> {
  const seen = new Map<number, { chars: number; gaps: GlyphSample[]; texts: string }>();
  let lastObject = 0;
  let font = 0;
  for (let i = 0; i < count; i++) {
    const object = calls.FPDFText_GetTextObject(textPage, i);
    if (!object) continue;
    if (object !== lastObject) {
      lastObject = object;
      font = calls.FPDFTextObj_GetFont(object);
    }
    const tally = seen.get(font) ?? { chars: 0, gaps: [], texts: '' };
    tally.chars += 1;
    const mapError = calls.FPDFText_HasUnicodeMapError(textPage, i) === 1;
    if (!mapError && tally.texts.length < SCRIPT_SAMPLE) {
      const code = calls.FPDFText_GetUnicode(textPage, i);
      if (code > 0x20 && code <= 0x10ffff) tally.texts += String.fromCodePoint(code);
    }
    if (mapError) {
      calls.FPDFText_GetLooseCharBox(textPage, i, boxPtr);
      const h = f32();
      const width = Math.abs((h[(boxPtr >> 2) + 2] ?? 0) - (h[boxPtr >> 2] ?? 0));
      const size = calls.FPDFText_GetFontSize(textPage, i) || 1;
      tally.gaps.push({ glyph: calls.FPDFText_GetUnicode(textPage, i), advance: width / size });
    }
    seen.set(font, tally);
  }
  const gaps = new Map<number, { samples: GlyphSample[]; mapped: boolean; script: string | null }>();
  for (const [font, { chars, gaps: left, texts }] of seen) {
    if (left.length > 0) gaps.set(font, { samples: left, mapped: chars - left.length >= MAPPED_SHARE * chars, script: mainScript(texts) });
  }
  return gaps;
}

/** The per-character calls, with the numbers they return (the module calls them straight: module.ts `DIRECT_CALLS`). */
interface CharCalls {
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
}

/**
 * Reads a page's characters into items (`transform`: page to display space); `unmapped` counts
 * characters whose font has no usable Unicode map. `tags` (a tagged page's MCIDs → structure tags,
 * structure.ts) gives each item the `tag` of its text objects.
 */
export function readPageText(module: PdfiumModule, page: number, transform: number[], scratch: Scratch, normalize: boolean, forms: ArabicForms, tags?: ReadonlyMap<number, string>): PageText {
  const m = module;
  const calls = module as unknown as CharCalls;
  let items: Item[] = [];
  const textPage = m.FPDFText_LoadPage(page);
  if (!textPage) return { items, unmapped: 0, misread: new Map() };
  const [ta = 1, tb = 0, tc = 0, td = -1, te = 0, tf = 0] = transform;
  const fontNames = new Map<number, string>();
  const names = new Scratch(m);
  let unmapped = 0;
  const misread = new Map<ScriptClass, number>();
  // Space glyphs that come after a line end, owned by no run (see looseSpacesToTheirRuns).
  const loose: LooseSpace[] = [];
  // The glyphs of right-to-left runs, for the forms their last letters are drawn in (forms.ts),
  // and of punctuation, for the way its brackets were drawn (right-to-left.ts), once the page is read.
  const drawn = new Map<Item, Glyph[]>();
  try {
    const count = calls.FPDFText_CountChars(textPage);
    // Scratch layout: origin x,y (2 doubles) · loose box (4 floats) · matrix (6 floats).
    const buf = scratch.get(64);
    const originPtr = buf;
    const boxPtr = buf + 16;
    const matrixPtr = buf + 32;
    // The fonts with map gaps take a pass over the page's characters: made when a glyph first
    // turns out unmapped, as most pages have none.
    let unmappedGaps: ReturnType<typeof fontsWithMapGaps> | null = null;
    const derived = new Map<number, { texts: Map<number, string> | null; contexts: GlyphContexts | null; scripts: ProgramScripts | null }>();
    // The characters before character `index`, a placeholder glyph's context (font-contexts.ts):
    // read back from PDFium only when a placeholder turns up.
    const charactersBefore = (index: number): GlyphsBefore => {
      const before: GlyphsBefore = { raw: [], texts: [] };
      for (let j = Math.max(0, index - CONTEXT_CHARACTERS); j < index; j++) {
        const code = calls.FPDFText_GetUnicode(textPage, j);
        if (calls.FPDFText_HasUnicodeMapError(textPage, j) === 1) before.raw.push(code);
        else if (code > 0 && code <= 0x10ffff) before.texts.push(String.fromCodePoint(code));
      }
      return before;
    };
    const letterScriptAt = (index: number): ScriptClass | null => {
      const code = calls.FPDFText_GetUnicode(textPage, index);
      return code > 0 && code <= 0x10ffff ? letterScript(String.fromCodePoint(code)) : null;
    };
    let run: Run = { glyphs: [] };
    // The run last made an item, and that item's place (see drawnBackInto).
    let lastRun = null as { glyphs: Glyph[]; at: number } | null;
    // The last glyph of the run last ended.
    let ended: Glyph | undefined;
    // One glyph's characters share an origin: they are held as a group until the next origin, so
    // a group that repeats a cluster just drawn over the same place can be left out (see below).
    let group: Glyph[] = [];
    // The last glyph, kept across the spaces PDFium makes up (not across space glyphs or line ends).
    let previous: Glyph | null = null;
    // A space PDFium made up came since `previous`: its gap tells the font's word gap (MadeUpSpaceGaps).
    let acrossMadeUpSpace = false;
    const madeUpGaps = new MadeUpSpaceGaps();
    const joiners = new FloatingJoiners();
    // The origin of the last glyph drawn, space glyphs included, and the one before the group
    // being held (see pointedCluster).
    let pen: Origin | null = null;
    let beforeGroup: Origin | null = null;
    // The last multi-character groups, with their place in the sequence of groups.
    const recent: { text: string; left: number; right: number; oy: number; seq: number }[] = [];
    let groupCount = 0;
    const commit = (): void => {
      const held = group;
      group = [];
      if (held.length === 0) return;
      groupCount += 1;
      const back = run.glyphs.length === 0 && lastRun ? drawnBackInto(lastRun.glyphs, held) : null;
      const remade = back && runToItem(back, normalize);
      if (back && remade) {
        const { after, space } = items[lastRun!.at]!;
        items[lastRun!.at] = Object.assign(remade, after && { after }, space && { space });
        lastRun!.glyphs = back;
        return;
      }
      const only = held[0]!;
      if (held.length === 1) {
        // The common case: one character per glyph, nothing to compare.
        place(only);
        return;
      }
      rephGlyphInGlyphOrder(held);
      const text = held.map((g) => g.ch).join('');
      const left = Math.min(...held.map((g) => g.left));
      const right = Math.max(...held.map((g) => g.right));
      const oy = only.oy;
      /*
       * Some generators map a combining mark's glyph to its whole cluster ("ว่" for the tone mark
       * over "ว"), and PDFium then reports the cluster twice. A multi-character group with a mark
       * that repeats one of the last few groups, on the same baseline and over the same place, is
       * that echo.
       */
      const echo =
        held.length > 1 &&
        COMBINING_MARK.test(text) &&
        recent.some((o) => groupCount - o.seq <= 4 && o.text === text && Math.abs(o.oy - oy) < 0.5 && left < o.right && o.left < right);
      if (!echo) {
        // A letter with its marks: PDFium slices the one glyph's box among its characters (a
        // gimel with dagesh and qamats gets the last third of its own width), which opens false
        // gaps beside it. The letter and its marks are one cluster: each gets the whole box.
        if (COMBINING_MARK.test(text) && held.filter((g) => !COMBINING_MARK.test(g.ch)).length === 1) pointedCluster(held, left, right, beforeGroup);
        for (const g of held) place(g);
      }
      recent.push({ text, left, right, oy, seq: groupCount });
      if (recent.length > 4) recent.shift();
    };
    /*
     * A glyph joins the run, or starts the next. A spacing accent drawn over (or under) its
     * letter stands in a run of its own, so that \`lines\` can put it on that letter by where it is
     * (lib/layout/accents.ts): TeX draws it before its letter, groff after.
     */
    const place = (g: Glyph): void => {
      // PDFium may make up a space where groff moves back to draw the accent over its letter: the
      // letter is then the last glyph of the run just ended.
      const last = run.glyphs[run.glyphs.length - 1] ?? (SPACING_ACCENT.test(g.ch) ? ended : undefined);
      if (last && accentOver(last, g)) {
        if (SPACING_ACCENT.test(last.ch)) {
          run.glyphs.pop();
          flush();
          run.glyphs.push(last);
        }
        flush();
        run.glyphs.push(g);
        if (SPACING_ACCENT.test(g.ch)) flush();
        return;
      }
      // Glyphs without text alone (LibreOffice's kashidas, drawn apart from the letters they
      // stretch, the last of them first) go on with the glyph that touches their extent: they
      // keep their place, and no gap opens where they stand.
      if ((!continues(run, g) || madeUpGaps.parts(run, g)) && !(run.glyphs.every((x) => x.ch === '') && touchesRun(run, g))) flush();
      run.glyphs.push(g);
    };
    // A space glyph's extent along display x (its loose box: the advance), of width 0 when it has
    // (almost) no advance: some fonts map a zero-width helper glyph inside a word to U+0020, and
    // some subsets give the word space no advance and move the pen past it (lib/layout/lines.ts).
    const spaceGlyph = (i: number): Extent | null => {
      calls.FPDFText_GetLooseCharBox(textPage, i, boxPtr);
      const h32 = heaps(m).HEAPF32;
      const bl = h32[boxPtr >> 2] ?? 0;
      const bt = h32[(boxPtr >> 2) + 1] ?? 0;
      const br = h32[(boxPtr >> 2) + 2] ?? 0;
      const xs = [ta * bl + tc * bt, ta * br + tc * bt];
      const left = Math.min(...xs) + te;
      const w = Math.max(...xs) + te - left;
      return { x: round(left), w: w >= SPACE_ADVANCE * objectSize ? round(w) : 0 };
    };
    const looseSpace = (space: Extent, i: number): LooseSpace => {
      calls.FPDFText_GetCharOrigin(textPage, i, originPtr, originPtr + 8);
      const h64 = heaps(m).HEAPF64;
      return { ...space, y: tb * (h64[originPtr >> 3] ?? 0) + td * (h64[(originPtr >> 3) + 1] ?? 0) + tf };
    };
    const flush = (): void => {
      commit();
      if (run.glyphs.length > 0) {
        joiners.into(run.glyphs);
        ended = run.glyphs[run.glyphs.length - 1];
        const item = runToItem(run.glyphs, normalize);
        if (item) {
          items.push(item);
          joiners.note(run.glyphs, item);
          if (item.dir === 'rtl' || PUNCTUATION_RUN.test(item.text)) drawn.set(item, run.glyphs);
          if (item.dir === 'rtl') forms.see(run.glyphs);
        }
        lastRun = item ? { glyphs: run.glyphs, at: items.length - 1 } : null;
      }
      run = { glyphs: [] };
    };
    // The glyphs of an ActualText span are held apart and become one item, placed among the items
    // where the span began, when the page is done.
    type Span = { mark: number; text: string; glyphs: Glyph[]; at: number; left: number; right: number; after?: 'space' | 'break'; space?: Extent };
    let span: Span | null = null;
    const spans = new Map<number, Span>();
    const seenObjects = new Set<number>();
    const spanTexts = new Map<number, string | null>();
    let lastObject = -1;
    let objectFont = '';
    let objectSize = 0;
    let objectTagged: string | undefined;
    let horizontal = true;
    let dx = 1;
    let dy = 0;
    // A tab or line end PDFium reports for a glyph drawn with ink is the raw code of a glyph its
    // font leaves out of the Unicode map, passed through unflagged (LibreOffice's kashida, glyph 9
    // of its subset): a glyph without text that keeps its place in its run. The tabs and line ends
    // PDFium makes up, and space glyphs, have no ink.
    const inkedControl = (i: number): boolean => {
      if (calls.FPDFText_IsGenerated(textPage, i) === 1 || calls.FPDFText_GetTextObject(textPage, i) === 0) return false;
      const [, , bottom, top] = inkBox(i);
      return top - bottom > INK_EM * (calls.FPDFText_GetFontSize(textPage, i) || 1);
    };
    // The glyph's ink box, page space (left, right, bottom, top): a glyph of no advance (an alef
    // drawn over its lam) has a loose box from its origin, not its ink.
    const inkBox = (i: number): [number, number, number, number] => {
      const ink = scratch.get(96) + 64;
      m.FPDFText_GetCharBox(textPage, i, ink, ink + 8, ink + 16, ink + 24);
      const h = heaps(m).HEAPF64;
      const at = ink >> 3;
      return [h[at] ?? 0, h[at + 1] ?? 0, h[at + 2] ?? 0, h[at + 3] ?? 0];
    };
    for (let i = 0; i < count; i++) {
      let code = calls.FPDFText_GetUnicode(textPage, i);
      const unmappedControl = (code === 9 || code === 10 || code === 13) && inkedControl(i);
      if (!unmappedControl && (code === 32 || code === 13 || code === 10 || code === 9 || code === 0xa0)) {
        if (span) {
          // Inside a span the ActualText stands for the glyphs; a line break or a space glyph (not
          // one PDFium made up for a gap) after its last glyph becomes the span item's mark.
          if (code === 13 || code === 10) span.after = 'break';
          else if (calls.FPDFText_IsGenerated(textPage, i) !== 1) {
            const space = calls.FPDFText_GetTextObject(textPage, i) !== 0 ? spaceGlyph(i) : null;
            if (span.after === 'break') {
              if (space) loose.push(looseSpace(space, i));
              continue;
            }
            if (span.after === undefined) span.after = 'space';
            if (space) span.space = space;
          }
          continue;
        }
        // A generated character is not a glyph, and a space glyph is a gap the line stage measures
        // (pdf.js ends its runs there too): either ends the run, and the item before keeps the mark.
        flush();
        const last = items[items.length - 1];
        // PDFium flags most spaces it makes up; some (after a pointed Hebrew letter) come unflagged
        // but belong to no text object.
        const generated = calls.FPDFText_IsGenerated(textPage, i) === 1 || calls.FPDFText_GetTextObject(textPage, i) === 0;
        if (!generated || code === 13 || code === 10) previous = null;
        acrossMadeUpSpace = previous !== null && code === 32;
        // A space glyph is drawn: the letter before it (in reading order, right to left) ends
        // where the space starts. A space PDFium flags as made up stands for a gap of unknown width.
        pen = null;
        if (!generated) {
          calls.FPDFText_GetCharOrigin(textPage, i, originPtr, originPtr + 8);
          const h64 = heaps(m).HEAPF64;
          const px = h64[originPtr >> 3] ?? 0;
          const py = h64[(originPtr >> 3) + 1] ?? 0;
          pen = { ox: ta * px + tc * py + te, oy: tb * px + td * py + tf, size: objectSize };
        } else if (calls.FPDFText_IsGenerated(textPage, i) !== 1 && code !== 13 && code !== 10) {
          pen = previous;
        }
        // A space glyph after a line end is not the item's, which the line end ended (nor a span's,
        // above): it is kept apart, for the run it belongs to by its place (looseSpacesToTheirRuns).
        const afterLineEnd = last?.after === 'break';
        if (last && !afterLineEnd) {
          if (code === 13 || code === 10) last.after = 'break';
          else if (generated || last.after === undefined) last.after = 'space';
        }
        // A space glyph drawn on the page, not one PDFium made up: a word space whatever the gap.
        const space = last && !generated && (code === 32 || code === 0xa0) ? spaceGlyph(i) : null;
        if (space && afterLineEnd) loose.push(looseSpace(space, i));
        else if (last && space) last.space = space;
        continue;
      }
      // PDFium reports a hyphen it took for a line-end one as U+0002. A soft hyphen is not drawn,
      // but keeps its place: inside a ligature ("ﬃ" → f, U+00AD, f, i) it holds a share of the box.
      // A glyph of code 2 that its font leaves out of the Unicode map is no such hyphen: PDFium
      // reports its raw code (LibreOffice's kashida, between two letters of an Arabic word).
      const rawTwo = code === 2 && calls.FPDFText_HasUnicodeMapError(textPage, i) === 1;
      if (code === 2 && !rawTwo) code = 0x2d;
      // A glyph without text (U+0000 and the like) is no character, but inside an ActualText span
      // its box is part of the span's extent.
      const noText = code === 0 || code === 0xfffe || code === 0xffff || code > 0x10ffff;
      const mapError = rawTwo || (!noText && calls.FPDFText_HasUnicodeMapError(textPage, i) === 1);
      if (mapError) unmapped += 1;
      const object = calls.FPDFText_GetTextObject(textPage, i);
      // What the font program says a glyph left out of the Unicode map is, when it can say
      // (font-texts.ts); else, in a font that maps its other glyphs, a raw code that is a control
      // code is a glyph without text that keeps its place in its run, like a soft hyphen (other
      // raw codes are kept: PDFium read them through the font's encoding, often rightly).
      let derivedText = '';
      let placeholderSaid = false;
      const gapFont = mapError && object !== 0 ? calls.FPDFTextObj_GetFont(object) : 0;
      const gapsOfFont = gapFont !== 0 ? (unmappedGaps ??= fontsWithMapGaps(calls, textPage, count, boxPtr, () => heaps(m).HEAPF32)).get(gapFont) : undefined;
      if (gapsOfFont) {
        let program = derived.get(gapFont);
        if (!program) {
          const name = readBytes(m, names, (p, len) => m.FPDFFont_GetBaseFontName(gapFont, p, len));
          const texts = derivedGlyphTexts(name, gapsOfFont.samples, gapsOfFont.script);
          program = { texts, contexts: texts && derivedGlyphContexts(name), scripts: programScripts(name) };
          derived.set(gapFont, program);
        }
        const inContext = program.contexts?.candidates.has(code) ? textInContext(program.contexts, code, charactersBefore(i)) : null;
        // A placeholder whose text a glyph before it already gave is a glyph without text.
        placeholderSaid = inContext === '';
        derivedText = inContext ?? program.texts?.get(code) ?? '';
        // A glyph number read as a letter the font cannot draw ("ê" in Noto Nastaliq Urdu) is no text.
        if (!derivedText && misreadCode(code, program.scripts)) {
          derivedText = '\ufffd';
          misread.set(program.scripts!.main, (misread.get(program.scripts!.main) ?? 0) + 1);
        }
      }
      const gap = gapsOfFont?.mapped === true && CONTROL.test(String.fromCodePoint(code));
      if (object !== lastObject) {
        lastObject = object;
        seenObjects.add(object);
        const objectSpan = object ? actualTextSpan(m, object, names, spanTexts) : null;
        if (objectSpan?.mark !== (span as Span | null)?.mark) {
          flush();
          span = null;
          if (objectSpan) {
            // PDFium's character order may leave a span and come back to it: one entry per span.
            span = spans.get(objectSpan.mark) ?? { mark: objectSpan.mark, text: objectSpan.text, glyphs: [], at: items.length, left: Infinity, right: -Infinity };
            spans.set(objectSpan.mark, span);
          }
        }

        const font = object ? calls.FPDFTextObj_GetFont(object) : 0;
        let name = fontNames.get(font);
        if (name === undefined) {
          name = font ? readBytes(m, names, (p, len) => m.FPDFFont_GetBaseFontName(font, p, len)) : '';
          fontNames.set(font, name || `font-${fontNames.size}`);
          name = fontNames.get(font)!;
        }
        objectFont = name;
        objectTagged = tags && object ? objectTag(m, object, tags, names) : undefined;
        // The character matrix carries the text and graphics state; the em on the page is the
        // font size scaled by its vertical column, as pdf.js computes it.
        calls.FPDFText_GetMatrix(textPage, i, matrixPtr);
        const f = heaps(m).HEAPF32;
        const base = matrixPtr >> 2;
        const [a = 1, b = 0, c = 0, d = 1] = [f[base], f[base + 1], f[base + 2], f[base + 3]];
        // Into display space: the viewport's linear part times the character's.
        const da = ta * a + tc * b;
        const db = tb * a + td * b;
        const dc = ta * c + tc * d;
        const dd = tb * c + td * d;
        const fontSize = calls.FPDFText_GetFontSize(textPage, i);
        objectSize = fontSize * Math.hypot(dc, dd);
        // A negative font size turns the glyphs half round: they advance against the matrix.
        const len = Math.hypot(da, db) * (fontSize < 0 ? -1 : 1);
        // A matrix that squeezes the baseline to nothing (`0 0 0 1 x y Tm`, a zero font size)
        // or past float range gives no direction: such glyphs are read as horizontal, their
        // boxes (of no width) as they are, as pdf.js reads them.
        const directed = len !== 0 && Number.isFinite(len);
        dx = directed ? da / len : 1;
        dy = directed ? db / len : 0;
        horizontal = dx > 0 && Math.abs(dy) <= 0.1 * dx;
      }
      if (noText && !span) {
        flush();
        continue;
      }
      calls.FPDFText_GetCharOrigin(textPage, i, originPtr, originPtr + 8);
      calls.FPDFText_GetLooseCharBox(textPage, i, boxPtr);
      const h64 = heaps(m).HEAPF64;
      const h32 = heaps(m).HEAPF32;
      const px = h64[originPtr >> 3] ?? 0;
      const py = h64[(originPtr >> 3) + 1] ?? 0;
      // FS_RECTF: left, top, right, bottom, page space.
      const bl = h32[boxPtr >> 2] ?? 0;
      const bt = h32[(boxPtr >> 2) + 1] ?? 0;
      const br = h32[(boxPtr >> 2) + 2] ?? 0;
      const bb = h32[(boxPtr >> 2) + 3] ?? 0;
      const ox = ta * px + tc * py + te;
      const oy = tb * px + td * py + tf;
      // The box's extent along display x (all four corners, for rotated pages).
      const x1 = ta * bl + tc * bt;
      const x2 = ta * br + tc * bt;
      const x3 = ta * bl + tc * bb;
      const x4 = ta * br + tc * bb;
      const left = Math.min(x1, x2, x3, x4) + te;
      const right = Math.max(x1, x2, x3, x4) + te;
      // …and along display y, for a turned glyph's advance.
      const y1 = tb * bl + td * bt;
      const y2 = tb * br + td * bt;
      const y3 = tb * bl + td * bb;
      const y4 = tb * br + td * bb;
      const height = Math.max(y1, y2, y3, y4) - Math.min(y1, y2, y3, y4);
      // A glyph number read as a character after a letter, before another of its script or none (the
      // word's end, "أهل؝ً", font-texts.ts): a sign of the letters' own script (punctuation common to
      // all scripts, an apostrophe, stands in words).
      if (!derivedText && !mapError && !noText && code > 0x7f && code <= 0x10ffff && i > 0 && !isWordCharacter(code)) {
        const script = letterScriptAt(i - 1);
        if (script && isOfScript(String.fromCodePoint(code), script) && (i + 1 === count || (letterScriptAt(i + 1) ?? script) === script)) {
          const [inkLeft, inkRight] = inkBox(i);
          const width = Math.abs(inkRight - inkLeft) / (calls.FPDFText_GetFontSize(textPage, i) || 1);
          derivedText = unflaggedGlyphText(objectFont, code, width, script) ?? '';
        }
      }
      const glyph: Glyph = {
        ch: derivedText || (code === 0xad || noText || gap || unmappedControl || placeholderSaid || code > 0x10ffff ? '' : String.fromCodePoint(code)),
        left: horizontal ? left : ox,
        right: horizontal ? right : ox + turnedAdvance(right - left, height, dx, dy, objectSize),
        ox,
        oy,
        size: objectSize,
        font: objectFont,
        horizontal,
        dx,
        dy,
        tag: objectTagged,
      };
      if (span) {
        span.glyphs.push(glyph);
        span.after = undefined;
        delete span.space;
        continue;
      }
      const held = group[0];
      if (held && (held.ox !== glyph.ox || held.oy !== glyph.oy)) commit();
      if (group.length === 0) beforeGroup = pen;
      group.push(glyph);
      if (acrossMadeUpSpace && lastRun) madeUpGaps.seen(lastRun.glyphs, glyph);
      acrossMadeUpSpace = false;
      previous = glyph;
      pen = glyph;
    }
    commit();
    flush();
    for (const [item, glyphs] of drawn) if (item.dir === 'rtl' && !item.space && item.after !== 'break' && forms.unjoined(glyphs)) item.endsUnjoined = true;
    if (spans.size > 0) loose.push(...objectsOutOfTheText(m, page, textPage, scratch.get(96) + 64, transform, spans, seenObjects));
    // Latest first, so that the places of the earlier ones stay where they were.
    for (const pending of [...spans.values()].reverse()) {
      const made = spanItem(pending.text, pending.glyphs, normalize, pending.left, pending.right);
      const last = made[made.length - 1];
      if (last && pending.after) last.after = pending.after;
      if (last && pending.space) last.space = pending.space;
      items.splice(pending.at, 0, ...made);
    }
    if (joiners.placed.size > 0) items = items.filter((item) => !joiners.placed.has(item));
  } finally {
    m.FPDFText_ClosePage(textPage);
    names.free();
  }
  return { items: rightToLeftMarksOnTheirLine(loneBracketsInGlyphOrder(looseSpacesToTheirRuns(items, loose), (item) => drawnForward(drawn.get(item)))), unmapped, misread };
}
