/**
 * The floor under `--engine pdfium`: PDFium loading each page and analysing its text (the two
 * calls every reading of a page needs), and nothing of pdfpipe's. bench:speed runs it beside
 * pdftotext, so the best speed ratio PDFium's parse could ever reach is measured, not guessed.
 *
 *     node dist/bench/pdfium-floor.js FILE.pdf...
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { init } = await import('@embedpdf/pdfium');
const wasm = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
const m = await init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
m.PDFiumExt_Init();
let pages = 0;
for (const file of process.argv.slice(2)) {
  const bytes = readFileSync(file);
  const data = m.pdfium.wasmExports.malloc(bytes.byteLength);
  (m.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8.set(bytes, data);
  const doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, '');
  for (let i = 0; doc && i < m.FPDF_GetPageCount(doc); i++) {
    const page = m.FPDF_LoadPage(doc, i);
    if (!page) continue;
    const text = m.FPDFText_LoadPage(page);
    if (text) {
      m.FPDFText_CountChars(text);
      m.FPDFText_ClosePage(text);
    }
    m.FPDF_ClosePage(page);
    pages += 1;
  }
  if (doc) m.FPDF_CloseDocument(doc);
  m.pdfium.wasmExports.free(data);
}
process.stderr.write(`pdfium-floor: ${pages} pages\n`);
