/**
 * A tagged page's structure under PDFium: the tag of each MCID from the page's structure tree, and
 * the tag of a text object from its marked content (lib/engines/structure.ts chooses the tags).
 */
import { tagBelow } from '../structure.js';
import type { PdfiumModule, Scratch } from './module.js';
import { readUtf16 } from './strings.js';

/** MCIDs of the page's content → tag, from PDFium's structure tree of the page (types after /RoleMap). */
export function pageTags(m: PdfiumModule, page: number, scratch: Scratch): Map<number, string> {
  const tags = new Map<number, string>();
  const tree = m.FPDF_StructTree_GetForPage(page);
  if (!tree) return tags;
  const walk = (element: number, above: string | undefined, depth: number): void => {
    // Trees can nest absurdly deep in hostile files.
    if (depth > 64) return;
    const type = readUtf16(m, scratch, (p, len) => m.FPDF_StructElement_GetType(element, p, len));
    const tag = type ? tagBelow(above, type) : above;
    if (tag !== undefined) {
      const ids = m.FPDF_StructElement_GetMarkedContentIdCount(element);
      for (let k = 0; k < ids; k++) {
        const mcid = m.FPDF_StructElement_GetMarkedContentIdAtIndex(element, k);
        if (mcid >= 0) tags.set(mcid, tag);
      }
    }
    const children = m.FPDF_StructElement_CountChildren(element);
    for (let k = 0; k < children; k++) {
      const child = m.FPDF_StructElement_GetChildAtIndex(element, k);
      if (child) walk(child, tag, depth + 1);
    }
  };
  try {
    const count = m.FPDF_StructTree_CountChildren(tree);
    for (let k = 0; k < count; k++) {
      const element = m.FPDF_StructTree_GetChildAtIndex(tree, k);
      if (element) walk(element, undefined, 0);
    }
  } finally {
    m.FPDF_StructTree_Close(tree);
  }
  return tags;
}

/** The tag of a text object: `Artifact` inside an /Artifact sequence, else its MCID's tag from `tags`. */
export function objectTag(m: PdfiumModule, object: number, tags: ReadonlyMap<number, string>, scratch: Scratch): string | undefined {
  const marks = m.FPDFPageObj_CountMarks(object);
  for (let k = 0; k < marks; k++) {
    const mark = m.FPDFPageObj_GetMark(object, k);
    if (mark && markName(m, mark, scratch) === 'Artifact') return 'Artifact';
  }
  const mcid = m.FPDFPageObj_GetMarkedContentID(object);
  return mcid >= 0 ? tags.get(mcid) : undefined;
}

/** A content mark's name (UTF-16LE through PDFium's length-then-fill convention). */
function markName(m: PdfiumModule, mark: number, scratch: Scratch): string {
  const out = scratch.get(8);
  if (!m.FPDFPageObjMark_GetName(mark, 0, 0, out)) return '';
  const needed = m.pdfium.getValue(out, 'i32') as number;
  if (needed <= 2 || needed > 1 << 12) return '';
  const buf = scratch.get(needed + 8);
  if (!m.FPDFPageObjMark_GetName(mark, buf + 8, needed, buf)) return '';
  return m.pdfium.UTF16ToString(buf + 8);
}

/** Whether the catalog says the document is tagged (/MarkInfo << /Marked true >>). */
export function isTagged(m: PdfiumModule, doc: number): boolean {
  return Boolean(m.FPDFCatalog_IsTagged(doc));
}

