/**
 * What OCR needs of a page from PDFium: how much of it images cover, and the page rendered as a
 * grey image (a binary PNM, P5, which Tesseract reads from its stdin).
 */
import { EngineError } from '../errors.js';
import { heaps, type PdfiumModule, type Scratch } from './module.js';

const PAGEOBJ_IMAGE = 3;
const PAGEOBJ_FORM = 5;
/** Render annotations' appearances too: a stamp or a scanned signature is part of the page. */
const RENDER_ANNOTATIONS = 0x01;
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
    if (type === PAGEOBJ_FORM) {
      const n = m.FPDFFormObj_CountObjects(obj);
      for (let i = 0; i < n && seen <= MAX_OBJECTS; i++) visit(m.FPDFFormObj_GetObject(obj, i));
      return;
    }
    if (type !== PAGEOBJ_IMAGE) return;
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

/** The resolution a page of `width` × `height` points is rendered at: `dpi`, lowered to keep within MAX_OCR_PIXELS. */
export function renderDpi(width: number, height: number, dpi: number): number {
  const pixels = (width * dpi / 72) * (height * dpi / 72);
  return pixels > MAX_OCR_PIXELS ? dpi * Math.sqrt(MAX_OCR_PIXELS / pixels) : dpi;
}

/**
 * The page rendered at `dpi` onto white, as a P5 PNM of its luminance. `width` and `height` are
 * the displayed page's size in points, so pixel (x, y) is page point (x, y) × 72 / dpi.
 */
export function renderPage(m: PdfiumModule, page: number, width: number, height: number, dpi: number): Uint8Array {
  const pw = Math.max(1, Math.round(width * dpi / 72));
  const ph = Math.max(1, Math.round(height * dpi / 72));
  const bitmap = m.FPDFBitmap_Create(pw, ph, 0);
  if (!bitmap) throw new EngineError('out-of-memory', `The PDFium heap cannot hold a ${pw}×${ph} page image`);
  try {
    m.FPDFBitmap_FillRect(bitmap, 0, 0, pw, ph, 0xffffffff);
    m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, pw, ph, 0, RENDER_ANNOTATIONS);
    const buffer = m.FPDFBitmap_GetBuffer(bitmap);
    const stride = m.FPDFBitmap_GetStride(bitmap);
    const header = new TextEncoder().encode(`P5\n${pw} ${ph}\n255\n`);
    const out = new Uint8Array(header.length + pw * ph);
    out.set(header);
    const heap = heaps(m).HEAPU8;
    let o = header.length;
    for (let y = 0; y < ph; y++) {
      let i = buffer + y * stride;
      for (let x = 0; x < pw; x++, i += 4) {
        // BGRx → luminance (Rec. 601 weights in integers).
        out[o++] = (heap[i]! * 29 + heap[i + 1]! * 150 + heap[i + 2]! * 77) >> 8;
      }
    }
    return out;
  } finally {
    m.FPDFBitmap_Destroy(bitmap);
  }
}
