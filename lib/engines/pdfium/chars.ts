/**
 * The character loop: a page's characters, as PDFium's text API reports them (box, origin, matrix,
 * font, flags), read into glyph runs and items in display coordinates. Characters PDFium generated
 * end a run and become the `after` mark of the item before; the glyphs of an ActualText span are
 * held apart and become one item; a cluster a font maps twice is read once; characters without a
 * usable Unicode map are counted.
 */
import type { Item } from '../../protocol/records.js';
import { heaps, Scratch, type PdfiumModule } from './module.js';
import { readBytes } from './strings.js';
import { accentOver, COMBINING_MARK, continues, runToItem, SPACING_ACCENT, type Glyph, type Run } from './runs.js';
import { actualTextSpan, spanItem } from './actual-text.js';
import { loneBracketsInGlyphOrder, rightToLeftMarksOnTheirLine } from './right-to-left.js';
import { objectTag } from './structure.js';

/**
 * A pointed right-to-left glyph whose box is under NARROW_SHARE of the distance to the origin of
 * the glyph drawn after it, within ADVANCE_EM em, is taken to reach that origin.
 */
const ADVANCE_EM = 1.5;
const NARROW_SHARE = 0.5;
/** A Hebrew or Arabic point (PDFium reports a pointed letter drawn as one glyph with its point first). */
const RTL_POINT = /[\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED]/u;

const PAGEOBJ_TEXT = 1;

/** A page's items and the number of its characters without a usable Unicode map. */
export interface PageText {
  items: Item[];
  unmapped: number;
}

/** The per-character calls, straight from the module's exports: `ccall`'s argument marshalling costs more than the calls. */
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

function charCalls(m: PdfiumModule): CharCalls {
  const exports = m.pdfium.wasmExports as unknown as Partial<CharCalls>;
  const wrapped = m as unknown as CharCalls;
  const pick = <K extends keyof CharCalls>(name: K): CharCalls[K] => (typeof exports[name] === 'function' ? exports[name] : wrapped[name]) as CharCalls[K];
  return {
    FPDFText_CountChars: pick('FPDFText_CountChars'),
    FPDFText_GetUnicode: pick('FPDFText_GetUnicode'),
    FPDFText_IsGenerated: pick('FPDFText_IsGenerated'),
    FPDFText_HasUnicodeMapError: pick('FPDFText_HasUnicodeMapError'),
    FPDFText_GetTextObject: pick('FPDFText_GetTextObject'),
    FPDFTextObj_GetFont: pick('FPDFTextObj_GetFont'),
    FPDFText_GetMatrix: pick('FPDFText_GetMatrix'),
    FPDFText_GetFontSize: pick('FPDFText_GetFontSize'),
    FPDFText_GetCharOrigin: pick('FPDFText_GetCharOrigin'),
    FPDFText_GetLooseCharBox: pick('FPDFText_GetLooseCharBox'),
  };
}

/**
 * Reads a page's characters into items (`transform`: page to display space); `unmapped` counts
 * characters whose font has no usable Unicode map. `tags` (a tagged page's MCIDs → structure tags,
 * structure.ts) gives each item the `tag` of its text objects.
 */
