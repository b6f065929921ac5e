/**
 * ActualText spans under PDFium: the marked-content span around a text object (its ActualText read
 * from the raw bytes), and the one item a span's glyphs become, as the pdf.js adapter makes it.
 */
import { engineItem, type Item } from '../../protocol/records.js';
import { heaps, PAGE_OBJECT, type PdfiumModule, type Scratch } from './module.js';
import { pdfTextString } from './strings.js';
import { continues, directionOf, NORMALIZED, round, runToItem, type Glyph, type LooseSpace } from './runs.js';

/**
 * The scripts whose ActualText spans are read here: Arabic, Indic scripts and Thai, shaped so that
 * a cluster's glyphs do not map to its characters one to one. PDFium gives such a span's text to
 * the glyphs of its first text object only, over their extent, and repeats it for each further
 * object. In Nastaliq Chromium draws one letter as several glyphs (the yeh barree as a piece at
 * the join and a swash reaching far left): the letter's place on the line is the extent of all of
 * them, not of the first. Other spans (a soft hyphen at a line break) PDFium reads right.
 */
const SHAPED_SCRIPT = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\u0900-\u0DFF\u0E00-\u0E7F]/u;

/**
 * The outermost marked-content span with /ActualText around a text object: the mark (the same
 * handle for every object inside one span) and its text. Generators use ActualText where glyphs do
 * not map to characters one to one: Chromium shapes Devanagari so that a vowel sign drawn before
 * its consonant has no Unicode of its own, and the span carries the true text.
 */
export function actualTextSpan(m: PdfiumModule, object: number, scratch: Scratch, known: Map<number, string | null>): { mark: number; text: string } | null {
  const marks = m.FPDFPageObj_CountMarks(object);
  for (let i = 0; i < marks; i++) {
    const mark = m.FPDFPageObj_GetMark(object, i);
    if (!mark) continue;
    let text = known.get(mark);
    if (text === undefined) {
      // The raw bytes: PDFium's string getter reads them as UTF-8, which loses UTF-16 text.
      let found: string | null = null;
      const outLength = scratch.get(8);
      if (m.FPDFPageObjMark_GetParamBlobValue(mark, 'ActualText', 0, 0, outLength)) {
        const needed = m.pdfium.getValue(outLength, 'i32') as number;
        if (needed > 0 && needed <= 1 << 20) {
          const buf = scratch.get(needed + 8);
          if (m.FPDFPageObjMark_GetParamBlobValue(mark, 'ActualText', buf + 8, needed, buf)) found = pdfTextString(heaps(m).HEAPU8.slice(buf + 8, buf + 8 + needed));
        } else found = '';
      }
      known.set(mark, found);
      text = found;
    }
    if (text !== null) return SHAPED_SCRIPT.test(text) ? { mark, text } : null;
  }
  return null;
}

/**
 * The item of an ActualText span: its text over the extent of the span's glyphs, as the pdf.js
 * adapter makes it. An empty ActualText means the glyphs stand for nothing; a span whose glyphs lie
 * on different baselines keeps its glyphs (one position cannot stand for two lines), unless each
 * of them repeats its text.
 */
export function spanItem(actualText: string, glyphs: readonly Glyph[], normalize: boolean, spanLeft = Infinity, spanRight = -Infinity): Item[] {
  const first = glyphs[0];
  if (!first) return [];
  // A letter drawn in pieces on two baselines (Nastaliq's nun: its bowl, and its dot raised half an
  // em) whose every piece PDFium gives the whole ActualText is one letter, not one per piece.
  const pieces = glyphs.length > 1 && glyphs.every((g) => g.ch === actualText);
  if (!first.horizontal || (!pieces && glyphs.some((g) => Math.abs(g.oy - first.oy) > 0.5 * first.size))) {
    const items: Item[] = [];
    let run: Glyph[] = [];
    for (const g of glyphs) {
      if (run.length > 0 && !continues({ glyphs: run }, g)) {
        const item = runToItem(run, normalize);
        if (item) items.push(item);
        run = [];
      }
      run.push(g);
    }
    const item = run.length > 0 ? runToItem(run, normalize) : null;
    if (item) items.push(item);
    return items;
  }
  let text = actualText.replaceAll('\0', '').trim();
  if (normalize) text = text.replace(NORMALIZED, (c) => (/\s/u.test(c) ? ' ' : c.normalize('NFKC')));
  if (text === '') return [];
  let left = spanLeft;
  let right = spanRight;
  for (const g of glyphs) {
    left = Math.min(left, g.left);
    right = Math.max(right, g.right);
  }
  const dir = directionOf(text).dir;
  // Runs hold their glyphs in drawing order (runs.ts, glyphOrderText): the ActualText of a
  // right-to-left span, in reading order, is turned to match ("لا" of a lam-alef ligature).
  if (dir === 'rtl') text = [...text].reverse().join('');
  return [engineItem(text, round(left), round(first.oy), round(right - left), round(first.size), first.font, dir, undefined, first.tag)];
}

/**
 * The text objects PDFium's text leaves out, once the page's characters are read (`seen`: the
 * objects some character came from). PDFium gives a span's ActualText to the glyphs of its first
 * text object and leaves its other objects out: each span's extent (`spans`, updated here) is that
 * of all its objects. It also drops a space glyph drawn as an object of its own before a span
 * (Chromium's Arabic, before a letter with a shadda or tanween): an object left out whose bounds
 * are a point draws nothing, and is returned as a space of no width there, for the run it follows.
 */
export function objectsOutOfTheText(
  m: PdfiumModule,
  page: number,
  textPage: number,
  boundsPtr: number,
  transform: readonly number[],
  spans: ReadonlyMap<number, { left: number; right: number }>,
  seen: ReadonlySet<number>,
): LooseSpace[] {
  const [ta = 1, tb = 0, tc = 0, td = -1, te = 0, tf = 0] = transform;
  const b = boundsPtr;
  const dropped: LooseSpace[] = [];
  const objects = m.FPDFPage_CountObjects(page);
  for (let k = 0; k < objects; k++) {
    const object = m.FPDFPage_GetObject(page, k);
    if (!object || m.FPDFPageObj_GetType(object) !== PAGE_OBJECT.text || !m.FPDFPageObj_GetBounds(object, b, b + 4, b + 8, b + 12)) continue;
    const f32 = heaps(m).HEAPF32;
    const [l = 0, bo = 0, r = 0, t = 0] = [f32[b >> 2], f32[(b >> 2) + 1], f32[(b >> 2) + 2], f32[(b >> 2) + 3]];
    const xs = [ta * l + tc * bo, ta * r + tc * bo, ta * l + tc * t, ta * r + tc * t];
    const marks = m.FPDFPageObj_CountMarks(object);
    let inSpan = false;
    for (let j = 0; j < marks; j++) {
      const pending = spans.get(m.FPDFPageObj_GetMark(object, j));
      if (!pending) continue;
      inSpan = true;
      pending.left = Math.min(pending.left, Math.min(...xs) + te);
      pending.right = Math.max(pending.right, Math.max(...xs) + te);
    }
    // (Space glyphs PDFium kept are not among `seen`, but have their text: " ".)
    if (!inSpan && !seen.has(object) && l === r && bo === t && m.FPDFTextObj_GetText(object, textPage, 0, 0) <= 2) dropped.push({ x: round(ta * l + tc * bo + te), w: 0, y: tb * l + td * bo + tf });
  }
  return dropped;
}
