/**
 * The PDFium engine (WebAssembly): PDF bytes in, the same engine-neutral records as pdf.js out.
 *
 * PDFium's text API reports every character with its box, origin, matrix, font and flags. We read
 * those characters and group them into glyph runs the way the pdf.js adapter does: a run ends at a
 * change of font, size, baseline or orientation, at space glyphs, and at every gap wider than
 * 0.1 em, so the line stage measures gaps itself. Characters PDFium generated (a space for a gap,
 * a line break at the end of a line) are never text: they end the run and are kept as the `after`
 * mark of the item before. Right-to-left runs come out in glyph (drawing) order, as under pdf.js
 * (glyphOrderText, loneBracketsInGlyphOrder; rightToLeftMarksOnTheirLine keeps separately drawn
 * marks on their letters' line), and a cluster a font maps twice is read once. An ActualText span
 * of shaped Indic or Thai text becomes one item over all of its glyphs, as under pdf.js
 * (actualTextSpan, spanItem). Characters whose font has no usable Unicode map are counted and
 * reported as a diagnostic per page.
 *
 * Coordinates go through the same viewport as pdf.js (crop box ∩ media box, /Rotate, origin at the
 * top-left, y down), so nothing after parse knows which engine ran.
 *
 * Memory: the document's bytes, each page and each text page are freed as soon as they are done.
 * A WebAssembly heap never shrinks, so a document whose heap passes the worker's memory limit ends
 * with out-of-memory, and an instance whose heap has grown past RECYCLE_HEAP_BYTES (or that
 * aborted) is dropped after its document; the next document gets a fresh one (about 40 ms).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DiagnosticRecord, DocMeta, DocRecord, Direction, Item, OutlineEntry, PageRecord } from '../protocol/records.js';
import { diagnostic, SCHEMA_VERSION } from '../protocol/records.js';
import { EngineError } from './errors.js';
import { xmpFromPdfBytes } from './xmp.js';
import { annotationItems, looksLikePdf } from './pdfjs.js';
import bidiModule, { type Bidi } from 'bidi-js';

type PdfiumModule = import('@embedpdf/pdfium').WrappedPdfiumModule;

export interface PdfiumOptions {
  /** Apply NFKC to ligatures, Arabic presentation forms and odd spaces (what pdf.js's normalisation covers). */
  normalize: boolean;
  /** WebAssembly heap limit in MiB; a document that grows the heap past it ends with out-of-memory. */
  memory: number;
}

/** An instance whose heap has grown past this is replaced before the next document. */
export const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;

/*
 * Run splitting, relative to the font size (em) of the run, as in the pdf.js adapter:
 *
 *   ┌──┐┌──┐   ┌──┐       gap = distance between the advance boxes of two neighbouring glyphs
 *   │ab││cd│ ← │ef│       (whichever side the next glyph lies on, so right-to-left runs work too);
 *   └──┘└──┘   └──┘       a gap > GAP_EM em, a baseline shift > BASELINE_EM em, or a size change
 *         ^gap^           > SIZE_RATIO ends the run.
 */
const GAP_EM = 0.1;
/**
 * A pointed right-to-left glyph whose box is under NARROW_SHARE of the distance to the origin of
 * the glyph drawn after it, within ADVANCE_EM em, is taken to reach that origin.
 */
const ADVANCE_EM = 1.5;
const NARROW_SHARE = 0.5;
const BASELINE_EM = 0.25;
const SIZE_RATIO = 0.01;

let modulePromise: Promise<PdfiumModule> | null = null;
let engineVersion = 'pdfium';

