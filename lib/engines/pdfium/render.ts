/**
 * Pages as pictures from PDFium: the page drawn (as displayed: crop box, /Rotate applied,
 * annotations' appearances) into a bitmap, as RGBA for `inspect`, or grey for OCR (a binary PNM,
 * P5, which Tesseract reads from its stdin); and how much of a page its drawing inks and images
 * cover, which OCR asks.
 */
import type { Raster } from '../../formats/inspect-png.js';
import { INK_DPI, INK_MAX_PIXELS, inkShare } from '../../ocr/ink.js';
import { EngineError } from '../errors.js';
import { heaps, loadModule, PAGE_OBJECT, type PdfiumModule, type Scratch } from './module.js';

/** Render annotations' appearances too: a stamp or a scanned signature is part of the page. */
const RENDER_ANNOTATIONS = 0x01;
/** FPDF_REVERSE_BYTE_ORDER: bytes in red, green, blue order rather than PDFium's blue first. */
const FPDF_REVERSE_BYTE_ORDER = 0x10;
/** Page objects looked at for coverage at most (inside form XObjects too): a page of a million paths stops there. */
const MAX_OBJECTS = 5000;
/** The most pixels a page is rendered with: a poster at 300 dpi is rendered at a lower resolution instead. */
export const MAX_OCR_PIXELS = 40_000_000;

/**
 * The share of the page box `view` (left, bottom, right, top) covered by images, drawn directly or
 * inside form XObjects: their bounding boxes clipped to the page, summed, at most 1.
 */
export function imageCoverage(m: PdfiumModule, page: number, view: readonly [number, number, number, number], scratch: Scratch): number {
  const [x0, y0, x1, y1] = view;
  const area = (x1 - x0) * (y1 - y0);
  if (!(area > 0)) return 0;
  let covered = 0;
  let seen = 0;
  const visit = (obj: number): void => {
    if (++seen > MAX_OBJECTS) return;
    const type = m.FPDFPageObj_GetType(obj);
    if (type === PAGE_OBJECT.form) {
      const n = m.FPDFFormObj_CountObjects(obj);
      for (let i = 0; i < n && seen <= MAX_OBJECTS; i++) visit(m.FPDFFormObj_GetObject(obj, i));
      return;
    }
    if (type !== PAGE_OBJECT.image) return;
    const p = scratch.get(16);
    if (!m.FPDFPageObj_GetBounds(obj, p, p + 4, p + 8, p + 12)) return;
    const f = heaps(m).HEAPF32;
    const [l, b, r, t] = [f[p >> 2] ?? 0, f[(p >> 2) + 1] ?? 0, f[(p >> 2) + 2] ?? 0, f[(p >> 2) + 3] ?? 0];
    const w = Math.min(r, x1) - Math.max(l, x0);
    const h = Math.min(t, y1) - Math.max(b, y0);
    if (w > 0 && h > 0) covered += w * h;
  };
  const count = m.FPDFPage_CountObjects(page);
  for (let i = 0; i < count && seen <= MAX_OBJECTS; i++) visit(m.FPDFPage_GetObject(page, i));
  return Math.min(1, covered / area);
}

/** The resolution a page of `width` × `height` points is rendered at: `dpi`, lowered to keep within `maxPixels`. */
export function renderDpi(width: number, height: number, dpi: number, maxPixels = MAX_OCR_PIXELS): number {
  const pixels = (width * dpi / 72) * (height * dpi / 72);
  return pixels > maxPixels ? dpi * Math.sqrt(maxPixels / pixels) : dpi;
}

/**
 * The share of the page (`width` × `height` points, as displayed) that its content inks
 * (lib/ocr/ink.ts), rendered at INK_DPI. Annotations are left out: the text layer is the page's,
 * and an annotation's words are read from the annotation (readAnnotations).
 */
export function inkCoverage(m: PdfiumModule, page: number, width: number, height: number): number {
  const dpi = renderDpi(width, height, INK_DPI, INK_MAX_PIXELS);
  const pw = Math.max(1, Math.round(width * dpi / 72));
  const ph = Math.max(1, Math.round(height * dpi / 72));
  return inkShare(drawPage(m, page, pw, ph, 0, (heap, buffer, stride) => luminance(heap, buffer, stride, pw, ph, new Uint8Array(pw * ph), 0)));
}