export function readPageText(module: PdfiumModule, page: number, transform: number[], scratch: Scratch, normalize: boolean, tags?: ReadonlyMap<number, string>): PageText {
  const m = module;
  const calls = charCalls(module);
  const items: Item[] = [];
  const textPage = m.FPDFText_LoadPage(page);
  if (!textPage) return { items, unmapped: 0 };
  const [ta = 1, tb = 0, tc = 0, td = -1, te = 0, tf = 0] = transform;
  const fontNames = new Map<number, string>();
  const names = new Scratch(m);
  let unmapped = 0;
  try {
    const count = calls.FPDFText_CountChars(textPage);
    // Scratch layout: origin x,y (2 doubles) · loose box (4 floats) · matrix (6 floats).
    const buf = scratch.get(64);
    const originPtr = buf;
    const boxPtr = buf + 16;
    const matrixPtr = buf + 32;
    let run: Run = { glyphs: [] };
    // The last glyph of the run last ended.
    let ended: Glyph | undefined;
    // One glyph's characters share an origin: they are held as a group until the next origin, so
    // a group that repeats a cluster just drawn over the same place can be left out (see below).
    let group: Glyph[] = [];
    // The last glyph, kept across the spaces PDFium makes up (not across space glyphs or line ends).
    let previous: Glyph | null = null;
    // The last multi-character groups, with their place in the sequence of groups.
    const recent: { text: string; left: number; right: number; oy: number; seq: number }[] = [];
    let groupCount = 0;
    const commit = (): void => {
      const held = group;
      group = [];
      if (held.length === 0) return;
      groupCount += 1;
      const only = held[0]!;
      if (held.length === 1) {
        // The common case: one character per glyph, nothing to compare.
        place(only);
        return;
      }
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
      if (!continues(run, g)) flush();
      run.glyphs.push(g);
    };
    const flush = (): void => {
      commit();
      if (run.glyphs.length > 0) {
        ended = run.glyphs[run.glyphs.length - 1];
        const item = runToItem(run.glyphs, normalize);
        if (item) items.push(item);
      }
      run = { glyphs: [] };
    };
    // The glyphs of an ActualText span are held apart and become one item, placed among the items
    // where the span began, when the page is done.
    type Span = { mark: number; text: string; glyphs: Glyph[]; at: number; left: number; right: number; after?: 'space' | 'break' };
    let span: Span | null = null;
    const spans = new Map<number, Span>();
    const spanTexts = new Map<number, string | null>();
    let lastObject = -1;
    let objectFont = '';
    let objectSize = 0;
    let objectTagged: string | undefined;
    let horizontal = true;
    let dx = 1;
    let dy = 0;
    for (let i = 0; i < count; i++) {
      let code = calls.FPDFText_GetUnicode(textPage, i);
      if (code === 32 || code === 13 || code === 10 || code === 9 || code === 0xa0) {
        if (span) {
          // Inside a span the ActualText stands for the glyphs; a line break or a space glyph (not
          // one PDFium made up for a gap) after its last glyph becomes the span item's mark.
          if (code === 13 || code === 10) span.after = 'break';
          else if (span.after === undefined && calls.FPDFText_IsGenerated(textPage, i) !== 1) span.after = 'space';
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
        if (last && last.after !== 'break') {
          if (code === 13 || code === 10) last.after = 'break';
          else if (generated || last.after === undefined) last.after = 'space';
        }
        continue;
      }
      // PDFium reports a hyphen it took for a line-end one as U+0002. A soft hyphen is not drawn,
      // but keeps its place: inside a ligature ("ﬃ" → f, U+00AD, f, i) it holds a share of the box.
      if (code === 2) code = 0x2d;
      // A glyph without text (U+0000 and the like) is no character, but inside an ActualText span
      // its box is part of the span's extent.
      const noText = code === 0 || code === 0xfffe || code === 0xffff || code > 0x10ffff;
      if (!noText && calls.FPDFText_HasUnicodeMapError(textPage, i) === 1) unmapped += 1;
      const object = calls.FPDFText_GetTextObject(textPage, i);
      if (object !== lastObject) {
        lastObject = object;
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
        const len = Math.hypot(da, db) || 1;
        dx = da / len;
        dy = db / len;
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
      const glyph: Glyph = {
        ch: code === 0xad || noText || code > 0x10ffff ? '' : String.fromCodePoint(code),
        left: horizontal ? left : ox,
        right: horizontal ? right : ox + Math.max(Math.abs(br - bl), Math.abs(bt - bb)),
        ox,
        oy,
        size: objectSize,
        font: objectFont,
        horizontal,
        dx,
        dy,
      };
      if (objectTagged !== undefined) glyph.tag = objectTagged;
      if (span) {
        span.glyphs.push(glyph);
        span.after = undefined;
        continue;
      }
      // Right-to-left text comes in logical order, so this glyph is drawn just before the one
      // before it: the pen went from its origin to that glyph's. PDFium measures some pointed
      // letters far narrower than that advance (a holam on its vav: 0.9 pt of 4.9) and makes up a
      // space after them; the glyph reaches that origin, so no word space is measured there.
      const advance = previous ? previous.ox - glyph.ox : 0;
      if (previous && horizontal && glyph.oy === previous.oy && advance > 0 && advance < ADVANCE_EM * previous.size && glyph.right - glyph.left < NARROW_SHARE * advance && RTL_POINT.test(glyph.ch)) {
        glyph.right = Math.max(glyph.right, previous.ox);
      }
      previous = glyph;
      const held = group[0];
      if (held && (held.ox !== glyph.ox || held.oy !== glyph.oy)) commit();
      group.push(glyph);
    }
    commit();
    flush();
    if (spans.size > 0) {
      // PDFium gives a span's ActualText to the glyphs of its first text object and leaves the
      // other objects out of the text: the span's extent is that of all its objects.
      const b = scratch.get(96) + 64;
      const objects = m.FPDFPage_CountObjects(page);
      for (let k = 0; k < objects; k++) {
        const object = m.FPDFPage_GetObject(page, k);
        if (!object || m.FPDFPageObj_GetType(object) !== PAGEOBJ_TEXT) continue;
        const marks = m.FPDFPageObj_CountMarks(object);
        for (let j = 0; j < marks; j++) {
          const pending = spans.get(m.FPDFPageObj_GetMark(object, j));
          if (!pending || !m.FPDFPageObj_GetBounds(object, b, b + 4, b + 8, b + 12)) continue;
          const f32 = heaps(m).HEAPF32;
          const [l = 0, bo = 0, r = 0, t = 0] = [f32[b >> 2], f32[(b >> 2) + 1], f32[(b >> 2) + 2], f32[(b >> 2) + 3]];
          const xs = [ta * l + tc * bo, ta * r + tc * bo, ta * l + tc * t, ta * r + tc * t];
          pending.left = Math.min(pending.left, Math.min(...xs) + te);
          pending.right = Math.max(pending.right, Math.max(...xs) + te);
        }
      }
    }
    // Latest first, so that the places of the earlier ones stay where they were.
    for (const pending of [...spans.values()].reverse()) {
      const made = spanItem(pending.text, pending.glyphs, normalize, pending.left, pending.right);
      const last = made[made.length - 1];
      if (last && pending.after) last.after = pending.after;
      items.splice(pending.at, 0, ...made);
    }
  } finally {
    m.FPDFText_ClosePage(textPage);
    names.free();
  }
  return { items: rightToLeftMarksOnTheirLine(loneBracketsInGlyphOrder(items)), unmapped };
}