async function createModule(): Promise<PdfiumModule> {
  const require = createRequire(import.meta.url);
  const { init } = await import('@embedpdf/pdfium');
  const wasmBinary = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
  const module = await init({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
  module.PDFiumExt_Init();
  try {
    const pkg = JSON.parse(readFileSync(require.resolve('@embedpdf/pdfium/package.json'), 'utf8')) as { version?: string };
    engineVersion = `pdfium wasm ${pkg.version ?? ''}`.trim();
  } catch {
    engineVersion = 'pdfium wasm';
  }
  return module;
}

function loadModule(): Promise<PdfiumModule> {
  modulePromise ??= createModule().catch((error: unknown) => {
    modulePromise = null;
    throw error;
  });
  return modulePromise;
}

/** Loads the WebAssembly module ahead of the first document. */
export async function preloadEngine(): Promise<void> {
  await loadModule();
}

/** Drops the instance; the next document starts a fresh one with an empty heap. */
function recycle(): void {
  modulePromise = null;
}

/** The module's views of its heap; emscripten replaces them when the heap grows, so read them each time. */
interface Heaps {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
}
const heaps = (m: PdfiumModule): Heaps => m.pdfium as unknown as Heaps;

const heapBytes = (m: PdfiumModule): number => heaps(m).HEAPU8.byteLength;

const round = (v: number): number => Math.round(v * 100) / 100;

/** A scratch buffer in the WebAssembly heap, grown on demand, freed with the document. */
class Scratch {
  ptr = 0;
  size = 0;
  constructor(private readonly m: PdfiumModule) {}
  get(size: number): number {
    if (size > this.size) {
      if (this.ptr) this.m.pdfium.wasmExports.free(this.ptr);
      this.size = Math.max(size, 256);
      this.ptr = this.m.pdfium.wasmExports.malloc(this.size);
      if (!this.ptr) throw new EngineError('out-of-memory', 'The PDFium heap is exhausted');
    }
    return this.ptr;
  }
  free(): void {
    if (this.ptr) this.m.pdfium.wasmExports.free(this.ptr);
    this.ptr = 0;
    this.size = 0;
  }
}

/** Reads a UTF-16LE string through PDFium's two-call convention (ask the length, then fill). */
function readUtf16(m: PdfiumModule, scratch: Scratch, call: (buf: number, len: number) => number): string {
  const needed = call(0, 0);
  if (needed <= 2 || needed > 1 << 20) return '';
  const ptr = scratch.get(needed);
  call(ptr, needed);
  return m.pdfium.UTF16ToString(ptr);
}

/** The page-to-display transform of pdf.js's viewport at scale 1: [a, b, c, d, e, f]. */
export function viewportTransform(view: readonly [number, number, number, number], rotation: number): { transform: number[]; width: number; height: number } {
  const [x0, y0, x1, y1] = view;
  const cx = (x1 + x0) / 2;
  const cy = (y1 + y0) / 2;
  const r = ((rotation % 360) + 360) % 360;
  const [a, b, c, d] = r === 90 ? [0, 1, 1, 0] : r === 180 ? [-1, 0, 0, 1] : r === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  let offsetX: number;
  let offsetY: number;
  let width: number;
  let height: number;
  if (a === 0) {
    offsetX = Math.abs(cy - y0);
    offsetY = Math.abs(cx - x0);
    width = Math.abs(y1 - y0);
    height = Math.abs(x1 - x0);
  } else {
    offsetX = Math.abs(cx - x0);
    offsetY = Math.abs(cy - y0);
    width = Math.abs(x1 - x0);
    height = Math.abs(y1 - y0);
  }
  return { transform: [a, b, c, d, offsetX - a * cx - c * cy, offsetY - b * cx - d * cy], width, height };
}

// bidi-js is a CommonJS module whose export is the factory; its typings declare it as an ES default.
const uba = (bidiModule as unknown as () => Bidi)();

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
/** A Hebrew or Arabic point (PDFium reports a pointed letter drawn as one glyph with its point first). */
const RTL_POINT = /[\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED]/u;
const LETTER = /\p{L}/u;
const COMBINING_MARK = /\p{M}/u;
const NORMALIZED = /[\uFB00-\uFDFF\uFE70-\uFEFF\u00A0\u2000-\u200A\u202F\u205F\u3000]/gu;

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
}

interface Run {
  glyphs: Glyph[];
}

function gapBetween(prev: Glyph, next: Glyph): number {
  return Math.max(next.left - prev.right, prev.left - next.right);
}

function continues(run: Run, next: Glyph): boolean {
  const prev = run.glyphs[run.glyphs.length - 1];
  const first = run.glyphs[0];
  if (!prev || !first) return true;
  if (next.font !== prev.font || next.horizontal !== prev.horizontal) return false;
  if (Math.abs(next.size - first.size) > SIZE_RATIO * first.size) return false;
  const em = first.size || 1;
  if (next.horizontal) {
    if (Math.abs(next.oy - prev.oy) > BASELINE_EM * em) return false;
    return gapBetween(prev, next) <= GAP_EM * em;
  }
  // Rotated or vertical text: same direction, next origin about one advance further on.
  if (Math.abs(next.dx - prev.dx) > 0.05 || Math.abs(next.dy - prev.dy) > 0.05) return false;
  const along = (next.ox - prev.ox) * prev.dx + (next.oy - prev.oy) * prev.dy;
  const across = Math.abs((next.ox - prev.ox) * -prev.dy + (next.oy - prev.oy) * prev.dx);
  return across <= BASELINE_EM * em && along >= -GAP_EM * em && along <= (prev.right - prev.left) + 1.1 * em;
}

/** Characters PDFium's line analysis leaves in their own order inside right-to-left text: letters of left-to-right scripts and digits. */
const KEPT_FORWARD = /^(?:\p{Nd}|(?![\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])\p{L})$/u;

/**
 * A right-to-left run's text in glyph order: the order its glyphs are drawn, left to right on the
 * page (visual order), as the pdf.js engine reports it, so that `lines` and `bidi` treat both
 * engines alike (`glyph-order` in `meta.engine`).
 *
 * PDFium gives right-to-left text in drawing order when it did not recognise the line, and in
 * logical order when it did: it reversed the line's right-to-left letters and the neutrals among
 * them, mirroring brackets, and kept left-to-right letters and digits in their own order. A run
 * whose glyphs go left to right is in drawing order and is kept. A run that goes right to left (or
 * is one right-to-left glyph of several characters) is turned back: reversed, each stretch of
 * left-to-right letters and digits turned again ("3-ל" drawn, "ל-3" from PDFium, "3-ל" again), and
 * brackets mirrored back. Characters of one glyph share an origin (a ligature, a letter and its
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
  if (!first || !last || !first.horizontal || first.ox < last.ox) return asGiven;
  const oneGlyph = (): boolean => glyphs.every((g) => g.ox === first.ox && g.oy === first.oy);
  if (first.ox === last.ox && !(RTL_CHAR.test(asGiven) && oneGlyph())) return asGiven;
  const reversed = [...glyphs].reverse();
  const ordered: Glyph[] = [];
  for (let i = 0; i < reversed.length; ) {
    const head = reversed[i]!;
    let j = i + 1;
    while (j < reversed.length && reversed[j]!.ox === head.ox && reversed[j]!.oy === head.oy) j++;
    const cluster = reversed.slice(i, j);
    ordered.push(...cluster.filter((g) => COMBINING_MARK.test(g.ch)), ...cluster.filter((g) => !COMBINING_MARK.test(g.ch)).sort((a, b) => a.left - b.left));
    i = j;
  }
  let text = '';
  let forward: string[] = [];
  for (const { ch } of ordered) {
    if (KEPT_FORWARD.test(ch)) {
      forward.push(ch);
      continue;
    }
    text += forward.reverse().join('') + (uba.getMirroredCharacter(ch) ?? ch);
    forward = [];
  }
  return text + forward.reverse().join('');
}

/** An item's direction for PDFium's line analysis: right-to-left letters, else other letters, else none (digits are weak there: they keep the direction before them). */
function strongOf(item: Item): Direction | null {
  if (item.dir === 'rtl' && RTL_CHAR.test(item.text)) return 'rtl';
  return LETTER.test(item.text) ? 'ltr' : null;
}

/**
 * A bracket that is a run of its own was mirrored by PDFium when PDFium read it in a right-to-left
 * stretch (glyphOrderText mirrors back those inside longer runs). Items come in PDFium's order, so
 * both show: the line is read right to left there (the item before it on its line lies to its
 * right, or the one after it to its left), and the last item before it on the line with letters
 * is right-to-left text (with none before it, the line holds right-to-left text). After a
 * left-to-right word PDFium keeps a bracket as drawn: "(january)" in an Arabic line comes as
 * ")" "january" "(" from right to left, only the first mirrored.
 */
export function loneBracketsInGlyphOrder(items: readonly Item[]): Item[] {
  const sameLine = (a: Item, o: Item | undefined): o is Item => o !== undefined && Math.abs(o.y - a.y) <= BASELINE_EM * a.size;
  return items.map((item, i) => {
    // Brackets are single UTF-16 units.
    if (item.text.length !== 1) return item;
    const mirrored = uba.getMirroredCharacter(item.text);
    if (!mirrored) return item;
    const before = items[i - 1];
    const after = items[i + 1];
    const leftward = (sameLine(item, before) && before.x > item.x) || (sameLine(item, after) && after.x < item.x);
    if (!leftward) return item;
    let context: Direction | null = null;
    for (let j = i - 1; j >= 0 && context === null && sameLine(item, items[j]); j--) context = strongOf(items[j]!);
    for (let j = i + 1; context === null && sameLine(item, items[j]); j++) if (strongOf(items[j]!) === 'rtl') context = 'rtl';
    return context === 'rtl' ? { ...item, text: mirrored } : item;
  });
}

/** A run of right-to-left combining marks only (harakat, Hebrew points). */
const RTL_MARKS_ONLY = /^[\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff]+$/u;

/**
 * A mark drawn as a glyph of its own has its own origin, which some generators raise or lower to
 * place the mark (XeTeX's tanween sits about 0.25 em above the line): PDFium reports that origin,
 * while pdf.js gives the baseline of the text the mark was drawn with. A run of right-to-left marks
 * only is put on the baseline of the letters it is drawn over (the nearest run within half an em
 * above or below that it overlaps), so that it stays on their line and `lines` can put it after
 * its letter.
 */
export function rightToLeftMarksOnTheirLine(items: readonly Item[]): Item[] {
  return items.map((mark) => {
    if (!RTL_MARKS_ONLY.test(mark.text)) return mark;
    let host: Item | undefined;
    for (const o of items) {
      if (o === mark || RTL_MARKS_ONLY.test(o.text) || o.x > mark.x + mark.w || o.x + o.w < mark.x) continue;
      const dy = Math.abs(o.y - mark.y);
      if (dy <= 0.5 * Math.max(o.size, mark.size) && (!host || dy < Math.abs(host.y - mark.y))) host = o;
    }
    return host && host.y !== mark.y ? { ...mark, y: host.y } : mark;
  });
}

/** A run's direction: right to left when its right-to-left characters are at least as many as its other letters. */
function directionOf(text: string): { dir: Direction; letters: number } {
  let rtl = 0;
  let letters = 0;
  for (const ch of text) {
    if (RTL_CHAR.test(ch)) rtl += 1;
    else if (LETTER.test(ch)) letters += 1;
  }
  return { dir: rtl > 0 && rtl >= letters ? 'rtl' : 'ltr', letters };
}

/** Turns a run of glyphs into an item; whitespace-only runs give null (as in the pdf.js adapter). */
export function runToItem(glyphs: readonly Glyph[], normalize: boolean): Item | null {
  let text = glyphs.map((g) => g.ch).join('');
  if (normalize) text = text.replace(NORMALIZED, (c) => (/\s/u.test(c) ? ' ' : c.normalize('NFKC')));
  if (text.trim() === '') return null;
  const first = glyphs[0]!;
  const { dir, letters } = directionOf(text);
  // Runs without left-to-right letters ("(," beside Hebrew) may have been reversed by PDFium too.
  if ((dir === 'rtl' || letters === 0) && glyphs.length > 1) {
    text = glyphOrderText(glyphs);
    if (normalize) text = text.replace(NORMALIZED, (c) => (/\s/u.test(c) ? ' ' : c.normalize('NFKC')));
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
  return { text, x: round(x), y: round(first.oy), w: round(w), size: round(first.size), font: first.font, dir };
}

function classifyLoadError(code: number): EngineError {
  switch (code) {
    case 4:
      return new EngineError('password-required', 'The PDF is encrypted with a user password');
    case 5:
      return new EngineError('corrupt', 'The PDF uses an unsupported security handler');
    case 2:
      return new EngineError('unreadable', 'PDFium could not read the file');
    case 3:
      return new EngineError('corrupt', 'The PDF structure is invalid: PDFium found no readable cross-reference or trailer');
    default:
      return new EngineError('corrupt', `The PDF could not be read (PDFium error ${code})`);
  }
}

/** Errors thrown inside the WebAssembly module (abort, out of bounds, OOM) leave it unusable. */
function classifyThrown(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  recycle();
  if (/OOM|out of memory|Cannot enlarge memory|memory access out of bounds.*alloc/i.test(message)) {
    return new EngineError('out-of-memory', `PDFium ran out of memory: ${message}`);
  }
  return new EngineError('corrupt', `PDFium failed on this PDF: ${message}`);
}

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate', 'Trapped'];

function readInfo(m: PdfiumModule, doc: number, scratch: Scratch): Record<string, string> {
  const info: Record<string, string> = {};
  const version = scratch.get(8);
  if (m.FPDF_GetFileVersion(doc, version)) {
    const v = m.pdfium.getValue(version, 'i32');
    info.PDFFormatVersion = `${Math.floor(v / 10)}.${v % 10}`;
  }
  const lang = readUtf16(m, scratch, (buf, len) => m.FPDFCatalog_GetLanguage(doc, buf, len));
  if (lang) info.Language = lang;
  const keys = [...INFO_KEYS];
  try {
    const custom = m.EPDF_GetMetaKeyCount(doc, true);
    for (let i = 0; i < Math.min(custom, 64); i++) {
      const name = readBytes(m, scratch, (buf, len) => m.EPDF_GetMetaKeyName(doc, i, true, buf, len));
      if (name && !keys.includes(name)) keys.push(name);
    }
  } catch {
    // Custom keys are a bonus; the standard ones are read below either way.
  }
  for (const key of keys) {
    const value = readUtf16(m, scratch, (buf, len) => m.FPDF_GetMetaText(doc, key, buf, len));
    if (value) info[key] = value;
  }
  return info;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

/** Reads a NUL-terminated byte string (UTF-8, else Latin-1: font names are not always UTF-8). */
function readBytes(m: PdfiumModule, scratch: Scratch, call: (buf: number, len: number) => number): string {
  const needed = call(0, 0);
  if (needed <= 1 || needed > 1 << 16) return '';
  const ptr = scratch.get(needed);
  call(ptr, needed);
  const bytes = heaps(m).HEAPU8.slice(ptr, ptr + needed - 1);
  const end = bytes.indexOf(0);
  const text = end === -1 ? bytes : bytes.subarray(0, end);
  try {
    return UTF8.decode(text);
  } catch {
    return LATIN1.decode(text);
  }
}

const MAX_OUTLINE_ENTRIES = 10_000;
const PDFACTION_GOTO = 1;

function readOutline(m: PdfiumModule, doc: number, scratch: Scratch): OutlineEntry[] {
  const seen = new Set<number>();
  const convert = (first: number, depth: number): OutlineEntry[] => {
    const out: OutlineEntry[] = [];
    // Outlines can loop or nest absurdly deep in hostile files.
    if (depth > 32) return out;
    for (let bm = first; bm && !seen.has(bm) && seen.size < MAX_OUTLINE_ENTRIES; bm = m.FPDFBookmark_GetNextSibling(doc, bm)) {
      seen.add(bm);
      const title = readUtf16(m, scratch, (buf, len) => m.FPDFBookmark_GetTitle(bm, buf, len));
      // PDFium falls back to the action's destination whatever the action; only a GoTo points into
      // this document (a GoToR's destination is a page of another file).
      const action = m.FPDFBookmark_GetAction(bm);
      const dest = action && m.FPDFAction_GetType(action) !== PDFACTION_GOTO ? 0 : m.FPDFBookmark_GetDest(doc, bm);
      const index = dest ? m.FPDFDest_GetDestPageIndex(doc, dest) : -1;
      out.push({ title, page: index >= 0 ? index + 1 : null, children: convert(m.FPDFBookmark_GetFirstChild(doc, bm), depth + 1) });
    }
    return out;
  };
  return convert(m.FPDFBookmark_GetFirstChild(doc, 0), 0);
}

/** The page's visible box as pdf.js computes it: crop box ∩ media box, or the media box. */
function pageView(m: PdfiumModule, page: number, scratch: Scratch): [number, number, number, number] {
  const p = scratch.get(16);
  const read = (): [number, number, number, number] => {
    const f = heaps(m).HEAPF32;
    const [l, b, r, t] = [f[p >> 2] ?? 0, f[(p >> 2) + 1] ?? 0, f[(p >> 2) + 2] ?? 0, f[(p >> 2) + 3] ?? 0];
    return [Math.min(l, r), Math.min(b, t), Math.max(l, r), Math.max(b, t)];
  };
  let media: [number, number, number, number] = [0, 0, 612, 792];
  if (m.FPDFPage_GetMediaBox(page, p, p + 4, p + 8, p + 12)) media = read();
  if (media[2] - media[0] <= 0 || media[3] - media[1] <= 0) media = [0, 0, 612, 792];
  if (!m.FPDFPage_GetCropBox(page, p, p + 4, p + 8, p + 12)) return media;
  const crop = read();
  const view: [number, number, number, number] = [
    Math.max(crop[0], media[0]),
    Math.max(crop[1], media[1]),
    Math.min(crop[2], media[2]),
    Math.min(crop[3], media[3]),
  ];
  return view[2] > view[0] && view[3] > view[1] ? view : media;
}

interface PageText {
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

/** A PDF text string's bytes: UTF-16BE after its byte-order mark, UTF-8 after its own, else PDFDocEncoding (Latin-1 for text). */
export function pdfTextString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  return LATIN1.decode(bytes);
}

/**
 * The scripts whose ActualText spans are read here: Indic scripts and Thai, shaped so that a
 * cluster's glyphs do not map to its characters one to one. PDFium gives such a span's text to
 * the glyphs of its first text object only, over their extent, and repeats it for each further
 * object. Other spans (a soft hyphen at a line break, an Arabic ligature) PDFium reads right.
 */
const SHAPED_SCRIPT = /[\u0900-\u0DFF\u0E00-\u0E7F]/u;

/**
 * The outermost marked-content span with /ActualText around a text object: the mark (the same
 * handle for every object inside one span) and its text. Generators use ActualText where glyphs do
 * not map to characters one to one: Chromium shapes Devanagari so that a vowel sign drawn before
 * its consonant has no Unicode of its own, and the span carries the true text.
 */
function actualTextSpan(m: PdfiumModule, object: number, scratch: Scratch, known: Map<number, string | null>): { mark: number; text: string } | null {
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
 * on different baselines keeps its glyphs (one position cannot stand for two lines).
 */
export function spanItem(actualText: string, glyphs: readonly Glyph[], normalize: boolean, spanLeft = Infinity, spanRight = -Infinity): Item[] {
  const first = glyphs[0];
  if (!first) return [];
  if (!first.horizontal || glyphs.some((g) => Math.abs(g.oy - first.oy) > 0.5 * first.size)) {
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
  return [{ text, x: round(left), y: round(first.oy), w: round(right - left), size: round(first.size), font: first.font, dir: directionOf(text).dir }];
}

function readPageText(module: PdfiumModule, page: number, transform: number[], scratch: Scratch, normalize: boolean): PageText {
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
        if (!continues(run, only)) flush();
        run.glyphs.push(only);
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
        for (const g of held) {
          if (!continues(run, g)) flush();
          run.glyphs.push(g);
        }
      }
      recent.push({ text, left, right, oy, seq: groupCount });
      if (recent.length > 4) recent.shift();
    };
    const flush = (): void => {
      commit();
      if (run.glyphs.length > 0) {
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
        ch: code === 0xad || noText ? '' : String.fromCodePoint(code),
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

const PAGEOBJ_TEXT = 1;
const ANNOT_FREETEXT = 3;
const ANNOT_WIDGET = 20;
const ANNOT_FLAG_HIDDEN = 2;
const ANNOT_FLAG_NOVIEW = 0x20;
const FIELD_COMBOBOX = 4;
const FIELD_LISTBOX = 5;
const FIELD_TEXT = 6;
/** The most annotations read on one page (a hostile file may hold millions). */
const MAX_ANNOTATIONS = 10_000;

/**
 * Text shown by a page's annotations, as the pdf.js engine reads it (the same `annotationItems`):
 * free-text notes (their /Contents) and filled-in text and choice fields (their value, through
 * PDFium's form environment, which knows a field's inherited type and value). `form` is 0 when
 * the document has no form environment: widgets are then skipped.
 */
function readAnnotations(m: PdfiumModule, page: number, form: number, transform: number[], scratch: Scratch): Item[] {
  const [ta = 1, tb = 0, tc = 0, td = -1, te = 0, tf = 0] = transform;
  const toPage = ([x0 = 0, y0 = 0, x1 = 0, y1 = 0]: number[]): number[] => [ta * x0 + tc * y0 + te, tb * x0 + td * y0 + tf, ta * x1 + tc * y1 + te, tb * x1 + td * y1 + tf];
  const found: Parameters<typeof annotationItems>[0][number][] = [];
  const count = Math.min(m.FPDFPage_GetAnnotCount(page), MAX_ANNOTATIONS);
  for (let i = 0; i < count; i++) {
    const annot = m.FPDFPage_GetAnnot(page, i);
    if (!annot) continue;
    try {
      const subtype = m.FPDFAnnot_GetSubtype(annot);
      if (subtype !== ANNOT_FREETEXT && (subtype !== ANNOT_WIDGET || !form)) continue;
      const flags = m.FPDFAnnot_GetFlags(annot);
      const box = scratch.get(16);
      if (!m.FPDFAnnot_GetRect(annot, box)) continue;
      const f = heaps(m).HEAPF32;
      // FS_RECTF: left, top, right, bottom in page space.
      const rect = [f[box >> 2] ?? 0, f[(box >> 2) + 3] ?? 0, f[(box >> 2) + 2] ?? 0, f[(box >> 2) + 1] ?? 0];
      const hidden = (flags & ANNOT_FLAG_HIDDEN) !== 0;
      const noView = (flags & ANNOT_FLAG_NOVIEW) !== 0;
      if (subtype === ANNOT_FREETEXT) {
        const contents = readUtf16(m, scratch, (buf, len) => m.FPDFAnnot_GetStringValue(annot, 'Contents', buf, len));
        found.push({ subtype: 'FreeText', textContent: contents.split(/\r\n|\r|\n/u), rect, hidden, noView });
        continue;
      }
      const type = m.FPDFAnnot_GetFormFieldType(form, annot);
      if (type !== FIELD_TEXT && type !== FIELD_COMBOBOX && type !== FIELD_LISTBOX) continue;
      const value = readUtf16(m, scratch, (buf, len) => m.FPDFAnnot_GetFormFieldValue(form, annot, buf, len));
      found.push({ subtype: 'Widget', fieldType: type === FIELD_TEXT ? 'Tx' : 'Ch', fieldValue: value, rect, hidden, noView });
    } finally {
      m.FPDFPage_CloseAnnot(annot);
    }
  }
  return annotationItems(found, toPage);
}

/** A form environment for reading field values (no callbacks: nothing is drawn or run), or 0. */
function openForm(m: PdfiumModule, doc: number): { form: number; info: number } {
  // FPDF_FORMFILLINFO, version 1, every callback null.
  const info = m.pdfium.wasmExports.malloc(512);
  if (!info) return { form: 0, info: 0 };
  heaps(m).HEAPU8.fill(0, info, info + 512);
  // version = 1, a little-endian int at the start.
  heaps(m).HEAPU8[info] = 1;
  const form = m.FPDFDOC_InitFormFillEnvironment(doc, info);
  return { form, info };
}

/**
 * Yields the `doc` record, then one `page` record per page (each followed by a diagnostic when
 * characters on it had no Unicode mapping). Throws EngineError on failure.
 */
export async function* extractRecords(
  bytes: Uint8Array,
  id: string,
  source: string,
  options: PdfiumOptions,
): AsyncGenerator<DocRecord | PageRecord | DiagnosticRecord> {
  if (bytes.byteLength === 0) throw new EngineError('not-a-pdf', 'The file is empty');
  if (!looksLikePdf(bytes)) throw new EngineError('not-a-pdf', 'No %PDF- header in the first 1024 bytes: this is not a PDF');
  const m = await loadModule();
  const limit = options.memory * 1024 * 1024;
  const scratch = new Scratch(m);
  let data = 0;
  let doc = 0;
  let form = 0;
  let formInfo = 0;
  try {
    data = m.pdfium.wasmExports.malloc(bytes.byteLength);
    if (!data) throw new EngineError('out-of-memory', 'The PDFium heap cannot hold this file');
    heaps(m).HEAPU8.set(bytes, data);
    doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, '');
    if (!doc) throw classifyLoadError(m.FPDF_GetLastError());
    const pages = m.FPDF_GetPageCount(doc);
    const info = readInfo(m, doc, scratch);
    const meta: DocMeta = {
      pages,
      info,
      lang: info.Language ?? null,
      outline: readOutline(m, doc, scratch),
      encrypted: m.FPDF_GetSecurityHandlerRevision(doc) !== -1,
      engine: `${engineVersion} glyph-order`,
      xmp: xmpFromPdfBytes(bytes),
      normalization: options.normalize ? 'nfkc-ligatures-presentation-forms' : 'none',
    };
    yield { type: 'doc', id, source, schema: SCHEMA_VERSION, meta };
    ({ form, info: formInfo } = openForm(m, doc));
    for (let n = 1; n <= pages; n++) {
      const page = m.FPDF_LoadPage(doc, n - 1);
      if (!page) throw new EngineError('corrupt', `PDFium could not load page ${n}`);
      let record: PageRecord;
      let unmapped = 0;
      try {
        const view = pageView(m, page, scratch);
        const { transform, width, height } = viewportTransform(view, m.FPDFPage_GetRotation(page) * 90);
        const text = readPageText(m, page, transform, scratch, options.normalize);
        unmapped = text.unmapped;
        const items = text.items;
        for (const item of readAnnotations(m, page, form, transform, scratch)) items.push(item);
        record = { type: 'page', doc: id, page: n, width: round(width), height: round(height), items };
      } finally {
        m.FPDF_ClosePage(page);
      }
      if (heapBytes(m) > limit) {
        throw new EngineError('out-of-memory', `The document grew PDFium's heap past the ${options.memory} MiB limit`);
      }
      yield record;
      if (unmapped > 0) {
        yield diagnostic(id, 'parse', 'unicode-map-error', `${unmapped} characters on this page come from a font whose Unicode map is missing or broken; their text may be wrong`, {
          place: { page: n },
          count: unmapped,
        });
      }
    }
  } catch (error) {
    throw classifyThrown(error);
  } finally {
    try {
      if (form) m.FPDFDOC_ExitFormFillEnvironment(form);
      if (formInfo) m.pdfium.wasmExports.free(formInfo);
      if (doc) m.FPDF_CloseDocument(doc);
      if (data) m.pdfium.wasmExports.free(data);
      scratch.free();
    } catch {
      recycle();
    }
    if (heapBytes(m) > RECYCLE_HEAP_BYTES) recycle();
  }
}
