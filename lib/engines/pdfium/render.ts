/**
 * Pages as pictures: PDFium draws a page (as displayed: crop box, /Rotate applied, annotations'
 * appearances) into a bitmap of `scale` pixels per point, read back as an RGBA raster.
 */
import type { Raster } from '../../formats/inspect-png.js';
import { EngineError } from '../errors.js';
import { heaps, loadModule } from './module.js';

/** FPDF_ANNOT: draw annotations' appearances, as a viewer shows the page. */
const FPDF_ANNOT = 0x01;
/** FPDF_REVERSE_BYTE_ORDER: bytes in red, green, blue order rather than PDFium's blue first. */
const FPDF_REVERSE_BYTE_ORDER = 0x10;

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
        const bitmap = m.FPDFBitmap_Create(width, height, 0);
        if (!bitmap) throw new EngineError('out-of-memory', `PDFium could not make a ${width}×${height} bitmap`);
        try {
          m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
          m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
          const stride = m.FPDFBitmap_GetStride(bitmap);
          const buffer = m.FPDFBitmap_GetBuffer(bitmap);
          const heap = heaps(m).HEAPU8;
          const pixels = new Uint8Array(width * height * 4);
          for (let y = 0; y < height; y++) pixels.set(heap.subarray(buffer + y * stride, buffer + y * stride + width * 4), y * width * 4);
          for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
          rasters.set(n, { width, height, data: pixels });
        } finally {
          m.FPDFBitmap_Destroy(bitmap);
        }
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
