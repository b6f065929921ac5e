/**
 * Text in a page's annotations under PDFium: free-text notes and filled-in text and choice fields,
 * read through a form environment and turned into items by the pdf.js engine's `annotationItems`.
 */
import type { Item } from '../../protocol/records.js';
import { annotationItems } from '../pdfjs.js';
import { heaps, type PdfiumModule, type Scratch } from './module.js';
import { readUtf16 } from './strings.js';

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
export function readAnnotations(m: PdfiumModule, page: number, form: number, transform: number[], scratch: Scratch): Item[] {
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
export function openForm(m: PdfiumModule, doc: number): { form: number; info: number } {
  // FPDF_FORMFILLINFO, version 1, every callback null.
  const info = m.pdfium.wasmExports.malloc(512);
  if (!info) return { form: 0, info: 0 };
  heaps(m).HEAPU8.fill(0, info, info + 512);
  // version = 1, a little-endian int at the start.
  heaps(m).HEAPU8[info] = 1;
  const form = m.FPDFDOC_InitFormFillEnvironment(doc, info);
  return { form, info };
}