/**
 * The loaded page drawn onto white into a `width` × `height` pixel bitmap (the page scaled to fill
 * it; `flags` RENDER_ANNOTATIONS to draw annotations' appearances too), its bytes (red, green, blue, unused per pixel; `stride` bytes a row) handed to `read`
 * before the bitmap is freed.
 */
function drawPage<T>(m: PdfiumModule, page: number, width: number, height: number, flags: number, read: (heap: Uint8Array, buffer: number, stride: number) => T): T {
  const bitmap = m.FPDFBitmap_Create(width, height, 0);
  if (!bitmap) throw new EngineError('out-of-memory', `The PDFium heap cannot hold a ${width}×${height} page image`);
  try {
    m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, flags | FPDF_REVERSE_BYTE_ORDER);
    return read(heaps(m).HEAPU8, m.FPDFBitmap_GetBuffer(bitmap), m.FPDFBitmap_GetStride(bitmap));
  } finally {
    m.FPDFBitmap_Destroy(bitmap);
  }
}

/**
 * The page rendered at `dpi` onto white, as a P5 PNM of its luminance. `width` and `height` are
 * the displayed page's size in points, so pixel (x, y) is page point (x, y) × 72 / dpi.
 */
export function renderPage(m: PdfiumModule, page: number, width: number, height: number, dpi: number): Uint8Array {
  const pw = Math.max(1, Math.round(width * dpi / 72));
  const ph = Math.max(1, Math.round(height * dpi / 72));
  return drawPage(m, page, pw, ph, RENDER_ANNOTATIONS, (heap, buffer, stride) => {
    const header = new TextEncoder().encode(`P5\n${pw} ${ph}\n255\n`);
    const out = new Uint8Array(header.length + pw * ph);
    out.set(header);
    return luminance(heap, buffer, stride, pw, ph, out, header.length);
  });
}

/** Writes the luminance of a drawn bitmap's `width` × `height` pixels into `out` from `offset`, and returns `out`. */
function luminance(heap: Uint8Array, buffer: number, stride: number, width: number, height: number, out: Uint8Array, offset: number): Uint8Array {
  let o = offset;
  for (let y = 0; y < height; y++) {
    // RGB → luminance (Rec. 601 weights in integers).
    for (let x = 0, i = buffer + y * stride; x < width; x++, i += 4) out[o++] = (heap[i]! * 77 + heap[i + 1]! * 150 + heap[i + 2]! * 29) >> 8;
  }
  return out;
}

/** The loaded page as an RGBA raster of `width` × `height` pixels, opaque. */
function rasterOf(m: PdfiumModule, page: number, width: number, height: number): Raster {
  return drawPage(m, page, width, height, RENDER_ANNOTATIONS, (heap, buffer, stride) => {
    const pixels = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) pixels.set(heap.subarray(buffer + y * stride, buffer + y * stride + width * 4), y * width * 4);
    for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
    return { width, height, data: pixels };
  });
}

/** Renders pages `numbers` (1-based) of the PDF at `scale` pixels per point; a page missing from the file is skipped. */
export async function renderPages(bytes: Uint8Array, numbers: readonly number[], scale: number): Promise<Map<number, Raster>> {
  const m = await loadModule();
  const rasters = new Map<number, Raster>();
  const data = m.pdfium.wasmExports.malloc(bytes.byteLength);
  if (!data) throw new EngineError('out-of-memory', 'The PDFium heap cannot hold this file');
  heaps(m).HEAPU8.set(bytes, data);
  const doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, '');
  try {
    if (!doc) throw new EngineError('corrupt', `PDFium could not open the file (error ${m.FPDF_GetLastError()})`);
    const count = m.FPDF_GetPageCount(doc);
    for (const n of numbers) {
      if (n < 1 || n > count) continue;
      const page = m.FPDF_LoadPage(doc, n - 1);
      if (!page) throw new EngineError('corrupt', `PDFium could not load page ${n}`);
      try {
        const width = Math.max(1, Math.round(m.FPDF_GetPageWidthF(page) * scale));
        const height = Math.max(1, Math.round(m.FPDF_GetPageHeightF(page) * scale));
        rasters.set(n, rasterOf(m, page, width, height));
      } finally {
        m.FPDF_ClosePage(page);
      }
    }
  } finally {
    if (doc) m.FPDF_CloseDocument(doc);
    m.pdfium.wasmExports.free(data);
  }
  return rasters;
}
